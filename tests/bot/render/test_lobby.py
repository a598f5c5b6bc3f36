"""The lobby's screens as pure functions: the seats (people escaped, computers labelled),
the hint and the link for people who have not opened the private chat, the computer and
settings buttons, and who runs the lobby — in every language, as Telegram HTML."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from telegram import InlineKeyboardMarkup

from bot.i18n import SUPPORTED_LANGUAGES, Translator
from bot.render.lobby import LobbyScreen, render_lobby, render_lobby_settings
from bot.telegram.callbacks import LobbyPress, decode
from engine import Game, preset
from storage import Lobby, LobbySeat
from tests.bot.render.telegram_html import assert_telegram_html

NOW = datetime(2026, 5, 1, tzinfo=UTC)


@pytest.fixture(scope="module")
def tr() -> Translator:
    return Translator(strict=True)


def _lobby(*seats: LobbySeat, game: Game = Game.THOUSAND, players: int = 3) -> Lobby:
    return Lobby(
        lobby_id=7, chat_id=-100, creator_id=1, message_id=None, game=game, players=players,
        rules="game thousand", turn_seconds=60, status="open", created_at=NOW, updated_at=NOW,
        seats=seats,
    )


def _verbs(markup: InlineKeyboardMarkup) -> list[str]:
    """The verbs of the lobby buttons, row by row."""
    verbs = []
    for row in markup.inline_keyboard:
        for button in row:
            data = button.callback_data
            press = decode(data, 4) if isinstance(data, str) else None
            if isinstance(press, LobbyPress):
                verbs.append(press.verb)
    return verbs


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_the_main_screen(tr: Translator, lang: str) -> None:
    lobby = _lobby(
        LobbySeat(seat=0, user_id=1, computer_level=None),
        LobbySeat(seat=1, user_id=None, computer_level="easy"),
    )
    screen = LobbyScreen(
        lobby, preset(Game.THOUSAND), "Анна", "tysyacha_bot", ("easy", "hard"),
        names=("<Анна>", ""), closed=frozenset({0}),
    )
    text, markup = render_lobby(screen, lang, tr)
    assert_telegram_html(text)
    assert "&lt;Анна&gt;" in text and "<Анна>" not in text
    assert tr.text(lang, "lobby-seat-free", number=3) in text
    assert tr.text(lang, "lobby-computer", number=2, level="easy") in text
    assert tr.text(lang, "lobby-open-hint", names="&lt;Анна&gt;") in text
    assert _verbs(markup) == ["join", "leave", "bot", "bot", "unbot", "settings", "start"]
    urls = [b.url for row in markup.inline_keyboard for b in row if b.url]
    assert urls == [
        "https://t.me/tysyacha_bot?start=join-7", "https://t.me/tysyacha_bot?start=lobby-7"
    ]


def test_everyone_opened_the_chat_and_no_computer_sits(tr: Translator) -> None:
    lobby = _lobby(LobbySeat(seat=0, user_id=1, computer_level=None))
    screen = LobbyScreen(
        lobby, preset(Game.THOUSAND), None, "tysyacha_bot", ("easy", "hard"), names=("Анна",)
    )
    text, markup = render_lobby(screen, "ru", tr)
    assert tr.text("ru", "lobby-footer-admins") in text
    assert "unbot" not in _verbs(markup)
    assert [b.url for row in markup.inline_keyboard for b in row if b.url] == [
        "https://t.me/tysyacha_bot?start=join-7"
    ]


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_the_settings_screen(tr: Translator, lang: str) -> None:
    lobby = _lobby(game=Game.THOUSAND_ONE, players=4)
    screen = LobbyScreen(lobby, preset(Game.THOUSAND_ONE, 4), "Анна", "tysyacha_bot", ())
    text, markup = render_lobby_settings(screen, lang, tr)
    assert_telegram_html(text)
    assert tr.text(lang, "lobby-settings-hint", creator="Анна") in text
    labels = [b.text for row in markup.inline_keyboard for b in row]
    assert any(label.startswith("✓ ") for label in labels[:3])  # the chosen game
    assert f"✓ {tr.text(lang, 'lobby-player-count', count=4)}" in labels
    verbs = _verbs(markup)
    assert verbs[:5] == ["game", "game", "game", "players", "players"]
    assert verbs[-2:] == ["timer", "back"]
