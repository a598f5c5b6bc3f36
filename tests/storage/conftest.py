"""Fixtures of the storage tests: a real SQLite file in tmp_path, opened through `Store`."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import Store
from tests.storage.helpers import Clock, seed


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "tysyacha.db"


@pytest.fixture
async def store(db_path: Path, clock: Clock) -> AsyncIterator[Store]:
    opened = await Store.open(db_path, clock=clock)
    try:
        await seed(opened)
        yield opened
    finally:
        await opened.close()
