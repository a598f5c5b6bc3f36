"""Texts about the games themselves: a summary of the rules of each game for ``/rules``,
the names of the games, and readable names of every table convention and its values.
"""

from __future__ import annotations

from bot.i18n import Translator
from bot.render.common import game_label, number
from engine import OPTIONS, Game, OptionSpec
from engine.rules import OptionValue

__all__ = ["game_label", "option_label", "option_value_label", "render_rules"]


def render_rules(game: Game, lang: str, tr: Translator) -> str:
    """A few paragraphs of HTML: ``rules-<game>-1``, ``-2``, ... as the locale has them."""
    paragraphs = [tr.text(lang, "rules-title", game=game_label(game, lang, tr))]
    index = 1
    while tr.has(lang, f"rules-{game.value}-{index}"):
        paragraphs.append(tr.text(lang, f"rules-{game.value}-{index}"))
        index += 1
    if OPTIONS[game]:
        paragraphs.append(tr.text(lang, "rules-conventions"))
    return "\n\n".join(paragraphs)


def option_label(spec: OptionSpec, lang: str, tr: Translator) -> str:
    """The convention's name: «Тузовый марьяж», «Шаг торговли», ..."""
    return tr.text(lang, f"option-{spec.name}")


def option_value_label(spec: OptionSpec, value: OptionValue, lang: str, tr: Translator) -> str:
    """A value of the convention: «вкл.», «выкл.», «до 5», «без бочки», ..."""
    if isinstance(value, bool):
        return tr.text(lang, "option-on" if value else "option-off")
    text = spec.text(value) if value is None else number(value)
    return tr.text(lang, f"option-{spec.name}-value", value=text)
