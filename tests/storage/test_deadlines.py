"""Turn deadlines: set, move, clear, list, and their end with the match."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from engine import Game
from storage import NewSeat, NotFound, Store, WrongStatus
from tests.storage.helpers import GROUP, OTHER_GROUP, RULES_3, USERS, Clock, full_lobby


async def test_set_move_list_and_clear(store: Store, clock: Clock) -> None:
    match = await store.matches.create_from_lobby(await full_lobby(store))
    soon = clock.now + timedelta(seconds=60)
    deadline = await store.deadlines.set(match.match_id, 1, soon, version=0)
    assert (deadline.match_id, deadline.seat, deadline.deadline, deadline.version) == (
        match.match_id, 1, soon, 0,
    )
    # Moving it replaces it; a deadline in another timezone is stored as the same instant.
    kyiv = timezone(timedelta(hours=3))
    later = (soon + timedelta(seconds=30)).astimezone(kyiv)
    moved = await store.deadlines.set(match.match_id, 1, later, version=3)
    assert moved.deadline == later and moved.version == 3
    await store.deadlines.set(match.match_id, 0, soon, version=3)
    assert [d.seat for d in await store.deadlines.for_match(match.match_id)] == [0, 1]

    other = await store.matches.create(
        OTHER_GROUP, game=Game.THOUSAND, players=3, rules=RULES_3,
        seats=[NewSeat.human(USERS[2]), NewSeat.human(USERS[3]), NewSeat.computer("x")],
    )
    earliest = clock.now + timedelta(seconds=5)
    await store.deadlines.set(other.match_id, 2, earliest, version=0)
    assert [(d.match_id, d.seat) for d in await store.deadlines.list_all()] == [
        (other.match_id, 2), (match.match_id, 0), (match.match_id, 1),
    ]
    due = await store.deadlines.list_all(due_by=clock.now + timedelta(seconds=60))
    assert [(d.match_id, d.seat) for d in due] == [(other.match_id, 2), (match.match_id, 0)]

    assert await store.deadlines.clear(match.match_id, 0) == 1
    assert await store.deadlines.clear(match.match_id, 0) == 0
    assert await store.deadlines.clear(match.match_id) == 1
    assert await store.deadlines.for_match(match.match_id) == []


async def test_deadlines_need_a_running_match_and_go_with_its_end(
    store: Store, clock: Clock
) -> None:
    match = await store.matches.create_from_lobby(await full_lobby(store, GROUP))
    await store.deadlines.set(match.match_id, 0, clock.now, version=0)
    await store.deadlines.set(match.match_id, 2, clock.now, version=0)
    await store.matches.finish(match.match_id, winner_seat=None)
    assert await store.deadlines.for_match(match.match_id) == []
    with pytest.raises(WrongStatus):
        await store.deadlines.set(match.match_id, 0, clock.now, version=0)
    with pytest.raises(NotFound):
        await store.deadlines.set(999, 0, clock.now, version=0)


async def test_bad_deadlines_are_refused(store: Store, clock: Clock) -> None:
    match = await store.matches.create_from_lobby(await full_lobby(store))
    with pytest.raises(ValueError, match="naive"):
        await store.deadlines.set(match.match_id, 0, datetime(2024, 1, 1), version=0)
    with pytest.raises(ValueError, match="version"):
        await store.deadlines.set(match.match_id, 0, clock.now, version=-1)
    with pytest.raises(NotFound, match="seat"):
        await store.deadlines.set(match.match_id, 3, clock.now, version=0)


async def test_a_deadline_is_stored_with_the_action_that_passed_the_turn(
    store: Store, clock: Clock
) -> None:
    match = await store.matches.create_from_lobby(await full_lobby(store))
    with pytest.raises(RuntimeError):
        async with store.transaction():
            version = await store.matches.append_actions(match.match_id, 0, ["dealer p1"])
            await store.deadlines.set(match.match_id, 1, clock.now, version=version)
            raise RuntimeError("the bot crashed before committing")
    assert await store.deadlines.list_all() == []
    async with store.transaction():
        version = await store.matches.append_actions(match.match_id, 0, ["dealer p1"])
        await store.deadlines.clear(match.match_id)
        await store.deadlines.set(match.match_id, 1, clock.now, version=version)
    assert [(d.seat, d.version) for d in await store.deadlines.list_all()] == [(1, 1)]


