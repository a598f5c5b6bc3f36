"""Small formatting helpers of the records: numbers, names, dates, durations, games, paging."""

from __future__ import annotations

import html
import math
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from bot.i18n import Translator
from engine import Game
from storage import PlayerRef

MINUS: Final = "\u2212"
PAGE_SIZE: Final = 10
"""Entries per page of /top and /history."""
NAME_WIDTH: Final = 24
"""Long enough for «Компьютер 2 (сильный)»: a computer player's name is never cut."""


def number(n: int) -> str:
    """A score with a typographic minus: ``-40`` → ``−40``."""
    return f"{MINUS}{-n}" if n < 0 else str(n)


def signed(n: int) -> str:
    """A score change: ``+120``, ``−40``, ``0``."""
    return f"+{n}" if n > 0 else number(n)


def short(name: str, width: int = NAME_WIDTH) -> str:
    """``name`` cut to ``width`` characters with an ellipsis."""
    name = name.strip()
    return name if len(name) <= width else name[: width - 1] + "…"


def player_name(
    player: PlayerRef, name: str | None, lang: str, tr: Translator, seat: int | None = None
) -> str:
    """Plain text: the user's name, or the computer player's label (flagged with 🤖): with
    its seat, as the table names it («🤖 Компьютер 2 (сильный)»), where one match is shown
    (``seat``, from 0), else by its level alone (the same player in every match)."""
    if player.computer_level is not None:
        if seat is not None:
            return tr.text(lang, "computer-name", number=seat + 1, level=player.computer_level)
        return tr.text(lang, "rec-computer", level=player.computer_level)
    if name and name.strip():
        return name.strip()
    return tr.text(lang, "rec-unknown-player", id=player.user_id or 0)


def html_player(
    player: PlayerRef, name: str | None, lang: str, tr: Translator, seat: int | None = None
) -> str:
    return html.escape(player_name(player, name, lang, tr, seat))


def game_name(game: Game, lang: str, tr: Translator) -> str:
    return tr.text(lang, f"rec-game-{game}")


_GAME_WORDS: Final[dict[str, Game]] = {
    **{word: Game.THOUSAND for word in ("thousand", "1000", "тысяча", "тисяча")},
    **{word: Game.THOUSAND_ONE for word in (
        "thousand-one", "thousand_one", "thousandone", "1001", "тысяча-одно", "тысячаодно",
        "тисяча-один", "тисячаодин",
    )},
    **{word: Game.TUMBOCHKA for word in ("tumbochka", "тумбочка", "тумба")},
}


def game_from_argument(text: str) -> Game | None:
    """The game a command argument names (``/top 1001``, ``/top тумбочка``), or None."""
    word = "-".join(text.strip().lower().replace("ё", "е").split())
    return _GAME_WORDS.get(word) or _GAME_WORDS.get(word.replace("-", ""))


def date_text(moment: datetime, lang: str, tr: Translator) -> str:
    """The day of ``moment`` (UTC) in the language's format (``rec-date-format``)."""
    return moment.strftime(tr.text(lang, "rec-date-format"))


def duration_text(seconds: int, lang: str, tr: Translator) -> str:
    """``2 ч 05 мин`` / ``45 мин``: hours and minutes, rounded down to the minute."""
    minutes = max(0, seconds) // 60
    hours, minutes = divmod(minutes, 60)
    if hours:
        return tr.text(lang, "rec-duration-hours", hours=hours, minutes=minutes)
    return tr.text(lang, "rec-duration-minutes", minutes=minutes)


def percent(part: int, whole: int) -> int:
    return round(100 * part / whole) if whole else 0


@dataclass(frozen=True, slots=True)
class PageRequest:
    """Page ``number`` (1-based) of a list: what to ask the storage for."""

    number: int
    limit: int
    offset: int


def page_request(number: int, page_size: int = PAGE_SIZE) -> PageRequest:
    """The limit and offset of page ``number`` (numbers below 1 mean the first page)."""
    number = max(1, number)
    return PageRequest(number, page_size, (number - 1) * page_size)


def total_pages(total: int, page_size: int = PAGE_SIZE) -> int:
    """How many pages ``total`` entries fill (at least one, the empty page)."""
    return max(1, math.ceil(total / page_size))


def page_number(offset: int, page_size: int = PAGE_SIZE) -> int:
    return offset // page_size + 1
