"""Match jobs (`storage.jobs`): held with a change's write, renewed by their worker, claimed
by another once the lease lapsed (never by two), let go of at a stop, gone with the match;
on SQLite and PostgreSQL. Time moves on both (`_later`): SQLite's leases are the store's
injected clock, PostgreSQL's the server's, moved by `MatchJobs.shift`; on PostgreSQL the
processes' own clocks do not count."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from storage import ConstraintViolation, MatchWrite, Store
from tests.postgres import fresh_database
from tests.storage.helpers import GROUP, OTHER_GROUP, Clock, full_lobby, seed
from tests.storage.test_matches import DEAL

LEASE = 6.0


def _later(store: Store, clock: Clock, seconds: float) -> None:
    """Time moves on by ``seconds`` for the leases: the store's clock (SQLite's leases) and
    the server's as the jobs read it (PostgreSQL's)."""
    clock.advance(seconds)
    store.jobs.shift += seconds


async def _running(store: Store, chat_id: int = GROUP) -> int:
    match = await store.matches.create_from_lobby(await full_lobby(store, chat_id))
    await store.matches.append_actions(match.match_id, 0, DEAL)
    return match.match_id


async def test_the_changer_holds_the_job_until_its_lease_lapses(store: Store, clock: Clock) -> None:
    jobs = store.jobs
    first = await _running(store)
    hold = jobs.hold(first, 6, "a", LEASE)
    await store.matches.commit(MatchWrite(first, 5, ("p2 pass",), extra=(hold,)))
    assert await jobs.holder(first) == "a"
    assert not await jobs.lapsed()
    assert await jobs.claim("b", LEASE, 10) == []
    _later(store, clock, 4)
    assert await jobs.renew("a", LEASE) == 1
    _later(store, clock, 4)
    assert not await jobs.lapsed()  # renewed 4 s ago: 2 s left
    _later(store, clock, 3)
    assert await jobs.lapsed()
    assert await jobs.claim("b", LEASE, 10) == [first]
    assert await jobs.holder(first) == "b"
    assert await jobs.claim("c", LEASE, 10) == []  # taken: not lapsed any more
    assert await jobs.renew("a", LEASE) == 0  # the dead worker renews nothing
    await store.matches.commit(MatchWrite(first, 6, ("p3 pass",), extra=(jobs.drop(first),)))
    assert await jobs.holder(first) is None


async def test_released_jobs_are_claimed_at_once_and_finished_matches_have_none(
    store: Store,
) -> None:
    jobs = store.jobs
    match_id = await _running(store)
    await store.matches.commit(
        MatchWrite(match_id, 5, ("p2 pass",), extra=(jobs.hold(match_id, 6, "a", LEASE),))
    )
    assert await jobs.release("b") == 0
    assert await jobs.release("a") == 1
    assert await jobs.lapsed()
    assert await jobs.claim("b", LEASE, 10) == [match_id]
    await jobs.lapse(match_id, "a")  # not a's any more: nothing changes
    assert not await jobs.lapsed()
    await jobs.lapse(match_id, "b")  # b could not set it going
    assert await jobs.claim("c", LEASE, 10) == [match_id]
    await store.matches.abandon(match_id)
    assert await jobs.holder(match_id) is None  # the match's end took its job
    late = jobs.hold(match_id, 6, "a", LEASE)
    with pytest.raises(ConstraintViolation, match="match_closed"):
        await store.db.execute_many(late.sql, late.rows)


async def test_a_claim_takes_the_longest_lapsed_first_up_to_its_limit(
    store: Store, clock: Clock
) -> None:
    jobs = store.jobs
    older, newer = await _running(store), await _running(store, OTHER_GROUP)
    for match_id in (older, newer):
        await store.matches.commit(
            MatchWrite(match_id, 5, ("p2 pass",), extra=(jobs.hold(match_id, 6, "a", LEASE),))
        )
        _later(store, clock, 1)
    _later(store, clock, LEASE)
    assert await jobs.claim("b", LEASE, 1) == [older]
    assert await jobs.claim("c", LEASE, 1) == [newer]
    assert (await jobs.holder(older), await jobs.holder(newer)) == ("b", "c")


async def test_postgresql_leases_are_the_servers_whatever_the_processes_clocks_say() -> None:
    """A process whose clock is an hour behind holds a job; one whose clock is an hour
    ahead sees the lease running, not lapsed, and cannot claim it."""
    behind, ahead = Clock(), Clock()
    now = datetime.now(UTC)
    behind.now, ahead.now = now - timedelta(hours=1), now + timedelta(hours=1)
    async with (
        fresh_database() as url,
        await Store.open(url, clock=behind) as first,
        await Store.open(url, clock=ahead) as second,
    ):
        await seed(first)
        match_id = await _running(first)
        hold = first.jobs.hold(match_id, 6, "a", LEASE)
        await first.matches.commit(MatchWrite(match_id, 5, ("p2 pass",), extra=(hold,)))
        assert not await second.jobs.lapsed()
        assert await second.jobs.claim("b", LEASE, 10) == []
        assert await second.jobs.holder(match_id) == "a"
