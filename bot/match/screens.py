"""What people see of a match, handed to the outbox: the table, the hands, the results.

The table in the group is rendered from the public view only (``view(state, None)``); each
player's hand from that seat's view, in their private chat. Both are messages edited in
place — but a hand whose player must be told it is their turn (`Games` decides) is sent anew,
since Telegram notifies of new messages only, and after each deal result the table is sent
anew below it, so that it stays the group's newest message. A deal result is a new group
message; until the next deal's first action every hand tells that deal in a line. The table's
"just now" lines keep every move the group has not been shown yet. A /solo match has no
table: its hand carries those lines. The match result is not posted here: it is handed back
as the match's `Ending`, for `bot.records.announce` to post as the caption of the score sheet
picture, which the outbox cannot send. Nothing here waits for
Telegram.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.chats.people import People
from bot.i18n import Translator
from bot.match.live import LiveMatch
from bot.match.turns import seconds_left
from bot.records import MatchSummary
from bot.records.ending import Ending
from bot.render import (
    render_deal_result,
    render_event_line,
    render_hand,
    render_match_result,
    render_recap,
    render_stopped_result,
    render_table,
)
from bot.telegram.outbox import Content, OnSent, Outbox
from engine import MatchState, view
from engine.events import DealStarted, Event
from storage import Match, Store
from storage.outbox import Kind, Outgoing, Stored


@dataclass
class Batch:
    """The messages of one committed change: the rows to store with it, their contents, and
    the match's ending if the change ended it."""

    rows: list[Outgoing] = field(default_factory=list)
    contents: list[Content] = field(default_factory=list)
    ending: Ending | None = None
    renew: str | None = None
    """The key of the message to send anew after the batch (the table below a deal
    result)."""

    def add(self, row: Outgoing, content: Content) -> None:
        self.rows.append(row)
        self.contents.append(content)


RECENT_CONTEXT = 4
"""Lines of the table's "just now" the group has seen that it keeps showing."""
RECENT_MAX = 40
"""At most this many lines wait for a table that cannot be delivered."""


def unseen(lines: list[str], seen: str | None) -> list[str]:
    """``lines`` from the last `RECENT_CONTEXT` that ``seen`` (the text the group was last
    shown) holds on: the newest line shown, found with the one before it (a line may recur:
    «Вера берёт взятку (+5)»), marks how far the group has read."""
    if not seen:
        return lines
    shown = set(seen.split("\n"))
    for k in range(len(lines) - 1, -1, -1):
        if lines[k] in shown and (k == 0 or lines[k - 1] in shown):
            return lines[max(0, k + 1 - RECENT_CONTEXT):]
    return lines


def table_key(match_id: int) -> str:
    return f"table:{match_id}"


def hand_key(match_id: int) -> str:
    return f"hand:{match_id}"


def start_link(bot_username: str, payload: str) -> str:
    return f"https://t.me/{bot_username}?start={payload}"


class Screens:
    def __init__(
        self, store: Store, people: People, outbox: Outbox, tr: Translator, bot_username: str
    ) -> None:
        self._store = store
        self._people = people
        self._outbox = outbox
        self._tr = tr
        self.bot_username = bot_username

    async def show(
        self,
        live: LiveMatch,
        *,
        events: Sequence[Event] = (),
        note: str | None = None,
        final: bool = False,
        pings: frozenset[int] | set[int] = frozenset(),
        stopped_by: str | None = None,
    ) -> None:
        """Bring the table and every hand up to date; ``final`` drops the keyboards; the
        hands of ``pings`` come as new messages; ``stopped_by`` (HTML) stopped the match."""
        await self.show_table(live, events=events, note=note, final=final, stopped_by=stopped_by)
        for seat, user_id in enumerate(live.user_ids):
            if user_id is not None and user_id not in live.unreachable:
                await self.show_hand(
                    live, seat, final=final, ping=seat in pings, stopped_by=stopped_by
                )

    async def compose(
        self,
        live: LiveMatch,
        *,
        events: Sequence[Event] = (),
        note: str | None = None,
        final: bool = False,
        results: tuple[MatchState, Sequence[Event], MatchSummary | None] | None = None,
        pings: frozenset[int] | set[int] = frozenset(),
        stopped_by: str | None = None,
    ) -> Batch:
        """What `show` (and `post_results` with ``results``: the state and events that
        ended a deal, and the match's summary if they ended it) would hand to the outbox, as
        a batch to store with the change; `deliver` hands it over after the commit. The
        hands of ``pings`` are sent anew (Telegram notifies of new messages only)."""
        batch = Batch()
        version = live.version
        content = await self._table(
            live, events=events, note=note, final=final, stopped_by=stopped_by
        )
        if content is not None:
            batch.add(
                self._row(
                    live.chat_id,
                    table_key(live.match_id),
                    "show",
                    live,
                    final,
                    content,
                    message_id=live.row.table_message_id,
                ),
                content,
            )
        for seat, user_id in enumerate(live.user_ids):
            if user_id is not None and user_id not in live.unreachable:
                content = await self._hand(live, seat, final=final, stopped_by=stopped_by)
                batch.add(
                    self._row(
                        user_id,
                        hand_key(live.match_id),
                        "show",
                        live,
                        final,
                        content,
                        message_id=live.row.seats[seat].hand_message_id,
                        seat=seat,
                        renew=seat in pings,
                    ),
                    content,
                )
        if results is not None:
            state, scored, summary = results
            deal, ending = await self._results(live, state, scored, summary)
            if deal is not None:
                key = f"post:{live.match_id}:{version}:deal"
                batch.add(self._row(live.chat_id, key, "post", live, True, deal), deal)
                if summary is None:
                    # The table (in /solo: the hand) comes back below the result: the
                    # newest bot message in the chat.
                    solo = live.chat_id > 0
                    batch.renew = hand_key(live.match_id) if solo else table_key(live.match_id)
            if ending is not None:
                content = Content(ending.result)
                batch.add(
                    self._row(
                        live.chat_id, ending.key, "ending", live, True, content, lang=ending.lang
                    ),
                    content,
                )
                batch.ending = ending
        return batch

    @staticmethod
    def _row(
        chat_id: int,
        key: str,
        kind: Kind,
        live: LiveMatch,
        final: bool,
        content: Content,
        **extra: Any,
    ) -> Outgoing:
        body: dict[str, Any] = {
            "text": content.text,
            "markup": None if content.markup is None else content.markup.to_dict(),
            "final": final,
            **extra,
        }
        return Outgoing(chat_id, key, kind, live.match_id, live.version, body)

    def deliver(self, live: LiveMatch, batch: Batch) -> Ending | None:
        """Hand a stored batch to the outbox (after its commit); its ending is the caller's
        to post."""
        for row, content in zip(batch.rows, batch.contents, strict=True):
            self._hand_over(
                live.match_id, row.chat_id, row.key, row.kind, row.version, row.body, content
            )
        if batch.renew is not None:
            self._outbox.renew(live.chat_id, batch.renew)
        return batch.ending

    def redeliver(self, stored: Stored, match: Match | None) -> None:
        """Hand a message stored before a restart to the outbox (an ending is not for here:
        `bot.match.recovery` posts it)."""
        body = stored.body
        markup = body.get("markup")
        content = Content(
            str(body.get("text", "")),
            None if not markup else InlineKeyboardMarkup.de_json(markup, None),
        )
        if match is not None:
            # The ids stored since (a table or hand sent anew) are newer than the row's.
            seat = body.get("seat")
            if stored.key == table_key(match.match_id):
                body = {**body, "message_id": match.table_message_id or body.get("message_id")}
            elif isinstance(seat, int) and 0 <= seat < len(match.seats):
                known = match.seats[seat].hand_message_id
                body = {**body, "message_id": known or body.get("message_id")}
        match_id = stored.match_id if stored.match_id is not None else 0
        self._hand_over(
            match_id, stored.chat_id, stored.key, stored.kind, stored.version, body, content
        )

    def _hand_over(
        self,
        match_id: int,
        chat_id: int,
        key: str,
        kind: str,
        version: int,
        body: dict[str, Any],
        content: Content,
    ) -> None:
        if kind == "post":
            self._outbox.post(chat_id, content, key=key, version=version)
            return
        if kind != "show":
            return
        message_id = body.get("message_id")
        seat = body.get("seat")
        self._outbox.show(
            chat_id,
            key,
            content,
            message_id=message_id if isinstance(message_id, int) else None,
            on_sent=self._remember(match_id, seat if isinstance(seat, int) else None),
            last=bool(body.get("final")),
            version=version,
            renew=bool(body.get("renew")),
        )

    def _remember(self, match_id: int, seat: int | None) -> OnSent:
        async def remember(message_id: int) -> None:
            if seat is None:
                await self._store.matches.set_table_message_id(match_id, message_id)
            else:
                await self._store.matches.set_hand_message_id(match_id, seat, message_id)

        return remember

    async def show_table(
        self,
        live: LiveMatch,
        *,
        events: Sequence[Event] = (),
        note: str | None = None,
        final: bool = False,
        stopped_by: str | None = None,
    ) -> None:
        content = await self._table(
            live, events=events, note=note, final=final, stopped_by=stopped_by
        )
        if content is None:
            return
        self._outbox.show(
            live.chat_id,
            table_key(live.match_id),
            content,
            message_id=live.row.table_message_id,
            on_sent=self._remember(live.match_id, None),
            last=final,
        )

    async def _table(
        self,
        live: LiveMatch,
        *,
        events: Sequence[Event] = (),
        note: str | None = None,
        final: bool = False,
        stopped_by: str | None = None,
    ) -> Content | None:
        """The table's content; None for a /solo match, whose hand carries its lines."""
        lang = await self._people.chat_language(live.chat_id)
        names = await self.names(live, lang)
        lines = [note] if note else []
        dealt: int | None = None
        for event in events:
            line = render_event_line(event, names, lang, self._tr, game=live.state.rules.game)
            if isinstance(event, DealStarted):
                dealt = len(lines)
            if line:
                lines.append(line)
        # A state that is never shown (edits are paced and coalesce) must not take its moves
        # with it: the table keeps every line not seen yet, and the last few that were — of
        # this deal only (the cards of the last one are dealt anew). A /solo match has no
        # table of its own: its one message, the hand, carries these lines.
        solo = live.chat_id > 0
        key = hand_key(live.match_id) if solo else table_key(live.match_id)
        seen = self._outbox.shown(live.chat_id, key)
        kept = unseen(live.recent, seen.text if seen is not None else None)
        shown = [*kept, *lines][-RECENT_MAX:]
        live.recent = shown if dealt is None else lines[dealt:]
        lines = shown
        if solo:
            live.solo_note = "\n".join(lines) or None
            return None
        deadline = live.deadline
        timer = (
            seconds_left(deadline.deadline)
            if deadline is not None and not final and deadline.seat == live.state.turn
            else None
        )
        text = render_table(
            view(live.state, None),
            names,
            lang,
            self._tr,
            turn_seconds_left=timer,
            note="\n".join(lines) or None,
            stopped_by=stopped_by,
        )
        markup = None
        if live.unreachable and not final:
            button = InlineKeyboardButton(
                self._tr.text(lang, "bot-table-open"),
                url=start_link(self.bot_username, f"play-{live.match_id}"),
            )
            markup = InlineKeyboardMarkup([[button]])
        return Content(text, markup)

    async def show_hand(
        self, live: LiveMatch, seat: int, *, final: bool = False, ping: bool = False,
        stopped_by: str | None = None,
    ) -> None:
        user_id = live.row.seats[seat].user_id
        if user_id is None:
            return
        self._outbox.show(
            user_id,
            hand_key(live.match_id),
            await self._hand(live, seat, final=final, stopped_by=stopped_by),
            message_id=live.row.seats[seat].hand_message_id,
            on_sent=self._remember(live.match_id, seat),
            last=final,
            renew=ping,
        )

    async def _hand(
        self, live: LiveMatch, seat: int, *, final: bool = False, stopped_by: str | None = None
    ) -> Content:
        user_id = live.row.seats[seat].user_id
        assert user_id is not None
        lang = await self._people.user_language(user_id)
        names = await self.names(live, lang)
        seen = view(live.state, seat)
        recap = None
        if live.recap is not None and live.recap[0] == live.version:
            _, ended, events = live.recap
            recap = render_recap(events, view(ended, seat), names, lang, self._tr)
        text, markup = render_hand(
            seen, names, lang, self._tr, live.match_id, live.version, live.menu_of(seat),
            turn_seconds_left=None if final else self._timer(live, seat),
            recap=recap,
            stopped_by=stopped_by,
            note=live.solo_note if live.chat_id == user_id else None,
        )
        seat_note = live.seat_notes.get(seat)
        if live.row.seats[seat].replaced_by_computer:
            # The computer decides for this seat until its human says /back.
            text += "\n\n" + self._tr.text(lang, "hand-replaced")
            markup = None
        elif seat_note is not None:
            text += "\n\n" + self._tr.text(lang, f"hand-{seat_note}")
        return Content(text, None if final else markup)

    @staticmethod
    def _timer(live: LiveMatch, seat: int) -> int | None:
        """The seconds left of ``seat``'s turn, if its turn timer runs."""
        deadline = live.deadline
        if deadline is None or deadline.seat != seat or live.state.turn != seat:
            return None
        return seconds_left(deadline.deadline)

    async def _results(
        self,
        live: LiveMatch,
        state: MatchState,
        events: Sequence[Event],
        summary: MatchSummary | None,
    ) -> tuple[Content | None, Ending | None]:
        lang = await self._people.chat_language(live.chat_id)
        names = await self.names(live, lang)
        public = view(state, None)
        deal = render_deal_result(events, public, names, lang, self._tr)
        result = render_match_result(events, public, names, lang, self._tr)
        ending = None
        if result is not None and summary is not None:
            ending = Ending(live.chat_id, lang, result, summary, live.version)
        return (Content(deal) if deal else None), ending

    async def stopped(
        self, live: LiveMatch, stopped_by: str, summary: MatchSummary
    ) -> Ending:
        """The ending of a match stopped with /stop: the scores at that moment."""
        lang = await self._people.chat_language(live.chat_id)
        names = await self.names(live, lang)
        result = render_stopped_result(view(live.state, None), names, lang, self._tr, stopped_by)
        return Ending(live.chat_id, lang, result, summary)

    async def names(self, live: LiveMatch, lang: str | None = None) -> tuple[str, ...]:
        """The seats' names: a computer seat is named by its number, and a human whom a
        computer stands in for is marked."""
        lang = lang or await self._people.chat_language(live.chat_id)
        people = await self._people.names(live.user_ids)
        names = []
        for place, name in zip(live.row.seats, people, strict=True):
            if place.user_id is None:
                name = self._tr.text(
                    lang, "computer-name", number=place.seat + 1,
                    level=place.computer_level or "",
                )
            elif place.replaced_by_computer:
                name = self._tr.text(lang, "computer-stands-in", name=name)
            names.append(name)
        return tuple(names)

    async def post(self, chat_id: int, text: str) -> None:
        self._outbox.post(chat_id, Content(text))
