"""Small formatting helpers shared by the renderers: names, numbers, lists, cards, games."""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from typing import Final

from bot.i18n import Translator
from engine import Game
from engine.cards import RANKS, SUITS, rank_of, suit_of

SEPARATOR: Final = " · "
MINUS: Final = "\u2212"
NAME_LENGTH: Final = 32
BUTTON_NAME_LENGTH: Final = 14
SHORT_NAME_LENGTH: Final = 6
MAX_MESSAGE: Final = 4096
"""Telegram's limit on a message's text."""


def name_of(names: Sequence[str], seat: int) -> str:
    """The display name of ``seat`` as given by the application (raw, not escaped)."""
    if 0 <= seat < len(names) and names[seat].strip():
        return names[seat].strip()
    return f"#{seat + 1}"


def shortened(name: str, length: int) -> str:
    return name if len(name) <= length else name[: length - 1] + "…"


def short_names(names: Sequence[str], length: int = SHORT_NAME_LENGTH) -> tuple[str, ...]:
    """The names cut to ``length``: the renderers' fallback when a text would not fit."""
    return tuple(shortened(name.strip(), length) for name in names)


def html_name(names: Sequence[str], seat: int) -> str:
    """The display name of ``seat`` (at most ``NAME_LENGTH`` characters), escaped for HTML."""
    return html.escape(shortened(name_of(names, seat), NAME_LENGTH))


def button_name(names: Sequence[str], seat: int, length: int = BUTTON_NAME_LENGTH) -> str:
    """A name short enough for a button label (buttons are plain text: no escaping)."""
    return shortened(name_of(names, seat), length)


def number(n: int) -> str:
    """A score with a typographic minus: ``-40`` → ``−40``."""
    return f"{MINUS}{-n}" if n < 0 else str(n)


def signed(n: int) -> str:
    """A score change: ``+120``, ``−40``, ``0``."""
    return f"+{n}" if n > 0 else number(n)


def joined(parts: Iterable[str]) -> str:
    return SEPARATOR.join(parts)


def suit_symbol(suit: int, lang: str, tr: Translator) -> str:
    return tr.text(lang, f"suit-{SUITS[suit]}")


_CARD_LABELS: dict[tuple[Translator, str, int], str] = {}


def card_label(card: int, lang: str, tr: Translator) -> str:
    """A card as the renderer shows it everywhere: ``К♥``, ``10♠``, ``Q♦``."""
    key = (tr, lang, card)
    label = _CARD_LABELS.get(key)
    if label is None:
        rank = tr.text(lang, f"rank-{RANKS[rank_of(card)]}")
        label = _CARD_LABELS[key] = rank + suit_symbol(suit_of(card), lang, tr)
    return label


SUIT_ORDER: Final = (0, 2, 3, 1)
"""Where each suit (♠ ♣ ♦ ♥, by index) goes in a hand: ♠ ♥ ♣ ♦, black and red in turn, so
that suits of one colour never sit side by side."""


def sorted_cards(cards: Iterable[int]) -> list[int]:
    """By suit (♠ ♥ ♣ ♦: the colours alternate), then from the strongest card down."""
    return sorted(cards, key=lambda c: (SUIT_ORDER[suit_of(c)], -rank_of(c)))


def cards_text(cards: Iterable[int], lang: str, tr: Translator) -> str:
    """Cards sorted and grouped by suit: ``Т♠ 10♠  К♣  9♥``."""
    groups: dict[int, list[str]] = {}
    for c in sorted_cards(cards):
        groups.setdefault(suit_of(c), []).append(card_label(c, lang, tr))
    return "   ".join(" ".join(group) for group in groups.values())


def game_label(game: Game, lang: str, tr: Translator) -> str:
    """The game's name: «Тысяча», «Тысяча одно», «Тумбочка»."""
    return tr.text(lang, f"game-{game.value}")

