"""Who acts next, when nobody presses (design: Turns and time; issue 6).

After every change (`next`) a computer seat thinks off the event loop (`bot.match.thinking`,
the services' pool) and its move goes through the same path as a press; a human gets the
match's turn timer, stored with the change (`storage.deadlines`) and armed in memory
(`bot.match.turns`). When it runs out, a computer player moves for them and the table says
so; after three timeouts in a row (or a /kick) the computer keeps the seat until /back. A
computer waits `OPTION_WAIT_SECONDS` before a move that would close a human's one-time option.
"""

from __future__ import annotations

import asyncio
import html
import logging
from collections import Counter

from bot.match.changes import SeatChanges
from bot.match.computers import (
    KICK_AFTER_TIMEOUTS,
    decision_seed,
    human_may_interject,
    human_to_act,
    interjecting,
    thinking_seat,
)
from bot.match.crew import Crew, Room
from bot.match.live import LiveMatch
from bot.match.running import Load
from bot.match.thinking import Thinking
from bot.match.turns import AnyJobQueue, TurnTimers
from bot.ops.logs import note
from bot.records.ending import Ending
from engine import IllegalAction, SeatAction, apply, format_action, view
from engine.ai import DEFAULT_BUDGET
from storage import Deadline, VersionConflict

log = logging.getLogger(__name__)

OPTION_WAIT_SECONDS = 4.0
"""How long a computer waits before an action that closes a human's one-time option."""



class Autoplay(Room):
    """The turn timers and the computer seats' moves of the running matches."""

    def __init__(
        self,
        crew: Crew,
        thinking: Thinking,
        load: Load,
        *,
        job_queue: AnyJobQueue | None = None,
        stand_in: str = "hard",
        budget: float = DEFAULT_BUDGET,
        option_wait: float = OPTION_WAIT_SECONDS,
    ) -> None:
        super().__init__(crew)
        self._thinking = thinking
        self._load = load
        self.stand_in = stand_in
        """The computer player that moves for a human (timeouts, /kick)."""
        self._budget = budget
        self._option_wait = option_wait
        self.timers = TurnTimers(job_queue, self._timed_out, self._running_short)
        self._moving: Counter[int] = Counter()
        """Match → its computer moves thinking or moving in this process now."""

    def moving(self, match_id: int) -> bool:
        """Whether a computer seat of the match thinks or moves in this process now."""
        return self._moving[match_id] > 0

    def next(self, live: LiveMatch) -> None:
        """Arm the turn timer of the human to act, or let a computer seat think."""
        if live.deadline is None or live.row.turn_seconds is None:
            self.timers.cancel(live.match_id)
        else:
            self.timers.arm(live.deadline, live.row.turn_seconds)
        if any(place.played_by_computer for place in live.row.seats):
            self._moving[live.match_id] += 1
            self._running.spawn(
                self._counted_move(live, live.version), f"computer {live.match_id}"
            )

    async def _counted_move(self, live: LiveMatch, version: int) -> None:
        try:
            await self._computer_move(live, version)
        finally:
            self._moving[live.match_id] -= 1
            if self._moving[live.match_id] <= 0:
                del self._moving[live.match_id]

    async def _decide(self, live: LiveMatch, seat: int, level: str) -> SeatAction:
        seed = decision_seed(live.seed, live.version, seat)
        seen = view(live.state, seat)
        try:
            return await self._thinking.decide(seen, level, seed, self._budget)
        except Exception:
            # A failing computer player must not stall the table: its first legal move.
            log.exception("computer %s failed in match %s", level, live.match_id)
            return seen.legal[0]

    async def _computer_move(self, live: LiveMatch, version: int) -> None:
        """The move of the computer seat that acts at ``version``, if nothing moved since."""
        found = interjecting(live.row, live.state)
        if found is None:
            thinker = thinking_seat(live.row, live.state)
            if thinker is None:
                return
            seat, level = thinker
            if human_may_interject(live.row, live.state):
                # Let the human press their redeal before this move closes it.
                await asyncio.sleep(self._option_wait)
                if live.version != version:
                    return
            found = seat, await self._decide(live, seat, level)
        await self._move_for(live, version, *found)

    async def _move_for(
        self,
        live: LiveMatch,
        version: int,
        seat: int,
        action: SeatAction,
        timeout: Deadline | None = None,
    ) -> None:
        """Make ``action`` for ``seat`` if the match is still at ``version``, and announce the
        match's result if the move ended it. For a human whose ``timeout`` ran out, the
        timeout is stored with the move."""
        async with live.lock:
            if not self._running.current(live) or live.version != version:
                return
            seats: SeatChanges = ()
            text = None
            if timeout is not None:
                if not still_due(live, timeout):
                    return
                seats, text = await self._timeout_of(live, seat)
            ending = await self._act(live, seat, action, seats=seats, table_note=text)
        if ending is not None:
            self._running.announce(ending)

    async def _act(
        self,
        live: LiveMatch,
        seat: int,
        action: SeatAction,
        *,
        seats: SeatChanges = (),
        table_note: str | None = None,
    ) -> Ending | None:
        """Apply a move the bot made for ``seat`` (under the match's lock)."""
        try:
            state, events = apply(live.state, action)
        except IllegalAction:
            # An agent's bug must not stall the table: log it and play the first legal move.
            log.exception("computer move %r refused in match %s", action, live.match_id)
            action = view(live.state, seat).legal[0]
            state, events = apply(live.state, action)
        line = format_action(action)
        note(match=live.match_id, action=line, by="computer")
        try:
            return await self._changes.advance(
                live, [line], state, events, seats=seats, table_note=table_note
            )
        except VersionConflict:
            return None

    async def _timed_out(self, deadline: Deadline) -> None:
        """A human's turn timer ran out: a computer moves for them; after three in a row it
        keeps the seat."""
        live = await self._load(deadline.match_id)
        if live is None or not still_due(live, deadline):
            return
        version = live.version
        action = await self._decide(live, deadline.seat, self.stand_in)
        await self._move_for(live, version, deadline.seat, action, deadline)

    async def _timeout_of(self, live: LiveMatch, seat: int) -> tuple[SeatChanges, str]:
        """The seat change of one more timeout of ``seat`` (the third in a row hands the seat
        to the computer) and the table's note about it."""
        place = live.row.seats[seat]
        count = place.consecutive_timeouts + 1
        replace = count >= KICK_AFTER_TIMEOUTS
        change: dict[str, object] = {"consecutive_timeouts": count}
        if replace:
            change |= {"replaced_by_computer": True, "computer_level": self.stand_in}
        timed_out = (place.model_copy(update=change),)

        live.seat_notes[seat] = "replaced" if replace else "timed-out"
        lang = await self._people.chat_language(live.chat_id)
        name = html.escape((await self._screens.names(live, lang))[seat])
        text = self._tr.text(lang, "turn-timed-out", name=name)
        if replace:
            text += "\n" + self._tr.text(lang, "turn-replaced", name=name)
        note(match=live.match_id, timeout=seat, count=count)
        return timed_out, text

    async def _running_short(self, deadline: Deadline) -> None:
        """Redraw the table and the hand of the player to act so that they show the last
        seconds of a turn."""
        live = await self._load(deadline.match_id)
        if live is not None and still_due(live, deadline):
            async with live.lock:
                if still_due(live, deadline):
                    await self._screens.show_table(live)
                    await self._screens.show_hand(live, deadline.seat)


def still_due(live: LiveMatch, deadline: Deadline) -> bool:
    """Whether ``deadline`` is still the running turn's (nothing moved since it was armed)."""
    return live.version == deadline.version and human_to_act(live.row, live.state) == deadline.seat
