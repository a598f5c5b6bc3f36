"""The short toast shown when the engine refuses an action (one message per ``Reason``)."""

from __future__ import annotations

from bot.i18n import Translator
from engine import Reason


def render_refusal(reason: Reason, lang: str, tr: Translator) -> str:
    """«Сейчас не ваш ход», «Нужно ходить в масть», ...: plain text for a callback answer."""
    return tr.text(lang, f"refusal-{reason.value}")
