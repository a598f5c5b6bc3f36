"""Fixtures of the storage tests: a store on a real SQLite file in tmp_path and, for every test
that takes ``store``, the same on a fresh database of the PostgreSQL test server
(`tests.postgres`: skipped without one, failed under CI). ``sqlite_store`` is for the tests of
what only SQLite has (pragmas, the file, its thread)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import Store
from tests.postgres import fresh_database
from tests.storage.helpers import Clock, seed


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "tysyacha.db"


@pytest.fixture
async def sqlite_store(db_path: Path, clock: Clock) -> AsyncIterator[Store]:
    opened = await Store.open(db_path, clock=clock)
    try:
        await seed(opened)
        yield opened
    finally:
        await opened.close()


@pytest.fixture(params=["sqlite", "postgresql"])
async def store(
    request: pytest.FixtureRequest, db_path: Path, clock: Clock
) -> AsyncIterator[Store]:
    if request.param == "sqlite":
        opened = await Store.open(db_path, clock=clock)
        try:
            await seed(opened)
            yield opened
        finally:
            await opened.close()
        return
    async with fresh_database() as url:
        opened = await Store.open(url, clock=clock)
        try:
            await seed(opened)
            yield opened
        finally:
            await opened.close()
