"""`storage.running`: what a process sharing the database asks of the running matches — where
one stands (the stored version, the players whose private chat is not open), the matches of
a chat or a user; on SQLite and PostgreSQL."""

from __future__ import annotations

from engine import Game
from storage import NewSeat, Store
from storage.running import Standing
from tests.storage.helpers import GROUP, OTHER_GROUP, RULES_3, USERS, full_lobby
from tests.storage.test_matches import DEAL


async def test_standings_and_places(store: Store) -> None:
    lobby_match = await store.matches.create_from_lobby(await full_lobby(store))
    humans = await store.matches.create(
        OTHER_GROUP, game=Game.THOUSAND, players=3, rules=RULES_3,
        seats=[NewSeat.human(USERS[2]), NewSeat.human(USERS[3]), NewSeat.human(USERS[0])],
    )
    first, second = lobby_match.match_id, humans.match_id
    standing = await store.running.standing(first)
    assert standing is not None and standing.version == 0
    assert standing.closed == {USERS[0], USERS[1]}  # the computer seat has no chat
    await store.users.set_private_chat_opened(USERS[1])
    await store.matches.append_actions(first, 0, DEAL)
    assert await store.running.standing(first) == Standing(5, frozenset({USERS[0]}))
    assert await store.running.standing(999) is None
    assert await store.running.ids_for(GROUP, None) == [first]
    assert await store.running.ids_for(None, USERS[3]) == [second]
    assert await store.running.ids_for(OTHER_GROUP, USERS[1]) == [first, second]
    assert await store.running.ids_for(None, None) == []
    await store.matches.abandon(first)
    assert await store.running.standing(first) is None
    assert await store.running.ids_for(GROUP, None) == []
