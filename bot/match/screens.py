"""What people see of a match, handed to the outbox: the table, the hands, the results.

The table in the group is rendered from the public view only (``view(state, None)``); each
player's hand from that seat's view, in their private chat (the contents: `bot.match.drawing`).
Both are messages edited in place — but a hand whose player must be told it is their turn
(`bot.match.changes` decides) is sent anew,
since Telegram notifies of new messages only, and after each deal result the table is sent
anew below it, so that it stays the group's newest message. A deal result is a new group
message; until the next deal's first action every hand tells that deal in a line. The table's
"just now" lines keep every move the group has not been shown yet. A /solo match has no
table: its hand carries those lines. The match result is not posted here: it is handed back
as the match's `Ending`, for `bot.records.announce` to post as the caption of the score sheet
picture, which the outbox cannot send. Nothing here waits for Telegram.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Unpack

from telegram import InlineKeyboardMarkup

from bot.chats.people import People
from bot.chats.topics import stored_topic
from bot.i18n import Translator
from bot.match.drawing import Drawing, Shown, hand_key, table_key
from bot.match.live import LiveMatch
from bot.records import MatchSummary
from bot.records.ending import Ending
from bot.telegram.ledger import Ledger
from bot.telegram.outbox import Content, Outbox
from bot.telegram.relay import Remember
from engine import MatchState
from engine.events import Event
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


class Screens:
    def __init__(
        self,
        store: Store,
        people: People,
        outbox: Outbox,
        tr: Translator,
        bot_username: str,
        ledger: Ledger,
    ) -> None:
        self._store = store
        self._outbox = outbox
        self._ledger = ledger
        self.bot_username = bot_username
        self.drawing = Drawing(people, outbox, tr, bot_username)

    async def show(
        self,
        live: LiveMatch,
        *,
        pings: frozenset[int] | set[int] = frozenset(),
        **shown: Unpack[Shown],
    ) -> None:
        """Bring the table and every hand up to date (`Shown`: ``final`` drops the keyboards,
        ``stopped_by`` stopped the match); the hands of ``pings`` come as new messages."""
        final, stopped_by = shown.get("final", False), shown.get("stopped_by")
        await self.show_table(live, **shown)
        for seat, user_id in enumerate(live.user_ids):
            if user_id is not None and user_id not in live.unreachable:
                await self.show_hand(
                    live, seat, final=final, ping=seat in pings, stopped_by=stopped_by
                )

    async def compose(
        self,
        live: LiveMatch,
        *,
        results: tuple[MatchState, Sequence[Event], MatchSummary | None] | None = None,
        pings: frozenset[int] | set[int] = frozenset(),
        **shown: Unpack[Shown],
    ) -> Batch:
        """What `show` (and `post_results` with ``results``: the state and events that
        ended a deal, and the match's summary if they ended it) would hand to the outbox, as
        a batch to store with the change; `deliver` hands it over after the commit. The
        hands of ``pings`` are sent anew (Telegram notifies of new messages only)."""
        batch = Batch()
        version = live.version
        final, stopped_by = shown.get("final", False), shown.get("stopped_by")
        content = await self.drawing.table(live, **shown)
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
                content = await self.drawing.hand(live, seat, final=final, stopped_by=stopped_by)
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
            deal, ending = await self.drawing.results(live, state, scored, summary)
            if deal is not None:
                key = f"post:{live.match_id}:{version}:deal"
                batch.add(self._row(live.chat_id, key, "post", live, True, deal), deal)
                if summary is None:
                    # The table (in /solo: the hand) comes back below the result: the
                    # newest bot message in the chat.
                    solo = live.chat_id > 0
                    batch.renew = hand_key(live.match_id) if solo else table_key(live.match_id)
            if ending is not None:
                content = Content(ending.result, topic=ending.topic)
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
            "topic": content.topic,
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
            topic=stored_topic(body),
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
            on_sent=self.remember(match_id, seat if isinstance(seat, int) else None),
            last=bool(body.get("final")),
            version=version,
            renew=bool(body.get("renew")),
        )

    def remember(self, match_id: int, seat: int | None = None) -> Remember:
        """What a newly sent table (``seat`` None) or hand's id updates; a follower relays it
        to the process that sends (`bot.telegram.relay`)."""

        async def remember(message_id: int) -> None:
            if seat is None:
                await self._store.matches.set_table_message_id(match_id, message_id)
            else:
                # Written with the next batch of delivery marks: under load nearly every
                # turn sends a hand anew, and a write each would hold up the presses.
                self._ledger.hand_sent(match_id, seat, message_id)

        if seat is None:
            return Remember("table", (match_id,), remember)
        return Remember("hand", (match_id, seat), remember)

    async def show_table(self, live: LiveMatch, **shown: Unpack[Shown]) -> None:
        content = await self.drawing.table(live, **shown)
        if content is None:
            return
        self._outbox.show(
            live.chat_id,
            table_key(live.match_id),
            content,
            message_id=live.row.table_message_id,
            on_sent=self.remember(live.match_id, None),
            last=shown.get("final", False),
            state=live.version,
        )

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
            await self.drawing.hand(live, seat, final=final, stopped_by=stopped_by),
            message_id=live.row.seats[seat].hand_message_id,
            on_sent=self.remember(live.match_id, seat),
            last=final,
            renew=ping,
            state=live.version,
        )

    async def names(self, live: LiveMatch, lang: str | None = None) -> tuple[str, ...]:
        """The seats' names (`Drawing.names`)."""
        return await self.drawing.names(live, lang)

    async def stopped(self, live: LiveMatch, stopped_by: str, summary: MatchSummary) -> Ending:
        """The ending of a match stopped with /stop (`Drawing.stopped`)."""
        return await self.drawing.stopped(live, stopped_by, summary)

    async def post(self, chat_id: int, text: str, topic: int = 0) -> None:
        self._outbox.post(chat_id, Content(text, topic=topic))
