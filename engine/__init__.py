"""The rules engine of «Тысяча», «Тысяча одно» and «Тумбочка»: pure, standard library only.

``new_match`` starts a match, ``random_deal`` (or a ``Deal`` from the log) deals,
``apply`` is the only way to change a match, ``legal_actions`` lists what a seat may do,
and ``view`` is everything one seat may know.
"""

from engine.actions import (
    Action,
    Bid,
    Concede,
    Deal,
    Declaration,
    Give,
    NameContract,
    Pass,
    Play,
    Redeal,
    SeatAction,
    Throw,
)
from engine.dealing import StartError, new_match, random_deal, shuffled_deal
from engine.errors import IllegalAction, Reason
from engine.match import apply, legal_actions
from engine.notation import (
    MatchReader,
    NotationError,
    acting_seat,
    format_action,
    format_deal,
    format_header,
    opens_deal,
    parse_action,
    replay,
)
from engine.rules import DEFAULT_GAME, OPTIONS, Game, OptionSpec, Rules, RulesError, preset
from engine.state import DealState, MatchState, Outcome, Phase
from engine.view import SeatView, view

__all__ = [
    "DEFAULT_GAME",
    "OPTIONS",
    "Action",
    "Bid",
    "Concede",
    "Deal",
    "DealState",
    "Declaration",
    "Game",
    "Give",
    "IllegalAction",
    "MatchReader",
    "MatchState",
    "NameContract",
    "NotationError",
    "OptionSpec",
    "Outcome",
    "Pass",
    "Phase",
    "Play",
    "Reason",
    "Redeal",
    "Rules",
    "RulesError",
    "SeatAction",
    "SeatView",
    "StartError",
    "Throw",
    "acting_seat",
    "apply",
    "format_action",
    "format_deal",
    "format_header",
    "legal_actions",
    "new_match",
    "opens_deal",
    "parse_action",
    "preset",
    "random_deal",
    "replay",
    "shuffled_deal",
    "view",
]
