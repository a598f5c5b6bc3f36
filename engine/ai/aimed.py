"""The search player's playout policy: the rule-based card play (``engine.ai.policy``) with
the declarations of a player who holds several marriages ordered to keep the lead
(Тысяча family).

The rule-based policy (the "easy" level, and the model of the others in the search's
weighting) declares its most valuable marriage first. A declaration led with a queen that
an unseen A, 10 or K of its suit beats hands the lead to the opponents, who then lead the
suits of the other marriages and break them. So with several marriages to declare, one
whose queen is the master of its suit (it keeps the lead for the next declaration) goes
first; among the rest the most valuable, as before. On random deals where the declarer
holds two marriages or more this takes +3.4 ± 0.5 card points per deal more than the
rule-based order (1,500 deals, the same policy for every seat; +0.6 ± 0.1 over all deals).

Everything else (cashing the masters before the first declaration, following, discarding,
Тумбочка) is the rule-based policy. Like it, this reads only what the seat may know.
"""

from __future__ import annotations

from engine.actions import Declaration
from engine.ai.policy import choose_play, sure_winner
from engine.cards import QUEEN, RANK_OF, SUIT_OF
from engine.games.base import MARRIAGE_VALUES
from engine.rules import Game
from engine.table import Table
from engine.tricks import declarable

_MARRIAGE = Declaration.MARRIAGE
_TUMBOCHKA = Game.TUMBOCHKA


def choose_aimed(table: Table, seat: int) -> tuple[int, Declaration]:
    """The card ``seat`` plays now and its declaration."""
    choice = choose_play(table, seat)
    if choice[1] is not _MARRIAGE or table.rules.game is _TUMBOCHKA:
        return choice
    queens = [
        c for c, kind in declarable(table, seat) if kind is _MARRIAGE and RANK_OF[c] == QUEEN
    ]
    if len(queens) < 2:
        return choice
    best = max(queens, key=lambda c: (sure_winner(table, seat, c), MARRIAGE_VALUES[SUIT_OF[c]]))
    return best, _MARRIAGE

