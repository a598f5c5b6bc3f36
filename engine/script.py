"""The script runner of docs/notation.md: ``python -m engine.script FILE...``.

Plays each match script, checks its ``expect`` lines, prints ``ok FILE`` or
``FAIL FILE:LINE reason`` and exits with the number of failed files (at most 100).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from engine.cards import SUITS, parse_suit
from engine.errors import IllegalAction
from engine.games import variant_of
from engine.match import apply
from engine.notation import MatchReader, NotationError, parse_action, parse_seat, strip_comment
from engine.state import MatchState, Phase


class ExpectationFailed(Exception):
    def __init__(self, line: int, reason: str) -> None:
        super().__init__(reason)
        self.line = line
        self.reason = reason


def _seat_or_none(token: str, players: int) -> int | None:
    return None if token.lower() == "none" else parse_seat(token, players)


def _name(seat: int | None) -> str:
    return "none" if seat is None else f"p{seat + 1}"


def _numbers(args: list[str], players: int) -> tuple[int, ...]:
    if len(args) != players:
        raise NotationError(f"expected {players} numbers")
    try:
        return tuple(int(a) for a in args)
    except ValueError:
        raise NotationError(f"bad numbers {' '.join(args)!r}") from None


def check_expectation(state: MatchState, args: list[str], text: str) -> str | None:
    """``None`` if the expectation holds, else why not; ``NotationError`` if malformed."""
    if not args:
        raise NotationError("expect what?")
    kind, rest = args[0].lower(), args[1:]
    n = state.rules.players
    deal = state.deal
    checks: dict[str, Callable[[], str | None]] = {
        "illegal": lambda: _expect_illegal(state, text),
        "turn": lambda: _compare("turn", _name(state.turn), _name(_one_seat(rest, n))),
        "phase": lambda: _expect_phase(state, rest),
        "trump": lambda: _expect_trump(state, rest),
        "contract": lambda: _expect_contract(state, rest),
        "points": lambda: _compare(
            "points", deal.points if deal else (0,) * n, _numbers(rest, n)
        ),
        "scores": lambda: _compare("scores", state.scores, _numbers(rest, n)),
        "bolts": lambda: _compare("bolts", state.bolts, _numbers(rest, n)),
        "bagels": lambda: _compare("bagels", state.bagels, _numbers(rest, n)),
        "barrel": lambda: _expect_perch(state, rest, "barrel"),
        "tumbochka": lambda: _expect_perch(state, rest, "tumbochka"),
        "winner": lambda: _compare("winner", _name(state.winner), _name(_one_seat(rest, n))),
    }
    if kind not in checks:
        raise NotationError(f"unknown expectation {kind!r}")
    return checks[kind]()


def _one_seat(args: list[str], players: int) -> int | None:
    if len(args) != 1:
        raise NotationError("expected one seat or none")
    return _seat_or_none(args[0], players)


def _compare(what: str, actual: object, expected: object) -> str | None:
    def show(value: object) -> str:
        if isinstance(value, tuple):
            return " ".join(str(v) for v in value)
        return str(value)

    if actual == expected:
        return None
    return f"{what} is {show(actual)}, expected {show(expected)}"


def _expect_illegal(state: MatchState, text: str) -> str | None:
    body = strip_comment(text).split(None, 2)
    if len(body) < 3:
        raise NotationError("expect illegal needs an action")
    action = parse_action(body[2], state.rules.players)
    try:
        after, _ = apply(state, action)
    except IllegalAction:
        return None
    return f"{body[2].strip()} was accepted (phase now {after.phase.value})"


def _expect_phase(state: MatchState, args: list[str]) -> str | None:
    if len(args) != 1 or args[0].lower() not in {p.value for p in Phase}:
        raise NotationError(f"unknown phase {' '.join(args)!r}")
    return _compare("phase", state.phase.value, args[0].lower())


def _expect_trump(state: MatchState, args: list[str]) -> str | None:
    if len(args) != 1:
        raise NotationError("expect trump takes one suit or none")
    try:
        expected = None if args[0].lower() == "none" else parse_suit(args[0])
    except ValueError as error:
        raise NotationError(str(error)) from None
    actual = state.deal.trump if state.deal else None
    return _compare(
        "trump",
        "none" if actual is None else SUITS[actual],
        "none" if expected is None else SUITS[expected],
    )


def _expect_contract(state: MatchState, args: list[str]) -> str | None:
    deal = state.deal
    shown = deal is not None and deal.declarer is not None
    actual = f"{_name(deal.declarer)} {deal.contract}" if shown and deal else "none"
    if len(args) == 1 and args[0].lower() == "none":
        return _compare("contract", actual, "none")
    if len(args) != 2:
        raise NotationError("expect contract takes a seat and a number, or none")
    seat = parse_seat(args[0], state.rules.players)
    try:
        value = int(args[1])
    except ValueError:
        raise NotationError(f"bad number {args[1]!r}") from None
    return _compare("contract", actual, f"{_name(seat)} {value}")


def _expect_perch(state: MatchState, args: list[str], what: str) -> str | None:
    """``expect barrel`` / ``expect tumbochka``: who sits there (``Variant.perch_name``)."""
    actual = "none"
    if state.perch is not None and variant_of(state.rules).perch_name == what:
        actual = f"{_name(state.perch)} attempts {state.perch_attempts}"
    if len(args) == 1 and args[0].lower() == "none":
        return _compare(what, actual, "none")
    if len(args) != 3 or args[1].lower() != "attempts":
        raise NotationError(f"expect {what} takes: pN attempts K, or none")
    seat = parse_seat(args[0], state.rules.players)
    try:
        attempts = int(args[2])
    except ValueError:
        raise NotationError(f"bad number {args[2]!r}") from None
    return _compare(what, actual, f"{_name(seat)} attempts {attempts}")


def run_script(text: str) -> None:
    """Play one script; raise ``ExpectationFailed`` or ``NotationError`` at the first fault."""
    reader = MatchReader()
    for number, line in enumerate(text.splitlines(), start=1):
        words = strip_comment(line).split()
        if words and words[0].lower() == "expect":
            try:
                state = reader.state
                failure = check_expectation(state, words[1:], line)
            except NotationError as error:
                error.line = error.line or number
                raise
            if failure is not None:
                raise ExpectationFailed(number, failure)
        else:
            reader.feed(number, line)
    reader.flush()


def run_file(path: Path) -> str:
    try:
        run_script(path.read_text(encoding="utf-8"))
    except ExpectationFailed as failure:
        return f"FAIL {path}:{failure.line} {failure.reason}"
    except NotationError as error:
        return f"FAIL {path}:{error.line or 0} {error.message}"
    except (OSError, UnicodeDecodeError) as error:
        return f"FAIL {path}:0 {error}"
    return f"ok {path}"


def main(argv: Sequence[str] | None = None) -> int:
    files = list(sys.argv[1:] if argv is None else argv)
    if not files:
        print("usage: python -m engine.script FILE...", file=sys.stderr)
        return 2
    failed = 0
    for name in files:
        result = run_file(Path(name))
        print(result)
        failed += not result.startswith("ok ")
    return min(failed, 100)


if __name__ == "__main__":
    sys.exit(main())


