"""Fixtures of the bot's end-to-end tests: the fake Bot API server and its people, and a small
disk of its own (a tmpfs) for tests of full and read-only disks."""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

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


@contextlib.contextmanager
def small_disk(folder: Path) -> Iterator[Path]:
    """A tmpfs of 4 MB mounted at ``folder`` (needs root: skipped otherwise)."""
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(folder)],
        capture_output=True, check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs: {mounted.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True, check=False)
