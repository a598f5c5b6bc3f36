"""The records' two storage-facing steps: ending a match with its result, and summarizing
a stored match for its score sheet.

`end_match(store, match_id)` is the one call the game service makes when a match ends —
inside the ``store.transaction()`` that appends the match's last action (or, for /stop,
inside a transaction of its own). It reads the match and its whole log (including the lines
just appended in that transaction), summarizes it, rates it if it finished, and records the
result with `Results.record_match`, which also marks the match finished or abandoned. So the
bot must not call ``matches.finish``/``abandon`` for such a match: this replaces them.

    async with store.transaction():
        version = await store.matches.append_actions(match_id, version, lines)
        if state.phase is Phase.MATCH_OVER:
            summary = await end_match(store, match_id)
    # after the commit: post the results and render_sheet(summary, ...)

A log that does not replay raises ``NotationError`` (a broken match): abandon it with
``matches.abandon`` instead; it then shows in the history without scores.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.records.rating import rate_match
from bot.records.summary import MatchSummary, summarize
from storage import Match, NotFound, PlayerRef, Rating, ResultWrite, Store

__all__ = ["end_match", "players_of", "result_write", "summary_of"]


def players_of(match: Match) -> tuple[PlayerRef, ...]:
    """The players of the match's seats: the human of a seat (also when a computer player
    stood in for them), else the computer player."""
    return tuple(
        PlayerRef.human(seat.user_id) if seat.user_id is not None
        else PlayerRef.computer(seat.computer_level or "")
        for seat in match.seats
    )


async def summary_of(store: Store, match_id: int) -> MatchSummary:
    """The summary of a stored match as it stands now (/score during a match, or later)."""
    async with store.db.snapshot():
        match = await store.matches.get(match_id)
        if match is None:
            raise NotFound("match", match_id)
        log = await store.matches.read_log(match_id)
    return summarize(match.rules, log, players_of(match), match_id=match_id)


def result_write(summary: MatchSummary) -> ResultWrite:
    """The summary as the result a write stores, rated from the ratings current in that
    write's transaction if the match finished (`storage.writes.MatchWrite.result`)."""
    if not summary.finished:
        return ResultWrite(summary)

    def rate(current: Mapping[PlayerRef, Rating]) -> tuple[Rating, ...]:
        return rate_match(summary, current)

    return ResultWrite(summary, rate)


async def end_match(
    store: Store, match_id: int, summary: MatchSummary | None = None
) -> MatchSummary:
    """End the match with its result, inside the caller's transaction: finished (rated) if
    its log reached the end of the match, abandoned (history only) otherwise.

    ``summary``: the caller's own summary of the whole log (lines just appended included),
    to spare re-reading and replaying the log while the transaction holds the database; it
    is refused with `VersionConflict` unless it covers every stored line.
    """
    if not store.db.in_transaction:
        raise RuntimeError("end_match must run inside store.transaction()")
    if summary is None:
        summary = await summary_of(store, match_id)
    elif summary.match_id != match_id:
        raise ValueError(f"a summary of match {summary.match_id}, not {match_id}")
    await store.results.record(result_write(summary))
    return summary
