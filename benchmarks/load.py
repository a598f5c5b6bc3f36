"""The bot under load: N concurrent games of Тысяча in N groups against the fake Bot API.

    python -m benchmarks.load --games 10
    python -m benchmarks.load --games 500 --seconds 180
    python -m benchmarks.load --games 100 --database postgresql://user@127.0.0.1/empty_db
    python -m benchmarks.load --games 300 --workers 3 --database postgresql://user@127.0.0.1/empty_db

The real bot (``python -m bot`` in a child process by default, or the same `Application` in
this process with ``--in-process``) polls the tests' fake Telegram server
(`tests.fakebot.FakeTelegramServer`) with its Telegram-like flood limits ON: 20 messages and
edits a minute per group, 30 a second overall. Each game has three simulated players in their
own group. They gather in a lobby (``/new``, Join, Start); once every game has started they
play by pressing the buttons of their private hand messages, each after a think time drawn
uniformly from ``[0.5, 1.5] × --think`` seconds, with the policy of the bot's tests
(`tests.bot.policies.thousand`: the first player bids the lowest bid, the others pass, the
declarer gives its lowest cards) extended to name the lowest contract and play the lowest
legal card. There are no computer seats, and the turn timer is off (`TURN_SECONDS`), so no
computer player thinks during the run. Each game plays
``--deals`` deals or until ``--seconds`` of play have passed; then the bot is left to deliver
what it still has to. The bot stores in a SQLite file of the run's own, or with
``--database`` in that (empty) PostgreSQL database.

``--workers N`` (with a PostgreSQL ``--database``; issue 17) runs N such child bots of one
token as webhook workers behind a small round-robin reverse proxy (`tests.bot.proxy`), as the
README's "Several webhook workers of one token" has it: the fake server posts every update to
the proxy, which hands it to the next worker; the first worker leads (it alone sends, the
others relay through the database). On PostgreSQL every player sends ``/start`` in its
private chat first: the processes of a shared database take from it whom they may write to
privately, whichever of them loads the match (on SQLite the players are known to have opened
the chat before, and nothing is sent).

What is measured, all on the fake server's side (the clock of this process):

- updates per second: button presses sent to the bot during the playing window;
- latency from a press to its answered callback (``answerCallbackQuery``), to the next
  keyboard (the edit that gives a player the buttons of the next version: what the game
  waits for) and to the presser's own hand being edited;
- Bot API calls per press and per card played (every call but ``getUpdates``, from the first
  press to the end of the delivery);
- the peak number of sends and edits in one group within any 60 s, and overall within any
  1 s; the 429s the server answered (also during the lobbies);
- the database lock per game press, from the bot's log (``lock_wait_ms``/``lock_hold_ms``):
  how long the press waited for the one lock and how long it held it;
- the peak memory of the bot's process (``ru_maxrss``: of the child, or of this whole process
  with the fake server in it when ``--in-process``) and its CPU time per press.

The fake server counts sends and edits (``sendMessage``, ``editMessageText`` ...) against its
limits; ``answerCallbackQuery`` is not counted, as Telegram does not limit answers the same
way. So 30 sends and edits a second over all chats are a hard cap: with many games the
presses wait for their next keyboard in the bot's outbox, and the hand latencies report that
queue, not the bot's speed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import logging
import os
import random
import re
import resource
import shutil
import signal
import statistics
import sys
import tempfile
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bot.ops.health import Beat, heartbeat_path
from bot.telegram.callbacks import ActionPress, LobbyPress, MenuPress, decode
from engine import NameContract, Play, SeatAction
from tests.bot.policies import thousand
from tests.bot.proxy import RoundRobin, free_port, listening
from tests.fakebot import CallbackAnswer, FakeTelegramServer, SimChat, SimMessage, SimUser
from tests.fakebot.state import ChatState

TOKEN = "123456:LOAD-benchmark"
PLAYERS = 3
MAX_SEATS = 4
FIRST_USER = 500_000
SETUP_TIMEOUT = 900.0
QUIET_SECONDS = 1.0
"""The delivery is over when the bot's outbox is empty and it made no call but getUpdates
for this long."""
HEARTBEAT_SECONDS = 1.0
"""The child bot's heartbeat, read to know when its outbox is empty."""
RELAY_QUIET = 3.0
"""With several workers, the delivery is over after this long without a call (the leader
reads what the others relay at least once a second)."""
RAMP_RATE = 5.0
"""Games that make their first press in one second, by default: games in real groups start
one after another, and a steady flow is what the figures are about."""
TURN_SECONDS = 0
"""The turn timer is off: a running timer redraws the table and the hand every 15 s of a
waiting turn, so with 100 games the bot would never be quiet for the `QUIET_SECONDS` that
tell the benchmark its delivery is over; and no player may be replaced by a computer player
(the benchmark has no computer seats)."""
GROUP_WINDOW = 60.0
OVERALL_WINDOW = 1.0
_DEAL = re.compile(r"раздача (\d+)")

log = logging.getLogger("benchmarks.load")


@dataclass(frozen=True)
class Config:
    games: int
    deals: int = 1
    seconds: float = 120.0
    think: float = 1.0
    ramp: float | None = None
    """Seconds over which the games make their first press (None: one game per
    `RAMP_RATE`-th of a second), as games in real groups do not all start at once."""
    seed: int = 1
    in_process: bool = False
    profile: Path | None = None
    """Run the child bot under cProfile and write its statistics here."""
    keep_log: Path | None = None
    """Copy the bot's log here at the end."""
    database: str | None = None
    """A PostgreSQL database (``DATABASE_URL``, empty) instead of a SQLite file."""
    drain_timeout: float = 900.0
    quiet: float = QUIET_SECONDS
    pings: bool = True
    """False: every player sends ``/notify off`` before the lobby, so a turn never comes as a new
    message (the same code without the pings' cost, to compare in one session)."""
    workers: int = 0
    """Webhook workers of one token on the PostgreSQL ``database`` (0: one polling bot)."""


# ---------------------------------------------------------------- what is recorded


@dataclass
class Press:
    """One game button pressed by a simulated player, and when its effects arrived."""

    table: Table
    user_id: int
    version: int
    card: bool
    at: float
    answered: float | None = None
    refused: str | None = None
    keyboard: float | None = None
    own: float | None = None
    last: bool = False
    """The match ended with this press: no next keyboard follows."""


@dataclass
class Probe:
    """Hooks into the fake server's world: answers, sends and edits as they happen."""

    server: FakeTelegramServer
    on_private: Callable[[SimMessage, float], None]
    presses: dict[str, Press] = field(default_factory=dict)
    counted: list[tuple[float, int, bool]] = field(default_factory=list)
    """(time, chat id, is a group) of every send or edit that passed the flood limits."""
    last_call: float = 0.0
    last_call_wall: float = 0.0

    def install(self) -> None:
        world = self.server.world
        answer_callback = world.answer_callback
        throttle = world.throttle
        add_message = world.add_message
        edit_message = world.edit_message

        def answered(query_id: str, answer: CallbackAnswer) -> None:
            answer_callback(query_id, answer)
            press = self.presses.get(query_id)
            if press is not None:
                press.answered = time.monotonic()
                press.refused = answer.text

        def throttled(method: str, chat: ChatState) -> None:
            throttle(method, chat)
            now = time.monotonic()
            self.counted.append((now, chat.id, chat.is_group))

        def added(chat: ChatState, sender: Any, **fields: Any) -> SimMessage:
            message = add_message(chat, sender, **fields)
            self._changed(message)
            return message

        def edited(message: SimMessage, **fields: Any) -> None:
            edit_message(message, **fields)
            self._changed(message)

        world.answer_callback = answered  # type: ignore[method-assign]
        world.throttle = throttled  # type: ignore[method-assign]
        world.add_message = added  # type: ignore[method-assign]
        world.edit_message = edited  # type: ignore[method-assign,assignment]

    def _changed(self, message: SimMessage) -> None:
        if message.from_bot:
            now = time.monotonic()
            self.last_call, self.last_call_wall = now, time.time()
            if not message.chat.is_group:
                self.on_private(message, now)


# ---------------------------------------------------------------- the simulated players


def _policy(rng: random.Random) -> Callable[[Sequence[SeatAction], int], SeatAction | None]:
    base = thousand(play_deals=1_000_000)

    def choose(options: Sequence[SeatAction], deals: int) -> SeatAction | None:
        picked = base(options, deals)
        if picked is not None:
            return picked
        contracts = [a for a in options if isinstance(a, NameContract)]
        if contracts:
            return min(contracts, key=lambda a: a.value)
        plays = sorted((a for a in options if isinstance(a, Play)), key=lambda a: a.card)
        return rng.choice(plays) if plays else None

    return choose


def _actions(message: SimMessage) -> list[tuple[str, ActionPress]]:
    found = []
    for button in message.buttons():
        data = str(button.get("callback_data", ""))
        press = decode(data, MAX_SEATS)
        if isinstance(press, ActionPress):
            found.append((data, press))
    return found


def _card_choices(message: SimMessage) -> list[tuple[str, MenuPress]]:
    """The first step of giving: a button per card, whose recipients are shown next."""
    found = []
    for button in message.buttons():
        data = str(button.get("callback_data", ""))
        press = decode(data, MAX_SEATS)
        if isinstance(press, MenuPress) and press.menu.card is not None:
            found.append((data, press))
    return found


class Table:
    """One game: its group, its three players, and what they press."""

    def __init__(
        self,
        index: int,
        server: FakeTelegramServer,
        config: Config,
        rng: random.Random,
        record: Callable[[str, Press], None],
    ) -> None:
        first = FIRST_USER + index * PLAYERS
        self.users = [
            server.user(first + k, f"Игрок{index}-{k + 1}", f"p{first + k}") for k in range(PLAYERS)
        ]
        for user in self.users:
            user.state.started = True  # they opened the bot's chat before (no /start reply)
        self.group: SimChat = server.group(title=f"Стол {index}", members=self.users)
        self.server = server
        self.config = config
        self.rng = rng
        self.policy = _policy(rng)
        self.record = record
        self.hands: dict[int, SimMessage] = {}
        self.ready = asyncio.Event()
        self.playing = False
        self.deadline = float("inf")
        self.pressed = -1
        self.waiting = False
        self.last: Press | None = None
        self.presses = 0
        self.done = False

    @property
    def user_ids(self) -> list[int]:
        return [u.id for u in self.users]

    async def gather(self) -> None:
        """``/new`` by the first player, Join by the others, Start by the first (each player
        first sends ``/start`` on PostgreSQL, and switches the turn pings off with
        ``/notify off`` when the run measures without)."""
        if self.config.database:
            for user in self.users:
                asked = await user.send(user.chat, "/start")
                await self.server.wait_for_message(user.chat, after=asked, timeout=SETUP_TIMEOUT)
        if not self.config.pings:
            for user in self.users:
                asked = await user.send(user.chat, "/notify off")
                await self.server.wait_for_message(user.chat, after=asked, timeout=SETUP_TIMEOUT)
        creator, *others = self.users
        asked = await creator.send(self.group, "/new")
        lobby = await self.server.wait_for_message(
            self.group, after=asked, where=_lobby_message, timeout=SETUP_TIMEOUT
        )
        for user in others:
            answer = await (await user.press(lobby, _lobby_data(lobby, "join"))).answer(
                timeout=SETUP_TIMEOUT
            )
            if answer.text is not None:
                raise RuntimeError(f"join refused: {answer.text}")
        start = await creator.press(lobby, _lobby_data(lobby, "start"))
        answer = await start.answer(timeout=SETUP_TIMEOUT)
        if answer.text is not None:
            raise RuntimeError(f"start refused: {answer.text}")
        await asyncio.wait_for(self.ready.wait(), SETUP_TIMEOUT)

    def seen(self, message: SimMessage, now: float) -> None:
        """A bot message in one of the players' private chats was sent or edited."""
        user_id = message.chat.id
        self.hands[user_id] = message
        if len(self.hands) == PLAYERS:
            self.ready.set()
        press = self.last
        if press is not None:
            if press.own is None and press.user_id == user_id:
                press.own = now
            if press.keyboard is None and any(
                p.version > press.version for _, p in _actions(message)
            ):
                press.keyboard = now
        self.consider()

    def start(self, deadline: float, delay: float) -> None:
        self.deadline = deadline
        asyncio.get_running_loop().call_later(delay, self._begin)

    def _begin(self) -> None:
        self.playing = True
        self.consider()

    def consider(self) -> None:
        """Schedule the next press if some player is shown buttons newer than the last."""
        if not self.playing or self.waiting or self.done:
            return
        if time.monotonic() >= self.deadline:
            self.done = True
            return
        options: list[tuple[SimMessage, str, ActionPress]] = []
        for message in self.hands.values():
            options += [(message, data, press) for data, press in _actions(message)]
        newest = max((p.version for _, _, p in options), default=-1)
        if newest <= self.pressed:
            self._choose_card()
            return
        deal = self.deal()
        if deal > self.config.deals:
            self.done = True
            return
        fresh = [o for o in options if o[2].version == newest]
        action = self.policy([p.action for _, _, p in fresh], deal)
        if action is None:
            self._choose_card()
            return
        message, data, press = next(o for o in fresh if o[2].action == action)
        self.pressed, self.waiting = newest, True
        delay = self.rng.uniform(0.5, 1.5) * self.config.think
        loop = asyncio.get_running_loop()
        loop.call_later(delay, self._press, message, data, press)

    def _choose_card(self) -> None:
        """Giving takes two steps: open the lowest card's recipients (the policy gives it)."""
        for message in self.hands.values():
            choices = [c for c in _card_choices(message) if c[1].version > self.pressed]
            if choices:
                data, _ = min(choices, key=lambda c: c[1].menu.card or 0)
                self.waiting = True
                delay = self.rng.uniform(0.5, 1.5) * self.config.think
                asyncio.get_running_loop().call_later(delay, self._navigate, message, data)
                return

    def _navigate(self, message: SimMessage, data: str) -> None:
        self.waiting = False
        user = next(u for u in self.users if u.id == message.chat.id)
        if message.find_button(data) is None:
            self.consider()
            return
        record = self.server.world.new_callback(user.state, user.id, message.message_id, data)
        # Counted for its answer only: it shows recipients, no newer keyboard.
        self.record(record.id, Press(self, user.id, -1, False, time.monotonic()))
        self._emit_press(user, message, record.id, data)

    def _emit_press(self, user: SimUser, message: SimMessage, callback_id: str, data: str) -> None:
        """The player's press reaches the bot as a callback query on ``message``."""
        self.presses += 1
        self.server.world.emit(
            "callback_query",
            {
                "id": callback_id,
                "from": user.to_api(),
                "message": message.to_api(),
                "chat_instance": str(user.id * 7919),
                "data": data,
            },
            user.id,
        )

    def deal(self) -> int:
        numbers = [0]
        for message in self.hands.values():
            found = _DEAL.search(message.text)
            if found:
                numbers.append(int(found[1]))
        return max(numbers)

    def _press(self, message: SimMessage, data: str, press: ActionPress) -> None:
        self.waiting = False
        user = next(u for u in self.users if u.id == message.chat.id)
        if message.find_button(data) is None:
            self.consider()  # the keyboard changed meanwhile
            return
        record = self.server.world.new_callback(user.state, user.id, message.message_id, data)
        entry = Press(
            self, user.id, press.version, isinstance(press.action, Play), time.monotonic()
        )
        self.record(record.id, entry)
        self.last = entry
        self._emit_press(user, message, record.id, data)


def _lobby_message(message: SimMessage) -> bool:
    return any(
        isinstance(decode(str(b.get("callback_data", "")), MAX_SEATS), LobbyPress)
        for b in message.buttons()
    )


def _lobby_data(message: SimMessage, verb: str) -> str:
    for button in message.buttons():
        data = str(button.get("callback_data", ""))
        press = decode(data, MAX_SEATS)
        if isinstance(press, LobbyPress) and press.verb == verb:
            return data
    raise RuntimeError(f"no {verb} button in {message.button_rows()}")


# ---------------------------------------------------------------- the bot


@dataclass
class BotRun:
    memory_kb: int = 0
    cpu_seconds: float = 0.0
    cpu: Callable[[], float] | None = None
    """The bot's CPU seconds so far (to measure the playing alone)."""
    errors: int = 0
    handler_ms: list[float] = field(default_factory=list)
    lock_wait_ms: list[float] = field(default_factory=list)
    lock_hold_ms: list[float] = field(default_factory=list)
    logs: list[Path] = field(default_factory=list)
    """The bot's log (one per worker)."""
    idle: Callable[[], Awaitable[None]] | None = None
    """In this process: wait until the bot's outbox has delivered everything."""
    database: str | None = None
    """The PostgreSQL database of the run (None: a SQLite file in the run's folder)."""
    heartbeats: list[Path] = field(default_factory=list)
    """In children: the heartbeat files that tell how much their outboxes hold."""
    workers: int = 0
    """Webhook workers (0: one polling bot)."""

    def read_logs(self) -> None:
        """The errors and the presses' times, from the logs (once the bots have stopped)."""
        if not self.logs:
            return
        self.errors = sum(_errors(path) for path in self.logs)
        self.handler_ms = sorted(ms for path in self.logs for ms in _handler_ms(path))
        waits, holds = zip(*(_lock_ms(path) for path in self.logs), strict=True)
        self.lock_wait_ms = sorted(ms for found in waits for ms in found)
        self.lock_hold_ms = sorted(ms for found in holds for ms in found)


def _environment(
    server: FakeTelegramServer, database: Path, url: str | None = None
) -> dict[str, str]:
    return {
        "TELEGRAM_BOT_TOKEN": TOKEN,
        "TELEGRAM_API_URL": server.root,
        "DATABASE_PATH": str(database),
        "DATABASE_URL": url or "",
        "LOG_LEVEL": "INFO",
        "HEARTBEAT_SECONDS": str(HEARTBEAT_SECONDS),
        "TURN_SECONDS": str(TURN_SECONDS),
    }


@asynccontextmanager
async def bot_in_child(
    server: FakeTelegramServer, folder: Path, run: BotRun, profile: Path | None = None
) -> AsyncIterator[None]:
    """``python -m bot`` polling the fake server; its rusage is read once it has exited."""
    log_path = folder / "bot.log"
    run.logs = [log_path]
    run.heartbeats = [heartbeat_path(folder / "bot.db")]
    env = {**os.environ, **_environment(server, folder / "bot.db", run.database)}
    with log_path.open("wb") as output:
        profiling = ["-m", "cProfile", "-o", str(profile)] if profile is not None else []
        process = await asyncio.create_subprocess_exec(
            sys.executable, *profiling, "-m", "bot", env=env, stdout=output, stderr=output
        )
    run.cpu = lambda: _child_cpu(process.pid)
    try:
        await server.wait_for(
            lambda: server.polls_waiting > 0 or process.returncode is not None,
            timeout=60,
            what="the bot to poll",
        )
        if process.returncode is not None:
            raise RuntimeError(f"the bot exited: {log_path.read_text()[-2000:]}")
        yield
    finally:
        await _stop(process)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        run.memory_kb = after.ru_maxrss
        run.read_logs()
        run.cpu = None


async def _stop(process: asyncio.subprocess.Process) -> None:
    if process.returncode is None:
        process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(process.wait(), 60)
        except TimeoutError:
            process.kill()
            await process.wait()


WEBHOOK_SECRET = "load-benchmark"


@asynccontextmanager
async def workers_in_children(
    server: FakeTelegramServer, folder: Path, run: BotRun, profile: Path | None = None
) -> AsyncIterator[None]:
    """``run.workers`` processes of ``python -m bot`` on the PostgreSQL database, as webhook
    workers behind a round-robin proxy; the first one leads (it registers the webhook)."""
    if profile is not None:
        raise ValueError("--profile runs one child bot, not workers")
    ports = [free_port() for _ in range(run.workers)]
    proxy = RoundRobin(ports)
    processes: list[asyncio.subprocess.Process] = []
    run.cpu = lambda: sum(_child_cpu(process.pid) for process in processes)
    async with proxy.running() as hook:
        try:
            for index, port in enumerate(ports):
                database = folder / f"worker{index}.db"
                log_path = folder / f"worker{index}.log"
                run.logs.append(log_path)
                run.heartbeats.append(heartbeat_path(database))
                env = {
                    **os.environ, **_environment(server, database, run.database),
                    "WEBHOOK_URL": hook, "WEBHOOK_SECRET": WEBHOOK_SECRET,
                    "WEBHOOK_LISTEN": "127.0.0.1", "WEBHOOK_PORT": str(port),
                }
                with log_path.open("wb") as output:
                    processes.append(await asyncio.create_subprocess_exec(
                        sys.executable, "-m", "bot", env=env, stdout=output, stderr=output
                    ))
                await _listening(port, processes[-1], log_path)
            if server.webhook_url != hook:
                raise RuntimeError("the leading worker did not register the webhook")
            yield
        finally:
            for process in reversed(processes):  # the followers first: nobody takes over
                await _stop(process)
            run.memory_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            run.read_logs()
            run.cpu = None


async def _listening(port: int, process: asyncio.subprocess.Process, log_path: Path) -> None:
    """Wait until a worker serves its webhook port."""
    if await listening(port, seconds=60, alive=lambda: process.returncode is None):
        return
    raise RuntimeError(f"a worker does not listen: {log_path.read_text()[-2000:]}")


def _child_cpu(pid: int) -> float:
    """CPU seconds (user + system) of a running child, from /proc (0 where there is none)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@asynccontextmanager
async def bot_in_process(
    server: FakeTelegramServer, folder: Path, run: BotRun, profile: Path | None = None
) -> AsyncIterator[None]:
    """The same `Application` in this process and loop (what the smoke test runs)."""
    from bot.app import build_application, running
    from bot.services import services_of
    from bot.settings import Settings

    log_path = folder / "bot.log"
    run.logs = [log_path]
    handler = logging.FileHandler(log_path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    old_level = root.level
    root.setLevel(logging.INFO)
    quiet = {name: logging.getLogger(name) for name in ("httpx", "telegram.ext.AIORateLimiter")}
    levels = {name: logger.level for name, logger in quiet.items()}
    quiet["httpx"].setLevel(logging.WARNING)
    quiet["telegram.ext.AIORateLimiter"].setLevel(logging.CRITICAL)
    env: dict[str, Any] = _environment(server, folder / "bot.db", run.database)
    settings = Settings(**{name.lower(): value for name, value in env.items()})
    run.cpu = _own_cpu
    try:
        application = build_application(settings)
        async with running(application, poll_timeout=10):
            run.idle = services_of(application).outbox.idle
            yield
    finally:
        after = resource.getrusage(resource.RUSAGE_SELF)
        run.memory_kb = after.ru_maxrss
        run.cpu = None
        root.removeHandler(handler)
        handler.close()
        root.setLevel(old_level)
        for name, logger in quiet.items():
            logger.setLevel(levels[name])
        run.read_logs()


def _errors(path: Path) -> int:
    with path.open(encoding="utf-8", errors="replace") as lines:
        return sum(1 for line in lines if " ERROR " in line or " CRITICAL " in line)


_HANDLED = re.compile(r" kind=press .* action=.* ms=(\d+)$")


def _handler_ms(path: Path) -> list[float]:
    """How long the bot's press handler took for each game press (its own log lines)."""
    with path.open(encoding="utf-8", errors="replace") as lines:
        return sorted(float(m[1]) for line in lines if (m := _HANDLED.search(line.rstrip())))


_LOCK = re.compile(r" lock_wait_ms=([\d.]+) lock_hold_ms=([\d.]+) ")


def _lock_ms(path: Path) -> tuple[list[float], list[float]]:
    """How long each game press waited for the database's lock and held it, summed over
    its holdings (its log line; a press that never took the lock counts 0)."""
    waits, holds = [], []
    with path.open(encoding="utf-8", errors="replace") as lines:
        for line in lines:
            if _HANDLED.search(line.rstrip()):
                found = _LOCK.search(line)
                waits.append(float(found[1]) if found else 0.0)
                holds.append(float(found[2]) if found else 0.0)
    return sorted(waits), sorted(holds)


# ---------------------------------------------------------------- the run


@dataclass(frozen=True)
class Report:
    games: int
    think: float
    mode: str
    pings: bool
    setup_seconds: float
    play_seconds: float
    drain_seconds: float
    presses: int
    cards: int
    deals_finished: int
    updates_per_second: float
    answer_p50_ms: float
    answer_p99_ms: float
    answer_max_ms: float
    handler_p50_ms: float
    handler_p99_ms: float
    """The bot's own time for a game press, from its log (the rest of the answer's latency is
    the fake server's and the machine's)."""
    lock_wait_p50_ms: float
    lock_wait_p99_ms: float
    lock_hold_p50_ms: float
    lock_hold_p99_ms: float
    """The database's lock per game press: waited for, and held (its log line)."""
    keyboard_p50_ms: float
    keyboard_p99_ms: float
    own_hand_p50_ms: float
    own_hand_p99_ms: float
    unanswered: int
    refused: int
    calls: int
    calls_by_method: dict[str, int]
    calls_per_press: float
    calls_per_card: float
    sends_edits_per_press: float
    group_sends_edits_per_press: float
    """Of those, the groups' (the tables, deal results); the rest went to the hands."""
    peak_group_per_minute: int
    peak_overall_per_second: int
    served_429: int
    peak_memory_mb: float
    cpu_ms_per_press: float
    bot_errors: int
    load_average: float
    """The machine's 1-minute load average at the end (other processes share the CPUs)."""

    def row(self) -> str:
        """One row of the table in ``benchmarks/README.md``."""
        return (
            f"| {self.games} | {'on' if self.pings else 'off'} | "
            f"{self.presses} ({self.cards} cards) | "
            f"{self.updates_per_second:.1f} | "
            f"{self.answer_p50_ms:.0f} / {self.answer_p99_ms:.0f} | "
            f"{self.handler_p50_ms:.0f} / {self.handler_p99_ms:.0f} | "
            f"{self.lock_wait_p50_ms:.1f} / {self.lock_wait_p99_ms:.1f} | "
            f"{self.lock_hold_p50_ms:.1f} / {self.lock_hold_p99_ms:.1f} | "
            f"{_seconds(self.keyboard_p50_ms)} / {_seconds(self.keyboard_p99_ms)} | "
            f"{_seconds(self.own_hand_p50_ms)} / {_seconds(self.own_hand_p99_ms)} | "
            f"{self.calls_per_press:.2f} / {self.calls_per_card:.2f} | "
            f"{self.sends_edits_per_press:.2f} | "
            f"{self.peak_group_per_minute} | {self.peak_overall_per_second} | "
            f"{self.served_429} | {self.peak_memory_mb:.0f} | {self.cpu_ms_per_press:.1f} |"
        )


def _seconds(ms: float) -> str:
    return f"{ms:.0f} ms" if ms < 1000 else f"{ms / 1000:.1f} s"


HEADER = (
    "| games | pings | presses | updates/s | answer p50 / p99 ms | bot handler p50 / p99 ms | "
    "lock wait p50 / p99 ms | lock hold p50 / p99 ms | next keyboard p50 / p99 | "
    "own hand p50 / p99 | calls per press / per card | sends+edits per press | "
    "peak group /min | peak overall /s | 429s | peak MB | bot CPU ms/press |\n"
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
)


def _percentile(values: Sequence[float], q: int) -> float:
    if not values:
        return 0.0
    if len(values) == 1:
        return values[0]
    return (
        statistics.quantiles(values, n=100, method="inclusive")[q - 1] if q < 100 else max(values)
    )


def _peak(times: Iterable[float], window: float) -> int:
    """The most events within any window of this length (half-open, like the server's)."""
    best = 0
    inside: deque[float] = deque()
    for moment in sorted(times):
        inside.append(moment)
        while inside[0] <= moment - window:
            inside.popleft()
        best = max(best, len(inside))
    return best


async def _drained(
    probe: Probe, server: FakeTelegramServer, bot_run: BotRun, quiet: float, timeout: float
) -> None:
    """Wait until the bot's outbox holds nothing (as the outbox itself or the child's
    heartbeat says) and the bot has made no call but getUpdates for ``quiet`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        if bot_run.idle is not None:
            await asyncio.wait_for(bot_run.idle(), max(0.0, deadline - time.monotonic()))
            empty = True
        else:
            empty = all(_empty(path, probe.last_call_wall) for path in bot_run.heartbeats)
        now = time.monotonic()
        last = max(probe.last_call, _last_work(server))
        world = server.world
        busy = (
            world.inflight > 0 or world.updates.unfetched_count > 0
            or world.webhook.pending_count > 0
        )
        if empty and not busy and now - last >= quiet:
            return
        if now >= deadline:
            raise TimeoutError(f"the bot was still busy after {timeout:g}s")
        await asyncio.sleep(0.1)


HEARTBEAT_CALLS = frozenset({"getUpdates", "getWebhookInfo"})
"""What a bot asks the server while it waits (the long poll; a webhook worker's heartbeat,
every `HEARTBEAT_SECONDS`): not counted as its work."""


def _last_work(server: FakeTelegramServer) -> float:
    """When the bot last called the server for anything but its waiting (`HEARTBEAT_CALLS`)."""
    for call in reversed(server.world.calls):
        if call.method not in HEARTBEAT_CALLS:
            return call.at
    return 0.0


def _empty(heartbeat: Path, since: float) -> bool:
    """The child's heartbeat, written after ``since`` (Unix time), shows an empty outbox."""
    try:
        beat = Beat.loads(heartbeat.read_text(encoding="utf-8"))
    except (OSError, ValueError, KeyError, TypeError):
        return False
    return beat.at > since and beat.details.get("queued") == 0 and not beat.details.get("waiting")


async def run(config: Config) -> Report:
    """Play the benchmark once and measure it."""
    try:
        return await _measure(config)
    finally:
        # What was frozen for the measurement is garbage now (in a test, the whole run).
        gc.unfreeze()


async def _measure(config: Config) -> Report:
    rng = random.Random(config.seed)
    presses: dict[str, Press] = {}
    tables: dict[int, Table] = {}

    def on_private(message: SimMessage, now: float) -> None:
        table = tables.get(message.chat.id)
        if table is not None:
            table.seen(message, now)

    bot_run = BotRun(database=config.database, workers=config.workers)
    async with FakeTelegramServer() as server:
        server.limits.enabled = True
        probe = Probe(server, on_private, presses)
        probe.install()
        games = [
            Table(i, server, config, random.Random(rng.random()), presses.__setitem__)
            for i in range(config.games)
        ]
        for table in games:
            for user_id in table.user_ids:
                tables[user_id] = table
        with tempfile.TemporaryDirectory(prefix="tysyacha-load-") as folder:
            launch = (
                bot_in_process if config.in_process
                else workers_in_children if config.workers else bot_in_child
            )
            # Several workers: the leader takes what the others relay within a poll of 1 s.
            quiet = max(config.quiet, RELAY_QUIET) if config.workers else config.quiet
            async with launch(server, Path(folder), bot_run, config.profile):
                began = time.monotonic()
                await asyncio.gather(*(table.gather() for table in games))
                await _drained(probe, server, bot_run, quiet, config.drain_timeout)
                # The simulated players and the fake server live until the end: a full collection
                # of this process would otherwise delay the presses and the answers it measures.
                gc.collect()
                gc.freeze()
                released = time.monotonic()
                calls_before = server.call_counts.copy()
                cpu_before = bot_run.cpu() if bot_run.cpu is not None else 0.0
                deadline = released + config.seconds
                ramp = config.ramp if config.ramp is not None else config.games / RAMP_RATE
                for table in games:
                    table.start(deadline, rng.uniform(0, ramp))
                while not all(t.done for t in games) and time.monotonic() < deadline:
                    await asyncio.sleep(0.2)
                for table in games:
                    table.done = True
                stopped = time.monotonic()
                await server.wait_for(
                    lambda: all(p.answered is not None for p in presses.values()),
                    timeout=config.drain_timeout,
                    what="every press to be answered",
                )
                await _drained(probe, server, bot_run, quiet, config.drain_timeout)
                drained = time.monotonic() - quiet
                calls = server.call_counts - calls_before
                if bot_run.cpu is not None:
                    bot_run.cpu_seconds = bot_run.cpu() - cpu_before
                for method in HEARTBEAT_CALLS:
                    calls.pop(method, None)
            served = len(server.served_429)
            if config.keep_log is not None and bot_run.logs:
                with config.keep_log.open("wb") as kept:
                    for path in bot_run.logs:
                        with path.open("rb") as part:
                            shutil.copyfileobj(part, kept)
        deals = sum(max(0, t.deal() - 1) for t in games)
    return _report(
        config,
        bot_run,
        list(presses.values()),
        calls,
        served,
        probe.counted,
        deals,
        released=released,
        setup=released - began,
        play=stopped - released,
        drain=drained - stopped,
    )


def _report(
    config: Config,
    bot_run: BotRun,
    presses: list[Press],
    calls: Any,
    served: int,
    counted: list[tuple[float, int, bool]],
    deals: int,
    *,
    released: float,
    setup: float,
    play: float,
    drain: float,
) -> Report:
    def ms(values: Iterable[float]) -> list[float]:
        return sorted(v * 1000 for v in values)

    answers = ms(p.answered - p.at for p in presses if p.answered is not None)
    keyboards = ms(p.keyboard - p.at for p in presses if p.keyboard is not None)
    own = ms(p.own - p.at for p in presses if p.own is not None)
    cards = sum(1 for p in presses if p.card)
    total = sum(calls.values())
    groups: dict[int, list[float]] = {}
    for moment, chat_id, is_group in counted:
        if is_group:
            groups.setdefault(chat_id, []).append(moment)
    sends_edits = sum(
        count for method, count in calls.items() if method.startswith(("send", "edit"))
    )
    return Report(
        games=config.games,
        think=config.think,
        mode=(
            "in-process" if config.in_process
            else f"{config.workers} webhook workers" if config.workers else "child process"
        ),
        pings=config.pings,
        setup_seconds=round(setup, 1),
        play_seconds=round(play, 1),
        drain_seconds=round(drain, 1),
        presses=len(presses),
        cards=cards,
        deals_finished=deals,
        updates_per_second=len(presses) / play if play > 0 else 0.0,
        answer_p50_ms=_percentile(answers, 50),
        answer_p99_ms=_percentile(answers, 99),
        answer_max_ms=max(answers, default=0.0),
        handler_p50_ms=_percentile(bot_run.handler_ms, 50),
        handler_p99_ms=_percentile(bot_run.handler_ms, 99),
        lock_wait_p50_ms=_percentile(bot_run.lock_wait_ms, 50),
        lock_wait_p99_ms=_percentile(bot_run.lock_wait_ms, 99),
        lock_hold_p50_ms=_percentile(bot_run.lock_hold_ms, 50),
        lock_hold_p99_ms=_percentile(bot_run.lock_hold_ms, 99),
        keyboard_p50_ms=_percentile(keyboards, 50),
        keyboard_p99_ms=_percentile(keyboards, 99),
        own_hand_p50_ms=_percentile(own, 50),
        own_hand_p99_ms=_percentile(own, 99),
        unanswered=sum(1 for p in presses if p.answered is None),
        refused=sum(1 for p in presses if p.refused is not None),
        calls=total,
        calls_by_method=dict(sorted(calls.items())),
        calls_per_press=total / len(presses) if presses else 0.0,
        calls_per_card=total / cards if cards else 0.0,
        sends_edits_per_press=sends_edits / len(presses) if presses else 0.0,
        group_sends_edits_per_press=(
            sum(1 for moment, _, is_group in counted if is_group and moment >= released)
            / len(presses)
            if presses
            else 0.0
        ),
        peak_group_per_minute=max(
            (_peak(times, GROUP_WINDOW) for times in groups.values()), default=0
        ),
        peak_overall_per_second=_peak((c[0] for c in counted), OVERALL_WINDOW),
        served_429=served,
        peak_memory_mb=bot_run.memory_kb / 1024,
        cpu_ms_per_press=bot_run.cpu_seconds * 1000 / len(presses) if presses else 0.0,
        bot_errors=bot_run.errors,
        load_average=round(os.getloadavg()[0], 2),
    )


def _arguments(argv: Sequence[str] | None) -> Config:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.load", description=__doc__.split("\n\n")[0] if __doc__ else ""
    )
    parser.add_argument("--games", type=int, required=True, help="concurrent games (groups)")
    parser.add_argument("--deals", type=int, default=1, help="deals each game plays (1)")
    parser.add_argument(
        "--seconds", type=float, default=120.0, help="stop pressing after this long (120)"
    )
    parser.add_argument(
        "--think",
        type=float,
        default=1.0,
        help="mean think time of a player before a press, in seconds (1.0)",
    )
    parser.add_argument(
        "--ramp",
        type=float,
        default=None,
        help="seconds over which the games make their first press "
        f"(default: games / {RAMP_RATE:g})",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--in-process",
        action="store_true",
        help="run the bot in this process instead of `python -m bot`",
    )
    parser.add_argument(
        "--database",
        default=None,
        help="an empty PostgreSQL database (postgresql://...) instead of a SQLite file",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=0,
        help="run this many bot processes as webhook workers of one token behind a proxy "
        "(with a PostgreSQL --database)",
    )
    parser.add_argument(
        "--no-pings",
        action="store_true",
        help="every player sends /notify off first: turns are never new messages",
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--log", type=Path, default=None, help="keep the bot's log in this file")
    parser.add_argument(
        "--profile",
        type=Path,
        default=None,
        help="run the bot's child process under cProfile, statistics to this file",
    )
    args = parser.parse_args(argv)
    if args.games < 1 or args.deals < 1 or args.seconds <= 0 or args.think < 0:
        parser.error("--games and --deals must be positive, --seconds > 0, --think >= 0")
    if args.workers < 0 or (args.workers and (
        not str(args.database or "").startswith("postgres") or args.in_process or args.profile
    )):
        parser.error("--workers needs a PostgreSQL --database, a child process, no --profile")
    return Config(
        games=args.games,
        deals=args.deals,
        seconds=args.seconds,
        think=args.think,
        ramp=args.ramp,
        seed=args.seed,
        in_process=args.in_process,
        profile=args.profile,
        keep_log=args.log,
        database=args.database,
        pings=not args.no_pings,
        workers=args.workers,
    )


def main(argv: Sequence[str] | None = None) -> None:
    config = _arguments(argv)
    json_output = "--json" in (argv if argv is not None else sys.argv[1:])
    report = asyncio.run(run(config))
    if json_output:
        print(json.dumps(asdict(report), indent=2, ensure_ascii=False))
        return
    print(HEADER)
    print(report.row())
    print()
    for name, value in asdict(report).items():
        print(f"{name}: {value}")


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main()
