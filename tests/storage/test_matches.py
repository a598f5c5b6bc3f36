"""Matches: creation, the append-only log with its expected-version check, seats, the end."""

from __future__ import annotations

import pytest

from engine import Game
from storage import (
    ConstraintViolation,
    MatchWrite,
    NewSeat,
    NotFound,
    Store,
    VersionConflict,
    WrongStatus,
)
from tests.storage.helpers import GROUP, OTHER_GROUP, RULES_3, USERS, Clock, full_lobby

DEAL = [
    "dealer p1",
    "hand p2 AS TS KS QS JS 9S AH",
    "hand p3 TH KH QH JH 9H AD TD",
    "hand p1 KD QD JD 9D AC TC KC",
    "talon QC JC 9C",
]


async def test_a_match_starts_from_a_lobby(store: Store, clock: Clock) -> None:
    lobby_id = await full_lobby(store)
    match = await store.matches.create_from_lobby(lobby_id)
    assert (match.chat_id, match.lobby_id, match.game, match.players) == (
        GROUP, lobby_id, "thousand", 3,
    )
    assert match.rules == RULES_3 and match.turn_seconds == 60
    assert (match.status, match.version, match.winner_seat) == ("running", 0, None)
    assert match.table_message_id is None and match.finished_at is None
    assert match.created_at == clock.now
    assert [(s.seat, s.user_id, s.computer_level) for s in match.seats] == [
        (0, USERS[0], None), (1, USERS[1], None), (2, None, "strong"),
    ]
    assert match.seats[2].is_computer and match.seats[2].played_by_computer
    assert not match.seats[0].played_by_computer and match.seats[0].consecutive_timeouts == 0
    assert match.seat_of(USERS[1]) == 1 and match.seat_of(USERS[3]) is None
    assert await store.matches.get(match.match_id) == match
    assert await store.matches.get(12345) is None


async def test_a_match_without_a_lobby(store: Store) -> None:
    seats = [NewSeat.computer("easy"), NewSeat.human(USERS[3]), NewSeat.computer("easy")]
    match = await store.matches.create(
        OTHER_GROUP, game=Game.THOUSAND, players=3, rules=RULES_3, seats=seats
    )
    assert match.lobby_id is None and match.turn_seconds is None
    assert [s.user_id for s in match.seats] == [None, USERS[3], None]
    with pytest.raises(ValueError, match="seats are needed"):
        await store.matches.create(GROUP, game=Game.THOUSAND, players=3, rules=RULES_3,
                                   seats=seats[:2])
    with pytest.raises(ValueError, match="only one seat"):
        await store.matches.create(GROUP, game=Game.THOUSAND, players=3, rules=RULES_3,
                                   seats=[NewSeat.human(USERS[0])] * 3)
    with pytest.raises(ValueError):
        NewSeat()


async def test_append_and_read_the_log(store: Store, clock: Clock) -> None:
    match = await store.matches.create_from_lobby(await full_lobby(store))
    assert await store.matches.read_log(match.match_id) == []
    version = await store.matches.append_actions(match.match_id, 0, DEAL)
    assert version == 5
    clock.advance(10)
    version = await store.matches.append_actions(match.match_id, version, ["p2 bid 110"])
    version = await store.matches.append_actions(
        match.match_id, version, ("p3 pass", "p1 play KH marriage  # comment kept")
    )
    assert version == 8
    assert await store.matches.read_log(match.match_id) == [
        *DEAL, "p2 bid 110", "p3 pass", "p1 play KH marriage  # comment kept",
    ]
    stored = await store.matches.get(match.match_id)
    assert stored is not None and stored.version == 8 and stored.updated_at == clock.now


async def test_an_append_with_an_old_version_is_refused(store: Store) -> None:
    match = await store.matches.create_from_lobby(await full_lobby(store))
    await store.matches.append_actions(match.match_id, 0, DEAL)
    with pytest.raises(VersionConflict) as caught:
        await store.matches.append_actions(match.match_id, 0, ["p2 bid 100"])
    assert (caught.value.expected, caught.value.actual) == (0, 5)
    with pytest.raises(VersionConflict):
        await store.matches.append_actions(match.match_id, 6, ["p2 bid 100"])
    assert await store.matches.read_log(match.match_id) == DEAL


@pytest.mark.parametrize(
    "lines", [[], [""], ["   "], ["p1 pass\np2 pass"], ["p1\rpass"], "pass"]
)
async def test_malformed_lines_are_refused(store: Store, lines: list[str]) -> None:
    match = await store.matches.create_from_lobby(await full_lobby(store))
    with pytest.raises(ValueError):
        await store.matches.append_actions(match.match_id, 0, lines)
    assert await store.matches.read_log(match.match_id) == []


async def test_the_log_is_append_only_in_the_database(store: Store) -> None:
    match = await store.matches.create_from_lobby(await full_lobby(store))
    await store.matches.append_actions(match.match_id, 0, ["p1 pass", "p2 pass"])
    with pytest.raises(ConstraintViolation, match="append_only"):
        await store.db.execute("UPDATE match_log SET line = 'p1 bid 120'")
    with pytest.raises(ConstraintViolation, match="append_only"):
        await store.db.execute("DELETE FROM match_log")
    with pytest.raises(ConstraintViolation, match="log_out_of_order"):
        await store.db.execute(
            "INSERT INTO match_log VALUES (?, 5, 'p3 pass', 'x')", (match.match_id,)
        )
    with pytest.raises(ConstraintViolation, match="version_mismatch"):
        await store.db.execute(
            "UPDATE matches SET version = 7 WHERE match_id = ?", (match.match_id,)
        )
    with pytest.raises(NotFound):
        await store.matches.append_actions(999, 0, ["p1 pass"])
    with pytest.raises(NotFound):
        await store.matches.read_log(999)


async def test_running_matches_by_chat_and_user(store: Store) -> None:
    first = await store.matches.create_from_lobby(await full_lobby(store, GROUP))
    second = await store.matches.create(
        OTHER_GROUP, game=Game.THOUSAND, players=3, rules=RULES_3,
        seats=[NewSeat.human(USERS[1]), NewSeat.human(USERS[2]), NewSeat.computer("x")],
    )
    assert [m.match_id for m in await store.matches.list_unfinished()] == [
        first.match_id, second.match_id,
    ]
    assert await store.matches.running_in_chat(GROUP) == first
    assert await store.matches.running_in_chat(-1) is None
    assert [m.match_id for m in await store.matches.running_for_user(USERS[1])] == [
        first.match_id, second.match_id,
    ]
    assert [m.match_id for m in await store.matches.running_for_user(USERS[2])] == [
        second.match_id,
    ]
    assert await store.matches.running_for_user(USERS[3]) == []
    await store.matches.abandon(first.match_id)
    assert await store.matches.running_in_chat(GROUP) is None
    assert [m.match_id for m in await store.matches.list_unfinished()] == [second.match_id]
    assert [m.match_id for m in await store.matches.running_for_user(USERS[1])] == [
        second.match_id,
    ]


async def test_message_ids_and_seat_state(store: Store) -> None:
    match = await store.matches.create_from_lobby(await full_lobby(store))
    match_id = match.match_id
    await store.matches.set_table_message_id(match_id, 500)
    await store.matches.set_hand_message_id(match_id, 1, 900)
    replaced = match.seats[1].model_copy(
        update={"consecutive_timeouts": 2, "replaced_by_computer": True, "computer_level": "easy"}
    )
    await store.matches.commit(MatchWrite(match_id, 0, seats=(replaced,)))
    stored = await store.matches.get(match_id)
    assert stored is not None and stored.table_message_id == 500
    seat = stored.seats[1]
    assert (seat.user_id, seat.hand_message_id, seat.consecutive_timeouts) == (USERS[1], 900, 2)
    assert seat.replaced_by_computer and seat.computer_level == "easy"
    assert seat.played_by_computer and not seat.is_computer
    assert [m.match_id for m in await store.matches.running_for_user(USERS[1])] == [match_id]

    back = match.seats[1].model_copy(update={"hand_message_id": None})
    await store.matches.commit(MatchWrite(match_id, 0, seats=(back,)))
    stored = await store.matches.get(match_id)
    assert stored is not None
    assert [(s.replaced_by_computer, s.computer_level, s.consecutive_timeouts)
            for s in stored.seats[:2]] == [(False, None, 0), (False, None, 0)]
    assert stored.seats[1].hand_message_id == 900  # a write leaves the hand message alone

    with pytest.raises(ValueError, match="computer level"):
        MatchWrite(match_id, 0, seats=(back.model_copy(update={"computer_level": ""}),))
    with pytest.raises(ConstraintViolation, match=r"(?i)check"):
        await store.matches.set_hand_message_id(match_id, 2, 901)  # computers get no hand
    with pytest.raises(NotFound):
        await store.matches.set_hand_message_id(match_id, 3, 901)
    with pytest.raises(NotFound):
        await store.matches.set_table_message_id(999, 1)
    with pytest.raises(NotFound):
        await store.matches.commit(MatchWrite(999, 0, seats=(back,)))


async def test_finish_and_abandon(store: Store, clock: Clock) -> None:
    match = await store.matches.create_from_lobby(await full_lobby(store))
    await store.matches.append_actions(match.match_id, 0, DEAL)
    with pytest.raises(ValueError, match="seat"):
        await store.matches.finish(match.match_id, winner_seat=3)
    clock.advance(100)
    finished = await store.matches.finish(match.match_id, winner_seat=2)
    assert (finished.status, finished.winner_seat, finished.finished_at) == (
        "finished", 2, clock.now,
    )
    with pytest.raises(WrongStatus, match="finished"):
        await store.matches.append_actions(match.match_id, 5, ["p2 pass"])
    with pytest.raises(WrongStatus):
        await store.matches.abandon(match.match_id)
    with pytest.raises(WrongStatus):
        await store.matches.commit(MatchWrite(match.match_id, 5, seats=(match.seats[0],)))
    assert await store.matches.read_log(match.match_id) == DEAL  # still readable

    other = await store.matches.create(
        OTHER_GROUP, game=Game.THOUSAND, players=3, rules=RULES_3,
        seats=[NewSeat.human(USERS[1]), NewSeat.human(USERS[2]), NewSeat.computer("x")],
    )
    abandoned = await store.matches.abandon(other.match_id)
    assert (abandoned.status, abandoned.winner_seat) == ("abandoned", None)
    assert abandoned.finished_at == clock.now
    with pytest.raises(NotFound):
        await store.matches.finish(999, None)


async def test_the_final_action_and_the_finish_in_one_transaction(store: Store) -> None:
    match = await store.matches.create_from_lobby(await full_lobby(store))
    async with store.transaction():
        version = await store.matches.append_actions(match.match_id, 0, ["p1 concede"])
        await store.matches.finish(match.match_id, winner_seat=1)
    stored = await store.matches.get(match.match_id)
    assert stored is not None and (stored.status, stored.version) == ("finished", version)


async def test_the_times_of_log_lines_are_read_back(store: Store, clock: Clock) -> None:
    """When lines were stored (a match loaded anew learns when each player last acted)."""
    match = await store.matches.create_from_lobby(await full_lobby(store))
    dealt = clock.advance(1)
    await store.matches.append_actions(match.match_id, 0, DEAL)
    passed = clock.advance(30)
    await store.matches.append_actions(match.match_id, len(DEAL), ["p2 pass"])
    times = await store.running.line_times(match.match_id, [1, len(DEAL) + 1, 99])
    assert times == {1: dealt, len(DEAL) + 1: passed}
    assert await store.running.line_times(match.match_id, []) == {}
