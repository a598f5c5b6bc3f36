"""A match as stored: its header text (the rules, plus the deal seed), its log, and its deals.

The header is the notation's header lines; the bot adds one comment line, ``# deal-seed S``,
so the seed is stored with the match and replaying tools ignore it. Deal ``k`` of a match is
``shuffled_deal(state, "S:k")``: a restarted bot deals exactly what an uninterrupted one
would, and the log still holds every deal block explicitly.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable

from engine import (
    Deal,
    MatchReader,
    MatchState,
    Rules,
    format_header,
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


def next_deal(state: MatchState, seed: str) -> Deal:
    return shuffled_deal(state, f"{seed}:{state.deals + 1}")
