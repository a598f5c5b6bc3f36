"""The lobby flow: a group's game is gathered in one message, then started as a match.

`/new` opens a lobby (the creator sits first); Join / Leave put people at the table; the
creator's Settings screen chooses the game, the number of players and every option of the
game; Start hands the full lobby to the game service, and the lobby message becomes the
match's table. An invite link (``/start join-<id>``) seats whoever opens it. Anyone in the
group may fill a free seat with a computer player (easy or hard) and take the last computer
out again; the creator's settings also hold the turn timer. Which screen the message shows
(the seats or the settings) is stored with the lobby, so that any process of a shared
database takes the next press. The service gathers what the message shows
(`bot.render.lobby.LobbyScreen`) and renders it with the pure functions there.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from bot.chats.people import ANONYMOUS_ADMIN_ID, People
from bot.i18n import Translator
from bot.match.matchlog import header_text, rules_of
from bot.match.service import Games
from bot.match.turns import turn_choices
from bot.ops.logs import note
from bot.render.lobby import LobbyScreen, render_lobby, render_lobby_settings
from bot.telegram.callbacks import LobbyPress
from bot.telegram.outbox import Content, Outbox
from bot.telegram.relay import Remember
from engine import OPTIONS, Game, Rules, preset
from engine.rules import PLAYER_COUNTS
from storage import (
    AlreadySeated,
    ChatBusy,
    Lobby,
    LobbyFull,
    LobbyNotFull,
    NotFound,
    Store,
    WrongStatus,
)

COMPUTER_LEVELS = ("easy", "hard")
"""The computer players a lobby offers (``engine.ai.levels``; "random" is for benchmarks)."""


def lobby_key(lobby_id: int) -> str:
    return f"lobby:{lobby_id}"


def lobby_sent(store: Store, lobby_id: int) -> Remember:
    """What a newly sent lobby message's id updates (relayed by a follower)."""

    async def remember(message_id: int) -> None:
        await store.lobbies.set_message_id(lobby_id, message_id)

    return Remember("lobby", (lobby_id,), remember)


@dataclass(frozen=True)
class Created:
    """The outcome of `/new`: the lobby, or the id of the message that explains a refusal."""

    lobby: Lobby | None
    refusal: str | None = None


class Lobbies:
    """Open lobbies: their seats, settings and messages."""

    def __init__(
        self,
        store: Store,
        people: People,
        games: Games,
        outbox: Outbox,
        tr: Translator,
        bot_username: str,
        *,
        turn_seconds: int | None = None,
    ) -> None:
        self._store = store
        self._turn_seconds = turn_seconds
        self._turn_choices = turn_choices(turn_seconds)
        self._people = people
        self._games = games
        self._outbox = outbox
        self._tr = tr
        self._bot_username = bot_username

    # ---------------------------------------------------------------- commands

    async def create(
        self, chat_id: int, user_id: int, game: Game, *, seated: bool = True, topic: int = 0
    ) -> Created:
        """Open a lobby in the chat's forum topic ``topic`` (0: none); its creator sits first
        unless not ``seated`` (an anonymous admin)."""
        if self._games.in_chat(chat_id, topic) is not None:
            return Created(None, "lobby-busy-match")
        rules = preset(game)
        try:
            lobby = await self._store.lobbies.create(
                chat_id,
                creator_id=user_id,
                game=game,
                players=rules.players,
                rules=header_text(rules),
                turn_seconds=self._turn_seconds,
                topic_id=topic,
            )
        except ChatBusy as busy:
            return Created(None, "lobby-busy-match" if busy.match_id else "lobby-busy-lobby")
        if seated:
            lobby = await self._store.lobbies.sit_user(lobby.lobby_id, user_id)
        note(lobby=lobby.lobby_id)
        await self.show(lobby)
        return Created(lobby)

    async def join(self, lobby_id: int, user_id: int) -> str | None:
        """Seat the user; the id of a refusal message, or None when seated."""
        try:
            lobby = await self._store.lobbies.sit_user(lobby_id, user_id)
        except AlreadySeated:
            return "lobby-already-seated"
        except LobbyFull:
            return "lobby-full"
        except (WrongStatus, NotFound):
            return "lobby-closed"
        note(lobby=lobby_id, joined=user_id)
        await self.show(lobby)
        return None

    async def leave(self, lobby_id: int, user_id: int) -> str | None:
        lobby = await self._store.lobbies.get(lobby_id)
        if lobby is None or lobby.status != "open":
            return "lobby-closed"
        if lobby.seat_of(user_id) is None:
            return "lobby-not-seated"
        lobby = await self._store.lobbies.leave(lobby_id, user_id)
        note(lobby=lobby_id, left=user_id)
        await self.show(lobby)
        return None

    async def cancel(self, lobby: Lobby, lang: str) -> None:
        await self._store.lobbies.cancel(lobby.lobby_id)
        self._outbox.show(
            lobby.chat_id,
            lobby_key(lobby.lobby_id),
            Content(self._tr.text(lang, "lobby-cancelled"), topic=lobby.topic_id),
            message_id=lobby.message_id,
            last=True,
        )

    async def member_left(self, chat_id: int, user_id: int) -> None:
        """A member left the group (or was removed): free their lobby seat, if any."""
        for lobby in await self._store.lobbies.open_in_group(chat_id):
            if lobby.seat_of(user_id) is not None:
                await self.leave(lobby.lobby_id, user_id)

    async def refresh_for(self, user_id: int) -> None:
        """Redraw the lobbies the user sits in (their private chat just opened)."""
        for lobby in await self._store.lobbies.list_for_user(user_id):
            await self.show(lobby)

    # ---------------------------------------------------------------- buttons

    async def press(
        self, user_id: int, press: LobbyPress, lang: str, *, as_creator: bool = False
    ) -> str:
        """Handle a lobby button; return the toast ("" for none). ``as_creator``: the presser
        may use the creator's buttons (an admin, in a lobby an anonymous admin opened)."""
        note(lobby=press.lobby_id, verb=press.verb)
        if press.verb == "join":
            refusal = await self.join(press.lobby_id, user_id)
            return self._tr.text(lang, refusal) if refusal else ""
        if press.verb == "leave":
            refusal = await self.leave(press.lobby_id, user_id)
            return self._tr.text(lang, refusal) if refusal else ""
        lobby = await self._store.lobbies.get(press.lobby_id)
        if lobby is None or lobby.status != "open":
            return self._tr.text(lang, "lobby-closed")
        if press.verb == "bot":
            return await self._add_computer(lobby, press.arg, lang)
        if press.verb == "unbot":
            return await self._remove_computer(lobby, lang)
        if user_id != lobby.creator_id and not as_creator:
            return self._tr.text(lang, "lobby-creator-only")
        if press.verb == "start":
            return await self._start(lobby, lang)
        if press.verb in ("settings", "back"):
            try:
                lobby = await self._store.lobbies.set_settings_open(
                    lobby.lobby_id, press.verb == "settings"
                )
            except (WrongStatus, NotFound):
                return self._tr.text(lang, "lobby-closed")
            await self.show(lobby)
            return ""
        return await self._change(lobby, press, lang)

    async def _start(self, lobby: Lobby, lang: str) -> str:
        if not lobby.is_full:
            return self._tr.text(lang, "lobby-not-full")
        try:
            await self._games.start(lobby)
        except LobbyNotFull:
            return self._tr.text(lang, "lobby-not-full")
        except (WrongStatus, NotFound):
            return self._tr.text(lang, "lobby-closed")
        self._outbox.forget(lobby.chat_id, lobby_key(lobby.lobby_id))
        return ""

    async def _add_computer(self, lobby: Lobby, level: str, lang: str) -> str:
        if level not in COMPUTER_LEVELS:
            return self._tr.text(lang, "press-outdated")
        try:
            lobby = await self._store.lobbies.sit_computer(lobby.lobby_id, level)
        except LobbyFull:
            return self._tr.text(lang, "lobby-full")
        except (WrongStatus, NotFound):
            return self._tr.text(lang, "lobby-closed")
        note(lobby=lobby.lobby_id, computer=level)
        await self.show(lobby)
        return ""

    async def _remove_computer(self, lobby: Lobby, lang: str) -> str:
        computers = [s.seat for s in lobby.seats if s.is_computer]
        if not computers:
            return self._tr.text(lang, "lobby-no-computer")
        try:
            lobby = await self._store.lobbies.free_seat(lobby.lobby_id, computers[-1])
        except (WrongStatus, NotFound):
            return self._tr.text(lang, "lobby-closed")
        note(lobby=lobby.lobby_id, computer="removed")
        await self.show(lobby)
        return ""

    async def _change(self, lobby: Lobby, press: LobbyPress, lang: str) -> str:
        if press.verb == "timer":
            return await self._change_timer(lobby, press, lang)
        rules = rules_of(lobby.rules)
        changed = _changed_rules(rules, press)
        if changed is None:
            return self._tr.text(lang, "press-outdated")
        if changed == rules:
            return ""
        try:
            lobby = await self._store.lobbies.set_rules(
                lobby.lobby_id,
                game=changed.game,
                players=changed.players,
                rules=header_text(changed),
            )
        except ValueError:
            return self._tr.text(lang, "lobby-seats-filled")
        except (WrongStatus, NotFound):
            return self._tr.text(lang, "lobby-closed")
        note(rules=";".join(header_text(changed).splitlines()))
        await self.show(lobby)
        return ""

    async def _change_timer(self, lobby: Lobby, press: LobbyPress, lang: str) -> str:
        """The timer button cycles through the choices; its argument is the value it shows,
        so a stale screen's press changes nothing unexpected."""
        shown = None if press.arg == "off" else int(press.arg) if press.arg.isdigit() else -1
        if shown not in self._turn_choices or shown != lobby.turn_seconds:
            return self._tr.text(lang, "press-outdated")
        choices = self._turn_choices
        following = choices[(choices.index(shown) + 1) % len(choices)]
        try:
            lobby = await self._store.lobbies.set_turn_seconds(lobby.lobby_id, following)
        except (WrongStatus, NotFound):
            return self._tr.text(lang, "lobby-closed")
        note(lobby=lobby.lobby_id, timer=following or "off")
        await self.show(lobby)
        return ""

    # ---------------------------------------------------------------- the message

    async def show(self, lobby: Lobby) -> None:
        lang = await self._people.chat_language(lobby.chat_id)
        main = not lobby.settings_open
        screen = await self._screen(lobby, main=main)
        render = render_lobby if main else render_lobby_settings
        content = Content(*render(screen, lang, self._tr), topic=lobby.topic_id)
        self._outbox.show(
            lobby.chat_id,
            lobby_key(lobby.lobby_id),
            content,
            message_id=lobby.message_id,
            on_sent=lobby_sent(self._store, lobby.lobby_id),
        )

    async def _screen(self, lobby: Lobby, *, main: bool) -> LobbyScreen:
        """What the lobby's message shows (the names only on the main screen)."""
        rules = rules_of(lobby.rules)
        names: tuple[str, ...] = ()
        closed: set[int] = set()
        if main:
            names = tuple(await self._people.names(s.user_id for s in lobby.seats))
            closed = {
                s.seat
                for s in lobby.seats
                if s.user_id is not None and not await self._people.opened(s.user_id)
            }
        creator = None
        if lobby.creator_id != ANONYMOUS_ADMIN_ID:
            (creator,) = await self._people.names([lobby.creator_id])
        return LobbyScreen(
            lobby, rules, creator, self._bot_username, COMPUTER_LEVELS, names, frozenset(closed)
        )


def _changed_rules(rules: Rules, press: LobbyPress) -> Rules | None:
    """The rules after a settings button, or None for a button that names nothing known."""
    if press.verb == "game":
        game = next((g for g in Game if g.value == press.arg), None)
        if game is None:
            return None
        if game is rules.game:
            return rules
        players = rules.players if rules.players in PLAYER_COUNTS[game] else None
        return preset(game, players)
    if press.verb == "players":
        if not press.arg.isdigit() or int(press.arg) not in PLAYER_COUNTS[rules.game]:
            return None
        return dataclasses.replace(rules, players=int(press.arg))
    if press.verb == "opt":
        spec = next((s for s in OPTIONS[rules.game] if s.name == press.arg), None)
        if spec is None:
            return None
        choices = spec.choices
        following = choices[(choices.index(rules.option(spec.name)) + 1) % len(choices)]
        return rules.with_option(spec.name, spec.text(following))
    return None
