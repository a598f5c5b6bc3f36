"""The match service: running matches from their start to their end, one lock per match.

A press becomes committed log lines, and only then messages (`bot.match.presses` checks it,
`bot.match.changes` commits and shows it); computers and turn timers move when nobody presses
(`bot.match.autoplay`); after a restart the matches load lazily (`bot.match.loading`). Here:
starting a match (from a full lobby, or /solo), /kick and /back, /stop, and the people who
open or block their private chat.

A match ends with its result (`bot.records.end_match`: places, scores, settlement, counters,
ratings) written in the same transaction as its last action — or, for /stop, as abandoned in
a transaction of its own — so no match is ever over without its result, nor the reverse.
Whatever ended it, its result is announced once the match's lock is released, in the
background (`Running.announce`, `bot.records.announce`): one path for every ending.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.chats.people import People
from bot.i18n import Translator
from bot.match.autoplay import OPTION_WAIT_SECONDS, Autoplay
from bot.match.changes import PING_SECONDS, Changes, armed, turn_deadline
from bot.match.crew import Crew
from bot.match.jobs import Jobs, worker_name
from bot.match.live import LiveMatch
from bot.match.loading import Loader
from bot.match.matchlog import header_text, new_seed, next_deal, rules_of, with_seed
from bot.match.presses import GamePress, Presses
from bot.match.running import Announce, Running
from bot.match.screens import Batch, Screens
from bot.match.thinking import Thinking
from bot.match.turns import AnyJobQueue
from bot.ops.logs import note
from bot.records import end_match
from bot.records.ending import Ending
from engine import Deal, MatchState, Rules, apply, format_deal, new_match
from engine.ai import DEFAULT_BUDGET
from engine.events import Event
from storage import Deadline, Lobby, Match, MatchWrite, NewSeat, Store

MAX_PLAYERS = 4


class Games:
    """Running matches: starting, pressing, resuming, stopping."""

    def __init__(
        self,
        store: Store,
        people: People,
        screens: Screens,
        tr: Translator,
        thinking: Thinking,
        announce: Announce,
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
        self._deal_seed = deal_seed
        self._running = Running(announce)
        self.jobs = Jobs(store.jobs, worker_name()) if store.shared else None
        """Where processes share the database: the jobs this one holds (`bot.match.jobs`)."""
        self._changes = Changes(
            store, people, screens, self._running.live,
            next_turn=self._next_turn, ended=self._ended, jobs=self.jobs,
            ping_seconds=ping_seconds,
        )
        crew = Crew(self._running, self._changes, store, people, screens, tr)
        self._autoplay = Autoplay(
            crew, thinking, self.caught_up,
            job_queue=job_queue, stand_in=stand_in, budget=budget, option_wait=option_wait,
        )
        self._loader = Loader(crew, self._autoplay.timers, self._next_turn)
        self._presses = Presses(crew, self.caught_up)

    def in_chat(self, chat_id: int, topic_id: int = 0) -> LiveMatch | None:
        """The running match of the chat's forum topic ``topic_id`` (0: none)."""
        return self._running.in_chat(chat_id, topic_id)

    def in_group(self, chat_id: int) -> list[LiveMatch]:
        """The chat's running matches, in any of its topics."""
        return self._running.in_group(chat_id)

    def of_user(self, user_id: int) -> list[LiveMatch]:
        return self._running.of_user(user_id)

    def _next_turn(self, live: LiveMatch) -> None:
        self._autoplay.next(live)

    def _ended(self, match_id: int) -> None:
        self._autoplay.timers.cancel(match_id)

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
            turn = turn_deadline(row, state)
            write = MatchWrite(row.match_id, 0, tuple(format_deal(deal)), deadline=turn)
            live = LiveMatch(row, state, write.new_version, seed, deadline=armed(write, turn))
            write, batch = await self._changes.composed(write, live, before=None, events=events)
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
            job = None if self.jobs is None else self.jobs.statement(None, live)
            if job is not None:
                await self._store.db.execute_many(job.sql, job.rows)
        return self._begin(live, batch)

    def _first_deal(self, rules: Rules) -> tuple[str, Deal, MatchState, Sequence[Event]]:
        """A new match's seed, its first deal, and the state and events after it."""
        seed = self._deal_seed or new_seed()
        state = new_match(rules)
        deal = next_deal(state, seed)
        state, events = apply(state, deal)
        return seed, deal, state, events

    def _begin(self, live: LiveMatch, batch: Batch) -> LiveMatch:
        self._running.live[live.match_id] = live
        # Every hand of the first deal is a new message already.
        live.deal_turns.update(u for u in live.user_ids if u is not None)
        note(match=live.match_id, started=live.row.game)
        self._screens.deliver(live, batch)
        self._next_turn(live)
        return live

    # ---------------------------------------------------------------- presses and seats

    async def press(self, user_id: int, press: GamePress) -> str:
        """Apply a game button's press (decoded by the handler); the toast to answer with."""
        return await self._presses.press(user_id, press)

    async def replace(self, live: LiveMatch, seat: int, table_note: str) -> bool:
        """Let a computer play for the human of ``seat`` for the rest of the match (/kick);
        False if the seat is not a human's who plays it now."""
        change: dict[str, object] = {
            "replaced_by_computer": True, "computer_level": self._autoplay.stand_in
        }
        return await self._changes.change_seat(live, seat, change, table_note, replaced=True)

    async def give_back(self, live: LiveMatch, seat: int, table_note: str) -> bool:
        """Give a replaced seat back to its human (/back); False if it is not replaced."""
        change: dict[str, object] = {
            "replaced_by_computer": False, "computer_level": None, "consecutive_timeouts": 0
        }
        return await self._changes.change_seat(live, seat, change, table_note, replaced=False)

    # ---------------------------------------------------------------- loading

    def expect(self, rows: Sequence[Match], deadlines: Sequence[Deadline]) -> None:
        """After a restart: the running matches load lazily (`bot.match.loading`)."""
        self._loader.expect(rows, deadlines)

    async def load_for(self, chat_id: int | None, user_id: int | None) -> None:
        await self._loader.load_for(chat_id, user_id)

    async def load(self, match_id: int) -> LiveMatch | None:
        """The running match in memory, loaded from its log if needed; None if not running."""
        return await self._loader.load(match_id)

    async def caught_up(self, match_id: int) -> LiveMatch | None:
        """`load`, caught up with what other processes wrote (`Loader.caught_up`)."""
        return await self._loader.caught_up(match_id)

    async def nudge(self, match_id: int) -> None:
        """Set going a match whose job this process claimed (the process that held it died
        or stopped, `bot.match.jobs`): caught up with its log, its timer is armed and a
        computer to act thinks, unless one moves it here already."""
        live = await self.caught_up(match_id)
        if live is not None and not self._autoplay.moving(match_id):
            self._next_turn(live)

    async def abandon_broken(
        self, match_id: int, chat_id: int, problem: str, topic: int = 0
    ) -> None:
        await self._loader.abandon_broken(match_id, chat_id, problem, topic)

    def announce_later(self, ending: Ending) -> None:
        """Post a match's result (stored, not yet posted when the bot stopped) in the
        background, like any other ending."""
        self._running.announce(ending)

    # ---------------------------------------------------------------- stopping and people

    async def stop(self, live: LiveMatch, stopped_by: str, *, announce: bool = True) -> bool:
        """End the match without a winner (/stop by ``stopped_by``, HTML): it is recorded as
        abandoned, for the history only; the table and the hands say so, and its ending (the
        scores so far) is announced unless not ``announce`` (the bot left the group). False
        if it was over."""
        async with live.lock:
            if not self._running.current(live):
                return False
            summary = await self._changes.summary(live.row)
            batch = await self._screens.compose(live, final=True, stopped_by=stopped_by)
            async with self._store.transaction():
                await end_match(self._store, live.match_id, summary)
                await self._store.outbox.record(batch.rows)
            del self._running.live[live.match_id]
            self._ended(live.match_id)
        self._screens.deliver(live, batch)
        ending = await self._screens.stopped(live, stopped_by, summary)
        if announce:
            self._running.announce(ending)
        return True

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

    async def settled(self) -> None:
        """Wait until no computer seat is thinking or moving and no result is being posted."""
        await self._running.settled()

    async def close(self) -> None:
        """Stop the timers, the computers' moves and the loads (shutting down; the services
        close the process pool the computers think in)."""
        self._autoplay.timers.close()
        await self._running.cancel()
