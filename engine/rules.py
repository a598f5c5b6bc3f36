"""The games and their table conventions (rules §1–§3): one frozen ``Rules`` value.

Every option of the rules page is a field with the page's name and default. Each game
accepts only its own options (``OPTIONS``); the notation's ``option name=value`` and the
bot's settings both go through ``Rules.with_option`` and ``OptionSpec.text``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final


class Game(StrEnum):
    """The games, by the notation's names (the storage and the bot use these, no others)."""

    THOUSAND = "thousand"
    THOUSAND_ONE = "thousand-one"
    TUMBOCHKA = "tumbochka"


DEFAULT_GAME: Final = Game.THOUSAND
"""The game of a header without a ``game`` line, of ``/new`` without a name, of ``/top``."""


OptionValue = bool | int | None


class RulesError(ValueError):
    """A game, player count or option that does not exist for that game."""


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One table convention: its notation name, its allowed values (default first)."""

    name: str
    choices: tuple[OptionValue, ...]
    none_text: str = "off"

    @property
    def default(self) -> OptionValue:
        return self.choices[0]

    def text(self, value: OptionValue) -> str:
        """The notation's spelling of a value: ``on``/``off``/``none``/a number."""
        if value is None:
            return self.none_text
        if isinstance(value, bool):
            return "on" if value else "off"
        return str(value)

    def parse(self, text: str) -> OptionValue:
        for choice in self.choices:
            if self.text(choice) == text.strip().lower():
                return choice
        allowed = " | ".join(self.text(c) for c in self.choices)
        raise RulesError(f"{self.name}={text} is not allowed ({allowed})")


def _on_off(name: str, default: bool) -> OptionSpec:
    return OptionSpec(name, (default, not default))


ACE_MARRIAGE: Final = _on_off("ace_marriage", False)
ROUNDING: Final = OptionSpec("rounding", (5, 10, None), none_text="none")
THOUSAND_OPTIONS: Final = (
    ACE_MARRIAGE,
    OptionSpec("bid_step", (5, 10)),
    _on_off("bid_cap_without_marriage", True),
    OptionSpec("minus_bidding", (None, 0, -100, -200, -300)),
    _on_off("hidden_talon_on_hundred", False),
    _on_off("redeal", True),
    _on_off("concede", True),
    _on_off("concede_penalty", True),
    ROUNDING,
    _on_off("bolts", True),
    _on_off("golden_round", False),
    _on_off("dump_truck", True),
    OptionSpec("target", (1001, 1000)),
    OptionSpec("barrel", (880, None)),
    _on_off("barrel_bidding", True),
)

OPTIONS: Final[Mapping[Game, tuple[OptionSpec, ...]]] = {
    Game.THOUSAND: THOUSAND_OPTIONS,
    Game.THOUSAND_ONE: (ACE_MARRIAGE, ROUNDING),
    Game.TUMBOCHKA: (),
}

PLAYER_COUNTS: Final[Mapping[Game, tuple[int, ...]]] = {
    Game.THOUSAND: (3,),
    Game.THOUSAND_ONE: (3, 4),
    Game.TUMBOCHKA: (3,),
}


@dataclass(frozen=True, slots=True, kw_only=True)
class Rules:
    """A game and its table conventions; options of other games keep their defaults."""

    game: Game = DEFAULT_GAME
    players: int = 3
    ace_marriage: bool = False
    bid_step: int = 5
    bid_cap_without_marriage: bool = True
    minus_bidding: int | None = None
    hidden_talon_on_hundred: bool = False
    redeal: bool = True
    concede: bool = True
    concede_penalty: bool = True
    rounding: int | None = 5
    bolts: bool = True
    golden_round: bool = False
    dump_truck: bool = True
    target: int = 1001
    barrel: int | None = 880
    barrel_bidding: bool = True

    def __post_init__(self) -> None:
        if self.players not in PLAYER_COUNTS[self.game]:
            raise RulesError(f"{self.game.value} is not played by {self.players}")
        for spec in OPTIONS[self.game]:
            if getattr(self, spec.name) not in spec.choices:
                raise RulesError(f"{spec.name}={getattr(self, spec.name)!r} is not allowed")
        for spec in THOUSAND_OPTIONS:
            if spec not in OPTIONS[self.game] and getattr(self, spec.name) != spec.default:
                raise RulesError(f"{spec.name} is not an option of {self.game.value}")

    @property
    def options(self) -> tuple[OptionSpec, ...]:
        return OPTIONS[self.game]

    def option(self, name: str) -> OptionValue:
        self._spec(name)
        value: OptionValue = getattr(self, name)
        return value

    def with_option(self, name: str, text: str) -> Rules:
        """These rules with option ``name`` set from its notation text (``on``, ``-100``...)."""
        changes: dict[str, Any] = {name: self._spec(name).parse(text)}
        return dataclasses.replace(self, **changes)

    def changed_options(self) -> tuple[tuple[OptionSpec, OptionValue], ...]:
        """The options that differ from their defaults, in the page's order."""
        return tuple(
            (spec, getattr(self, spec.name))
            for spec in self.options
            if getattr(self, spec.name) != spec.default
        )

    def _spec(self, name: str) -> OptionSpec:
        for spec in self.options:
            if spec.name == name:
                return spec
        raise RulesError(f"{name} is not an option of {self.game.value}")


def preset(game: Game, players: int | None = None) -> Rules:
    """The default rules of ``game`` (3 players unless another count is given)."""
    return Rules(game=game, players=players or PLAYER_COUNTS[game][0])
