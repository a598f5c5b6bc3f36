"""The rules core under the public API: a frozen state and its mutable table agree, an older
state used again gives the same result as when it was new, and only the very actions
``legal_actions`` listed skip their verifier."""

from __future__ import annotations

import dataclasses
import pickle
import random

import pytest

from engine import (
    Game,
    IllegalAction,
    MatchState,
    Phase,
    Play,
    Reason,
    Rules,
    apply,
    legal_actions,
    new_match,
    random_deal,
)
from engine.table import Table, peek, thaw

RULES = [
    Rules(),
    Rules(ace_marriage=True, bid_cap_without_marriage=False, golden_round=True),
    Rules(game=Game.THOUSAND_ONE, players=4),
    Rules(game=Game.TUMBOCHKA),
]


def _played(rules: Rules, deals: int, seed: int) -> list[tuple[MatchState, Table]]:
    """Random deals: each state ``apply`` returned, with a copy of the table it came from
    (``apply`` takes that table away when the next action is applied)."""
    rng = random.Random(seed)
    state = new_match(rules)
    seen = []
    for _ in range(deals):
        if state.phase is Phase.MATCH_OVER:
            state = new_match(rules)
        state, _ = apply(state, random_deal(state, rng))
        seen.append((state, peek(state).copy()))
        while state.phase not in (Phase.DEAL_OVER, Phase.MATCH_OVER):
            state, _ = apply(state, rng.choice(legal_actions(state)))
            seen.append((state, peek(state).copy()))
    return seen


def _states(rules: Rules, deals: int, seed: int) -> list[MatchState]:
    return [state for state, _ in _played(rules, deals, seed)]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.game.value}-{r.players}")
def test_a_thawed_table_is_the_table_that_played(rules: Rules) -> None:
    """Thawing a frozen state rebuilds everything the live table knew: the frozen record,
    the played cards, the voids shown (by the trump of their time) and the forced lead."""
    for state, live in _played(rules, 25, 7):
        again = thaw(state)
        assert again.freeze() == state
        assert again.played == live.played
        assert again.voids == live.voids
        assert again.forced == live.forced


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.game.value}-{r.players}")
def test_an_older_state_applied_again_gives_the_same_result(rules: Rules) -> None:
    """``apply`` takes the table from the state it changes; the state itself stays valid."""
    rng = random.Random(3)
    states = _states(rules, 10, 5)
    for state in states[:: max(1, len(states) // 60)]:
        legal = legal_actions(state)
        if not legal:
            continue
        action = rng.choice(legal)
        first = apply(state, action)
        second = apply(state, action)
        assert first == second
        assert pickle.loads(pickle.dumps(first[0])) == first[0]


def _unplayable(state: MatchState) -> list[int]:
    """The cards the seat to play holds but may not play now."""
    if state.phase is not Phase.PLAY or state.deal is None or state.turn is None:
        return []
    hand = state.deal.hands[state.turn]
    playable = {a.card for a in legal_actions(state) if isinstance(a, Play)}
    return [c for c in range(36) if hand >> c & 1 and c not in playable]


def test_only_the_listed_objects_skip_the_verifier() -> None:
    """An equal action built elsewhere (a press, a script line) is verified; a forged one is
    refused even right after ``legal_actions`` listed the legal ones."""
    state = next(s for s in _states(Rules(), 5, 11) if _unplayable(s))
    legal = legal_actions(state)
    turn = state.turn
    assert turn is not None
    listed = legal[0]
    assert isinstance(listed, Play)
    built = dataclasses.replace(listed)
    assert built == listed and built is not listed
    assert apply(state, built) == apply(state, listed)
    forged = _unplayable(state)
    legal_actions(state)
    with pytest.raises(IllegalAction) as refused:
        apply(state, Play(turn, forged[0]))
    assert refused.value.reason in (Reason.MUST_FOLLOW_SUIT, Reason.MUST_TRUMP)
    assert peek(state).freeze() == state


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.game.value}-{r.players}")
def test_a_state_read_only_after_later_actions_is_the_state_it_was(rules: Rules) -> None:
    """A state's fields are computed when first read; read after its table has moved on, it
    is replayed from its deal's start and equals what its table was then."""
    for state, live in _played(rules, 12, 13):
        assert state == live.freeze()
        assert state.deal == live.freeze().deal


def test_a_state_is_a_frozen_value() -> None:
    """Fields cannot be set; equal states hash alike; ``_replace`` and pickling give values
    equal by their fields, as the named tuple it replaced did."""
    state = _states(Rules(), 1, 3)[-1]
    with pytest.raises(AttributeError):
        state.phase = Phase.PLAY
    with pytest.raises(AttributeError):
        del state.phase
    again = pickle.loads(pickle.dumps(state))
    assert again == state and hash(again) == hash(state) and repr(again) == repr(state)
    changed = state._replace(deals=state.deals + 1)
    assert changed != state and changed.deals == state.deals + 1
    assert changed._replace(deals=state.deals) == state
    assert MatchState._fields == (
        "rules", "phase", "scores", "bolts", "perch", "perch_attempts", "falls", "bagels",
        "deals", "deal", "winner",
    )
    with pytest.raises(ValueError):
        state._replace(nothing=1)


def test_a_random_deal_is_refused_after_the_match() -> None:
    """``random_deal`` lists its deal for a state between deals, so that ``apply`` takes it
    unverified; after the match it is not listed, and ``apply`` refuses it."""
    rng = random.Random(2)
    state = new_match(Rules())
    while state.phase is not Phase.MATCH_OVER:
        state, _ = apply(state, random_deal(state, rng))
        while state.phase not in (Phase.DEAL_OVER, Phase.MATCH_OVER):
            state, _ = apply(state, rng.choice(legal_actions(state)))
    with pytest.raises(IllegalAction) as refused:
        apply(state, random_deal(state, rng))
    assert refused.value.reason is Reason.MATCH_OVER
