"""What people see of a match, handed to the outbox: the table, the hands, the results.

The table in the group is rendered from the public view only (``view(state, None)``); each
player's hand from that seat's view, in their private chat. Both are messages edited in
place; a deal result is a new group message. The match result is not posted here: it is
handed back as the match's `Ending`, for the caller to post as the caption of the score sheet
picture (`bot.handlers.records.announce`), which the outbox cannot send. Nothing here waits
for Telegram.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import Translator
from bot.live import LiveMatch
from bot.outbox import Content, OnSent, Outbox
from bot.people import People
from bot.records import MatchSummary
from bot.render import (
    render_deal_result,
    render_event_line,
    render_hand,
    render_match_result,
    render_table,
)
from bot.turns import seconds_left
from engine import MatchState, view
from engine.events import Event
from storage import Match, Store
from storage.outbox import Delivered, Kind, Outgoing, Stored


@dataclass(frozen=True)
class Ending:
    """What is left to show of a match that just ended: its result (HTML) in the group's
    language, and the summary its result was recorded from (the score sheet's data)."""

    chat_id: int
    lang: str
    result: str
    summary: MatchSummary
    version: int = 0
    """The match's version at its end (the stored row of the result is marked with it)."""

    @property
    def key(self) -> str:
        return ending_key(self.summary.match_id)


@dataclass
class Batch:
    """The messages of one committed change: the rows to store with it, their contents, and
    the match's ending if the change ended it."""

    rows: list[Outgoing] = field(default_factory=list)
    contents: list[Content] = field(default_factory=list)
    ending: Ending | None = None

    def add(self, row: Outgoing, content: Content) -> None:
        self.rows.append(row)
        self.contents.append(content)


def ending_key(match_id: int) -> str:
    return f"ending:{match_id}"


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
    ) -> None:
        """Bring the table and every hand up to date; ``final`` drops the keyboards."""
        await self.show_table(live, events=events, note=note, final=final)
        for seat, user_id in enumerate(live.user_ids):
            if user_id is not None and user_id not in live.unreachable:
                await self.show_hand(live, seat, final=final)

    async def compose(
        self,
        live: LiveMatch,
        *,
        events: Sequence[Event] = (),
        note: str | None = None,
        final: bool = False,
        results: tuple[MatchState, Sequence[Event], MatchSummary | None] | None = None,
    ) -> Batch:
        """What `show` (and `post_results` with ``results``: the state and events that
        ended a deal, and the match's summary if they ended it) would hand to the outbox, as
        a batch to store with the change; `deliver` hands it over after the commit."""
        batch = Batch()
        version = live.version
        content = await self._table(live, events=events, note=note, final=final)
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
                content = await self._hand(live, seat, final=final)
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
                    ),
                    content,
                )
        if results is not None:
            state, scored, summary = results
            deal, ending = await self._results(live, state, scored, summary)
            if deal is not None:
                key = f"post:{live.match_id}:{version}:deal"
                batch.add(self._row(live.chat_id, key, "post", live, True, deal), deal)
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
        return batch.ending

    def redeliver(self, stored: Stored, match: Match | None) -> None:
        """Hand a message stored before a restart to the outbox (an ending is not for here:
        `bot.recovery` posts it)."""
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
        )

    def _remember(self, match_id: int, seat: int | None) -> OnSent:
        async def remember(message_id: int) -> None:
            if seat is None:
                await self._store.matches.set_table_message_id(match_id, message_id)
            else:
                await self._store.matches.set_hand_message_id(match_id, seat, message_id)

        return remember

    def announced(self, ending: Ending) -> None:
        """The match's result was posted: its stored row goes."""
        mark = self._outbox.on_delivered
        if mark is not None:
            mark(Delivered(ending.chat_id, ending.key, ending.version, done=True))

    async def show_table(
        self,
        live: LiveMatch,
        *,
        events: Sequence[Event] = (),
        note: str | None = None,
        final: bool = False,
    ) -> None:
        content = await self._table(live, events=events, note=note, final=final)
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
    ) -> Content:
        lang = await self._people.chat_language(live.chat_id)
        names = await self.names(live, lang)
        lines = [note] if note else []
        for event in events:
            line = render_event_line(event, names, lang, self._tr, game=live.state.rules.game)
            if line:
                lines.append(line)
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
        )
        markup = None
        if live.unreachable and not final:
            button = InlineKeyboardButton(
                self._tr.text(lang, "bot-table-open"),
                url=start_link(self.bot_username, f"play-{live.match_id}"),
            )
            markup = InlineKeyboardMarkup([[button]])
        return Content(text, markup)

    async def show_hand(self, live: LiveMatch, seat: int, *, final: bool = False) -> None:
        user_id = live.row.seats[seat].user_id
        if user_id is None:
            return
        self._outbox.show(
            user_id,
            hand_key(live.match_id),
            await self._hand(live, seat, final=final),
            message_id=live.row.seats[seat].hand_message_id,
            on_sent=self._remember(live.match_id, seat),
            last=final,
        )

    async def _hand(self, live: LiveMatch, seat: int, *, final: bool = False) -> Content:
        user_id = live.row.seats[seat].user_id
        assert user_id is not None
        lang = await self._people.user_language(user_id)
        names = await self.names(live, lang)
        text, markup = render_hand(
            view(live.state, seat), names, lang, self._tr, live.match_id, live.version
        )
        if live.row.seats[seat].replaced_by_computer:
            # The computer decides for this seat until its human says /back.
            text += "\n\n" + self._tr.text(lang, "hand-replaced")
            markup = None
        return Content(text, None if final else markup)

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

    async def names(self, live: LiveMatch, lang: str | None = None) -> tuple[str, ...]:
        """The seats' names: a computer seat is named by its number, and a human whom a
        computer stands in for is marked."""
        lang = lang or await self._people.chat_language(live.chat_id)
        people = await self._people.names(live.user_ids)
        names = []
        for place, name in zip(live.row.seats, people, strict=True):
            if place.user_id is None:
                name = self._tr.text(lang, "computer-name", number=place.seat + 1)
            elif place.replaced_by_computer:
                name = self._tr.text(lang, "computer-stands-in", name=name)
            names.append(name)
        return tuple(names)

    async def post(self, chat_id: int, text: str) -> None:
        self._outbox.post(chat_id, Content(text))
