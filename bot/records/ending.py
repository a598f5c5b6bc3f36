"""What is left to show of a match that just ended: its result and the summary it was
recorded from (`Ending`), stored with the match's last change under `ending_key`."""

from __future__ import annotations

from dataclasses import dataclass

from bot.records.summary import MatchSummary


def ending_key(match_id: int) -> str:
    return f"ending:{match_id}"


@dataclass(frozen=True)
class Ending:
    """A match's result (HTML) in the group's language, and the summary its result was
    recorded from (the score sheet's data)."""

    chat_id: int
    lang: str
    result: str
    summary: MatchSummary
    version: int = 0
    """The match's version at its end (the stored row of the result is marked with it)."""
    topic: int = 0
    """The forum topic of the group the match was played in (0: none)."""

    @property
    def key(self) -> str:
        return ending_key(self.summary.match_id)
