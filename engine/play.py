"""A match in the terminal against computer players.

    python -m engine.play [thousand|1001|tumbochka] [--players 4] [--level easy] [--seed 7]

You play seat p1 (``--seat``); the other seats are computer players of ``--level``
(``random``, ``easy`` or ``hard``, the default). On your turn your hand and the legal
actions are listed: type an action's number, or the action in the match notation
(``docs/notation.md``) without the seat: ``bid 110``, ``pass``, ``give 9S p2``,
``contract 120``, ``play KH`` or just ``KH``, ``play QH marriage``. While it is not your
turn you may be asked whether to ask for a redeal (``y`` or Enter for no). End of input
or Ctrl-C leaves the match. You see what your seat may see: your hand, the table, the
talon when it is shown, and the card you are given; the other hands are shown only when
the match ends. ``--seed`` replays the same deals; ``--watch`` lets computers play every
seat (a demonstration, and how the tests drive this module).

This is a developer's tool: its text is English and not localized (the bot renders views
through ``locales/``).
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Sequence

from engine.actions import Give, SeatAction
from engine.ai.agent import DEFAULT_BUDGET, Agent, interjection
from engine.ai.levels import LEVELS, get_agent
from engine.cards import card_name, cards_of
from engine.dealing import new_match, random_deal
from engine.events import (
    BidMade,
    CardGiven,
    CardPlayed,
    ContractNamed,
    DealScored,
    DealStarted,
    Declared,
    DeclarerChosen,
    Event,
    Fell,
    MatchOver,
    Mounted,
    Passed,
    TalonShown,
    TalonTaken,
    TrickWon,
    TrumpChanged,
)
from engine.match import apply
from engine.notation import NotationError, format_action, parse_action, seat_name
from engine.rules import DEFAULT_GAME, PLAYER_COUNTS, Game, preset
from engine.state import MatchState, Phase
from engine.view import SeatView, view

GAMES = {**{game.value: game for game in Game}, "1001": Game.THOUSAND_ONE}
"""The games by the names the command takes: the notation's, and 1001."""
SUIT_NAMES = ("♠", "♣", "♦", "♥")

Ask = Callable[[str], str]
Say = Callable[[str], None]


def hand_text(cards: Sequence[int]) -> str:
    return " ".join(card_name(c) for c in cards) or "—"


def event_text(event: Event, me: int | None) -> str | None:
    """One line for an event, or ``None`` for events the other lines already show."""
    if isinstance(event, DealStarted):
        return f"— deal {event.number}, dealer {seat_name(event.dealer)} —"
    if isinstance(event, BidMade):
        return f"{seat_name(event.seat)} bids {event.value}" + (" (forced)" if event.forced else "")
    if isinstance(event, Passed):
        return f"{seat_name(event.seat)} passes" + (" (automatic)" if event.automatic else "")
    if isinstance(event, DeclarerChosen):
        extra = " without a bid" if event.without_bid else ""
        return f"{seat_name(event.seat)} declares at {event.bid}{extra}"
    if isinstance(event, TalonTaken):
        return f"{seat_name(event.seat)} takes the talon"
    if isinstance(event, TalonShown):
        return f"talon: {hand_text(event.cards)}"
    if isinstance(event, CardGiven):
        return f"{seat_name(event.seat)} gives a card to {seat_name(event.to)}"
    if isinstance(event, (CardPlayed, ContractNamed, TrumpChanged)):
        return None
    if isinstance(event, Declared):
        value = f" (+{event.value})" if event.value else ""
        return (
            f"{seat_name(event.seat)} declares {event.kind.value} in "
            f"{SUIT_NAMES[event.suit]}{value}"
        )
    if isinstance(event, TrickWon):
        return f"    trick to {seat_name(event.seat)}: {hand_text(event.cards)} (+{event.points})"
    if isinstance(event, DealScored):
        made = "made" if event.made else "failed"
        points = " ".join(str(p) for p in event.points)
        changes = " ".join(f"{c:+d}" for c in event.changes)
        scores = " ".join(str(s) for s in event.scores)
        return (
            f"contract {event.contract} {made}; points {points}; changes {changes}; scores {scores}"
        )
    if isinstance(event, Mounted):
        return f"{seat_name(event.seat)} climbs on"
    if isinstance(event, Fell):
        return f"{seat_name(event.seat)} falls ({event.cause.value}) to {event.score}"
    if isinstance(event, MatchOver):
        return f"match over: {seat_name(event.winner)} wins"
    name = type(event).__name__
    return f"{name}: {event}"


def status(v: SeatView) -> str:
    trump = SUIT_NAMES[v.trump] if v.trump is not None else "none"
    table = " ".join(f"{seat_name(s)}:{card_name(c)}" for s, c in v.trick) or "empty"
    lines = [f"your hand: {hand_text(v.hand)}"]
    if v.phase is Phase.PLAY or v.phase is Phase.CONTRACT:
        lines.append(
            f"contract {v.contract} by {seat_name(v.declarer or 0)}; trump {trump}; "
            f"points {' '.join(map(str, v.points))}; table: {table}"
        )
    if v.received:
        lines.append("you received: " + hand_text([c for _, c in v.received]))
    return "\n".join(lines)


def choose(v: SeatView, ask: Ask, say: Say) -> SeatAction:
    """The human's action: a number from the list or the notation without the seat."""
    legal = list(v.legal)
    assert v.seat is not None
    say(status(v))
    labels = [f"{i:>2}) {format_action(a).split(' ', 1)[1]:<16}" for i, a in enumerate(legal, 1)]
    for row in range(0, len(labels), 5):
        say("  " + " ".join(labels[row : row + 5]).rstrip())
    while True:
        text = ask("> ").strip()
        if text.isdigit():
            if 1 <= int(text) <= len(legal):
                return legal[int(text) - 1]
            say(f"type a number from 1 to {len(legal)}, or the action")
            continue
        words = text.split()
        if len(words) == 1 and not text.isdigit():
            words = ["play", *words]
        try:
            action = parse_action(f"{seat_name(v.seat)} {' '.join(words)}", len(v.scores))
        except NotationError as error:
            say(f"not understood: {error}")
            continue
        if action in legal:
            return action
        say("that is not allowed now")


def run(
    game: Game,
    players: int,
    level: str,
    seat: int | None,
    seed: int,
    budget: float = DEFAULT_BUDGET,
    ask: Ask = input,
    say: Say = print,
    max_deals: int = 1000,
) -> MatchState:
    """Play one match; ``seat`` is the human's (``None``: computers everywhere)."""
    rules = preset(game, players)
    agent: Agent = get_agent(level)
    rng = random.Random(seed)
    state = new_match(rules)
    say(
        f"{game.value}, {players} players; computer level {level}; seed {seed}; "
        f"you are {seat_name(seat) if seat is not None else 'watching'}"
    )
    for _ in range(max_deals):
        if state.phase is Phase.MATCH_OVER:
            break
        state = _deal(state, rng, agent, seat, budget, ask, say)
    if state.deal is not None:
        for s, hand in enumerate(state.deal.hands):
            if hand:
                say(f"{seat_name(s)} held at the end: {hand_text(cards_of(hand))}")
    return state


def _deal(
    state: MatchState,
    rng: random.Random,
    agent: Agent,
    me: int | None,
    budget: float,
    ask: Ask,
    say: Say,
) -> MatchState:
    state, events = apply(state, random_deal(state, rng))
    _say_events(events, me, say)
    step = 0
    offered = False
    while state.phase not in (Phase.DEAL_OVER, Phase.MATCH_OVER):
        turn = state.turn
        assert turn is not None and state.deal is not None
        action: SeatAction | None = None
        for other in state.deal.active:
            if other != turn and other != me:
                action = interjection(view(state, other))
                if action is not None:
                    break
        if action is None and me is not None and me != turn and not offered:
            mine = view(state, me)
            if mine.legal:
                offered = True
                if ask(f"{status(mine)}\nask for a redeal? [y/N] ").strip().lower() == "y":
                    action = mine.legal[0]
        if action is None:
            v = view(state, turn)
            if turn == me:
                action = choose(v, ask, say)
            else:
                action = agent.decide(v, random.Random(rng.getrandbits(64) + step), budget)
        state, events = apply(state, action)
        say(_action_text(action, me))
        _say_events(events, me, say)
        step += 1
    return state


def _action_text(action: SeatAction, me: int | None) -> str:
    if isinstance(action, Give) and me not in (action.seat, action.to):
        return f"{seat_name(action.seat)} gives a card to {seat_name(action.to)}"
    return format_action(action)


def _say_events(events: Sequence[Event], me: int | None, say: Say) -> None:
    for event in events:
        if isinstance(event, (BidMade, Passed, CardGiven)):
            continue
        line = event_text(event, me)
        if line is not None:
            say(line)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m engine.play",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "game", nargs="?", choices=sorted(GAMES), default=DEFAULT_GAME.value,
        help=f"default: {DEFAULT_GAME.value}",
    )
    parser.add_argument(
        "--players", type=int, default=None, help="3, or 4 in thousand-one (default: 3)"
    )
    parser.add_argument(
        "--level", choices=LEVELS, default="hard", help="the computers' level (default: hard)"
    )
    parser.add_argument("--seat", type=int, default=1, help="your seat, 1..players (default: 1)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the deals and computers")
    parser.add_argument(
        "--budget",
        type=float,
        default=DEFAULT_BUDGET,
        help=f"seconds per computer decision (default: {DEFAULT_BUDGET})",
    )
    parser.add_argument("--watch", action="store_true", help="computers in every seat")
    args = parser.parse_args(argv)
    game = GAMES[args.game]
    players = args.players if args.players is not None else PLAYER_COUNTS[game][0]
    if players not in PLAYER_COUNTS[game]:
        counts = " or ".join(map(str, PLAYER_COUNTS[game]))
        parser.error(f"{args.game} is played by {counts} players")
    if not args.watch and not 1 <= args.seat <= players:
        parser.error(f"--seat must be 1..{players}")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 30)
    seat = None if args.watch else args.seat - 1
    try:
        run(game, players, args.level, seat, seed, args.budget)
    except (EOFError, KeyboardInterrupt):
        print("\nbye")


if __name__ == "__main__":
    main()
