"""Random but reproducible match logs for the records tests: real notation, any length."""

from __future__ import annotations

import random

from engine import (
    Bid,
    Concede,
    Pass,
    Phase,
    Redeal,
    Rules,
    SeatAction,
    Throw,
    apply,
    format_action,
    format_deal,
    format_header,
    legal_actions,
    new_match,
    shuffled_deal,
)


def random_log(rules: Rules, seed: int, deals: int) -> tuple[list[str], list[str]]:
    """The header and the log of a match played at random for up to ``deals`` deals.

    Players pass more often than they bid and rarely concede, throw or ask for a redeal,
    so deals are mostly played out; the match may end earlier.
    """
    rng = random.Random(seed)
    state = new_match(rules)
    log: list[str] = []
    dealt = 0
    while state.phase is not Phase.MATCH_OVER:
        if state.phase is Phase.DEAL_OVER:
            if dealt == deals:
                break
            deal = shuffled_deal(state, rng.getrandbits(32))
            state, _ = apply(state, deal)
            log += format_deal(deal)
            dealt += 1
            continue
        actions = list(legal_actions(state))
        rare = [a for a in actions if isinstance(a, Concede | Throw | Redeal)]
        passes = [a for a in actions if isinstance(a, Pass)]
        bids = [a for a in actions if isinstance(a, Bid)]
        common = [a for a in actions if a not in rare]
        action: SeatAction
        if rare and rng.random() < 0.03:
            action = rng.choice(rare)
        elif passes and rng.random() < 0.6:
            action = passes[0]
        elif bids:
            action = min(bids, key=lambda b: b.value)
        else:
            action = rng.choice(common or actions)
        state, _ = apply(state, action)
        log.append(format_action(action))
    return format_header(rules), log
