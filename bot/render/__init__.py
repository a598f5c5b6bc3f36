"""Rendering: pure functions from engine views and events to HTML text and inline keyboards,
and the lobby's screens (`lobby`) from the data its service gathers.

No I/O and no storage: the application passes a view (``engine.view(state, seat)`` for a
player's private message, ``engine.view(state, None)`` for the group's table), the display
names per seat, the language and a ``Translator``. All text comes from ``locales/*/game.ftl``.
"""

from bot.render.common import card_label, cards_text, game_label
from bot.render.events import render_event_line
from bot.render.hand import render_hand
from bot.render.refusals import render_refusal
from bot.render.results import (
    render_deal_result,
    render_match_result,
    render_recap,
    render_stopped_result,
)
from bot.render.rules import option_label, option_value_label, render_rules
from bot.render.table import render_table

__all__ = [
    "card_label",
    "cards_text",
    "game_label",
    "option_label",
    "option_value_label",
    "render_deal_result",
    "render_event_line",
    "render_hand",
    "render_match_result",
    "render_recap",
    "render_refusal",
    "render_rules",
    "render_stopped_result",
    "render_table",
]
