"""Lobbies and their seats, and the rule of one game per group chat."""

from __future__ import annotations

import pytest

from engine import Game
from storage import (
    AlreadySeated,
    ChatBusy,
    ConstraintViolation,
    LobbyFull,
    LobbyNotFull,
    NewSeat,
    NotFound,
    SeatTaken,
    Store,
    WrongStatus,
)
from tests.storage.helpers import GROUP, OTHER_GROUP, RULES_3, RULES_1001_4, USERS, full_lobby


async def test_create_and_get_a_lobby(store: Store) -> None:
    lobby = await store.lobbies.create(
        GROUP, creator_id=USERS[0], game=Game.THOUSAND, players=3, rules=RULES_3, turn_seconds=45
    )
    assert lobby.status == "open" and lobby.seats == () and lobby.message_id is None
    assert (lobby.chat_id, lobby.creator_id, lobby.game, lobby.players) == (
        GROUP, USERS[0], "thousand", 3,
    )
    assert lobby.rules == RULES_3 and lobby.turn_seconds == 45
    assert lobby.free_seats == (0, 1, 2) and not lobby.is_full
    assert await store.lobbies.get(lobby.lobby_id) == lobby
    assert await store.lobbies.open_in_chat(GROUP) == lobby
    assert await store.lobbies.open_in_chat(OTHER_GROUP) is None
    assert await store.lobbies.get(999) is None
    with_message = await store.lobbies.set_message_id(lobby.lobby_id, 77)
    assert with_message.message_id == 77


async def test_settings_of_an_open_lobby(store: Store) -> None:
    lobby = await store.lobbies.create(
        GROUP, creator_id=USERS[0], game=Game.THOUSAND, players=3, rules=RULES_3
    )
    changed = await store.lobbies.set_rules(
        lobby.lobby_id, game=Game.THOUSAND_ONE, players=4, rules=RULES_1001_4
    )
    assert (changed.game, changed.players, changed.rules) == ("thousand-one", 4, RULES_1001_4)
    assert changed.free_seats == (0, 1, 2, 3)
    assert (await store.lobbies.set_turn_seconds(lobby.lobby_id, 90)).turn_seconds == 90
    assert (await store.lobbies.set_turn_seconds(lobby.lobby_id, None)).turn_seconds is None
    await store.lobbies.sit_user(lobby.lobby_id, USERS[0], seat=3)
    with pytest.raises(ValueError, match="free them"):
        await store.lobbies.set_rules(lobby.lobby_id, game=Game.THOUSAND, players=3, rules=RULES_3)


@pytest.mark.parametrize(
    ("game", "players", "rules", "message"),
    [
        ("preferans", 3, "game preferans", "unknown game"),
        ("thousand", 4, "game thousand\nplayers 4", "not played by 4"),
        ("tumbochka", 3, "game thousand\nplayers 3", "contradicts game"),
        ("thousand", 3, "game thousand\nplayers 4  # wrong", "contradicts players"),
        ("thousand", 3, "  \n", "empty"),
    ],
)
async def test_bad_rules_are_refused(
    store: Store, game: str, players: int, rules: str, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        await store.lobbies.create(
            GROUP,
            creator_id=USERS[0],
            game=game,  # type: ignore[arg-type]
            players=players,
            rules=rules,
        )
    with pytest.raises(ValueError, match="turn_seconds"):
        await store.lobbies.create(
            GROUP, creator_id=USERS[0], game=Game.THOUSAND, players=3, rules=RULES_3, turn_seconds=0
        )


async def test_seats_fill_and_empty(store: Store) -> None:
    lobby = await store.lobbies.create(
        GROUP, creator_id=USERS[0], game=Game.THOUSAND, players=3, rules=RULES_3
    )
    lobby_id = lobby.lobby_id
    lobby = await store.lobbies.sit_user(lobby_id, USERS[0])
    lobby = await store.lobbies.sit_user(lobby_id, USERS[1], seat=2)
    assert [(s.seat, s.user_id) for s in lobby.seats] == [(0, USERS[0]), (2, USERS[1])]
    lobby = await store.lobbies.sit_computer(lobby_id, "easy")
    assert lobby.seats[1].is_computer and lobby.seats[1].computer_level == "easy"
    assert lobby.is_full and lobby.seat_of(USERS[1]) == 2 and lobby.seat_of(USERS[2]) is None

    with pytest.raises(AlreadySeated):
        await store.lobbies.sit_user(lobby_id, USERS[0])
    with pytest.raises(LobbyFull):
        await store.lobbies.sit_user(lobby_id, USERS[2])
    with pytest.raises(SeatTaken):
        await store.lobbies.sit_user(lobby_id, USERS[2], seat=1)
    with pytest.raises(ValueError, match="seat"):
        await store.lobbies.sit_user(lobby_id, USERS[2], seat=3)
    with pytest.raises(ValueError, match="level"):
        await store.lobbies.sit_computer(lobby_id, "")

    lobby = await store.lobbies.free_seat(lobby_id, 1)
    assert lobby.free_seats == (1,)
    lobby = await store.lobbies.leave(lobby_id, USERS[0])
    assert lobby.free_seats == (0, 1)
    assert await store.lobbies.leave(lobby_id, USERS[3]) == lobby  # not seated: no change
    with pytest.raises(NotFound):
        await store.lobbies.sit_user(4242, USERS[0])


async def test_an_unknown_user_cannot_sit(store: Store) -> None:
    lobby = await store.lobbies.create(
        GROUP, creator_id=USERS[0], game=Game.THOUSAND, players=3, rules=RULES_3
    )
    with pytest.raises(ConstraintViolation, match=r"(?i)foreign key"):
        await store.lobbies.sit_user(lobby.lobby_id, 55555)


async def test_lobbies_a_user_sits_in(store: Store) -> None:
    first = await full_lobby(store, GROUP)
    second = await store.lobbies.create(
        OTHER_GROUP, creator_id=USERS[1], game=Game.TUMBOCHKA, players=3,
        rules="game tumbochka\nplayers 3",
    )
    await store.lobbies.sit_user(second.lobby_id, USERS[1])
    assert [lobby.lobby_id for lobby in await store.lobbies.list_for_user(USERS[1])] == [
        first, second.lobby_id,
    ]
    assert [lobby.lobby_id for lobby in await store.lobbies.list_for_user(USERS[0])] == [first]
    assert await store.lobbies.list_for_user(USERS[3]) == []
    await store.lobbies.cancel(second.lobby_id)
    assert [lobby.lobby_id for lobby in await store.lobbies.list_for_user(USERS[1])] == [first]
    assert len(await store.lobbies.list_for_user(USERS[1], status=None)) == 2
    assert len(await store.lobbies.list_for_user(USERS[1], status="cancelled")) == 1
    assert [lobby.lobby_id for lobby in await store.lobbies.list_open()] == [first]


async def test_a_closed_lobby_does_not_change(store: Store) -> None:
    lobby = await store.lobbies.create(
        GROUP, creator_id=USERS[0], game=Game.THOUSAND, players=3, rules=RULES_3
    )
    cancelled = await store.lobbies.cancel(lobby.lobby_id)
    assert cancelled.status == "cancelled"
    with pytest.raises(WrongStatus, match="cancelled"):
        await store.lobbies.sit_user(lobby.lobby_id, USERS[0])
    with pytest.raises(WrongStatus):
        await store.lobbies.cancel(lobby.lobby_id)
    with pytest.raises(WrongStatus):
        await store.lobbies.set_turn_seconds(lobby.lobby_id, 30)
    # The message id may still change (the bot edits the old lobby message).
    assert (await store.lobbies.set_message_id(lobby.lobby_id, 5)).message_id == 5
    # The database refuses it too, even without the repository's checks.
    with pytest.raises(ConstraintViolation, match="lobby_closed"):
        await store.db.execute(
            "UPDATE lobbies SET status = 'open' WHERE lobby_id = ?", (lobby.lobby_id,)
        )


async def test_one_game_per_group_chat(store: Store) -> None:
    lobby_id = await full_lobby(store, GROUP)
    # A second open lobby in the same chat.
    with pytest.raises(ChatBusy) as caught:
        await store.lobbies.create(
            GROUP, creator_id=USERS[2], game=Game.THOUSAND, players=3, rules=RULES_3
        )
    assert caught.value.lobby_id == lobby_id
    # Another chat is free.
    other = await store.lobbies.create(
        OTHER_GROUP, creator_id=USERS[2], game=Game.THOUSAND, players=3, rules=RULES_3
    )
    await store.lobbies.cancel(other.lobby_id)
    # A match without a lobby while the lobby is open.
    seats = [NewSeat.human(USERS[2]), NewSeat.computer("a"), NewSeat.computer("b")]
    with pytest.raises(ChatBusy):
        await store.matches.create(GROUP, game=Game.THOUSAND, players=3, rules=RULES_3, seats=seats)
    # Starting the lobby turns the open lobby into the running match: still one game.
    match = await store.matches.create_from_lobby(lobby_id)
    with pytest.raises(ChatBusy) as caught:
        await store.lobbies.create(
            GROUP, creator_id=USERS[2], game=Game.THOUSAND, players=3, rules=RULES_3
        )
    assert caught.value.match_id == match.match_id
    with pytest.raises(ChatBusy):
        await store.matches.create(GROUP, game=Game.THOUSAND, players=3, rules=RULES_3, seats=seats)
    # Once the match ends the chat is free again.
    await store.matches.finish(match.match_id, winner_seat=0)
    again = await store.lobbies.create(
        GROUP, creator_id=USERS[2], game=Game.THOUSAND, players=3, rules=RULES_3
    )
    assert again.status == "open"


async def test_the_database_itself_enforces_one_game_per_chat(store: Store) -> None:
    """Raw inserts that skip the repositories' checks are refused too."""
    now = "2024-05-01T12:00:00.000000Z"
    insert_lobby = (
        "INSERT INTO lobbies (chat_id, creator_id, game, players, rules, status, created_at, "
        "updated_at) VALUES (?, ?, 'thousand', 3, 'game thousand', 'open', ?, ?)"
    )
    insert_match = (
        "INSERT INTO matches (chat_id, game, players, rules, created_at, updated_at) "
        "VALUES (?, 'thousand', 3, 'game thousand', ?, ?)"
    )
    await store.db.execute(insert_lobby, (GROUP, USERS[0], now, now))
    with pytest.raises(ChatBusy):
        await store.db.execute(insert_lobby, (GROUP, USERS[0], now, now))
    with pytest.raises(ChatBusy):
        await store.db.execute(insert_match, (GROUP, now, now))
    await store.db.execute(insert_match, (OTHER_GROUP, now, now))
    with pytest.raises(ChatBusy):
        await store.db.execute(insert_match, (OTHER_GROUP, now, now))
    with pytest.raises(ChatBusy):
        await store.db.execute(insert_lobby, (OTHER_GROUP, USERS[0], now, now))


async def test_a_forum_runs_one_game_per_topic(store: Store) -> None:
    """Topics of one forum are places of their own; within one the rule holds as for a chat."""
    lobby = await store.lobbies.create(
        GROUP, creator_id=USERS[0], game=Game.THOUSAND, players=3, rules=RULES_3, topic_id=7
    )
    assert lobby.topic_id == 7
    assert await store.lobbies.open_in_chat(GROUP) is None
    assert await store.lobbies.open_in_chat(GROUP, 7) == lobby
    with pytest.raises(ChatBusy):
        await store.lobbies.create(
            GROUP, creator_id=USERS[1], game=Game.THOUSAND, players=3, rules=RULES_3, topic_id=7
        )
    with pytest.raises(ChatBusy):
        await store.matches.create(
            GROUP, game=Game.THOUSAND, players=3, rules=RULES_3, topic_id=7,
            seats=[NewSeat(user_id=None, computer_level="easy")] * 3,
        )
    elsewhere = await store.matches.create(
        GROUP, game=Game.THOUSAND, players=3, rules=RULES_3, topic_id=9,
        seats=[NewSeat(user_id=None, computer_level="easy")] * 3,
    )
    general = await store.lobbies.create(
        GROUP, creator_id=USERS[1], game=Game.THOUSAND, players=3, rules=RULES_3
    )
    assert (elsewhere.topic_id, general.topic_id) == (9, 0)
    assert await store.matches.running_in_chat(GROUP, 9) == elsewhere
    assert await store.matches.running_in_chat(GROUP) is None
    now = "2024-05-01T12:00:00.000000Z"
    with pytest.raises(ChatBusy):  # the database itself, past the repositories' checks
        await store.db.execute(
            "INSERT INTO lobbies (chat_id, topic_id, creator_id, game, players, rules, status, "
            "created_at, updated_at) "
            "VALUES (?, 9, ?, 'thousand', 3, 'game thousand', 'open', ?, ?)",
            (GROUP, USERS[0], now, now),
        )
    with pytest.raises(ChatBusy):
        await store.db.execute(
            "UPDATE lobbies SET topic_id = 9 WHERE lobby_id = ?", (general.lobby_id,)
        )


async def test_starting_needs_a_full_open_lobby(store: Store) -> None:
    lobby = await store.lobbies.create(
        GROUP, creator_id=USERS[0], game=Game.THOUSAND, players=3, rules=RULES_3
    )
    await store.lobbies.sit_user(lobby.lobby_id, USERS[0])
    with pytest.raises(LobbyNotFull) as caught:
        await store.matches.create_from_lobby(lobby.lobby_id)
    assert caught.value.free_seats == (1, 2)
    await store.lobbies.sit_computer(lobby.lobby_id, "easy")
    await store.lobbies.sit_computer(lobby.lobby_id, "easy")
    await store.matches.create_from_lobby(lobby.lobby_id)
    started = await store.lobbies.get(lobby.lobby_id)
    assert started is not None and started.status == "started"
    with pytest.raises(WrongStatus):
        await store.matches.create_from_lobby(lobby.lobby_id)
    with pytest.raises(WrongStatus):
        await store.lobbies.leave(lobby.lobby_id, USERS[0])
    with pytest.raises(NotFound):
        await store.matches.create_from_lobby(31337)
