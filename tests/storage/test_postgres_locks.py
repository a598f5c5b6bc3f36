"""PostgreSQL without a database-wide write lock (issue 17, `storage.locks`): writers of
different matches, on one process or two, do not wait for each other; writers of one match,
of one chat's games, of one player's rating, and voters of one /kick take turns and lose
nothing; the locks are taken in one order."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Coroutine, Mapping, Sequence
from typing import Any

import pytest

from engine import Game
from storage import (
    ChatBusy,
    MatchWrite,
    NewSeat,
    PlayerRef,
    Rating,
    ResultWrite,
    Store,
    VersionConflict,
)
from storage.locks import chat_lock, match_lock
from tests.postgres import fresh_database
from tests.storage.helpers import GROUP, OTHER_GROUP, RULES_3, USERS, Clock, seed
from tests.storage.test_results import ALICE, BOB, BOT, CAROL, DAVE, result, start

WAIT = 0.5
"""Seconds a writer that should wait is given to show that it does."""


@pytest.fixture
async def stores() -> AsyncIterator[tuple[Store, Store]]:
    """Two stores on one fresh database: two bot processes."""
    async with fresh_database() as url:
        first = await Store.open(url, clock=Clock())
        second = await Store.open(url, clock=Clock())
        try:
            await seed(first)
            yield first, second
        finally:
            await second.close()
            await first.close()


async def holding(
    store: Store, step: Coroutine[Any, Any, object]
) -> tuple[asyncio.Task[None], asyncio.Event]:
    """A task that runs the awaitable ``step`` in a transaction of ``store`` and keeps it open
    (its locks held) until the returned event is set."""
    release, entered = asyncio.Event(), asyncio.Event()

    async def run() -> None:
        async with store.transaction():
            await step
            entered.set()
            await release.wait()

    task = asyncio.create_task(run())
    await asyncio.wait_for(entered.wait(), 5)
    return task, release


async def test_writers_of_different_matches_do_not_wait_for_each_other(
    stores: tuple[Store, Store],
) -> None:
    first, second = stores
    a = await start(first)
    b = await start(first, seats=(CAROL, DAVE, BOT), chat_id=OTHER_GROUP)
    task, release = await holding(first, first.matches.commit(MatchWrite(a, 2, ("# a",))))
    try:
        # Another process, then another task of the same one, while the first holds match a.
        assert await asyncio.wait_for(second.matches.commit(MatchWrite(b, 2, ("# b",))), 5) == 3
        assert await asyncio.wait_for(first.matches.commit(MatchWrite(b, 3, ("# b",))), 5) == 4
    finally:
        release.set()
        await task
    assert await first.matches.read_log(a) == ["# line 1", "# line 2", "# a"]


async def test_writers_of_one_match_take_turns_and_the_version_check_holds(
    stores: tuple[Store, Store],
) -> None:
    first, second = stores
    a = await start(first)
    task, release = await holding(first, first.matches.commit(MatchWrite(a, 2, ("p1 x",))))
    late = asyncio.create_task(second.matches.commit(MatchWrite(a, 2, ("p2 y",))))
    await asyncio.sleep(WAIT)
    assert not late.done()  # it waits for the match's lock, not for a unique key's conflict
    release.set()
    await task
    with pytest.raises(VersionConflict):
        await late
    assert await second.matches.read_log(a) == ["# line 1", "# line 2", "p1 x"]


def _rate(players: Sequence[PlayerRef]) -> Callable[[Mapping[PlayerRef, Rating]], Sequence[Rating]]:
    def rate(current: Mapping[PlayerRef, Rating]) -> tuple[Rating, ...]:
        return tuple(
            Rating(player=p, game=Game.THOUSAND, mu=25.0, sigma=8.0,
                   matches=current[p].matches + 1 if p in current else 1)
            for p in players
        )
    return rate


async def test_two_matches_of_one_player_ending_at_once_on_two_processes_lose_no_rating(
    stores: tuple[Store, Store],
) -> None:
    first, second = stores
    players_a, players_b = (ALICE, BOB, BOT), (CAROL, DAVE, BOT)
    a = await start(first, seats=players_a)
    b = await start(first, seats=players_b, chat_id=OTHER_GROUP)

    def ending(match_id: int, players: tuple[PlayerRef, ...]) -> MatchWrite:
        write = ResultWrite(result(match_id, players=players), _rate(players))
        return MatchWrite(match_id, 2, result=write)

    task, release = await holding(first, first.matches.commit(ending(a, players_a)))
    late = asyncio.create_task(second.matches.commit(ending(b, players_b)))
    await asyncio.sleep(WAIT)
    assert not late.done()  # the computer player's rating is a's until a commits
    release.set()
    await task
    await late
    rating = await second.results.rating_of(BOT, Game.THOUSAND)
    assert rating is not None and rating.matches == 2
    stats = await second.results.stats_for(BOT)
    assert [s.matches for s in stats] == [2]


async def test_a_lobby_and_a_match_opened_at_once_in_one_chat_cannot_both_stand(
    stores: tuple[Store, Store],
) -> None:
    first, second = stores
    task, release = await holding(first, first.lobbies.create(
        GROUP, creator_id=USERS[0], game=Game.THOUSAND, players=3, rules=RULES_3
    ))
    late = asyncio.create_task(second.matches.create(
        GROUP, game=Game.THOUSAND, players=3, rules=RULES_3,
        seats=[NewSeat.human(USERS[1]), NewSeat.computer("easy"), NewSeat.computer("easy")],
    ))
    await asyncio.sleep(WAIT)
    assert not late.done()
    release.set()
    await task
    with pytest.raises(ChatBusy):
        await late
    assert await second.matches.running_in_chat(GROUP) is None


async def test_two_kick_votes_at_once_on_two_processes_both_count(
    stores: tuple[Store, Store],
) -> None:
    first, second = stores
    a = await start(first)
    votes: list[set[int]] = []

    async def vote() -> None:
        votes.append(await first.kick_votes.add(a, 2, USERS[0]))

    task, release = await holding(first, vote())
    late = asyncio.create_task(second.kick_votes.add(a, 2, USERS[1]))
    await asyncio.sleep(WAIT)
    release.set()
    await task
    assert votes == [{USERS[0]}]
    assert await late == {USERS[0], USERS[1]}


async def test_the_locks_are_taken_in_one_order_and_a_rolled_back_savepoint_frees_its_own(
    stores: tuple[Store, Store],
) -> None:
    first, second = stores
    a = await start(first)
    async with first.transaction():
        await first.db.lock(chat_lock(GROUP))
        await first.db.lock(match_lock(a))
        with pytest.raises(RuntimeError, match="one order"):
            await first.db.lock(chat_lock(OTHER_GROUP))
    async with first.transaction():
        with pytest.raises(ValueError):
            async with first.transaction():
                await first.db.lock(match_lock(a))
                raise ValueError("rolled back")
        # The match is free again for another process, then taken anew by this one.
        assert await asyncio.wait_for(second.matches.commit(MatchWrite(a, 2, ("# b",))), 5) == 3
        await first.db.lock(match_lock(a))
        held = await first.db.fetch_value(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted "
            "AND pid = pg_backend_pid()"
        )
        assert held == 1
