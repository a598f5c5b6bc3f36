"""Where the three games differ in kind: one ``Variant`` per game behind one interface."""

from __future__ import annotations

from engine.games.base import Variant
from engine.games.thousand import Thousand
from engine.games.thousand_one import ThousandOne
from engine.games.tumbochka import Tumbochka
from engine.rules import Game, Rules

_VARIANTS: dict[Game, Variant] = {
    Game.THOUSAND: Thousand(),
    Game.THOUSAND_ONE: ThousandOne(),
    Game.TUMBOCHKA: Tumbochka(),
}


def variant_of(rules: Rules) -> Variant:
    return _VARIANTS[rules.game]


def deck_of(game: Game) -> int:
    """The cards ``game`` is played with."""
    return _VARIANTS[game].deck


__all__ = ["Variant", "deck_of", "variant_of"]
