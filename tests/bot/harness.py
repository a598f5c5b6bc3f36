"""Driving the real bot through the fake Bot API: its settings, the running application, and a
`Driver` that plays for simulated people by pressing the buttons they are shown.

The driver also keeps the privacy promise under watch: after every press it checks that no
text ever shown in the group (sent or edited) holds a card that is in a player's private hand
at that time — cards recognized as the renderer writes them (`card_label`).
"""

from __future__ import annotations

import asyncio
import io
import os
import re
import sys
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image
from telegram import Update
from telegram.ext import TypeHandler

from bot.app import build_application, running
from bot.i18n import LOCALES_DIR, Translator
from bot.render import card_label, game_label
from bot.services import Services, services_of
from bot.settings import Settings
from bot.telegram.callbacks import ActionPress, LobbyPress, MenuPress, decode
from engine import Game, Give, Play, Redeal, SeatAction
from engine.cards import CARD_COUNT
from tests.bot.policies import Policy
from tests.fakebot import CallbackAnswer, FakeTelegramServer, SimChat, SimMessage, SimUser

TOKEN = "123456:TEST-token"
LAST_GROUP = 100
LANG = "ru"
FAST = {"group_messages": 1_000_000, "messages_per_second": 1_000_000.0}
"""The fake server's flood limits are off in most tests; the bot's own pacing follows."""

WAIT_STEP = 0.05
"""Seconds the driver waits when nobody it plays for may act."""
TR = Translator(LOCALES_DIR, strict=True)
CONFIRM = TR.text(LANG, "press-confirm")
_TAGS = re.compile(r"<[^>]+>")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
SHEET_SIZE = (1200, 900)


def plain(html_text: str) -> str:
    return _TAGS.sub("", html_text).strip()


def check_score_sheet(message: SimMessage) -> None:
    """The message is the score sheet picture: a valid PNG of 1200 × 900 pixels."""
    assert message.kind == "photo", message
    assert message.file is not None and message.file.data is not None
    assert message.file.data.startswith(PNG_SIGNATURE)
    assert (message.file.width, message.file.height) == SHEET_SIZE
    with Image.open(io.BytesIO(message.file.data)) as image:
        image.verify()
        assert (image.format, image.size) == ("PNG", SHEET_SIZE)


def bot_settings(server: FakeTelegramServer, database: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "telegram_bot_token": TOKEN,
        "telegram_api_url": server.root,
        "database_path": database,
        "deal_seed": "test",
        **FAST,
        **overrides,
    }
    return Settings(**values)


@dataclass
class BotUnderTest:
    """The running application, its services, and the updates it has finished handling."""

    services: Services
    handled: set[int]


@asynccontextmanager
async def running_bot(
    server: FakeTelegramServer,
    database: Path,
    *,
    handled: set[int] | None = None,
    **overrides: Any,
) -> AsyncIterator[BotUnderTest]:
    """The bot in this process; ``handled`` carries the handled updates over a restart."""
    application = build_application(bot_settings(server, database, **overrides))
    handled = set() if handled is None else handled

    async def record(update: Update, context: object) -> None:
        # The last handler group: every handler of the update has finished when it runs.
        handled.add(update.update_id)
        server.world.notifier.touch()

    application.add_handler(TypeHandler(Update, record), group=LAST_GROUP)
    async with running(application, poll_timeout=1):
        yield BotUnderTest(services_of(application), handled)


def bot_environment() -> dict[str, str]:
    """This process's environment without what would put the checkout on another Python's
    path."""
    return {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}


@asynccontextmanager
async def bot_process(
    server: FakeTelegramServer,
    database: Path,
    log: Path,
    python: str = sys.executable,
    cwd: Path | None = None,
    /,
    **extra: str,
) -> AsyncIterator[asyncio.subprocess.Process]:
    """``python -m bot`` against the fake server, once it polls (or has set its webhook);
    ``python`` and ``cwd`` run another installation of the bot."""
    env = {
        **bot_environment(),
        "TELEGRAM_BOT_TOKEN": TOKEN,
        "TELEGRAM_API_URL": server.root,
        "DATABASE_PATH": str(database),
        "DEAL_SEED": "test",
        "LOG_LEVEL": "INFO",
        **{name.upper(): str(value) for name, value in FAST.items()},
        **extra,
    }
    with log.open("ab") as output:
        process = await asyncio.create_subprocess_exec(
            python, "-m", "bot", env=env, stdout=output, stderr=output, cwd=cwd
        )
    try:
        await server.wait_for(
            lambda: server.polls_waiting > 0
            or server.webhook_url is not None
            or process.returncode is not None,
            timeout=30,
            what="the bot process to poll or set its webhook",
        )
        assert process.returncode is None, log.read_text()
        yield process
    finally:
        if process.returncode is None:
            process.kill()
        await process.wait()


@dataclass(frozen=True)
class Option:
    """A game button as some player sees it."""

    user: SimUser
    message: SimMessage
    data: str
    press: ActionPress

    @property
    def action(self) -> SeatAction:
        return self.press.action


class Driver:
    """Plays a group's game through the buttons shown to its people."""

    def __init__(
        self,
        server: FakeTelegramServer,
        group: SimChat,
        users: Iterable[SimUser],
        bot: BotUnderTest | None = None,
        *,
        private_only: bool = False,
    ) -> None:
        self.server = server
        self.private_only = private_only
        self.group = group
        self.users = list(users)
        self.bot = bot
        self.presses = 0
        self._cards = {card_label(c, LANG, TR): c for c in range(CARD_COUNT)}
        self._card_re = re.compile(
            "|".join(re.escape(label) for label in sorted(self._cards, key=len, reverse=True))
        )
        self._games = tuple(game_label(g, lang, TR) for lang in TR.languages() for g in Game)
        self._hand_label = plain(TR.text(LANG, "hand-cards", cards=""))
        self._public_labels = (
            plain(TR.text(LANG, "state-talon", cards="")),
            plain(TR.text(LANG, "event-talon-shown", cards="")),
        )
        self._just_now = plain(TR.text(LANG, "table-note"))
        started = re.escape(plain(TR.text(LANG, "event-deal-started", number=0, name="@")))
        self._deal_started = re.compile(started.replace("0", r"\d+").replace("@", ".+"))
        self._checked = 0
        self._held: dict[int, set[int]] = {}
        self._held_deal = 0
        self._played: dict[int, int] = {}
        """Cards this driver pressed to play, by the deal they were played in."""
        self.result_floor = 0

    # ---------------------------------------------------------------- waiting

    async def settle(self, *, everything: bool = True) -> None:
        """Wait until the bot has handled every update and delivered every message (or only
        the private ones, leaving the group's paced messages on their way)."""
        if self.bot is None:
            await self.server.settle(quiet=0.05)
            return
        handled = self.bot.handled
        await self.server.wait_for(
            lambda: all(u.update_id in handled for u in self.server.updates_emitted),
            what="the bot to handle every update",
        )
        await self.bot.services.games.settled()
        chats = None if everything else [u.id for u in self.users]
        await self.bot.services.outbox.idle(chats)

    # ---------------------------------------------------------------- people's actions

    async def say(self, user: SimUser, text: str, chat: SimChat | None = None) -> SimMessage:
        message = await user.send(chat or self.group, text)
        await self.settle()
        return message

    async def press(self, user: SimUser, message: SimMessage, button: str) -> CallbackAnswer:
        handle = await user.press(message, button)
        answer = await handle.answer()
        await self.settle()
        return answer

    async def act(self, option: Option) -> CallbackAnswer:
        """Press an action's button; conceding and throwing ask first, so those twice."""
        answer = await self.press(option.user, option.message, option.data)
        if answer.text == CONFIRM:
            answer = await self.press(option.user, option.message, option.data)
        return answer

    async def choose(self, policy: Policy) -> Option:
        """The button the policy picks among the newest keyboards shown; the first step of
        giving (the card: the policies give their lowest) is pressed on the way."""
        while True:
            options = self.options()
            newest = max((o.press.version for o in options), default=-1)
            fresh = [o for o in options if o.press.version == newest]
            action = policy([o.action for o in fresh], self.deal_number()) if fresh else None
            if action is not None:
                return next(o for o in fresh if o.action == action)
            choices = self.card_choices()
            assert choices, f"nothing to press among {options}"
            user, message, data, _ = min(choices, key=lambda c: c[3].menu.card or 0)
            await user.press(message, data)
            await self.server.wait_for(
                lambda: any(isinstance(o.action, Give) for o in self.options()),
                timeout=30,
                what="the recipients of a card",
            )

    async def lobby(self) -> SimMessage:
        return await self.server.wait_for_message(self.group, where=_has_lobby_buttons)

    async def invite_link(self, user: SimUser) -> str:
        """The link /invite gives (asked by ``user`` in the group)."""
        asked = await self.say(user, "/invite")
        reply = await self.server.wait_for_message(self.group, after=asked, contains="start=")
        found = re.search(r"https://t\.me/\S+", reply.text)
        assert found, reply.text
        return found[0]

    async def open_lobby(
        self, creator: SimUser, command: str, *, by_button: Iterable[SimUser] = (),
        by_link: Iterable[SimUser] = (),
    ) -> SimMessage:
        """``command`` (/new ...) by the creator; the others join by button or invite link."""
        await self.say(creator, command)
        lobby = await self.lobby()
        self.result_floor = lobby.message_id
        for user in by_button:
            answer = await self.press(user, lobby, TR.text(LANG, "lobby-join"))
            assert answer.text is None, answer.text
        for user in by_link:
            await user.open_link(await self.invite_link(creator))
            await self.settle()
        return lobby

    async def press_lobby(
        self, user: SimUser, lobby: SimMessage, verb: str, arg: str = ""
    ) -> CallbackAnswer:
        """Press the lobby button with this verb (and argument) as shown."""
        for button in lobby.buttons():
            data = str(button.get("callback_data", ""))
            press = decode(data, 4)
            if isinstance(press, LobbyPress) and (press.verb, press.arg) == (verb, arg):
                return await self.press(user, lobby, data)
        raise AssertionError(f"no lobby button {verb} {arg} in {lobby.button_rows()}")

    async def start(self, creator: SimUser, lobby: SimMessage) -> None:
        answer = await self.press_lobby(creator, lobby, "start")
        assert answer.text is None, answer.text

    # ---------------------------------------------------------------- what people see

    def hand(self, user: SimUser) -> SimMessage | None:
        """The user's private hand message (the newest bot message that shows a game)."""
        for message in reversed(user.chat.messages(from_bot=True)):
            if message.text.startswith(self._games):
                return message
        return None

    def options(self) -> list[Option]:
        found = []
        for user in self.users:
            message = self.hand(user)
            if message is None:
                continue
            for button in message.buttons():
                data = str(button.get("callback_data", ""))
                press = decode(data, 4)
                if isinstance(press, ActionPress):
                    found.append(Option(user, message, data, press))
        return found

    def card_choices(self) -> list[tuple[SimUser, SimMessage, str, MenuPress]]:
        """The first step of giving as shown: a button per card, its recipients behind it."""
        found = []
        for user in self.users:
            message = self.hand(user)
            if message is None:
                continue
            for button in message.buttons():
                data = str(button.get("callback_data", ""))
                press = decode(data, 4)
                if isinstance(press, MenuPress) and press.menu.card is not None:
                    found.append((user, message, data, press))
        return found

    def deal_number(self) -> int:
        numbers = [0]
        for user in self.users:
            message = self.hand(user)
            if message is not None:
                found = re.search(r"раздача (\d+)", message.text)
                numbers.append(int(found[1]) if found else 0)
        return max(numbers)

    def match_result(self) -> SimMessage | None:
        for message in reversed(self.group.messages(from_bot=True)):
            if message.message_id <= self.result_floor:
                return None
            if message.text.startswith("🏆"):
                return message
        return None

    def hand_cards(self, user: SimUser) -> set[int]:
        message = self.hand(user)
        if message is None:
            return set()
        cards: set[int] = set()
        for line in message.text.splitlines():
            if self._hand_label in line:
                cards |= self.cards_in(line)
        return cards

    def cards_in(self, text: str) -> set[int]:
        return {self._cards[m] for m in self._card_re.findall(text)}

    # ---------------------------------------------------------------- privacy

    def check_group_secrets(self) -> None:
        """No group text shown since the last check holds a card that stayed in one player's
        private hand all that time (held at the last check and now, in the same deal): a card
        that changed hands meanwhile (played, given, dealt anew) may have been public for a
        moment. Across a new deal nothing stayed, but the next press redraws the table; and a
        table of the new deal tells the moves of the last one that its group may not have
        seen (its "just now" lines before "Раздача N, сдаёт …"): those cards were played
        then, in public, and are not checked against the new deal's hands. A card this driver
        pressed to play in this deal is public too, even while its player's hand message
        still shows it (a bot in another process may edit the table before the hand)."""
        if self.group.type == "private":
            return  # a /solo table shares its chat with the one human's hand
        deal = self.deal_number()
        now = {u.id: self.hand_cards(u) for u in self.users}
        held = self._held if deal == self._held_deal else {}
        played = {card for card, when in self._played.items() if when == deal}
        secret = {
            c: u for u in self.users for c in (now[u.id] & held.get(u.id, set())) - played
        }
        shown = self.group.state.shown
        for entry in shown[self._checked:]:
            if not entry.from_bot:
                continue
            for line in self._this_deal(entry.text.splitlines()):
                if any(label in line for label in self._public_labels):
                    continue
                leaked = self.cards_in(line) & secret.keys()
                assert not leaked, (
                    f"group message {entry.message_id} shows {leaked} held privately by "
                    f"{[secret[c].first_name for c in leaked]}: {line!r}"
                )
        self._checked = len(shown)
        self._held, self._held_deal = now, deal

    def _this_deal(self, lines: list[str]) -> list[str]:
        """A group text's lines without the last deal's moves that a new deal's table tells
        (between "Только что:" and the new deal's first line)."""
        starts = [i for i, line in enumerate(lines) if self._deal_started.fullmatch(line)]
        notes = [i for i, line in enumerate(lines) if line.startswith(self._just_now)]
        if not starts or not notes or notes[0] >= starts[-1]:
            return lines
        return [*lines[:notes[0]], *lines[starts[-1]:]]

    # ---------------------------------------------------------------- playing

    async def play(
        self, policy: Policy, *, stop: Callable[[Driver], bool] | None = None
    ) -> SimMessage | None:
        """Press what the policy picks until the match result appears (returned) or ``stop``
        says so (None)."""
        while True:
            await self.settle(everything=not self.private_only)
            self.check_group_secrets()
            result = self.match_result()
            if result is not None:
                return result
            if stop is not None and stop(self):
                return None
            options = self.options()
            newest = max((o.press.version for o in options), default=0)
            options = [o for o in options if o.press.version == newest]
            action = policy([o.action for o in options], self.deal_number())
            choices = [c for c in self.card_choices() if c[3].version >= newest]
            if action is None and choices:
                # Giving takes two steps; the policies give their lowest card first.
                user, message, data, _ = min(choices, key=lambda c: c[3].menu.card or 0)
                answer = await (await user.press(message, data)).answer()
                assert answer.text is None, answer.text
                continue
            if action is None and options and all(isinstance(o.action, Redeal) for o in options):
                # A redeal the policy does not ask for: a computer waits a moment before it
                # plays on (the option closes with its move).
                await asyncio.sleep(WAIT_STEP)
                continue
            if action is None and self.private_only:
                # The match is over (its result is on its way) or someone else must act (a
                # player away, whose turn timer runs): give the bot's loop time to go on.
                await self.settle()
                await asyncio.sleep(WAIT_STEP)
                continue
            if action is None and self.bot is None:
                # A bot in another process may still be starting or thinking for a computer:
                # wait for a newer keyboard.
                await self._progress(newest)
                continue
            assert action is not None, f"nothing to press among {options}"
            option = next(o for o in options if o.action == action)
            if isinstance(action, Play):
                self._played[action.card] = self.deal_number()
            answer = await (await option.user.press(option.message, option.data)).answer()
            if answer.text == CONFIRM:
                continue  # conceding and throwing are asked first: the policy presses again
            assert answer.text is None, f"{action} was refused: {answer.text}"
            self.presses += 1
            if self.bot is None:
                await self._progress(option.press.version)

    async def _progress(self, version: int) -> None:
        """Wait (for a bot in another process) until a keyboard newer than ``version`` or the
        match result is shown, so that the quiet spell of `settle` comes after the press."""
        await self.server.wait_for(
            lambda: self.match_result() is not None
            or any(o.press.version > version for o in self.options())
            or any(c[3].version > version for c in self.card_choices()),
            what=f"a keyboard newer than version {version}",
        )


def _has_lobby_buttons(message: SimMessage) -> bool:
    return any(
        isinstance(decode(str(b.get("callback_data", "")), 4), LobbyPress)
        for b in message.buttons()
    )
