"""Loading running matches into memory after a restart (issue 13) and resuming them.

`expect` takes the running matches of the database: each loads when an update or a timer
first needs it (`load`, `load_for`), the others one by one in the background, newest first;
their stored turn deadlines are armed at once, so they fire on time meanwhile. Loading
replays a match from its log (which also tells who has had a turn in the deal and when each
player last acted: the turn pings go as one process would send them) and deals on if it
stopped between deals (its messages are not
redrawn: those a crash kept from being shown are still in the database outbox, which
`bot.match.recovery` delivers). A match that cannot be replayed is abandoned, with a log line
and a note in its group.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from datetime import datetime

from bot.match.changes import armed, turn_deadline
from bot.match.computers import human_to_act
from bot.match.crew import Crew, Room
from bot.match.live import LiveMatch
from bot.match.matchlog import DealSoFar, deal_so_far, last_actions, replay_match, seed_of
from bot.match.turns import TurnTimers
from bot.records import end_match, players_of, summarize
from engine import NotationError, Phase
from storage import Deadline, Match, MatchWrite, StorageError, VersionConflict

log = logging.getLogger(__name__)


class Loader(Room):
    """Brings running matches from the database into memory, each exactly once."""

    def __init__(
        self, crew: Crew, timers: TurnTimers, next_turn: Callable[[LiveMatch], None]
    ) -> None:
        super().__init__(crew)
        self._timers = timers
        self._next_turn = next_turn

    def expect(self, rows: Sequence[Match], deadlines: Sequence[Deadline]) -> None:
        """After a restart: the running matches of ``rows`` load when an update or a timer
        first needs them, the others one by one in the background (newest first); the
        stored turn ``deadlines`` are armed at once, so they fire on time meanwhile."""
        for row in rows:
            self._running.unloaded[row.match_id] = row
        timed = {row.match_id: row.turn_seconds for row in rows}
        for deadline in deadlines:
            seconds = timed.get(deadline.match_id)
            if seconds is not None:
                self._timers.arm(deadline, seconds)
        if rows:
            self._running.spawn(self._load_all(), "loading matches")

    async def _load_all(self) -> None:
        began = time.monotonic()
        waiting = sorted(self._running.unloaded, reverse=True)
        for match_id in waiting:
            try:
                await self.load(match_id)
            except Exception:
                log.exception("match %s could not be loaded", match_id)
        log.info("loaded %d matches in %.1f s", len(waiting), time.monotonic() - began)

    async def load_for(self, chat_id: int | None, user_id: int | None) -> None:
        """Load the not yet loaded matches of the chat and of the user (before an update of
        theirs is handled: then `Running.in_chat` and `Running.of_user` see them). Where other
        processes write the same database, those are asked of the database (they may have
        started them) and caught up with their logs."""
        if self._store.shared:
            running = await self._store.running.ids_for(chat_id, user_id)
            for live in list(self._running.live.values()):
                ours = live.chat_id == chat_id or (
                    user_id is not None and live.seat_of(user_id) is not None
                )
                if ours and live.match_id not in running:
                    # Ended (or abandoned) by another process.
                    self._running.live.pop(live.match_id, None)
                    self._timers.cancel(live.match_id)
            for match_id in running:
                await self.caught_up(match_id)
            return
        unloaded = self._running.unloaded
        if not unloaded:
            return
        wanted = [
            match_id
            for match_id, row in unloaded.items()
            if row.chat_id == chat_id or (user_id is not None and row.seat_of(user_id) is not None)
        ]
        for match_id in wanted:
            await self.load(match_id)

    async def load(self, match_id: int) -> LiveMatch | None:
        """The running match in memory, loaded from its log if it is not there yet (a restart,
        or a copy dropped after a conflict); None if it is not running. Loads of the same
        match share one replay: a press racing the background loading waits for it."""
        running = self._running
        live = running.live.get(match_id)
        if live is not None:
            return live
        loading = running.loads.get(match_id)
        if loading is None:
            row = running.unloaded.get(match_id)
            if row is None:
                row = await self._store.matches.get(match_id)
                if row is None or row.status != "running":
                    return None
            loading = running.loads.get(match_id)
            if loading is None:
                if (live := running.live.get(match_id)) is not None:
                    return live
                loading = asyncio.ensure_future(self.resume(row))
                running.loads[match_id] = loading
                loading.add_done_callback(lambda _: self._loaded(match_id))
        return await asyncio.shield(loading)

    async def caught_up(self, match_id: int) -> LiveMatch | None:
        """`load`, and where other processes write the same database (`Store.shared`), the
        copy in memory checked against the stored version first: one that another process
        moved on is dropped and loaded anew from the log, so a press applies to the match as
        it stands. A process that changes the match between this and the commit makes the
        commit a `VersionConflict` (nothing written; the press is answered "outdated"). Who
        cannot be written to privately is taken from the database too: another process may
        have taken their /start, or Telegram's refusal."""
        live = await self.load(match_id)
        if live is None or not self._store.shared:
            return live
        async with live.lock:
            standing = await self._store.running.standing(match_id)
            current = self._running.current(live)
            if standing is not None and standing.version == live.version and current:
                live.unreachable = set(standing.closed)
                return live
            if current:
                del self._running.live[match_id]
                self._timers.cancel(match_id)
        return await self.load(match_id) if standing is not None else None

    def _loaded(self, match_id: int) -> None:
        self._running.loads.pop(match_id, None)
        self._running.unloaded.pop(match_id, None)

    async def resume(self, row: Match) -> LiveMatch | None:
        """Load a running match from its log and deal on if it stopped between deals, and set
        it going — where other processes share the database, only if this one deals on: the
        process that holds its job moves it (`bot.match.jobs`). A match that cannot be
        replayed is abandoned, with a log. Use `load`, which never loads a match twice."""
        try:
            lines = await self._store.matches.read_log(row.match_id)
            seed = seed_of(row.rules)
            if seed is None:
                raise NotationError("the header has no deal-seed line")
            state = replay_match(row.rules, lines)
        except (NotationError, StorageError) as error:
            await self.abandon_broken(row.match_id, row.chat_id, str(error), row.topic_id)
            return None
        live = LiveMatch(row, state, len(lines), seed)
        live.unreachable = await self._unreachable(live)
        _turns_so_far(live, deal_so_far(lines, state.rules.players))
        await self._presses_so_far(live, lines)
        if state.phase is Phase.MATCH_OVER:
            # The log is complete but the row was never closed (edited by hand?): close it
            # with its result.
            summary = summarize(row.rules, lines, players_of(row), match_id=row.match_id)
            batch = await self._screens.compose(live, final=True)
            async with self._store.transaction():
                await end_match(self._store, row.match_id, summary)
                await self._store.outbox.record(batch.rows)
            self._screens.deliver(live, batch)
            return None
        self._running.live[row.match_id] = live
        async with live.lock:
            if state.phase is not Phase.DEAL_OVER:
                # Its messages show this state already, unless the database outbox still
                # holds them (`bot.match.recovery` delivers those): nothing to redraw here.
                live.deadline = await self._stored_deadline(live)
                if not self._store.shared:
                    self._next_turn(live)
                return live
            try:
                await self._changes.advance(live, [], state, ())
            except VersionConflict:
                return None
        return live

    async def _presses_so_far(self, live: LiveMatch, lines: Sequence[str]) -> None:
        """When the match started and each player last acted in it (the time their last
        line was stored), as the process that played it knew: whoever has been away for
        `PING_SECONDS` gets their turn as a new message (`bot.match.changes`)."""
        now, clock = self._store.db.now(), time.monotonic()

        def ago(at: datetime) -> float:
            return clock - max(0.0, (now - at).total_seconds())

        live.started_at = ago(live.row.created_at)
        last = {
            seat: seq for seat, seq in last_actions(lines, live.state.rules.players).items()
            if seat < len(live.row.seats) and live.row.seats[seat].user_id is not None
        }
        times = await self._store.running.line_times(live.match_id, list(last.values()))
        for seat, seq in last.items():
            user, at = live.row.seats[seat].user_id, times.get(seq)
            if user is not None and at is not None:
                live.pressed_at[user] = ago(at)

    async def _unreachable(self, live: LiveMatch) -> set[int]:
        """The match's players the bot cannot write to privately: as stored, where other
        processes share the database (the one that took their /start, or Telegram's refusal,
        may be another), else as this process knows them."""
        if self._store.shared:
            standing = await self._store.running.standing(live.match_id)
            return set(standing.closed) if standing is not None else set()
        return {
            user_id for user_id in live.user_ids
            if user_id is not None and not await self._people.opened(user_id)
        }

    async def _stored_deadline(self, live: LiveMatch) -> Deadline | None:
        """The deadline to re-arm after a restart: the stored one if it is for this turn
        (overdue ones fire at once), else a fresh one."""
        seat = human_to_act(live.row, live.state)
        if live.row.turn_seconds is None or seat is None:
            return None
        for stored in await self._store.deadlines.for_match(live.match_id):
            if stored.seat == seat and stored.version == live.version:
                return stored
        turn = turn_deadline(live.row, live.state)
        write = MatchWrite(live.match_id, live.version, deadline=turn)
        await self._store.matches.commit(write)
        return armed(write, turn)

    async def abandon_broken(
        self, match_id: int, chat_id: int, problem: str, topic: int = 0
    ) -> None:
        log.error("match %s cannot be restored and is abandoned: %s", match_id, problem)
        try:
            await self._store.matches.abandon(match_id)
        except StorageError as error:
            # A row that cannot even be loaded cannot be marked either; the group still
            # learns that its game is gone.
            log.error("match %s could not be marked abandoned: %s", match_id, error)
        lang = await self._people.chat_language(chat_id)
        await self._screens.post(chat_id, self._tr.text(lang, "bot-match-broken"), topic)


def _turns_so_far(live: LiveMatch, deal: DealSoFar) -> None:
    """Who has had a turn in the current deal of a match loaded anew (a restart, another
    process's change), as the process that played it knew: each player whose turn came got
    their hand as a new message then, so only the others' first turn pings them
    (`bot.match.changes`). Every hand of the first deal was a new message; later, whoever
    acted in the deal or is to act now has had their turn, and whoever ended the last deal
    dealt this one."""
    users = live.user_ids
    if deal.first:
        live.deal_turns = {user for user in users if user is not None}
        return
    seats = set(deal.acted)
    to_act = human_to_act(live.row, live.state)
    if to_act is not None:
        seats.add(to_act)
    live.deal_turns = {user for seat in seats if (user := users[seat]) is not None}
    dealt_by = deal.dealt_by
    by = None if dealt_by is None else live.row.seats[dealt_by]
    live.dealt_by = None if by is None or by.played_by_computer else by.user_id
