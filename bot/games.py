"""The game service: a press becomes committed log lines, and only then messages.

A press is decoded and checked — the presser holds the seat the keyboard was drawn for, the
keyboard's version is the match's version, the engine accepts the action — then its notation
line is appended to the log with the expected version and committed; after that the table,
the hands and any results are handed to the outbox. Between deals the service deals the next
deal at once from the match's seed (`bot.matchlog`). One lock per match orders it all.

A match ends with its result (`bot.records.end_match`: places, scores, settlement, counters,
ratings) written in the same transaction as its last action — or, for /stop, as abandoned in
a transaction of its own — so no match is ever over without its result, nor the reverse. The
press that ends a match hands its `Ending` back to the caller, who posts the match result
with the score sheet.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from bot.callbacks import ActionPress, decode
from bot.i18n import Translator
from bot.live import LiveMatch
from bot.logs import note
from bot.matchlog import new_seed, next_deal, replay_match, rules_of, seed_of, with_seed
from bot.people import People
from bot.records import MatchSummary, end_match, players_of, summarize
from bot.render import render_refusal
from bot.screens import Ending, Screens
from engine import (
    IllegalAction,
    MatchState,
    NotationError,
    Phase,
    apply,
    format_action,
    format_deal,
    new_match,
)
from engine.events import Event
from storage import Lobby, Match, StorageError, Store, VersionConflict

log = logging.getLogger(__name__)

MAX_PLAYERS = 4


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
        *,
        deal_seed: str | None = None,
    ) -> None:
        self._store = store
        self._people = people
        self._screens = screens
        self._tr = tr
        self._deal_seed = deal_seed
        self._live: dict[int, LiveMatch] = {}

    def in_chat(self, chat_id: int) -> LiveMatch | None:
        return next((m for m in self._live.values() if m.chat_id == chat_id), None)

    def of_user(self, user_id: int) -> list[LiveMatch]:
        return [m for m in self._live.values() if m.seat_of(user_id) is not None]

    # ---------------------------------------------------------------- starting

    async def start(self, lobby: Lobby) -> LiveMatch:
        """Start the full lobby's match: store it with its seed and first deal, then show it.

        Storage errors (the lobby changed meanwhile) propagate to the caller.
        """
        seed = self._deal_seed or new_seed()
        header = with_seed(lobby.rules, seed)
        state = new_match(rules_of(header))
        deal = next_deal(state, seed)
        state, events = apply(state, deal)
        async with self._store.transaction():
            await self._store.lobbies.set_rules(
                lobby.lobby_id, game=lobby.game, players=lobby.players, rules=header
            )
            row = await self._store.matches.create_from_lobby(lobby.lobby_id)
            version = await self._store.matches.append_actions(
                row.match_id, 0, format_deal(deal)
            )
            if lobby.message_id is not None:
                # The lobby message becomes the table: one message per game in the group.
                await self._store.matches.set_table_message_id(row.match_id, lobby.message_id)
                row = row.model_copy(update={"table_message_id": lobby.message_id})
        live = LiveMatch(row, state, version, seed)
        self._live[row.match_id] = live
        note(match=row.match_id, started=lobby.game)
        await self._screens.show(live, events=events)
        return live

    # ---------------------------------------------------------------- pressing

    async def press(self, user_id: int, data: str) -> Pressed:
        """Apply a game button's press."""
        lang = await self._people.user_language(user_id)
        first = decode(data, MAX_PLAYERS)
        live = await self._find(first.match_id) if isinstance(first, ActionPress) else None
        press = decode(data, live.row.players) if live is not None else None
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
            if press.action.seat != seat or press.version != live.version:
                note(result="outdated")
                return Pressed(self._tr.text(lang, "press-outdated"))
            try:
                state, events = apply(live.state, press.action)
            except IllegalAction as refusal:
                note(result=refusal.reason.value)
                return Pressed(render_refusal(refusal.reason, lang, self._tr))
            line = format_action(press.action)
            note(action=line)
            try:
                ending = await self._advance(live, [line], state, events)
            except VersionConflict:
                return Pressed(self._tr.text(lang, "press-outdated"))
            note(result="applied", version=live.version)
        return Pressed(ending=ending)

    async def _advance(
        self, live: LiveMatch, lines: list[str], state: MatchState, events: Sequence[Event]
    ) -> Ending | None:
        """Deal on if a deal ended, commit ``lines`` (+ the deal) — with the match's result if
        they end it — then show the outcome; if the match is over, return its ending, whose
        result the caller must post.

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
        try:
            async with self._store.transaction():
                version = await self._store.matches.append_actions(
                    live.match_id, live.version, lines
                )
                if summary is not None:
                    await end_match(self._store, live.match_id, summary)
        except VersionConflict:
            # Another writer stored first: forget this copy; the next press loads the log anew.
            log.warning("match %s changed under us", live.match_id)
            self._live.pop(live.match_id, None)
            raise
        live.state, live.version = state, version
        if over:
            del self._live[live.match_id]
        await self._screens.show(live, events=[*events, *dealt], final=over)
        return await self._screens.post_results(live, scored_state, scored_events, summary)

    async def _summary(self, row: Match, lines: Sequence[str] = ()) -> MatchSummary:
        """The summary of the stored log of ``row`` followed by ``lines`` (about to be stored),
        worked out before the transaction so that it does not hold the database meanwhile."""
        stored = await self._store.matches.read_log(row.match_id)
        return summarize(row.rules, [*stored, *lines], players_of(row), match_id=row.match_id)

    async def _find(self, match_id: int) -> LiveMatch | None:
        live = self._live.get(match_id)
        if live is not None:
            return live
        row = await self._store.matches.get(match_id)
        if row is None or row.status != "running":
            return None
        return await self.resume(row)

    # ---------------------------------------------------------------- resuming

    async def resume(self, row: Match) -> LiveMatch | None:
        """Load a running match from its log, deal on if it stopped between deals, and bring
        its messages up to date. A match that cannot be replayed is abandoned, with a log."""
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
            async with self._store.transaction():
                await end_match(self._store, row.match_id, summary)
            await self._screens.show(live, final=True)
            return None
        self._live[row.match_id] = live
        async with live.lock:
            if state.phase is not Phase.DEAL_OVER:
                await self._screens.show(live)
                return live
            try:
                await self._advance(live, [], state, ())
            except VersionConflict:
                return None
        return live

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

    async def stop(self, live: LiveMatch, text: str) -> bool:
        """End the match without a winner (/stop): it is recorded as abandoned, for the
        history only. ``text`` is the table's last note."""
        async with live.lock:
            if self._live.get(live.match_id) is not live:
                return False
            summary = await self._summary(live.row)
            async with self._store.transaction():
                await end_match(self._store, live.match_id, summary)
            del self._live[live.match_id]
        await self._screens.show(live, note=text, final=True)
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
