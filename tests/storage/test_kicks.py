"""/kick votes (`storage.kicks`): one per voter and seat, counted the same by every process,
cleared when the seat is handed over; on SQLite and PostgreSQL."""

from __future__ import annotations

from storage import Store
from tests.storage.helpers import USERS, full_lobby


async def test_votes_are_counted_once_per_voter_and_cleared(store: Store) -> None:
    match = await store.matches.create_from_lobby(await full_lobby(store))
    votes = store.kick_votes
    assert await votes.add(match.match_id, 1, USERS[0]) == {USERS[0]}
    assert await votes.add(match.match_id, 1, USERS[0]) == {USERS[0]}
    assert await votes.add(match.match_id, 2, USERS[1]) == {USERS[1]}
    assert await Store(store.db).kick_votes.add(match.match_id, 1, USERS[2]) == {
        USERS[0], USERS[2]
    }
    await votes.clear(match.match_id, 1)
    assert await votes.add(match.match_id, 1, USERS[1]) == {USERS[1]}
    assert await votes.add(match.match_id, 2, USERS[0]) == {USERS[0], USERS[1]}
