"""A fingerprint of the engine's behaviour, to show that a change for speed changed nothing.

    PYTHONHASHSEED=0 python -m benchmarks.fingerprint            # deals, easy and hard
    cd /tmp && PYTHONHASHSEED=0 PYTHONPATH=OLD:CHECKOUT python -m benchmarks.fingerprint deals

Each part prints a SHA-256; two engines behave alike where their digests agree. The second
line runs this file on another engine: ``OLD`` holds its ``engine/`` (``git archive COMMIT
engine | tar -x -C OLD``), ``CHECKOUT`` this one's ``benchmarks/``, and the command runs
outside the checkout so that its own ``engine/`` is not found first.

- *deals*: 400 seeded random deals of each of five rule sets (the four of
  ``benchmarks.engine_speed`` and Тысяча with the ace marriage, no cap and no rounding),
  every choice uniform over ``legal_actions``: every action, the events of every ``apply``
  and every list of legal actions; at every 10th deal, at each step, the state's fields,
  ``repr`` and pickle bytes (and that a pickle round trip gives an equal state with the same
  hash), and every seat's view and legal actions; at the 5th of every 10 deals, each state
  kept and read only after the deal is over; every deal's last state and its pickle bytes.
- *easy*: the rule-based player's actions and their events in every seat, 60 deals of each
  game; *hard*: the search player's (scale 0.25, clock off), 6 deals of each game.
"""

from __future__ import annotations

import hashlib
import pickle
import random
import sys
from collections.abc import Sequence

from engine import (
    Game,
    MatchState,
    Phase,
    Rules,
    apply,
    legal_actions,
    new_match,
    random_deal,
    view,
)
from engine.ai.levels import get_agent, make_agent

MATCH_FIELDS = (
    "rules", "phase", "scores", "bolts", "perch", "perch_attempts", "falls", "bagels", "deals",
    "deal", "winner",
)
DEAL_FIELDS = (
    "dealer", "active", "hands", "talon", "talon_shown", "bids", "bid", "bidder", "passed",
    "declarer", "contract", "contract_named", "without_bid", "given", "turn", "trump", "trick",
    "tricks", "won", "points", "declarations", "trilyazh", "outcome",
)
RULE_SETS = (
    Rules(),
    Rules(game=Game.THOUSAND_ONE),
    Rules(game=Game.THOUSAND_ONE, players=4),
    Rules(game=Game.TUMBOCHKA),
    Rules(ace_marriage=True, bid_cap_without_marriage=False, rounding=None),
)
_OVER = (Phase.DEAL_OVER, Phase.MATCH_OVER)


def fields(state: MatchState) -> bytes:
    """The state's fields by name (the deal's too), whatever class holds them."""
    shown = []
    for name in MATCH_FIELDS:
        value = getattr(state, name)
        if name == "deal" and value is not None:
            value = [(field, getattr(value, field)) for field in DEAL_FIELDS]
        shown.append((name, value))
    return repr((shown, state.turn, state.next_dealer)).encode()


def deals(per_rules: int = 400) -> str:
    digest = hashlib.sha256()
    for rules in RULE_SETS:
        rng = random.Random(12345 + rules.players)
        state = new_match(rules)
        for d in range(per_rules):
            if state.phase is Phase.MATCH_OVER:
                state = new_match(rules)
            state, events = apply(state, random_deal(state, rng))
            digest.update(repr(events).encode())
            kept = []
            while state.phase not in _OVER:
                if d % 10 == 5:
                    kept.append(state)
                legal = legal_actions(state)
                digest.update(repr(legal).encode())
                if d % 10 == 0:
                    _whole(digest, state)
                action = rng.choice(legal)
                digest.update(repr(action).encode())
                state, events = apply(state, action)
                digest.update(repr(events).encode())
            digest.update(fields(state))
            digest.update(pickle.dumps(state))
            for old in reversed(kept[::3]):
                digest.update(fields(old))
            for old in kept[1::3]:
                digest.update(repr(old).encode())
    return digest.hexdigest()


def _whole(digest: hashlib._Hash, state: MatchState) -> None:
    """Everything of ``state``: fields, repr, pickles, views and legal actions by seat."""
    digest.update(fields(state))
    digest.update(repr(state).encode())
    digest.update(pickle.dumps(state))
    digest.update(pickle.dumps(state, protocol=2))
    back = pickle.loads(pickle.dumps(state))
    assert back == state and hash(back) == hash(state) and fields(back) == fields(state)
    for seat in (*range(state.rules.players), None):
        digest.update(repr(view(state, seat)).encode())
        if seat is not None:
            digest.update(repr(legal_actions(state, seat)).encode())


def decisions(level: str, per_rules: int) -> str:
    """The actions ``level`` takes in every seat, and their events."""
    digest = hashlib.sha256()
    agent = make_agent("hard", scale=0.25, use_clock=False) if level == "hard" else get_agent(level)
    for rules in RULE_SETS[:4] if level == "easy" else (RULE_SETS[0], RULE_SETS[1], RULE_SETS[3]):
        rng = random.Random(777)
        state = new_match(rules)
        for d in range(per_rules):
            if state.phase is Phase.MATCH_OVER:
                state = new_match(rules)
            state, _ = apply(state, random_deal(state, rng))
            step = 0
            while state.phase not in _OVER:
                seat_view = view(state, state.turn)
                action = agent.decide(seat_view, random.Random(d * 1000 + step), 1.0)
                digest.update(repr(action).encode())
                state, events = apply(state, action)
                digest.update(repr(events).encode())
                step += 1
    return digest.hexdigest()


def main(argv: Sequence[str] | None = None) -> int:
    parts = list(argv if argv is not None else sys.argv[1:]) or ["deals", "easy", "hard"]
    for part in parts:
        if part == "deals":
            print("deals", deals())
        elif part in ("easy", "hard"):
            print(part, decisions(part, 60 if part == "easy" else 6))
        else:
            print(f"unknown part {part!r}: deals, easy or hard", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
