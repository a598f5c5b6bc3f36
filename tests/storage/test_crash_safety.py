"""kill -9 at a random moment loses no committed action and leaves a consistent match.

A child process appends batches of lines in transactions and prints the version after each
commit; the parent kills it with SIGKILL at a random moment, reopens the database and checks
that every version the child reported is there, that the log has no gap and no half batch,
and that the deadline stored with each batch matches the version. Then it does it again on
the same file, so a database recovered from a kill is also written to and killed.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine import Game
from storage import NewSeat, Store
from tests.storage.helpers import GROUP, RULES_3, USERS, seed

ROOT = Path(__file__).resolve().parents[2]
BATCH_LINE = re.compile(r"# batch (\d+) line (\d+)/(\d+)")

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")


async def prepare(path: Path) -> int:
    async with await Store.open(path) as store:
        await seed(store)
        match = await store.matches.create(
            GROUP, game=Game.THOUSAND, players=3, rules=RULES_3,
            seats=[NewSeat.human(USERS[0]), NewSeat.human(USERS[1]), NewSeat.computer("x")],
        )
        return match.match_id


async def inspect(path: Path, match_id: int) -> tuple[int, list[str], list[tuple[int, int]]]:
    async with await Store.open(path) as store:
        match = await store.matches.get(match_id)
        assert match is not None and match.status == "running"
        log = await store.matches.read_log(match_id)  # raises CorruptRow on a gap
        deadlines = [(d.seat, d.version) for d in await store.deadlines.for_match(match_id)]
        integrity = await store.db.fetch_value("PRAGMA integrity_check")
        assert integrity == "ok"
        return match.version, log, deadlines


def check_batches(log: list[str]) -> int:
    """Every batch is whole and the batches are numbered 1, 2, 3, ...; return the count."""
    expected_batch, expected_line, size = 1, 1, 0
    for line in log:
        found = BATCH_LINE.fullmatch(line)
        assert found, line
        batch, index, total = (int(g) for g in found.groups())
        if expected_line == 1:
            size = total
        assert (batch, index, total) == (expected_batch, expected_line, size), line
        if index == total:
            expected_batch, expected_line = expected_batch + 1, 1
        else:
            expected_line += 1
    assert expected_line == 1, "the log ends in the middle of a batch"
    return expected_batch - 1


def test_kill_9_loses_no_committed_action(tmp_path: Path) -> None:
    path = tmp_path / "crash.db"
    match_id = asyncio.run(prepare(path))
    rng = random.Random()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    last_reported = 0
    for round_number in range(3):
        child = subprocess.Popen(
            [sys.executable, "-m", "tests.storage.crash_child", str(path), str(match_id)],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        assert child.stdout is not None
        try:
            assert child.stdout.readline().strip() == "ready", child.stderr
            first = child.stdout.readline().strip()  # at least one commit this round
            assert first.isdigit(), first
            delay = rng.uniform(0.0, 0.3)
            time.sleep(delay)
        finally:
            os.kill(child.pid, signal.SIGKILL)
            rest, errors = child.communicate(timeout=10)
        assert child.returncode == -signal.SIGKILL, errors
        reported = [int(first)] + [int(v) for v in rest.split() if v.isdigit()]
        assert reported == sorted(reported) and reported[0] > last_reported

        version, log, deadlines = asyncio.run(inspect(path, match_id))
        context = f"round {round_number}, killed after {delay:.3f}s, reported {reported[-3:]}"
        assert version == len(log), context
        assert version >= reported[-1], context  # nothing the child reported is lost
        batches = check_batches(log)
        assert deadlines == [(batches % 3, version)], context
        last_reported = version
