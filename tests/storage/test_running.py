"""`storage.running`: what a process sharing the database asks of the running matches — the
stored version, the matches of a chat or a user; on SQLite and PostgreSQL."""

from __future__ import annotations

from engine import Game
from storage import NewSeat, Store
from tests.storage.helpers import GROUP, OTHER_GROUP, RULES_3, USERS, full_lobby
from tests.storage.test_matches import DEAL


async def test_versions_and_places(store: Store) -> None:
    lobby_match = await store.matches.create_from_lobby(await full_lobby(store))
    humans = await store.matches.create(
        OTHER_GROUP, game=Game.THOUSAND, players=3, rules=RULES_3,
        seats=[NewSeat.human(USERS[2]), NewSeat.human(USERS[3]), NewSeat.human(USERS[0])],
    )
    first, second = lobby_match.match_id, humans.match_id
    assert await store.running.version(first) == 0
    await store.matches.append_actions(first, 0, DEAL)
    assert await store.running.version(first) == 5
    assert await store.running.version(999) is None
    assert await store.running.ids_for(GROUP, None) == [first]
    assert await store.running.ids_for(None, USERS[3]) == [second]
    assert await store.running.ids_for(OTHER_GROUP, USERS[1]) == [first, second]
    assert await store.running.ids_for(None, None) == []
    await store.matches.abandon(first)
    assert await store.running.version(first) is None
    assert await store.running.ids_for(GROUP, None) == []
