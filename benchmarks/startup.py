"""The bot's start-up with many open matches: how soon it serves the first update.

    python -m benchmarks.startup --matches 1000

N running matches of Тысяча (three humans each, in N groups, each in the middle of its
bidding or first trick, with a turn deadline stored) are written through the project's own
storage (`storage.Store`, `MatchWrite`), as the bot would have left them. Then the real bot
(``python -m bot``, a child process) starts against the tests' fake Bot API with Telegram's
flood limits on, and the benchmark measures, from the moment the process is started:

- the first ``getUpdates`` (polling has begun);
- the answer to ``/help`` in a private chat, sent before the bot starts (the first handled
  update; it needs no match);
- the answer to ``/score`` in the group of the middle match (that match must be loaded
  first: a lazily loaded match, with the others still loading);
- how long the background loading of every match took (the bot's log line);
- the sends and edits of the first minute (the redraws recovery makes; without stale-state
  tracking, every table and hand of every match).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import signal
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from benchmarks.load import TOKEN, _policy
from bot.match.matchlog import header_text, next_deal
from engine import Game, apply, format_action, format_deal, legal_actions, new_match, preset
from storage import MatchWrite, NewSeat, Store, TurnDeadline
from tests.fakebot import FakeTelegramServer, SimChat, SimUser

FIRST_USER = 700_000
FIRST_GROUP = -1_000_000_000
PLAYERS = 3
TURN_SECONDS = 900
HELPER = 699_999
"""The user who sends ``/help`` (plays in no match)."""
_LOADED = re.compile(r"loaded (\d+) matches in ([\d.]+) s")


@dataclass(frozen=True)
class Report:
    matches: int
    build_seconds: float
    first_poll_seconds: float
    first_update_seconds: float
    """From starting ``python -m bot`` to its answer of ``/help``."""
    match_command_seconds: float
    """From starting the bot to its answer of ``/score`` in the middle match's group."""
    all_loaded_seconds: float | None
    """How long the bot's background loading of every match took (its log line)."""
    sends_first_minute: int
    load_average: float


async def build(path: Path, groups: list[tuple[SimChat, list[SimUser]]], seed: int) -> None:
    """The running matches, stored as the bot stores them."""
    rng = random.Random(seed)
    policy = _policy(rng)
    rules = preset(Game.THOUSAND)
    async with await Store.open(path, synchronous="NORMAL") as store:
        for index, (group, users) in enumerate(groups):
            await store.chats.upsert(group.id, type="supergroup", title=group.title)
            for user in users:
                await store.users.upsert(user.id, first_name=user.first_name)
                await store.users.set_private_chat_opened(user.id)
            deal_seed = f"startup-{index}"
            match = await store.matches.create(
                group.id,
                game=Game.THOUSAND,
                players=PLAYERS,
                rules=header_text(rules, deal_seed),
                seats=[NewSeat.human(u.id) for u in users],
                turn_seconds=TURN_SECONDS,
            )
            state = new_match(rules)
            deal = next_deal(state, deal_seed)
            state, _ = apply(state, deal)
            lines = list(format_deal(deal))
            for _ in range(rng.randint(1, 12)):
                action = policy(legal_actions(state), 1)
                if action is None:
                    break
                state, _ = apply(state, action)
                lines.append(format_action(action))
            at = datetime.now(UTC) + timedelta(seconds=TURN_SECONDS)
            await store.matches.commit(
                MatchWrite(match.match_id, 0, tuple(lines), deadline=TurnDeadline(state.turn, at))
            )


async def run(matches: int, seed: int = 1) -> Report:
    async with FakeTelegramServer() as server:
        server.limits.enabled = True
        helper = server.user(HELPER, "Справка")
        helper.state.started = True
        groups = []
        for index in range(matches):
            first = FIRST_USER + index * PLAYERS
            users = [server.user(first + k, f"Игрок{index}-{k + 1}") for k in range(PLAYERS)]
            for user in users:
                user.state.started = True
            group = server.group(FIRST_GROUP - index, f"Стол {index}", members=users)
            groups.append((group, users))
        with tempfile.TemporaryDirectory(prefix="tysyacha-startup-") as folder:
            database = Path(folder) / "bot.db"
            began = time.monotonic()
            await build(database, groups, seed)
            built = time.monotonic() - began
            middle_group, middle_users = groups[matches // 2]
            helped = await helper.send(helper, "/help")
            scored = await middle_users[0].send(middle_group, "/score")
            sends = _Counter(server)
            env = {
                **os.environ,
                "TELEGRAM_BOT_TOKEN": TOKEN,
                "TELEGRAM_API_URL": server.root,
                "DATABASE_PATH": str(database),
                "LOG_LEVEL": "INFO",
                "TURN_SECONDS": str(TURN_SECONDS),
            }
            log_path = Path(folder) / "bot.log"
            with log_path.open("wb") as output:
                started = time.monotonic()
                sends.start = started
                process = await asyncio.create_subprocess_exec(
                    sys.executable, "-m", "bot", env=env, stdout=output, stderr=output
                )
            try:
                await server.wait_for(lambda: server.polls_waiting > 0, 120, what="a poll")
                polled = time.monotonic() - started
                await server.wait_for_message(helper, after=helped, timeout=120)
                first_update = time.monotonic() - started
                await server.wait_for_message(middle_group, after=scored, timeout=120)
                match_command = time.monotonic() - started
                await asyncio.sleep(max(0.0, 60 - (time.monotonic() - started)))
                loaded = _loaded_at(log_path)
            finally:
                process.send_signal(signal.SIGTERM)
                try:
                    await asyncio.wait_for(process.wait(), 60)
                except TimeoutError:
                    process.kill()
                    await process.wait()
    return Report(
        matches=matches,
        build_seconds=round(built, 1),
        first_poll_seconds=round(polled, 2),
        first_update_seconds=round(first_update, 2),
        match_command_seconds=round(match_command, 2),
        all_loaded_seconds=loaded,
        sends_first_minute=sends.within(60.0),
        load_average=round(os.getloadavg()[0], 2),
    )


class _Counter:
    """The moments of the sends and edits that passed the fake server's limits."""

    def __init__(self, server: FakeTelegramServer) -> None:
        self.start = 0.0
        self.moments: list[float] = []
        world = server.world
        throttle = world.throttle

        def counted(method: str, chat: object) -> None:
            throttle(method, chat)  # type: ignore[arg-type]
            self.moments.append(time.monotonic())

        world.throttle = counted  # type: ignore[method-assign]

    def within(self, seconds: float) -> int:
        return sum(1 for moment in self.moments if moment - self.start <= seconds)


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
