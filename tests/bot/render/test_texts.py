"""Rules summaries, game names and the labels of every table convention and value."""

from __future__ import annotations

import pytest

from bot.i18n import SUPPORTED_LANGUAGES, Translator
from bot.render import game_label, option_label, option_value_label, render_rules
from engine import OPTIONS, Game
from tests.bot.render.telegram_html import assert_telegram_html

MAX_TEXT = 4096


@pytest.fixture(scope="module")
def tr() -> Translator:
    return Translator(strict=True)


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
@pytest.mark.parametrize("game", list(Game))
def test_rules_summary(tr: Translator, lang: str, game: Game) -> None:
    text = render_rules(game, lang, tr)
    assert game_label(game, lang, tr) in text
    assert 500 < len(text) <= MAX_TEXT
    assert_telegram_html(text)
    assert text.count("\n\n") >= 4


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_every_option_and_value_has_a_label(tr: Translator, lang: str) -> None:
    for game, specs in OPTIONS.items():
        assert game_label(game, lang, tr)
        labels = [option_label(spec, lang, tr) for spec in specs]
        assert len(set(labels)) == len(labels)
        for spec in specs:
            values = [option_value_label(spec, value, lang, tr) for value in spec.choices]
            assert all(values) and len(set(values)) == len(values), (spec.name, values)


def test_option_values_read_naturally(tr: Translator) -> None:
    specs = {spec.name: spec for spec in OPTIONS[Game.THOUSAND]}
    minus = option_value_label(specs["minus_bidding"], -100, "ru", tr)
    assert minus == "запрещена при счёте ниже −100"
    assert option_value_label(specs["minus_bidding"], None, "ru", tr) == "разрешена"
    assert option_value_label(specs["rounding"], None, "en", tr) == "no rounding"
    assert option_value_label(specs["barrel"], None, "uk", tr) == "без бочки"
    assert option_value_label(specs["bolts"], True, "en", tr) == "on"
