"""Committing a change of a running match, and only then showing it.

A change — lines for the log (a move, and the next deal if the move ended one), seats that
change with it, the next turn's deadline, the match's result if it ends — is one
`storage.MatchWrite` with the version the change was built from; the messages it must produce
(`bot.match.screens`) are rendered first and stored in the same trip (the database outbox),
and handed to the outbox after the commit. Between deals the next deal is dealt at once from
the match's seed (`bot.match.matchlog`). Callers hold the match's lock. Where several
processes share the database, the write holds the match's job for this one
(`bot.match.jobs`): it runs the timer and the computer moves the change sets going.

When the turn comes to a human who has been away for `PING_SECONDS`, or who gets their first
turn of a deal someone else's move dealt, their hand comes as a new message (issue 11;
/notify switches it off). After every change the next seat is set going (`next_turn`: a
computer thinks, a human's timer is armed).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from bot.chats.people import People
from bot.match.computers import human_to_act
from bot.match.jobs import Jobs
from bot.match.live import LiveMatch
from bot.match.matchlog import next_deal
from bot.match.screens import Batch, Screens
from bot.match.turns import deadline_after
from bot.records import MatchSummary, players_of, result_write, summarize
from bot.records.ending import Ending
from engine import MatchState, Phase, apply, format_deal
from engine.events import Event
from storage import Deadline, Match, MatchSeat, MatchWrite, Store, TurnDeadline, VersionConflict

log = logging.getLogger(__name__)

PING_SECONDS = 20.0
"""A player who has not pressed for this long gets a new message at their turn."""

SeatChanges = tuple[MatchSeat, ...]
"""Seat rows changed with an action (a timeout, a replacement), stored in its write."""


class Changes:
    """Commits changes of running matches and shows them."""

    def __init__(
        self,
        store: Store,
        people: People,
        screens: Screens,
        live: dict[int, LiveMatch],
        *,
        next_turn: Callable[[LiveMatch], None],
        ended: Callable[[int], None],
        jobs: Jobs | None = None,
        ping_seconds: float = PING_SECONDS,
    ) -> None:
        self._store = store
        self._people = people
        self._screens = screens
        self._live = live
        self._next_turn = next_turn
        self._ended = ended
        """Called with a match's id when it leaves memory (over, or changed under us)."""
        self._jobs = jobs
        """Where processes share the database: the change's write holds the match's job."""
        self._ping_seconds = ping_seconds

    async def advance(
        self,
        live: LiveMatch,
        lines: list[str],
        state: MatchState,
        events: Sequence[Event],
        *,
        seats: SeatChanges = (),
        table_note: str | None = None,
        by: int | None = None,
    ) -> Ending | None:
        """Deal on if a deal ended, commit ``lines`` (+ the deal) — with the match's result if
        they end it, the changed ``seats`` and the next turn's deadline, in one write — then
        show the outcome and set the next seat going; if the match is over, return its
        ending, whose result the caller announces once it let go of the lock.

        Called under the match's lock. Raises `VersionConflict` if another writer got there
        first, and whatever failed inside the transaction (then nothing was committed and the
        match stands as it was).
        """
        scored_state, scored_events = state, events
        dealt: Sequence[Event] = ()
        if state.phase is Phase.DEAL_OVER:
            deal = next_deal(state, live.seed)
            state, dealt = apply(state, deal)
            lines = [*lines, *format_deal(deal)]
        over = state.phase is Phase.MATCH_OVER
        summary = await self.summary(live.row, lines) if over else None
        row = seated(live.row, seats)
        turn = None if summary is not None else turn_deadline(row, state)
        write = MatchWrite(
            live.match_id,
            live.version,
            tuple(lines),
            seats=seats,
            deadline=turn,
            result=None if summary is None else result_write(summary),
        )
        after = replace(
            live, row=row, state=state, version=write.new_version, deadline=armed(write, turn)
        )
        if dealt:
            after.recap = (write.new_version, scored_state, tuple(scored_events))
            after.deal_turns, after.dealt_by = set(), by
        pings = set() if over else await self._pings(after, by)
        write, batch = await self.composed(
            write,
            after,
            before=live,
            events=[*events, *dealt],
            note=table_note,
            final=over,
            results=(scored_state, scored_events, summary),
            pings=pings,
        )
        try:
            version = await self._store.matches.commit(write)
        except VersionConflict:
            # Another writer stored first: forget this copy; the next press loads the log anew.
            log.warning("match %s changed under us", live.match_id)
            self._live.pop(live.match_id, None)
            self._ended(live.match_id)
            raise
        live.row, live.state, live.version = row, state, version
        live.deadline = after.deadline
        if over:
            del self._live[live.match_id]
            self._ended(live.match_id)
        live.recap, live.deal_turns, live.dealt_by = after.recap, after.deal_turns, after.dealt_by
        live.recent, live.solo_note = after.recent, after.solo_note
        ending = self._screens.deliver(live, batch)
        if not over:
            self._next_turn(live)
        return ending

    async def change_seat(
        self, live: LiveMatch, seat: int, change: dict[str, object], table_note: str,
        *, replaced: bool,
    ) -> bool:
        """Store ``change`` of the seat, which makes its human ``replaced`` or not, if it is
        not so already; then redraw and set the next seat going."""
        async with live.lock:
            place = live.row.seats[seat]
            if self._live.get(live.match_id) is not live or place.user_id is None:
                return False
            if place.replaced_by_computer == replaced:
                return False
            seats = (place.model_copy(update=change),)
            row = seated(live.row, seats)
            turn = turn_deadline(row, live.state)
            write = MatchWrite(live.match_id, live.version, seats=seats, deadline=turn)
            if not replaced:
                live.seat_notes.pop(seat, None)
            after = replace(live, row=row, deadline=armed(write, turn))
            write, batch = await self.composed(write, after, before=live, note=table_note)
            await self._store.matches.commit(write)
            live.row, live.deadline = row, after.deadline
            live.recent, live.solo_note = after.recent, after.solo_note
            self._screens.deliver(live, batch)
            self._next_turn(live)
        return True

    async def composed(
        self, write: MatchWrite, after: LiveMatch, *, before: LiveMatch | None, **shown: Any
    ) -> tuple[MatchWrite, Batch]:
        """The messages ``after`` (the match as ``write`` leaves it from ``before``; None: a
        new match) must show, rendered now (`Screens.compose` with ``shown``) and added to the
        write: they are committed with the change in its one trip, and delivered after the
        commit. Where processes share the database, the write also makes the match's job this
        process's, or drops it, if either state needs one (`bot.match.jobs`)."""
        batch = await self._screens.compose(after, **shown)
        extra = (*write.extra, self._store.outbox.statement(batch.rows))
        job = None if self._jobs is None else self._jobs.statement(before, after)
        if job is not None:
            extra = (*extra, job)
        return replace(write, extra=extra), batch

    async def summary(self, row: Match, lines: Sequence[str] = ()) -> MatchSummary:
        """The summary of the stored log of ``row`` followed by ``lines`` (about to be stored),
        worked out before the transaction so that it does not hold the database meanwhile."""
        stored = await self._store.matches.read_log(row.match_id)
        return summarize(row.rules, [*stored, *lines], players_of(row), match_id=row.match_id)

    async def _pings(self, live: LiveMatch, by: int | None) -> set[int]:
        """The seats whose hand must come as a new message (Telegram notifies of new messages,
        never of edits): the human whose turn has just come, unless they pressed this very
        action, if they have been away for a while or this is their first turn of a deal that
        someone else's move dealt — and they have not switched the pings off (/notify)."""
        seat = human_to_act(live.row, live.state)
        user = live.row.seats[seat].user_id if seat is not None else None
        if seat is None or user is None or user == by or user in live.unreachable:
            return set()
        first = user not in live.deal_turns and user != live.dealt_by
        live.deal_turns.add(user)
        if not (first or live.idle_for(user) >= self._ping_seconds):
            return set()
        return {seat} if await self._people.pings(user) else set()


def seated(row: Match, seats: SeatChanges) -> Match:
    """``row`` with the changed seats in place."""
    if not seats:
        return row
    changed = {place.seat: place for place in seats}
    return row.model_copy(
        update={"seats": tuple(changed.get(place.seat, place) for place in row.seats)}
    )


def turn_deadline(row: Match, state: MatchState) -> TurnDeadline | None:
    """The turn deadline to store with a change: the human to act next gets the match's
    timer (None: the match has no timer, its deadlines stay as they are)."""
    if row.turn_seconds is None:
        return None
    return TurnDeadline(human_to_act(row, state), deadline_after(row.turn_seconds))


def armed(write: MatchWrite, turn: TurnDeadline | None) -> Deadline | None:
    """The deadline the committed ``write`` stored, to arm in memory."""
    if turn is None or turn.seat is None:
        return None
    return Deadline(
        match_id=write.match_id, seat=turn.seat, deadline=turn.at, version=write.new_version
    )
