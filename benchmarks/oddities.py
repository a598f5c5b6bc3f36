"""The visible oddities of issue 16, counted: plays that cost little but that a strong player
does not make, and that players notice.

    python -m benchmarks.oddities --game thousand --deals 200 --agents hard hard@992cddb easy

Each agent plays deals ``shuffle oddities/GAME/k`` (dealt by seat ``k mod players`` from a
match's start, or from the match scores ``--scores``, e.g. ``880 0 0`` for the barrel) in
every seat, clock off, and every one of its decisions is checked:

- *A/10 thrown*: an ace or ten played, not led, onto a trick it does not take as the trick
  stands and that an opponent then takes (the declarer's onto a defender's, a defender's
  onto the declarer's), while a card worth fewer points was legal (Тысяча family); *of
  which off suit*: those not of the led suit (a discard proper);
- *K/Q led bare*: a king or queen led without its marriage while the marriage was declarable
  with it;
- *marriage unused*, *trilyazh unused*: a seat that could declare a marriage (of a suit) or a
  trilyazh at some decision and never declared it in the deal;
- *set broken by a gift*: a gift of a card of a marriage the giver holds (in Тумбочка, of a
  trilyazh or troyan it holds) while it held a card that is in no such set;
- *barrel raised*: a contract above the lowest one offered, named by the seat on the barrel
  (Тысяча).

The table gives each count per 100 deals; the same deals and seeds for every agent, so the
counts compare. ``LEVEL@COMMIT`` plays that commit's engine (``benchmarks.legacy``).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from benchmarks.strength import GAMES, agent_of, level_spec
from engine.actions import Declaration, Give, NameContract, Play, SeatAction
from engine.ai.arena import play_deal
from engine.ai.search_agent import led_bare
from engine.ai.search_talon import held_sets
from engine.cards import ACE, RANK_OF, SUIT_OF, TEN, THOUSAND_POINTS, mask_of
from engine.dealing import new_match, shuffled_deal
from engine.history import trick_winner
from engine.rules import Game, Rules, preset
from engine.state import MatchState
from engine.view import SeatView, view

ODDITIES = (
    "A/10 thrown",
    "of which off suit",
    "K/Q led bare",
    "marriage unused",
    "trilyazh unused",
    "set broken by a gift",
    "barrel raised",
)

_MARRIAGE = Declaration.MARRIAGE
_TRILYAZH = Declaration.TRILYAZH


class Checker:
    """The oddities of one deal's decisions, fed in order by ``play_deal``'s hook."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self._pending: list[tuple[int, bool]] = []
        """The A/10 discarded onto the trick on the table while a cheaper card was legal."""
        self._could: set[tuple[int, str]] = set()
        self._did: set[tuple[int, str]] = set()

    def decided(self, state: MatchState, seat: int, action: SeatAction, _: float) -> None:
        """``play_deal``'s hook: the seat's view of ``state`` is checked."""
        self.check(view(state, seat), seat, action)

    def check(self, seen: SeatView, seat: int, action: SeatAction) -> None:
        """One decision of ``seat``, which saw ``seen``."""
        if isinstance(action, Play):
            self._play(seen, seat, action)
        elif isinstance(action, Give):
            self._give(seen, action)
        elif isinstance(action, NameContract):
            lowest = min(a.value for a in seen.legal if isinstance(a, NameContract))
            if seen.perch == seat and seen.rules.game is Game.THOUSAND and action.value > lowest:
                self.counts["barrel raised"] += 1

    def finish(self) -> Counter[str]:
        """The deal's counts, the declarations left unused included."""
        for _, what in self._could - self._did:
            self.counts["trilyazh unused" if what == "trilyazh" else "marriage unused"] += 1
        return self.counts

    def _play(self, seen: SeatView, seat: int, action: Play) -> None:
        legal = [a for a in seen.legal if isinstance(a, Play)]
        for a in legal:
            if a.declaration is _MARRIAGE:
                self._could.add((seat, f"marriage {SUIT_OF[a.card]}"))
            elif a.declaration is _TRILYAZH:
                self._could.add((seat, "trilyazh"))
        if action.declaration is _MARRIAGE:
            self._did.add((seat, f"marriage {SUIT_OF[action.card]}"))
        elif action.declaration is _TRILYAZH:
            self._did.add((seat, "trilyazh"))
        card = action.card
        if action.declaration is Declaration.NONE and card in led_bare(legal):
            self.counts["K/Q led bare"] += 1
        if seen.rules.game is Game.TUMBOCHKA:
            return
        trick = (*seen.trick, (seat, card))
        trump = seen.trump if seen.trump is not None else -1
        winner, _ = trick_winner(trick, trump)
        if (
            seen.trick
            and RANK_OF[card] in (ACE, TEN)
            and winner != seat
            and any(THOUSAND_POINTS[a.card] < THOUSAND_POINTS[card] for a in legal)
        ):
            self._pending.append((seat, SUIT_OF[card] != SUIT_OF[seen.trick[0][1]]))
        if len(trick) < len(seen.active):
            return
        declarer = seen.declarer
        for s, off_suit in self._pending:
            if winner != s and declarer in (s, winner):
                self.counts["A/10 thrown"] += 1
                self.counts["of which off suit"] += off_suit
        self._pending = []

    def _give(self, seen: SeatView, action: Give) -> None:
        hand = mask_of(seen.hand)
        held = held_sets(hand, seen.rules.game)
        if held >> action.card & 1 and hand & ~held:
            self.counts["set broken by a gift"] += 1


def deal_oddities(job: tuple[Rules, str, int, tuple[int, ...] | None]) -> Counter[str]:
    """The oddities of ``spec`` in every seat of deal ``k``, from the match scores
    ``scores`` (``None``: all 0)."""
    rules, spec, k, scores = job
    agent = agent_of(spec, 1.0)
    start = new_match(rules, scores)
    deal = shuffled_deal(start, f"oddities/{rules.game.value}/{k}", dealer=k % rules.players)
    checker = Checker()
    play_deal(start, deal, [agent] * rules.players, f"oddities/{k}", 1.0, None, checker.decided)
    return checker.finish()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="The visible oddities of the computer players.")
    parser.add_argument("--game", choices=sorted(GAMES), default="thousand")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--agents", type=level_spec, nargs="+", default=["hard", "easy"])
    parser.add_argument(
        "--scores",
        type=int,
        nargs="+",
        metavar="SCORE",
        help="the match scores, by seat, every deal starts from (default all 0)",
    )
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    rules = preset(GAMES[args.game], args.players)
    scores = None if args.scores is None else tuple(args.scores)
    if scores is not None and len(scores) != rules.players:
        parser.error(f"--scores needs {rules.players} scores, one per seat")
    command = "python -m benchmarks.oddities " + " ".join(sys.argv[1:] if argv is None else argv)
    print(f"`{command}`\n")
    print(
        f"game {rules.game.value}, {rules.players} players; deals `shuffle oddities/"
        f"{rules.game.value}/k`, k < {args.deals}"
        + ("" if scores is None else f", from the scores {' '.join(map(str, scores))}")
        + "; each agent in every seat, clock off\n"
    )
    print("| agent | " + " | ".join(ODDITIES) + " |")
    print("|---|" + "---|" * len(ODDITIES))
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for spec in args.agents:
            jobs = [(rules, spec, k, scores) for k in range(args.deals)]
            total: Counter[str] = Counter()
            for counts in pool.map(deal_oddities, jobs):
                total.update(counts)
            rates = [f"{100 * total[o] / args.deals:.1f}" for o in ODDITIES]
            print(f"| {spec} | " + " | ".join(rates) + " |")
    print(f"\ncounts per 100 deals, {args.deals} deals per agent")


if __name__ == "__main__":
    main()
