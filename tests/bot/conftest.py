"""Fixtures of the bot's end-to-end tests: the fake Bot API server and its people."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

from tests.fakebot import FakeTelegramServer, SimChat, SimUser


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegramServer]:
    async with FakeTelegramServer() as srv:
        srv.limits.enabled = False
        yield srv
        assert srv.internal_errors == []


@dataclass(frozen=True)
class Cast:
    """Four friends in a group; all but Dave have started the bot."""

    alice: SimUser
    bob: SimUser
    carol: SimUser
    dave: SimUser
    group: SimChat


@pytest.fixture
async def cast(server: FakeTelegramServer) -> Cast:
    alice = server.user(101, "Алиса", "alice")
    bob = server.user(102, "Борис", "bob")
    carol = server.user(103, "Вера", "carol")
    dave = server.user(104, "Глеб", "dave")
    for user in (alice, bob, carol):
        await user.start_bot()
    group = server.group(title="Четверг", members=[alice, bob, carol, dave])
    return Cast(alice, bob, carol, dave, group)
