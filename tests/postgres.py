"""The PostgreSQL server of the tests, and a fresh database on it for each test.

The server's address comes from ``TYSYACHA_TEST_DATABASE_URL`` (``postgresql://...``, a role
that may create databases); `.ci/run` starts a throwaway server and sets it. Without it, a
test that needs PostgreSQL is skipped with the reason — except under CI (``CI`` set), where it
fails, so CI never passes without having run them. A server that is named but does not answer
fails the test, wherever it runs.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import asyncpg
import pytest

URL_VARIABLE = "TYSYACHA_TEST_DATABASE_URL"


def server_url() -> str:
    """The test server's address, or skip (fail under CI) when there is none."""
    url = os.environ.get(URL_VARIABLE, "").strip()
    if url:
        return url
    if os.environ.get("CI", "").strip():
        pytest.fail(f"CI is set but {URL_VARIABLE} is not: .ci/run starts a PostgreSQL server")
    pytest.skip(f"no PostgreSQL server: set {URL_VARIABLE}=postgresql://... (.ci/run does)")


def with_database(url: str, name: str) -> str:
    """``url`` with its database name replaced by ``name``."""
    head, _, rest = url.partition("://")
    host, _, query = rest.partition("?")
    host = host.split("/", 1)[0]
    return f"{head}://{host}/{name}" + (f"?{query}" if query else "")


@asynccontextmanager
async def fresh_database() -> AsyncIterator[str]:
    """A new, empty database on the test server (dropped afterwards); its URL."""
    admin_url = server_url()
    name = f"tysyacha_test_{uuid.uuid4().hex[:12]}"
    try:
        admin = await asyncpg.connect(admin_url)
    except (OSError, asyncpg.PostgresError) as error:
        pytest.fail(f"the PostgreSQL server of {URL_VARIABLE} does not answer: {error}")
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield with_database(admin_url, name)
        finally:
            await admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
    finally:
        await admin.close()
