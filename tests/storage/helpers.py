"""Shared test data for the storage tests: a fake clock and a seeded chat with users."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from engine import Game
from storage import Store

GROUP = -1001234567890
OTHER_GROUP = -1009876543210
RULES_3 = "game thousand\nplayers 3\noption golden_round=on"
RULES_1001_4 = "game thousand-one\nplayers 4"
USERS = (101, 102, 103, 104)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> datetime:
        self.now += timedelta(seconds=seconds)
        return self.now


async def seed(store: Store) -> None:
    """Two group chats and four users."""
    await store.chats.upsert(GROUP, type="supergroup", title="Преферансисты")
    await store.chats.upsert(OTHER_GROUP, type="group", title="Other")
    for user_id in USERS:
        await store.users.upsert(user_id, first_name=f"User {user_id}", telegram_language="ru")


async def full_lobby(store: Store, chat_id: int = GROUP) -> int:
    """An open three-seat lobby with two users and a computer player; its id."""
    lobby = await store.lobbies.create(chat_id, creator_id=USERS[0], game=Game.THOUSAND,
                                       players=3, rules=RULES_3, turn_seconds=60)
    await store.lobbies.sit_user(lobby.lobby_id, USERS[0])
    await store.lobbies.sit_user(lobby.lobby_id, USERS[1])
    await store.lobbies.sit_computer(lobby.lobby_id, "strong")
    return lobby.lobby_id
