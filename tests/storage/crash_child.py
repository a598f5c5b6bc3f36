"""Child process of the crash-safety test: appends batches of log lines until it is killed.

    python -m tests.storage.crash_child DB_PATH MATCH_ID

It prints ``ready`` once the database is open, then, after each committed transaction, the
match version it committed (one line, flushed). Each transaction appends a batch of 1..5 lines
``# batch B line I/N`` and moves the turn deadline to that version, so the parent can check
that a batch is never half-stored and that the deadline and the log agree.
"""

from __future__ import annotations

import asyncio
import random
import sys
from datetime import UTC, datetime, timedelta

from storage import Store


async def run(path: str, match_id: int) -> None:
    store = await Store.open(path)
    match = await store.matches.get(match_id)
    assert match is not None
    version = match.version
    batch = await store.db.fetch_value(
        "SELECT count(DISTINCT substr(line, 1, instr(line, ' line'))) FROM match_log "
        "WHERE match_id = ?",
        (match_id,),
    )
    assert isinstance(batch, int)
    rng = random.Random()
    print("ready", flush=True)
    while True:
        batch += 1
        size = rng.randint(1, 5)
        lines = [f"# batch {batch} line {i}/{size}" for i in range(1, size + 1)]
        async with store.transaction():
            version = await store.matches.append_actions(match_id, version, lines)
            deadline = datetime.now(UTC) + timedelta(seconds=60)
            await store.deadlines.set(match_id, batch % 3, deadline, version=version)
            await store.deadlines.clear(match_id, (batch + 1) % 3)
            await store.deadlines.clear(match_id, (batch + 2) % 3)
        print(version, flush=True)


if __name__ == "__main__":
    asyncio.run(run(sys.argv[1], int(sys.argv[2])))
