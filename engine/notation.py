"""The match notation (docs/notation.md): parsing and formatting of headers, deal blocks and
actions, and ``MatchReader``, which turns notation lines into a match state.

The same lines are the database's action log, the golden tests and bug reports, so a
stored match replays with ``MatchReader`` exactly as a script does.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Sequence

from engine.actions import (
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
from engine.cards import card_name, cards_of, count, mask_of, parse_card
from engine.dealing import StartError, new_match, shuffled_deal
from engine.errors import IllegalAction
from engine.events import Event
from engine.games import variant_of
from engine.match import apply
from engine.rules import DEFAULT_GAME, Game, Rules, RulesError
from engine.state import MatchState


class NotationError(ValueError):
    """A line that is not well-formed notation, or a script that cannot be played."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


def strip_comment(text: str) -> str:
    return text.split("#", 1)[0].strip()


def parse_seat(token: str, players: int) -> int:
    text = token.strip().lower()
    if len(text) < 2 or text[0] != "p" or not text[1:].isdigit():
        raise NotationError(f"bad seat {token!r}")
    seat = int(text[1:]) - 1
    if not 0 <= seat < players:
        raise NotationError(f"no seat {token} at a table of {players}")
    return seat


def seat_name(seat: int) -> str:
    return f"p{seat + 1}"


def _int(token: str) -> int:
    try:
        return int(token)
    except ValueError:
        raise NotationError(f"bad number {token!r}") from None


def _card(token: str) -> int:
    try:
        return parse_card(token)
    except ValueError as error:
        raise NotationError(str(error)) from None


_DECLARATIONS = {d.value: d for d in Declaration if d is not Declaration.NONE}


def parse_action(text: str, players: int) -> SeatAction:
    """An action line ``pN verb args`` (comments allowed)."""
    words = strip_comment(text).split()
    if len(words) < 2:
        raise NotationError(f"bad action {text.strip()!r}")
    seat = parse_seat(words[0], players)
    verb, args = words[1].lower(), words[2:]
    simple: dict[str, type[Pass | Redeal | Concede | Throw]] = {
        "pass": Pass, "redeal": Redeal, "concede": Concede, "throw": Throw,
    }
    if verb in simple:
        if args:
            raise NotationError(f"{verb} takes no arguments")
        return simple[verb](seat)
    if verb in ("bid", "contract") and len(args) == 1:
        value = _int(args[0])
        return Bid(seat, value) if verb == "bid" else NameContract(seat, value)
    if verb == "give" and len(args) == 2:
        return Give(seat, _card(args[0]), parse_seat(args[1], players))
    if verb == "play" and len(args) in (1, 2):
        declaration = Declaration.NONE
        if len(args) == 2:
            name = args[1].lower()
            if name not in _DECLARATIONS:
                raise NotationError(f"unknown declaration {args[1]!r}")
            declaration = _DECLARATIONS[name]
        return Play(seat, _card(args[0]), declaration)
    raise NotationError(f"bad action {text.strip()!r}")


def format_action(action: SeatAction) -> str:
    who = seat_name(action.seat)
    if isinstance(action, Bid):
        return f"{who} bid {action.value}"
    if isinstance(action, NameContract):
        return f"{who} contract {action.value}"
    if isinstance(action, Give):
        return f"{who} give {card_name(action.card)} {seat_name(action.to)}"
    if isinstance(action, Play):
        suffix = f" {action.declaration.value}" if action.declaration.value else ""
        return f"{who} play {card_name(action.card)}{suffix}"
    verbs = {Pass: "pass", Redeal: "redeal", Concede: "concede", Throw: "throw"}
    return f"{who} {verbs[type(action)]}"


def format_cards(mask: int) -> str:
    return " ".join(card_name(c) for c in cards_of(mask))


def format_deal(deal: Deal) -> list[str]:
    """A deal block: ``dealer``, a ``hand`` line per playing seat, ``talon``."""
    lines = [f"dealer {seat_name(deal.dealer)}"]
    lines += [
        f"hand {seat_name(seat)} {format_cards(hand)}"
        for seat, hand in enumerate(deal.hands)
        if hand
    ]
    lines.append(f"talon {format_cards(deal.talon)}")
    return lines


def format_header(
    rules: Rules, scores: Sequence[int] | None = None, bolts: Sequence[int] | None = None
) -> list[str]:
    lines = [f"game {rules.game.value}", f"players {rules.players}"]
    lines += [f"option {spec.name}={spec.text(value)}" for spec, value in rules.changed_options()]
    if scores is not None and any(scores):
        lines.append("scores " + " ".join(str(s) for s in scores))
    if bolts is not None and any(bolts):
        lines.append("bolts " + " ".join(str(b) for b in bolts))
    return lines


_HEADER = ("game", "players", "option", "scores", "bolts")
_DEAL = ("dealer", "hand", "talon", "shuffle")


def acting_seat(text: str, players: int) -> int | None:
    """The seat whose action a log line is (``p2 play AS``: 1); None for any other line
    (header, deal block, comment)."""
    words = strip_comment(text).split()
    if not words or words[0].lower() in _HEADER or words[0].lower() in _DEAL:
        return None
    try:
        return parse_seat(words[0], players)
    except NotationError:
        return None


def opens_deal(text: str) -> bool:
    """Whether a log line opens a deal block (its ``dealer`` line)."""
    words = strip_comment(text).split()
    return bool(words) and words[0].lower() == "dealer"


class MatchReader:
    """Plays notation lines into a match: header, deal blocks and actions.

    ``feed`` takes one line at a time; ``expect`` lines are left to the caller, who calls
    ``flush`` first so that a pending deal block has been dealt.
    """

    def __init__(self) -> None:
        self.game = DEFAULT_GAME
        self.players: int | None = None
        self.options: list[tuple[str, str, int]] = []
        self.scores: list[int] | None = None
        self.bolts: list[int] | None = None
        self._state: MatchState | None = None
        self._dealer: int | None = None
        self._hands: dict[int, int] = {}
        self._talon: int | None = None
        self._block_line: int | None = None
        self._header_lines: dict[str, int] = {}
        self.events: list[Event] = []

    @property
    def started(self) -> bool:
        return self._state is not None

    @property
    def state(self) -> MatchState:
        self.flush()
        if self._state is None:
            self._state = self._start()
        return self._state

    @property
    def rules(self) -> Rules:
        return self.state.rules

    def feed(self, line: int, text: str) -> None:
        words = strip_comment(text).split()
        if not words:
            return
        verb = words[0].lower()
        try:
            if verb in _HEADER:
                self._header(line, verb, words[1:])
            elif verb in _DEAL:
                self._deal_line(line, verb, words[1:])
            elif verb == "expect":
                raise NotationError("expect lines are for scripts")
            else:
                self.flush()
                action = parse_action(text, self.rules.players)
                self.apply(action)
        except NotationError as error:
            error.line = error.line or line
            raise

    def apply(self, action: SeatAction | Deal) -> None:
        """Apply ``action``; a refusal is a script error naming its reason."""
        try:
            self._state, events = apply(self.state, action)
        except IllegalAction as error:
            raise NotationError(f"illegal action: {error.reason.value}") from None
        self.events.extend(events)

    def _header(self, line: int, verb: str, args: list[str]) -> None:
        if self._state is not None or self._block_line is not None:
            raise NotationError(f"{verb} belongs before the first deal")
        self._header_lines[verb] = line
        if verb == "game":
            if len(args) != 1 or args[0].lower() not in {g.value for g in Game}:
                raise NotationError(f"unknown game {' '.join(args)!r}")
            self.game = Game(args[0].lower())
        elif verb == "players":
            if len(args) != 1:
                raise NotationError("players takes one number")
            self.players = _int(args[0])
        elif verb == "option":
            if len(args) != 1 or "=" not in args[0]:
                raise NotationError("option takes name=value")
            name, value = args[0].split("=", 1)
            self.options.append((name.strip().lower(), value.strip(), line))
        else:
            values = [_int(a) for a in args]
            if verb == "scores":
                self.scores = values
            else:
                self.bolts = values

    def _start(self) -> MatchState:
        """The match the header describes; an impossible one is an error at its line."""
        lines = self._header_lines
        try:
            rules = Rules(game=self.game, players=self.players or 3)
        except RulesError as error:
            raise NotationError(str(error), lines.get("players", lines.get("game"))) from None
        for name, value, option_line in self.options:
            try:
                rules = rules.with_option(name, value)
            except RulesError as error:
                raise NotationError(str(error), option_line) from None
        try:
            return new_match(rules, self.scores, self.bolts)
        except StartError as error:
            raise NotationError(str(error), lines.get(error.field)) from None

    def _deal_line(self, line: int, verb: str, args: list[str]) -> None:
        if self._state is None:
            self._state = self._start()
        players = self._state.rules.players
        if verb == "dealer":
            self.flush()
            if len(args) != 1:
                raise NotationError("dealer takes one seat")
            self._dealer = parse_seat(args[0], players)
            self._block_line = line
        elif verb == "hand":
            if not args:
                raise NotationError("hand needs a seat")
            seat = parse_seat(args[0], players)
            if seat in self._hands:
                raise NotationError(f"second hand line for {args[0]}")
            self._hands[seat] = self._cards(args[1:])
            self._block_line = self._block_line or line
        elif verb == "talon":
            if self._talon is not None:
                raise NotationError("second talon line")
            self._talon = self._cards(args)
            self._block_line = self._block_line or line
        else:
            if len(args) != 1 or self._hands or self._talon is not None:
                raise NotationError("shuffle takes one seed and no hand lines")
            seed: int | str = args[0]
            with contextlib.suppress(ValueError):
                seed = int(args[0])
            dealer = self._dealer
            self._dealer, self._block_line = None, None
            self.apply(shuffled_deal(self.state, seed, dealer))

    def _cards(self, tokens: Iterable[str]) -> int:
        cards = [_card(t) for t in tokens]
        mask = mask_of(cards)
        if count(mask) != len(cards):
            raise NotationError("a card is listed twice")
        assert self._state is not None
        if mask & ~variant_of(self._state.rules).deck:
            raise NotationError("a card that is not in this game's deck")
        return mask

    def flush(self) -> None:
        """Deal the pending deal block, if any."""
        if self._block_line is None:
            return
        line = self._block_line
        state = self._state
        assert state is not None
        dealer = self._dealer
        if dealer is None:
            dealer = state.next_dealer or 0
        hands, talon = self._hands, self._talon
        self._dealer, self._hands, self._talon, self._block_line = None, {}, None, None
        if talon is None:
            raise NotationError("deal block without a talon line", line)
        everything = talon
        for hand in hands.values():
            if everything & hand:
                raise NotationError("a card is dealt twice", line)
            everything |= hand
        if everything != variant_of(state.rules).deck:
            raise NotationError("the deal block does not hold the whole deck once", line)
        deal = Deal(dealer, tuple(hands.get(s, 0) for s in range(state.rules.players)), talon)
        try:
            self.apply(deal)
        except NotationError as error:
            error.line = line
            raise


def replay(lines: Iterable[str]) -> MatchState:
    """The state a log of notation lines leads to (``NotationError`` names the bad line)."""
    reader = MatchReader()
    for number, text in enumerate(lines, start=1):
        reader.feed(number, text)
    return reader.state
