"""The bot's start-up with many open matches: how soon it serves the first update, and what
it sends again.

    python -m benchmarks.startup --matches 1000

N matches of Тысяча (three humans each, in N groups) are started through the real bot
(``python -m bot``, a child process) against the tests' fake Bot API, as `benchmarks.load`'s
players start them (``/new``, Join, Start), and each plays a few moves (0 to `MOVES`, so some
are still bidding and some in the first trick). Telegram's flood limits are off for this part,
which only builds the state a running bot leaves. Once everything is shown the bot is stopped
as in production (SIGTERM) and, with nothing changed while it was down, started again with the
limits on. From the moment the second process is started, the benchmark measures:

- the first ``getUpdates`` (polling has begun);
- the answer to ``/help`` in a private chat, sent before the bot starts (the first handled
  update; it needs no match);
- the answer to ``/score`` in the group of the middle match (that match must be loaded
  first: a lazily loaded match, with the others still loading);
- how long the background loading of every match took (the bot's log line);
- the calls that send, edit or delete a message in the first minute besides those two
  answers: redraws. Every message already shows its match's state, so any is a redraw that
  was not needed (issue 13).

The turn timer is off (`benchmarks.load.TURN_SECONDS`): a running timer redraws a waiting
turn every 15 s by design, which would hide the redraws counted here.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from benchmarks.load import (
    QUIET_SECONDS,
    SETUP_TIMEOUT,
    BotRun,
    Config,
    Probe,
    Table,
    _drained,
    bot_in_child,
)
from tests.fakebot import FakeTelegramServer, SimMessage

MOVES = 6
"""About the most moves a match makes before the restart..."""
THINK = 0.3
"""... with this mean think time (seconds) of a player."""
DRAWING = ("sendMessage", "editMessageText", "editMessageReplyMarkup", "deleteMessage", "sendPhoto")
"""The Bot API methods a redraw calls."""
HELPER = 499_999
"""The user who sends ``/help`` (plays in no match)."""
_LOADED = re.compile(r"loaded (\d+) matches in ([\d.]+) s")


@dataclass(frozen=True)
class Report:
    matches: int
    moves: int
    """The moves the matches made before the restart (all of them)."""
    build_seconds: float
    first_poll_seconds: float
    first_update_seconds: float
    """From starting ``python -m bot`` to its answer of ``/help``."""
    match_command_seconds: float
    """From starting the bot to its answer of ``/score`` in the middle match's group."""
    all_loaded_seconds: float | None
    """How long the bot's background loading of every match took (its log line)."""
    redraws_first_minute: int
    """Calls that send, edit or delete a message in the first minute (refused or not) besides
    the answers to ``/help`` and ``/score``."""
    load_average: float


async def build(server: FakeTelegramServer, probe: Probe, folder: Path, games: list[Table]) -> int:
    """The matches started and played a little through the bot, every message delivered, and
    the bot stopped; the moves made."""
    server.limits.enabled = False
    bot = BotRun()
    async with bot_in_child(server, folder, bot):
        await asyncio.gather(*(table.gather() for table in games))
        now = time.monotonic()
        for table in games:
            table.start(now + table.rng.uniform(0, MOVES * THINK), 0.0)
        while not all(time.monotonic() >= t.deadline for t in games):
            await asyncio.sleep(0.2)
        for table in games:
            table.done = True
        await _drained(probe, server, bot, QUIET_SECONDS, SETUP_TIMEOUT)
    return sum(t.presses for t in games)


async def run(matches: int, seed: int = 1, window: float = 60.0) -> Report:
    """Build, restart and measure; redraws are counted for ``window`` seconds (the smoke test
    shortens the minute)."""
    rng = random.Random(seed)
    async with FakeTelegramServer() as server:
        config = Config(games=matches, think=THINK)
        games: list[Table] = []
        tables: dict[int, Table] = {}
        probe = Probe(server, lambda message, now: _seen(tables, message, now))
        probe.install()
        for index in range(matches):
            table = Table(index, server, config, random.Random(rng.random()), lambda *_: None)
            games.append(table)
            for user_id in table.user_ids:
                tables[user_id] = table
        helper = server.user(HELPER, "Справка")
        helper.state.started = True
        with tempfile.TemporaryDirectory(prefix="tysyacha-startup-") as name:
            folder = Path(name)
            began = time.monotonic()
            moves = await build(server, probe, folder, games)
            built = time.monotonic() - began
            tables.clear()
            middle = games[matches // 2]
            helped = await helper.send(helper, "/help")
            scored = await middle.users[0].send(middle.group, "/score")
            server.limits.enabled = True
            restarted = BotRun()
            before = server.call_counts.copy()
            started = time.monotonic()
            async with bot_in_child(server, folder, restarted):
                polled = time.monotonic() - started
                await server.wait_for_message(helper, after=helped, timeout=120)
                first_update = time.monotonic() - started
                await server.wait_for_message(middle.group, after=scored, timeout=120)
                match_command = time.monotonic() - started
                await asyncio.sleep(max(0.0, window - (time.monotonic() - started)))
                calls = server.call_counts - before
                loaded = _loaded_at(restarted.logs[0])
    # Every call that shows or removes a message, refused or not; the answers to /help and
    # /score are the two that are not redraws.
    redraws = sum(calls[method] for method in DRAWING) - 2
    return Report(
        matches=matches,
        moves=moves,
        build_seconds=round(built, 1),
        first_poll_seconds=round(polled, 2),
        first_update_seconds=round(first_update, 2),
        match_command_seconds=round(match_command, 2),
        all_loaded_seconds=loaded,
        redraws_first_minute=redraws,
        load_average=round(os.getloadavg()[0], 2),
    )


def _seen(tables: dict[int, Table], message: SimMessage, now: float) -> None:
    table = tables.get(message.chat.id)
    if table is not None:
        table.seen(message, now)


def _loaded_at(log_path: Path) -> float | None:
    """The seconds the bot's log line gives for loading every match."""
    text = log_path.read_text(encoding="utf-8", errors="replace")
    found = _LOADED.search(text)
    if found is None:
        return None
    return float(found[2])


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.startup", description=__doc__)
    parser.add_argument("--matches", type=int, default=1000, help="open matches (1000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args()
    if args.matches < 1:
        parser.error("--matches must be positive")
    report = asyncio.run(run(args.matches, args.seed))
    if args.json:
        print(json.dumps(asdict(report), indent=2, ensure_ascii=False))
        return
    for name, value in asdict(report).items():
        print(f"{name}: {value}")


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main()
