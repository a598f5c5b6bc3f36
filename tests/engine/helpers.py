"""Small builders for the engine's table-driven tests: states from hands or notation lines,
and a refusal check that also proves the state did not change."""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence

from engine import (
    Deal,
    Game,
    IllegalAction,
    MatchState,
    Reason,
    Rules,
    SeatAction,
    apply,
    new_match,
    parse_action,
    replay,
)
from engine.cards import parse_card


def mask(text: str) -> int:
    """``"AS TS 9H"`` as a bit mask of card ids."""
    m = 0
    for token in text.split():
        m |= 1 << parse_card(token)
    return m


def card(token: str) -> int:
    return parse_card(token)


def rules(game: Game = Game.THOUSAND, players: int = 3, /, **options: str) -> Rules:
    r = Rules(game=game, players=players)
    for name, value in options.items():
        r = r.with_option(name, value)
    return r


def deal(
    r: Rules,
    hands: Mapping[int, str],
    talon: str,
    *,
    dealer: int = 0,
    scores: Sequence[int] | None = None,
    bolts: Sequence[int] | None = None,
    state: MatchState | None = None,
) -> MatchState:
    """A match (new, or ``state``) after dealing ``hands`` (seat -> cards) and ``talon``."""
    if state is None:
        state = new_match(r, scores, bolts)
    masks = tuple(mask(hands.get(seat, "")) for seat in range(r.players))
    state, _ = apply(state, Deal(dealer, masks, mask(talon)))
    return state


def act(state: MatchState, *lines: str) -> MatchState:
    """Apply action lines in notation (``"p2 bid 105"``)."""
    for line in lines:
        state, _ = apply(state, parse_action(line, state.rules.players))
    return state


def script(text: str) -> MatchState:
    """The state a notation script (without ``expect`` lines) leads to."""
    return replay(text.strip().splitlines())


def refusal(state: MatchState, action: SeatAction | Deal | str) -> Reason:
    """The reason ``action`` is refused; fails if it is accepted or changes the state."""
    if isinstance(action, str):
        action = parse_action(action, state.rules.players)
    before = copy.deepcopy(state)
    try:
        apply(state, action)
    except IllegalAction as error:
        assert state == before, "a refused action changed the state"
        return error.reason
    raise AssertionError(f"{action!r} was accepted")


def accepted(state: MatchState, action: SeatAction | str) -> bool:
    if isinstance(action, str):
        action = parse_action(action, state.rules.players)
    try:
        apply(state, action)
    except IllegalAction:
        return False
    return True


def names(cards: Iterable[int]) -> list[str]:
    from engine.cards import card_name

    return [card_name(c) for c in cards]


# Deal A of Тысяча (dealer p1, p2 on the hundred, p3 speaks first):
# p1 ♠ marriage (cap 160), p2 ♣ marriage (cap 180), p3 ♦ marriage (cap 200).
DEAL_A = {
    0: "AS TS KS QS JS 9S AH",
    1: "AC TC KC QC JC 9C TH",
    2: "AD TD KD QD JD 9D KH",
}
TALON_A = "QH JH 9H"

# Deal B: nobody holds a marriage (caps 120); p1 holds the four aces.
DEAL_B = {
    0: "AS AC AD AH 9S 9C 9D",
    1: "KS JS KC JC KD JD KH",
    2: "QS TS QC TC QD TD QH",
}
TALON_B = "JH TH 9H"

# Тумбочка deal (dealer p1, p2 opens): p2 a troyan in ♠ and a trilyazh in ♦.
TUMB_DEAL = {
    0: "KS QC KC 6H 7H 8H JH",
    1: "6S 7S 8S JD QD KD 6C",
    2: "JS QS 7C 8C JC 6D 7D",
}
TUMB_TALON = "8D QH KH"


def first_legal_play(state: MatchState) -> SeatAction:
    """The first plain card the seat to play may play."""
    from engine import Declaration, Play, legal_actions

    for action in legal_actions(state):
        if isinstance(action, Play) and action.declaration is Declaration.NONE:
            return action
    raise AssertionError("nobody can play")


def play_deal(state: MatchState, declarer_leads: Sequence[str]) -> MatchState:
    """Play the deal out: the declarer plays ``declarer_leads`` in order (``"KH marriage"``),
    every other seat its first legal card."""
    from engine import Phase

    deal_ = state.deal
    assert deal_ is not None and deal_.declarer is not None
    who = f"p{deal_.declarer + 1}"
    queue = list(declarer_leads)
    while state.phase in (Phase.CONTRACT, Phase.PLAY):
        d = state.deal
        assert d is not None
        if d.turn == d.declarer and queue:
            state = act(state, f"{who} play {queue.pop(0)}")
        else:
            state, _ = apply(state, first_legal_play(state))
    assert not queue, f"cards left to play: {queue}"
    return state


def pass_out(state: MatchState) -> MatchState:
    """Everyone passes who may; the bidding ends."""
    from engine import Pass, Phase, legal_actions

    while state.phase is Phase.BIDDING:
        options = legal_actions(state)
        passes = [a for a in options if isinstance(a, Pass)]
        state, _ = apply(state, passes[0] if passes else options[0])
    return state


def give_first(state: MatchState) -> MatchState:
    """The declarer gives its lowest cards, one to each opponent in seat order."""
    from engine import Give, Phase, legal_actions

    while state.phase is Phase.GIVING:
        gives = [a for a in legal_actions(state) if isinstance(a, Give)]
        state, _ = apply(state, gives[0])
    return state
