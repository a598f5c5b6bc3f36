"""Which job statement a change's write carries where processes share the database
(`bot.match.jobs.Jobs.statement`): the changer holds the job of a match whose next step is
automatic, drops the job of one whose step was automatic and no longer is, and writes
nothing when neither state needs a job (the hot path of presses between humans)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from bot.match.jobs import Jobs
from bot.match.live import LiveMatch
from engine import Game, new_match, preset
from storage import Deadline, Match, MatchSeat
from storage.jobs import MatchJobs

NOW = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)


class _Clock:
    """The little of a backend that job statements need: its clock."""

    def now(self) -> datetime:
        return NOW


def _live(*, computer: bool = False, timer: bool = False) -> LiveMatch:
    seats = tuple(
        MatchSeat(
            seat=seat, user_id=None if computer and seat == 2 else 101 + seat,
            computer_level="easy" if computer and seat == 2 else None,
            replaced_by_computer=False, hand_message_id=None, consecutive_timeouts=0,
        )
        for seat in range(3)
    )
    row = Match(
        match_id=7, chat_id=-100, lobby_id=None, game=Game.THOUSAND, players=3,
        rules="game thousand\nplayers 3", turn_seconds=60 if timer else None,
        status="running", version=5, table_message_id=None, winner_seat=None,
        created_at=NOW, updated_at=NOW, finished_at=None, seats=seats,
    )
    deadline = Deadline(match_id=7, seat=0, deadline=NOW, version=5) if timer else None
    return LiveMatch(row, new_match(preset(Game.THOUSAND)), 5, "seed", deadline=deadline)


def _jobs() -> Jobs:
    return Jobs(MatchJobs(_Clock(), shared=True), "worker-a")  # type: ignore[arg-type]


def test_a_change_between_humans_without_a_timer_writes_no_job() -> None:
    humans = _live()
    assert _jobs().statement(humans, replace(humans, version=6)) is None
    assert _jobs().statement(None, humans) is None  # a new match of humans


def test_the_changer_holds_a_job_that_either_state_needs_or_drops_it() -> None:
    jobs = _jobs()
    for automatic in (_live(computer=True), _live(timer=True)):
        held = jobs.statement(_live(), replace(automatic, version=6))
        assert held is not None and held.sql.startswith("INSERT INTO match_jobs")
        assert held.rows[0][:3] == (7, 6, "worker-a")
        dropped = jobs.statement(automatic, replace(_live(), version=6))
        assert dropped is not None and dropped.sql.startswith("DELETE FROM match_jobs")
        assert jobs.statement(None, automatic) is not None
