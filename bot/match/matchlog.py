"""A match as stored: its header text (the rules, plus the deal seed), its log, and its deals.

The header is the notation's header lines; the bot adds one comment line, ``# deal-seed S``,
so the seed is stored with the match and replaying tools ignore it. Deal ``k`` of a match is
``shuffled_deal(state, "S:k")``: a restarted bot deals exactly what an uninterrupted one
would, and the log still holds every deal block explicitly.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine import (
    Deal,
    MatchReader,
    MatchState,
    Rules,
    acting_seat,
    format_header,
    opens_deal,
    shuffled_deal,
)

_SEED_LINE = re.compile(r"#\s*deal-seed\s+(\S+)\s*")
_SEED_PREFIX = "# deal-seed "


def header_text(rules: Rules, seed: str | None = None) -> str:
    lines = format_header(rules)
    if seed is not None:
        lines.append(_SEED_PREFIX + seed)
    return "\n".join(lines)


def with_seed(header: str, seed: str) -> str:
    """The header with its seed line set to ``seed``."""
    lines = [line for line in header.splitlines() if not _SEED_LINE.fullmatch(line.strip())]
    return "\n".join([*lines, _SEED_PREFIX + seed])


def seed_of(header: str) -> str | None:
    for line in header.splitlines():
        found = _SEED_LINE.fullmatch(line.strip())
        if found:
            return found[1]
    return None


def new_seed() -> str:
    return str(random.SystemRandom().getrandbits(64))


def rules_of(header: str) -> Rules:
    """The rules a header describes (``NotationError`` if it is not a valid header)."""
    reader = MatchReader()
    for number, line in enumerate(header.splitlines(), start=1):
        reader.feed(number, line)
    return reader.rules


def replay_match(header: str, log: Iterable[str]) -> MatchState:
    """The state of a stored match (``NotationError`` names the first bad line)."""
    reader = MatchReader()
    lines = [*header.splitlines(), *log]
    for number, line in enumerate(lines, start=1):
        reader.feed(number, line)
    return reader.state


@dataclass(frozen=True)
class DealSoFar:
    """Who has acted in the current deal of a log, as a match loaded anew must know it."""

    acted: frozenset[int]
    """The seats with an action in the deal."""
    dealt_by: int | None
    """The seat whose action ended the deal before (and so dealt this one); None in the
    first deal."""
    first: bool
    """The match's first deal (dealt at its start)."""


def deal_so_far(log: Sequence[str], players: int) -> DealSoFar:
    """The current deal of ``log`` (the lines after the last deal block's ``dealer``)."""
    starts = [number for number, line in enumerate(log) if opens_deal(line)]
    if not starts:
        return DealSoFar(frozenset(), None, first=True)
    start = starts[-1]
    acted = frozenset(
        seat for line in log[start + 1:] if (seat := acting_seat(line, players)) is not None
    )
    dealt_by = acting_seat(log[start - 1], players) if start > 0 else None
    return DealSoFar(acted, dealt_by, first=len(starts) == 1)


def last_actions(log: Sequence[str], players: int) -> dict[int, int]:
    """Seat → the number (``seq``, from 1) of its last action line in ``log``."""
    last = {}
    for number, line in enumerate(log, start=1):
        seat = acting_seat(line, players)
        if seat is not None:
            last[seat] = number
    return last


def next_deal(state: MatchState, seed: str) -> Deal:
    return shuffled_deal(state, f"{seed}:{state.deals + 1}")
