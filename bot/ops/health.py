"""Is the bot healthy? ``python -m bot.ops.health`` answers for a container's HEALTHCHECK.

The running bot keeps a heartbeat file next to its database, ``<DATABASE_PATH>.heartbeat``
(`Heartbeat`, started by `bot.app.startup`): every ``HEARTBEAT_SECONDS`` (30) it asks a probe
whether it works — Telegram answered its last ``getUpdates`` lately (polling), or
``getWebhookInfo`` shows its own webhook without delivery errors (webhook), and the database
commits a write (`storage.Backend.probe_commit`: a full or read-only disk, or a lock held by
another process, still answers queries while every press fails) — and writes one JSON line:
the time, ``ok`` or the problem, and a few numbers (updates handled, messages queued). Until
the first healthy beat it looks every second. It removes the file when it stops, if it can: a
disk that refuses does not keep the bot from stopping.

``python -m bot.ops.health`` reads the settings' ``DATABASE_PATH`` and ``DATABASE_URL`` (no token
needed; with a PostgreSQL server the heartbeat is still beside ``DATABASE_PATH``) and exits 0
with a one-line summary when the heartbeat is at most ``HEALTH_MAX_AGE_SECONDS`` (120) old,
says ok, and the database opens and has its schema; otherwise it exits 1 with a one-line
reason. It never writes anything: it works from a separate process, as the HEALTHCHECK runs.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import sqlite3
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pydantic import SecretStr, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.settings import Settings
from storage.postgres.database import schema_problem

log = logging.getLogger(__name__)

SUFFIX = ".heartbeat"
STARTING_INTERVAL = 1.0
"""Seconds between looks until the first healthy beat."""

Probe = Callable[[], Awaitable[tuple[str | None, dict[str, Any]]]]
"""What the bot says of itself: (the problem or None, numbers to show)."""


def heartbeat_path(database: Path) -> Path:
    return database.with_name(database.name + SUFFIX)


@dataclass(frozen=True)
class Beat:
    """One heartbeat: written by the bot, read by ``python -m bot.ops.health``."""

    at: float
    """Unix time of the beat."""
    pid: int
    mode: str
    ok: bool
    problem: str | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def dumps(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False, sort_keys=True)

    @classmethod
    def loads(cls, text: str) -> Beat:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        problem = data.get("problem")
        details = data.get("details") or {}
        return cls(
            at=float(data["at"]),
            pid=int(data["pid"]),
            mode=str(data["mode"]),
            ok=bool(data["ok"]),
            problem=None if problem is None else str(problem),
            details=details if isinstance(details, dict) else {},
        )


def write_beat(path: Path, beat: Beat) -> None:
    """Replace the heartbeat file at once (a reader never sees half of it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".tmp")
    partial.write_text(beat.dumps() + "\n", encoding="utf-8")
    os.replace(partial, path)


class Heartbeat:
    """The running bot's side: asks the probe and writes the beat, until stopped."""

    def __init__(self, path: Path, interval: float, mode: str, probe: Probe) -> None:
        self.path = path
        self.interval = interval
        self.mode = mode
        self._probe = probe
        self._task: asyncio.Task[None] | None = None
        self._started = time.monotonic()
        self._healthy_once = False
        self.last: Beat | None = None

    def start(self) -> None:
        self._started = time.monotonic()
        with contextlib.suppress(OSError):
            self.path.unlink()  # a beat left by an earlier run says nothing about this one
        self._task = asyncio.create_task(self._run(), name="heartbeat")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        try:
            self.path.unlink(missing_ok=True)
        except OSError as error:  # a read-only or failing disk must not stop the shutdown
            log.warning("cannot remove the heartbeat %s: %s", self.path, error)

    async def beat(self) -> Beat:
        """Ask the probe once and write what it says."""
        try:
            problem, details = await self._probe()
        except Exception as error:  # the probe's own failure is the problem to report
            problem, details = f"the health probe failed: {error!r}", {}
        beat = Beat(time.time(), os.getpid(), self.mode, problem is None, problem, details)
        try:
            write_beat(self.path, beat)
        except OSError as error:
            log.error("cannot write the heartbeat %s: %s", self.path, error)
        starting = not self._healthy_once and time.monotonic() - self._started < self.interval
        if problem is None:
            self._healthy_once = True
        elif not starting and (self.last is None or self.last.problem != problem):
            log.warning("unhealthy: %s", problem)
        self.last = beat
        return beat

    async def _run(self) -> None:
        while True:
            await self.beat()
            wait = self.interval if self._healthy_once else min(self.interval, STARTING_INTERVAL)
            await asyncio.sleep(wait)


# ---------------------------------------------------------------- the check


class _HealthSettings(BaseSettings):
    """Only what the check needs, from the same environment as `Settings` (no token)."""

    model_config = SettingsConfigDict(case_sensitive=False, extra="ignore")

    database_path: Path = Settings.model_fields["database_path"].default
    database_url: SecretStr | None = None
    health_max_age_seconds: float = Settings.model_fields["health_max_age_seconds"].default


@dataclass(frozen=True)
class Verdict:
    healthy: bool
    line: str


def check(
    database: Path, max_age: float, *, now: float | None = None, url: str | None = None
) -> Verdict:
    """Judge the heartbeat of the bot whose database is ``database`` (the PostgreSQL server
    at ``url`` if given; the heartbeat is beside ``database`` all the same), and the
    database."""
    path = heartbeat_path(database)
    try:
        beat = Beat.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Verdict(False, f"no heartbeat at {path}: the bot is not running or not up yet")
    except (OSError, ValueError, KeyError, TypeError) as error:
        return Verdict(False, f"the heartbeat {path} cannot be read: {error}")
    age = (time.time() if now is None else now) - beat.at
    if age > max_age:
        return Verdict(
            False, f"the last heartbeat is {age:.0f}s old (limit {max_age:.0f}s): "
            "the bot is stuck or stopped"
        )
    if not beat.ok:
        return Verdict(False, f"{beat.mode}: {beat.problem or 'no reason given'}")
    problem = _database_problem(database) if url is None else asyncio.run(schema_problem(url))
    if problem is not None:
        return Verdict(False, problem)
    numbers = ", ".join(f"{key} {value}" for key, value in sorted(beat.details.items()))
    summary = f"ok: {beat.mode}, heartbeat {max(age, 0):.0f}s ago"
    return Verdict(True, f"{summary}, {numbers}" if numbers else summary)


def _database_problem(database: Path) -> str | None:
    if not database.is_file():
        return f"the database {database} does not exist"
    try:
        connection = sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True,
                                     timeout=2)
    except sqlite3.Error as error:
        return f"the database {database} cannot be opened: {error}"
    try:
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.Error as error:
        return f"the database {database} cannot be read: {error}"
    finally:
        connection.close()
    if not version:
        return f"the database {database} has no schema"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.ops.health",
        description="Exit 0 if the bot is healthy, else 1 with a one-line reason.",
    )
    parser.add_argument("--max-age", type=float, default=None,
                        help="the oldest acceptable heartbeat, in seconds "
                        "(default: HEALTH_MAX_AGE_SECONDS or 120)")
    args = parser.parse_args(argv)
    try:
        settings = _HealthSettings()
    except ValidationError as error:
        problem = error.errors()[0]
        field_name = ".".join(str(part) for part in problem["loc"]).upper()
        print(f"unhealthy: {field_name}: {problem['msg']}")
        return 1
    max_age = args.max_age if args.max_age is not None else settings.health_max_age_seconds
    url = None if settings.database_url is None else settings.database_url.get_secret_value()
    verdict = check(settings.database_path, max_age, url=url)
    print(verdict.line if verdict.healthy else f"unhealthy: {verdict.line}")
    return 0 if verdict.healthy else 1


if __name__ == "__main__":
    sys.exit(main())
