"""A lobby's message, as pure functions of what it shows (`LobbyScreen`): the main screen
(the seats, the rules, the timer, who runs it, and the Join / Leave / computer / Settings /
Start / invite buttons) and the creator's settings screen (the game, the number of players,
every option of the game, the turn timer). The lobby service gathers the data first."""

from __future__ import annotations

import html
from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import Translator
from bot.render.common import game_label
from bot.render.rules import option_label, option_value_label
from bot.telegram.callbacks import encode_lobby
from bot.telegram.links import invite_link, start_link
from engine import OPTIONS, Game, Rules
from engine.rules import PLAYER_COUNTS
from storage import Lobby

_CHECK = "✓ "


@dataclass(frozen=True)
class LobbyScreen:
    """What a lobby's message shows besides the lobby row itself."""

    lobby: Lobby
    rules: Rules
    creator: str | None
    """The creator's name; None in a lobby an anonymous admin opened (the admins run it)."""
    bot_username: str
    levels: tuple[str, ...]
    """The computer players the lobby offers."""
    names: tuple[str, ...] = ()
    """The names of the lobby's seats in their order (a computer seat's is not used)."""
    closed: frozenset[int] = frozenset()
    """The seats of people who have not opened the private chat with the bot yet."""


def render_lobby(
    screen: LobbyScreen, lang: str, tr: Translator
) -> tuple[str, InlineKeyboardMarkup]:
    """The lobby's main screen: its text (HTML) and keyboard."""
    lobby, rules = screen.lobby, screen.rules
    by_seat = {
        s.seat: html.escape(name)
        if s.computer_level is None
        else tr.text(lang, "lobby-computer", number=s.seat + 1, level=s.computer_level)
        for s, name in zip(lobby.seats, screen.names, strict=True)
    }
    closed = [by_seat[s.seat] for s in lobby.seats if s.seat in screen.closed]
    lines = [
        tr.text(lang, "lobby-title", game=game_label(rules.game, lang, tr)),
        "",
        tr.text(lang, "lobby-players", taken=len(lobby.seats), total=lobby.players),
    ]
    for seat in range(lobby.players):
        name = by_seat.get(seat)
        lines.append(
            tr.text(lang, "lobby-seat", number=seat + 1, name=name)
            if name
            else tr.text(lang, "lobby-seat-free", number=seat + 1)
        )
    lines += ["", _rules_line(rules, lang, tr), timer_line(lobby, lang, tr)]
    if closed:
        lines += ["", tr.text(lang, "lobby-open-hint", names=", ".join(closed))]
    lines += ["", _who_runs(screen, lang, tr, "lobby-footer")]

    def data(verb: str) -> str:
        return encode_lobby(lobby.lobby_id, verb)

    rows = [
        [
            InlineKeyboardButton(tr.text(lang, "lobby-join"), callback_data=data("join")),
            InlineKeyboardButton(tr.text(lang, "lobby-leave"), callback_data=data("leave")),
        ],
        *(
            [
                InlineKeyboardButton(
                    tr.text(lang, "lobby-add-computer", level=level),
                    callback_data=encode_lobby(lobby.lobby_id, "bot", level),
                )
            ]
            for level in screen.levels
        ),
        [
            InlineKeyboardButton(tr.text(lang, "lobby-settings"), callback_data=data("settings")),
            InlineKeyboardButton(tr.text(lang, "lobby-start"), callback_data=data("start")),
        ],
        [
            InlineKeyboardButton(
                tr.text(lang, "lobby-invite"),
                url=invite_link(screen.bot_username, lobby.lobby_id),
            )
        ],
    ]
    if any(s.is_computer for s in lobby.seats):
        remove = tr.text(lang, "lobby-remove-computer")
        rows.insert(
            1 + len(screen.levels), [InlineKeyboardButton(remove, callback_data=data("unbot"))]
        )
    if closed:
        link = start_link(screen.bot_username, f"lobby-{lobby.lobby_id}")
        rows.append([InlineKeyboardButton(tr.text(lang, "bot-table-open"), url=link)])
    return "\n".join(lines), InlineKeyboardMarkup(rows)


def render_lobby_settings(
    screen: LobbyScreen, lang: str, tr: Translator
) -> tuple[str, InlineKeyboardMarkup]:
    """The creator's settings screen: its text (HTML) and keyboard."""
    lobby, rules = screen.lobby, screen.rules
    text = "\n".join(
        [
            tr.text(lang, "lobby-settings-title", game=game_label(rules.game, lang, tr)),
            "",
            _who_runs(screen, lang, tr, "lobby-settings-hint"),
        ]
    )

    def button(
        label: str, verb: str, arg: str = "", chosen: bool = False
    ) -> InlineKeyboardButton:
        return InlineKeyboardButton(
            (_CHECK if chosen else "") + label,
            callback_data=encode_lobby(lobby.lobby_id, verb, arg),
        )

    rows = [
        [
            button(game_label(game, lang, tr), "game", game.value, game is rules.game)
            for game in Game
        ]
    ]
    counts = PLAYER_COUNTS[rules.game]
    if len(counts) > 1:
        rows.append(
            [
                button(
                    tr.text(lang, "lobby-player-count", count=n),
                    "players",
                    str(n),
                    n == rules.players,
                )
                for n in counts
            ]
        )
    for spec in OPTIONS[rules.game]:
        value = rules.option(spec.name)
        label = f"{option_label(spec, lang, tr)}: {option_value_label(spec, value, lang, tr)}"
        rows.append([button(label, "opt", spec.name)])
    timer = lobby.turn_seconds
    rows.append([button(timer_line(lobby, lang, tr), "timer", str(timer or "off"))])
    rows.append([button(tr.text(lang, "lobby-back"), "back")])
    return text, InlineKeyboardMarkup(rows)


def timer_line(lobby: Lobby, lang: str, tr: Translator) -> str:
    if lobby.turn_seconds is None:
        return tr.text(lang, "lobby-timer-off")
    return tr.text(lang, "lobby-timer", seconds=lobby.turn_seconds)


def _who_runs(screen: LobbyScreen, lang: str, tr: Translator, message_id: str) -> str:
    """Who may change the settings and start: the creator, or in a lobby an anonymous
    admin opened, any administrator of the group (the creator's name there is the
    group's own, which names nobody)."""
    if screen.creator is None:
        return tr.text(lang, f"{message_id}-admins")
    return tr.text(lang, message_id, creator=html.escape(screen.creator))


def _rules_line(rules: Rules, lang: str, tr: Translator) -> str:
    changed = rules.changed_options()
    if not changed:
        return tr.text(lang, "lobby-rules-default")
    options = "; ".join(
        f"{option_label(spec, lang, tr)}: {option_value_label(spec, value, lang, tr)}"
        for spec, value in changed
    )
    return tr.text(lang, "lobby-rules", options=html.escape(options))
