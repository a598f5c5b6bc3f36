"""A crash between a match's last action and its result cannot leave one without the other.

The bot stores the last action and the result in one transaction (`Results.record_match`
refuses to run outside one). A child process (this module run as a script) does exactly that
and is killed with SIGKILL: once at the worst moment — the last line appended, the result not
yet written — and then at random moments while it ends match after match. After each kill
the reopened database holds, for every match, either the last line *and* the result (and
the match is finished) or neither (and the match still runs).

    python -m tests.storage.test_results_crash DB_PATH pause|loop
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine import Game
from storage import MatchResult, NewSeat, PlayerRef, Rating, Results, Store
from tests.storage.helpers import GROUP, RULES_3, USERS, seed

ROOT = Path(__file__).resolve().parents[2]
LAST_LINE = "p1 play AS"
PLAYERS = (PlayerRef.human(USERS[0]), PlayerRef.human(USERS[1]), PlayerRef.computer("x"))

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")


async def _new_match(store: Store) -> int:
    match = await store.matches.create(
        GROUP, game=Game.THOUSAND, players=3, rules=RULES_3,
        seats=[NewSeat.human(USERS[0]), NewSeat.human(USERS[1]), NewSeat.computer("x")],
    )
    await store.matches.append_actions(match.match_id, 0, ["# deal", "p2 pass"])
    return match.match_id


async def _end(store: Store, match_id: int, pause: bool) -> None:
    """The game service's last step: the last action and the result, one transaction."""
    results = Results(store.db)
    async with store.transaction():
        version = await store.matches.append_actions(match_id, 2, [LAST_LINE])
        if pause:
            print("appended", flush=True)
            await asyncio.sleep(60)  # the parent kills us here
        current = await results.ratings_of(PLAYERS, Game.THOUSAND)
        result = MatchResult(
            match_id=match_id, game=Game.THOUSAND, players=PLAYERS, version=version, winner=0,
            scores=(1001, 0, 0), places=(1, 2, 3), settlement=(2002, -1001, -1001), deals=1,
        )
        ratings = [
            Rating(player=p, game=Game.THOUSAND, mu=25.0, sigma=8.0,
                   matches=(current[p].matches if p in current else 0) + 1)
            for p in PLAYERS
        ]
        await results.record_match(result, ratings)


async def child(path: str, mode: str) -> None:
    store = await Store.open(path)
    if mode == "pause":
        match_id = await _new_match(store)
        await _end(store, match_id, pause=True)
        return
    print("ready", flush=True)
    while True:
        match_id = await _new_match(store)
        await _end(store, match_id, pause=False)
        print(match_id, flush=True)


async def inspect(path: Path) -> tuple[int, int]:
    """Check every match is all-or-nothing; return (finished, running) counts."""
    finished = running = 0
    async with await Store.open(path) as store:
        assert await store.db.fetch_value("PRAGMA integrity_check") == "ok"
        results = Results(store.db)
        rows = await store.db.fetch_all("SELECT match_id, status FROM matches")
        for row in rows:
            log = await store.matches.read_log(row["match_id"])
            entry = await results.result_of(row["match_id"])
            if LAST_LINE in log:
                assert row["status"] == "finished" and entry is not None and entry.recorded
                finished += 1
            else:  # still running, or abandoned by an earlier inspection: no result
                assert row["status"] != "finished" and (entry is None or not entry.recorded)
                running += row["status"] == "running"
        rated = await results.rating_of(PLAYERS[2], Game.THOUSAND)
        assert (rated.matches if rated else 0) == finished
        unfinished = await store.matches.list_unfinished()
        for match in unfinished:  # a crash leaves at most a running match: clear the chat
            await store.matches.abandon(match.match_id)
    return finished, running


def _spawn(path: Path, mode: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.storage.test_results_crash", str(path), mode],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


async def _prepare(path: Path) -> None:
    async with await Store.open(path) as store:
        await seed(store)


def test_kill_between_the_last_action_and_the_result(tmp_path: Path) -> None:
    path = tmp_path / "crash.db"
    asyncio.run(_prepare(path))
    process = _spawn(path, "pause")
    assert process.stdout is not None
    line = process.stdout.readline().strip()
    assert line == "appended", process.stderr.read() if process.stderr else line
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    assert asyncio.run(inspect(path)) == (0, 1)


def test_kill_at_random_moments_while_matches_end(tmp_path: Path) -> None:
    path = tmp_path / "crash-loop.db"
    asyncio.run(_prepare(path))
    rng = random.Random()
    total_finished = 0
    for _ in range(3):
        process = _spawn(path, "loop")
        assert process.stdout is not None
        assert process.stdout.readline().strip() == "ready"
        time.sleep(rng.uniform(0.2, 1.0))
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
        finished, running = asyncio.run(inspect(path))
        assert running <= 1 and finished >= total_finished
        total_finished = finished
    assert total_finished >= 1


if __name__ == "__main__":
    asyncio.run(child(sys.argv[1], sys.argv[2]))
