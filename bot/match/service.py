"""The game service: a press becomes committed log lines, and only then messages.

A press is decoded and checked — the presser holds the seat the keyboard was drawn for, the
keyboard's version is the match's version, the engine accepts the action — then its notation
line is appended to the log with the expected version and committed; after that the table,
the hands and any results are stored with it (the database outbox, `storage.outbox`: they are
rendered first and written in the change's own trip) and, after the commit, handed to the
outbox. Between deals the service deals the next
deal at once from the match's seed (`bot.match.matchlog`). One lock per match orders it all.

When the turn comes to a human who has been away for `PING_SECONDS`, or who gets their first
turn of a deal someone else's move dealt, their hand comes as a new message (issue 11; /notify
switches it off). «Расписать» and «Сбросить карты» act on a second press only, and the parts
of a keyboard a player opens (`bot.telegram.callbacks.Menu`) change nothing in the match.

After every change the service looks at who acts next (issue 6): a computer seat thinks off
the event loop (`bot.match.thinking`, the services' pool) and its move goes through the same
path as a press; a human gets the match's turn timer, stored with the change
(`storage.deadlines`) and armed in memory (`bot.match.turns`). When it runs out, a computer
player moves for them and the table says so; after three timeouts in a row, or a /kick, the
computer keeps the seat until /back.

A match ends with its result (`bot.records.end_match`: places, scores, settlement, counters,
ratings) written in the same transaction as its last action — or, for /stop, as abandoned in
a transaction of its own — so no match is ever over without its result, nor the reverse. The
press that ends a match hands its `Ending` back to the caller, who posts the match result
with the score sheet.
"""

from __future__ import annotations

import asyncio
import html
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.chats.people import People
from bot.i18n import Translator
from bot.match.computers import (
    KICK_AFTER_TIMEOUTS,
    decision_seed,
    human_may_interject,
    human_to_act,
    interjecting,
    level_of,
    thinking_seat,
)
from bot.match.live import LiveMatch
from bot.match.matchlog import (
    header_text,
    new_seed,
    next_deal,
    replay_match,
    rules_of,
    seed_of,
    with_seed,
)
from bot.match.screens import Batch, Ending, Screens
from bot.match.thinking import Thinking
from bot.match.turns import AnyJobQueue, TurnTimers, deadline_after
from bot.ops.logs import note
from bot.records import MatchSummary, end_match, players_of, result_write, summarize
from bot.render import render_refusal
from bot.render.keyboard import confirms
from bot.telegram.callbacks import ActionPress, Menu, MenuPress, decode
from engine import (
    Deal,
    IllegalAction,
    MatchState,
    NotationError,
    Phase,
    Rules,
    SeatAction,
    apply,
    format_action,
    format_deal,
    new_match,
    view,
)
from engine.ai import DEFAULT_BUDGET
from engine.events import Event
from storage import (
    Deadline,
    Lobby,
    Match,
    MatchSeat,
    MatchWrite,
    NewSeat,
    StorageError,
    Store,
    TurnDeadline,
    VersionConflict,
)

log = logging.getLogger(__name__)

MAX_PLAYERS = 4
PING_SECONDS = 20.0
"""A player who has not pressed for this long gets a new message at their turn."""
OPTION_WAIT_SECONDS = 4.0
"""How long a computer waits before an action that closes a human's one-time option."""
CONFIRM_SECONDS = 8.0
"""How long after the question a second press of «Расписать» or «Сбросить карты» does it."""

SeatChanges = tuple[MatchSeat, ...]
"""Seat rows changed with an action (a timeout, a replacement), stored in its write."""


@dataclass(frozen=True)
class Pressed:
    """What a press came to: the toast to answer it with ("" = none) and, if the press ended
    the match, its ending — the match result, which the caller must post."""

    toast: str = ""
    ending: Ending | None = None


class Games:
    """Running matches: starting, pressing, resuming, stopping."""

    def __init__(
        self,
        store: Store,
        people: People,
        screens: Screens,
        tr: Translator,
        thinking: Thinking,
        *,
        deal_seed: str | None = None,
        job_queue: AnyJobQueue | None = None,
        stand_in: str = "hard",
        budget: float = DEFAULT_BUDGET,
        ping_seconds: float = PING_SECONDS,
        option_wait: float = OPTION_WAIT_SECONDS,
    ) -> None:
        self._store = store
        self._people = people
        self._screens = screens
        self._tr = tr
        self._thinking = thinking
        self._deal_seed = deal_seed
        self._stand_in = stand_in
        self._budget = budget
        self._ping_seconds = ping_seconds
        self._option_wait = option_wait
        self._live: dict[int, LiveMatch] = {}
        self._timers = TurnTimers(job_queue, self._timed_out, self._running_short)
        self._tasks: set[asyncio.Task[None]] = set()
        self._unloaded: dict[int, Match] = {}
        """Running matches of the database not in memory yet (after a restart)."""
        self._loads: dict[int, asyncio.Future[LiveMatch | None]] = {}
        self.on_ending: Callable[[Ending], Awaitable[None]] | None = None
        """Posts the result of a match a computer's move ended (a press's caller posts its
        own)."""

    def in_chat(self, chat_id: int) -> LiveMatch | None:
        return next((m for m in self._live.values() if m.chat_id == chat_id), None)

    def of_user(self, user_id: int) -> list[LiveMatch]:
        return [m for m in self._live.values() if m.seat_of(user_id) is not None]

    # ---------------------------------------------------------------- starting

    async def start(self, lobby: Lobby) -> LiveMatch:
        """Start the full lobby's match: store it with its seed and first deal, then show it.

        Storage errors (the lobby changed meanwhile) propagate to the caller.
        """
        seed, deal, state, events = self._first_deal(rules_of(lobby.rules))
        header = with_seed(lobby.rules, seed)
        async with self._store.transaction():
            await self._store.lobbies.set_rules(
                lobby.lobby_id, game=lobby.game, players=lobby.players, rules=header
            )
            row = await self._store.matches.create_from_lobby(lobby.lobby_id)
            if lobby.message_id is not None:
                # The lobby message becomes the table: one message per game in the group.
                await self._store.matches.set_table_message_id(row.match_id, lobby.message_id)
                row = row.model_copy(update={"table_message_id": lobby.message_id})
            turn = _turn_deadline(row, state)
            write = MatchWrite(row.match_id, 0, tuple(format_deal(deal)), deadline=turn)
            live = LiveMatch(row, state, write.new_version, seed, deadline=_armed(write, turn))
            write, batch = await self._composed(write, live, events=events)
            await self._store.matches.commit(write)
        return self._begin(live, batch)

    async def start_solo(self, chat_id: int, user_id: int, rules: Rules, level: str) -> LiveMatch:
        """Start a match in the user's private chat against computer players of ``level``
        (/solo): the user sits first, no turn timer. ``ChatBusy`` if a match runs there."""
        seed, deal, state, events = self._first_deal(rules)
        header = header_text(rules, seed)
        players = rules.players
        seats = [NewSeat.human(user_id), *(NewSeat.computer(level) for _ in range(players - 1))]
        async with self._store.transaction():
            row = await self._store.matches.create(
                chat_id, game=rules.game, players=players, rules=header, seats=seats
            )
            version = await self._store.matches.append_actions(row.match_id, 0, format_deal(deal))
            live = LiveMatch(row, state, version, seed)
            batch = await self._screens.compose(live, events=events)
            await self._store.outbox.record(batch.rows)
        return self._begin(live, batch)

    def _first_deal(self, rules: Rules) -> tuple[str, Deal, MatchState, Sequence[Event]]:
        """A new match's seed, its first deal, and the state and events after it."""
        seed = self._deal_seed or new_seed()
        state = new_match(rules)
        deal = next_deal(state, seed)
        state, events = apply(state, deal)
        return seed, deal, state, events

    def _begin(self, live: LiveMatch, batch: Batch) -> LiveMatch:
        self._live[live.match_id] = live
        # Every hand of the first deal is a new message already.
        live.deal_turns.update(u for u in live.user_ids if u is not None)
        note(match=live.match_id, started=live.row.game)
        self._screens.deliver(live, batch)
        self._next(live)
        return live

    async def _composed(
        self, write: MatchWrite, after: LiveMatch, **shown: Any
    ) -> tuple[MatchWrite, Batch]:
        """The messages ``after`` (the match as ``write`` leaves it) must show, rendered now
        (`Screens.compose` with ``shown``) and added to the write: they are committed with the
        change in its one trip, and delivered after the commit."""
        batch = await self._screens.compose(after, **shown)
        statement = self._store.outbox.statement(batch.rows)
        return replace(write, extra=(*write.extra, statement)), batch

    # ---------------------------------------------------------------- pressing

    async def press(self, user_id: int, data: str) -> Pressed:
        """Apply a game button's press."""
        lang = await self._people.user_language(user_id)
        first = decode(data, MAX_PLAYERS)
        game_press = first if isinstance(first, ActionPress | MenuPress) else None
        live = await self.load(game_press.match_id) if game_press is not None else None
        press = decode(data, live.row.players) if live is not None else None
        if live is not None and press is not None and live.seat_of(user_id) is not None:
            live.pressed_at[user_id] = time.monotonic()
        if isinstance(press, MenuPress) and live is not None:
            return await self._open_menu(live, user_id, lang, press)
        if live is None or not isinstance(press, ActionPress):
            note(result="outdated")
            return Pressed(self._tr.text(lang, "press-outdated"))
        note(match=live.match_id)
        async with live.lock:
            if self._live.get(live.match_id) is not live:
                note(result="over")
                return Pressed(self._tr.text(lang, "press-outdated"))
            seat = live.seat_of(user_id)
            if seat is None:
                note(result="not-seated")
                return Pressed(self._tr.text(lang, "press-not-seated"))
            if level_of(live.row, seat) is not None:
                note(result="replaced")
                return Pressed(self._tr.text(lang, "press-replaced"))
            if press.action.seat != seat or press.version != live.version:
                note(result="outdated")
                return Pressed(self._tr.text(lang, "press-outdated"))
            try:
                state, events = apply(live.state, press.action)
            except IllegalAction as refusal:
                note(result=refusal.reason.value)
                return Pressed(render_refusal(refusal.reason, lang, self._tr))
            if confirms(press.action) and not live.confirmed(seat, press.action, CONFIRM_SECONDS):
                # The first press of an irreversible early end only asks.
                note(result="asked")
                live.open_menu(seat, Menu(confirm=press.action))
                await self._screens.show_hand(live, seat)
                return Pressed(self._tr.text(lang, "press-confirm"))
            line = format_action(press.action)
            note(action=line)
            live.seat_notes.pop(seat, None)
            place = live.row.seats[seat]
            in_time: SeatChanges = ()
            if place.consecutive_timeouts:
                in_time = (place.model_copy(update={"consecutive_timeouts": 0}),)
            try:
                ending = await self._advance(
                    live, [line], state, events, seats=in_time, by=user_id
                )
            except VersionConflict:
                return Pressed(self._tr.text(lang, "press-outdated"))
            note(result="applied", version=live.version)
        return Pressed(ending=ending)

    async def _open_menu(
        self, live: LiveMatch, user_id: int, lang: str, press: MenuPress
    ) -> Pressed:
        """Show the part of the keyboard a navigation button asks for (nothing is played)."""
        async with live.lock:
            seat = live.seat_of(user_id)
            if (
                self._live.get(live.match_id) is not live
                or seat != press.seat
                or press.version != live.version
                or level_of(live.row, seat) is not None
            ):
                note(result="outdated")
                return Pressed(self._tr.text(lang, "press-outdated"))
            note(match=live.match_id, result="menu")
            live.open_menu(seat, press.menu)
            await self._screens.show_hand(live, seat)
        return Pressed()

    async def _advance(
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
        ending, whose result the caller must post.

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
        summary = await self._summary(live.row, lines) if over else None
        row = _seated(live.row, seats)
        turn = None if summary is not None else _turn_deadline(row, state)
        write = MatchWrite(
            live.match_id,
            live.version,
            tuple(lines),
            seats=seats,
            deadline=turn,
            result=None if summary is None else result_write(summary),
        )
        after = replace(
            live, row=row, state=state, version=write.new_version, deadline=_armed(write, turn)
        )
        if dealt:
            after.recap = (write.new_version, scored_state, tuple(scored_events))
            after.deal_turns, after.dealt_by = set(), by
        pings = set() if over else await self._pings(after, by)
        write, batch = await self._composed(
            write,
            after,
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
            self._timers.cancel(live.match_id)
            raise
        live.row, live.state, live.version = row, state, version
        live.deadline = after.deadline
        if over:
            del self._live[live.match_id]
            self._timers.cancel(live.match_id)
        live.recap, live.deal_turns, live.dealt_by = after.recap, after.deal_turns, after.dealt_by
        live.recent, live.solo_note = after.recent, after.solo_note
        ending = self._screens.deliver(live, batch)
        if not over:
            self._next(live)
        return ending

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

    # ---------------------------------------------------------------- who acts next

    def _next(self, live: LiveMatch) -> None:
        """Arm the turn timer of the human to act, or let a computer seat think."""
        if live.deadline is None or live.row.turn_seconds is None:
            self._timers.cancel(live.match_id)
        else:
            self._timers.arm(live.deadline, live.row.turn_seconds)
        if any(place.played_by_computer for place in live.row.seats):
            self._spawn(self._computer_move(live, live.version), f"computer {live.match_id}")

    def announce_later(self, ending: Ending) -> None:
        """Post a match's result (stored, not yet posted when the bot stopped) in the
        background, like a computer's move that ends a match."""
        if self.on_ending is not None:
            self._spawn(self.on_ending(ending), f"ending {ending.summary.match_id}")

    def _spawn(self, work: Awaitable[None], name: str) -> None:
        task = asyncio.ensure_future(work)
        task.set_name(name)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("%s failed", task.get_name(), exc_info=task.exception())

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
        """Make ``action`` for ``seat`` if the match is still at ``version``, and post the
        match's result if the move ended it. For a human whose ``timeout`` ran out, the
        timeout is stored with the move."""
        async with live.lock:
            if self._live.get(live.match_id) is not live or live.version != version:
                return
            seats: SeatChanges = ()
            text = None
            if timeout is not None:
                if not self._still_due(live, timeout):
                    return
                seats, text = await self._timeout_of(live, seat)
            ending = await self._act(live, seat, action, seats=seats, table_note=text)
        if ending is not None and self.on_ending is not None:
            await self.on_ending(ending)

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
            return await self._advance(
                live, [line], state, events, seats=seats, table_note=table_note
            )
        except VersionConflict:
            return None

    async def _timed_out(self, deadline: Deadline) -> None:
        """A human's turn timer ran out: a computer moves for them; after three in a row it
        keeps the seat."""
        live = await self.load(deadline.match_id)
        if live is None or not self._still_due(live, deadline):
            return
        version = live.version
        action = await self._decide(live, deadline.seat, self._stand_in)
        await self._move_for(live, version, deadline.seat, action, deadline)

    async def _timeout_of(self, live: LiveMatch, seat: int) -> tuple[SeatChanges, str]:
        """The seat change of one more timeout of ``seat`` (the third in a row hands the seat
        to the computer) and the table's note about it."""
        place = live.row.seats[seat]
        count = place.consecutive_timeouts + 1
        replace = count >= KICK_AFTER_TIMEOUTS
        change: dict[str, object] = {"consecutive_timeouts": count}
        if replace:
            change |= {"replaced_by_computer": True, "computer_level": self._stand_in}
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
        live = await self.load(deadline.match_id)
        if live is not None and self._still_due(live, deadline):
            async with live.lock:
                if self._still_due(live, deadline):
                    await self._screens.show_table(live)
                    await self._screens.show_hand(live, deadline.seat)

    @staticmethod
    def _still_due(live: LiveMatch, deadline: Deadline) -> bool:
        return (
            live.version == deadline.version and human_to_act(live.row, live.state) == deadline.seat
        )

    # ---------------------------------------------------------------- /kick and /back

    async def replace(self, live: LiveMatch, seat: int, table_note: str) -> bool:
        """Let a computer play for the human of ``seat`` for the rest of the match (/kick);
        False if the seat is not a human's who plays it now."""
        change: dict[str, object] = {"replaced_by_computer": True, "computer_level": self._stand_in}
        return await self._change_seat(live, seat, change, table_note, replaced=True)

    async def give_back(self, live: LiveMatch, seat: int, table_note: str) -> bool:
        """Give a replaced seat back to its human (/back); False if it is not replaced."""
        change: dict[str, object] = {
            "replaced_by_computer": False, "computer_level": None, "consecutive_timeouts": 0
        }
        return await self._change_seat(live, seat, change, table_note, replaced=False)

    async def _change_seat(
        self,
        live: LiveMatch,
        seat: int,
        change: dict[str, object],
        table_note: str,
        *,
        replaced: bool,
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
            row = _seated(live.row, seats)
            turn = _turn_deadline(row, live.state)
            write = MatchWrite(live.match_id, live.version, seats=seats, deadline=turn)
            if not replaced:
                live.seat_notes.pop(seat, None)
            after = replace(live, row=row, deadline=_armed(write, turn))
            write, batch = await self._composed(write, after, note=table_note)
            await self._store.matches.commit(write)
            live.row, live.deadline = row, after.deadline
            live.recent, live.solo_note = after.recent, after.solo_note
            self._screens.deliver(live, batch)
            self._next(live)
        return True

    async def settled(self) -> None:
        """Wait until no computer seat is thinking or moving (each move may start the next)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        """Stop the timers and the computers' moves (shutting down; the services close the
        process pool they think in)."""
        self._timers.close()
        running: list[asyncio.Future[Any]] = [*self._tasks, *self._loads.values()]
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)

    async def _summary(self, row: Match, lines: Sequence[str] = ()) -> MatchSummary:
        """The summary of the stored log of ``row`` followed by ``lines`` (about to be stored),
        worked out before the transaction so that it does not hold the database meanwhile."""
        stored = await self._store.matches.read_log(row.match_id)
        return summarize(row.rules, [*stored, *lines], players_of(row), match_id=row.match_id)

    # ---------------------------------------------------------------- loading

    def expect(self, rows: Sequence[Match], deadlines: Sequence[Deadline]) -> None:
        """After a restart: the running matches of ``rows`` load when an update or a timer
        first needs them, the others one by one in the background (newest first); the
        stored turn ``deadlines`` are armed at once, so they fire on time meanwhile."""
        for row in rows:
            self._unloaded[row.match_id] = row
        timed = {row.match_id: row.turn_seconds for row in rows}
        for deadline in deadlines:
            seconds = timed.get(deadline.match_id)
            if seconds is not None:
                self._timers.arm(deadline, seconds)
        if rows:
            self._spawn(self._load_all(), "loading matches")

    async def _load_all(self) -> None:
        began = time.monotonic()
        waiting = sorted(self._unloaded, reverse=True)
        for match_id in waiting:
            try:
                await self.load(match_id)
            except Exception:
                log.exception("match %s could not be loaded", match_id)
        log.info("loaded %d matches in %.1f s", len(waiting), time.monotonic() - began)

    async def load_for(self, chat_id: int | None, user_id: int | None) -> None:
        """Load the not yet loaded matches of the chat and of the user (before an update of
        theirs is handled: then `in_chat` and `of_user` see them)."""
        if not self._unloaded:
            return
        wanted = [
            match_id
            for match_id, row in self._unloaded.items()
            if row.chat_id == chat_id or (user_id is not None and row.seat_of(user_id) is not None)
        ]
        for match_id in wanted:
            await self.load(match_id)

    async def load(self, match_id: int) -> LiveMatch | None:
        """The running match in memory, loaded from its log if it is not there yet (a restart,
        or a copy dropped after a conflict); None if it is not running. Loads of the same
        match share one replay: a press racing the background loading waits for it."""
        live = self._live.get(match_id)
        if live is not None:
            return live
        loading = self._loads.get(match_id)
        if loading is None:
            row = self._unloaded.get(match_id)
            if row is None:
                row = await self._store.matches.get(match_id)
                if row is None or row.status != "running":
                    return None
            loading = self._loads.get(match_id)
            if loading is None:
                if (live := self._live.get(match_id)) is not None:
                    return live
                loading = asyncio.ensure_future(self.resume(row))
                self._loads[match_id] = loading
                loading.add_done_callback(lambda _: self._loaded(match_id))
        return await asyncio.shield(loading)

    def _loaded(self, match_id: int) -> None:
        self._loads.pop(match_id, None)
        self._unloaded.pop(match_id, None)

    # ---------------------------------------------------------------- resuming

    async def resume(self, row: Match) -> LiveMatch | None:
        """Load a running match from its log and deal on if it stopped between deals (its
        messages are not redrawn: those a crash kept from being shown are still in the
        database outbox, which `bot.match.recovery` delivers). A match that cannot be replayed is
        abandoned, with a log. Use `load`, which never loads a match twice."""
        try:
            lines = await self._store.matches.read_log(row.match_id)
            seed = seed_of(row.rules)
            if seed is None:
                raise NotationError("the header has no deal-seed line")
            state = replay_match(row.rules, lines)
        except (NotationError, StorageError) as error:
            await self.abandon_broken(row.match_id, row.chat_id, str(error))
            return None
        live = LiveMatch(row, state, len(lines), seed)
        for user_id in live.user_ids:
            if user_id is not None and not await self._people.opened(user_id):
                live.unreachable.add(user_id)
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
        self._live[row.match_id] = live
        async with live.lock:
            if state.phase is not Phase.DEAL_OVER:
                # Its messages show this state already, unless the database outbox still
                # holds them (`bot.match.recovery` delivers those): nothing to redraw here.
                live.deadline = await self._stored_deadline(live)
                self._next(live)
                return live
            try:
                await self._advance(live, [], state, ())
            except VersionConflict:
                return None
        return live

    async def _stored_deadline(self, live: LiveMatch) -> Deadline | None:
        """The deadline to re-arm after a restart: the stored one if it is for this turn
        (overdue ones fire at once), else a fresh one."""
        seat = human_to_act(live.row, live.state)
        if live.row.turn_seconds is None or seat is None:
            return None
        for stored in await self._store.deadlines.for_match(live.match_id):
            if stored.seat == seat and stored.version == live.version:
                return stored
        turn = _turn_deadline(live.row, live.state)
        write = MatchWrite(live.match_id, live.version, deadline=turn)
        await self._store.matches.commit(write)
        return _armed(write, turn)

    async def abandon_broken(self, match_id: int, chat_id: int, problem: str) -> None:
        log.error("match %s cannot be restored and is abandoned: %s", match_id, problem)
        try:
            await self._store.matches.abandon(match_id)
        except StorageError as error:
            # A row that cannot even be loaded cannot be marked either; the group still
            # learns that its game is gone.
            log.error("match %s could not be marked abandoned: %s", match_id, error)
        lang = await self._people.chat_language(chat_id)
        await self._screens.post(chat_id, self._tr.text(lang, "bot-match-broken"))

    # ---------------------------------------------------------------- stopping and people

    async def stop(self, live: LiveMatch, stopped_by: str) -> Ending | None:
        """End the match without a winner (/stop by ``stopped_by``, HTML): it is recorded as
        abandoned, for the history only; the table and the hands say so, and the ending
        (the scores so far) is returned for the caller to post. None if it was over."""
        async with live.lock:
            if self._live.get(live.match_id) is not live:
                return None
            summary = await self._summary(live.row)
            batch = await self._screens.compose(live, final=True, stopped_by=stopped_by)
            async with self._store.transaction():
                await end_match(self._store, live.match_id, summary)
                await self._store.outbox.record(batch.rows)
            del self._live[live.match_id]
            self._timers.cancel(live.match_id)
        self._screens.deliver(live, batch)
        return await self._screens.stopped(live, stopped_by, summary)

    async def opened(self, user_id: int) -> None:
        """The user opened the private chat: deliver their hands."""
        for live in self.of_user(user_id):
            async with live.lock:
                was_unreachable = user_id in live.unreachable
                live.unreachable.discard(user_id)
                seat = live.seat_of(user_id)
                if seat is not None:
                    await self._screens.show_hand(live, seat)
                if was_unreachable:
                    await self._screens.show_table(live)

    async def unreachable(self, user_id: int) -> None:
        """Telegram refused a private message to the user: the table shows them a link."""
        for live in self.of_user(user_id):
            async with live.lock:
                if user_id not in live.unreachable:
                    live.unreachable.add(user_id)
                    await self._screens.show_table(live)


def _seated(row: Match, seats: SeatChanges) -> Match:
    """``row`` with the changed seats in place."""
    if not seats:
        return row
    changed = {place.seat: place for place in seats}
    return row.model_copy(
        update={"seats": tuple(changed.get(place.seat, place) for place in row.seats)}
    )


def _turn_deadline(row: Match, state: MatchState) -> TurnDeadline | None:
    """The turn deadline to store with a change: the human to act next gets the match's
    timer (None: the match has no timer, its deadlines stay as they are)."""
    if row.turn_seconds is None:
        return None
    return TurnDeadline(human_to_act(row, state), deadline_after(row.turn_seconds))


def _armed(write: MatchWrite, turn: TurnDeadline | None) -> Deadline | None:
    """The deadline the committed ``write`` stored, to arm in memory."""
    if turn is None or turn.seat is None:
        return None
    return Deadline(
        match_id=write.match_id, seat=turn.seat, deadline=turn.at, version=write.new_version
    )
