"""What a running match shows, as contents: the table (from the public view only), a
player's hand (from their seat's view), a deal's and a match's results, the seats' names.

The languages and names come from `bot.chats.people`; the texts from the pure renderers of
`bot.render`. The table keeps every "just now" line the group has not been shown yet
(`unseen`: what the outbox last delivered marks how far the group has read).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict, Unpack

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
from bot.telegram.links import start_link
from bot.telegram.outbox import Content, Outbox
from engine import MatchState, view
from engine.events import DealStarted, Event

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


class Shown(TypedDict, total=False):
    """What a table shows besides the match itself."""

    events: Sequence[Event]
    """The change's events: the table's "just now" lines."""
    note: str | None
    """A line (HTML) above them (a timeout, a /kick)."""
    final: bool
    """The match is over: no keyboards, no timer."""
    stopped_by: str | None
    """Who stopped the match with /stop (HTML)."""


class Drawing:
    """The contents of a running match's messages, in their readers' languages."""

    def __init__(self, people: People, outbox: Outbox, tr: Translator, bot_username: str) -> None:
        self._people = people
        self._outbox = outbox
        self._tr = tr
        self._bot_username = bot_username

    async def table(self, live: LiveMatch, **shown: Unpack[Shown]) -> Content | None:
        """The table's content; None for a /solo match, whose hand carries its lines."""
        events, note = shown.get("events", ()), shown.get("note")
        final, stopped_by = shown.get("final", False), shown.get("stopped_by")
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
        kept = [*kept, *lines][-RECENT_MAX:]
        live.recent = kept if dealt is None else lines[dealt:]
        lines = kept
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
                url=start_link(self._bot_username, f"play-{live.match_id}"),
            )
            markup = InlineKeyboardMarkup([[button]])
        return Content(text, markup, topic=live.topic_id)

    async def hand(
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
            turn_seconds_left=None if final else _timer(live, seat),
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

    async def results(
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
            ending = Ending(live.chat_id, lang, result, summary, live.version, live.topic_id)
        return (Content(deal, topic=live.topic_id) if deal else None), ending

    async def stopped(
        self, live: LiveMatch, stopped_by: str, summary: MatchSummary
    ) -> Ending:
        """The ending of a match stopped with /stop: the scores at that moment."""
        lang = await self._people.chat_language(live.chat_id)
        names = await self.names(live, lang)
        result = render_stopped_result(view(live.state, None), names, lang, self._tr, stopped_by)
        return Ending(live.chat_id, lang, result, summary, topic=live.topic_id)

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


def _timer(live: LiveMatch, seat: int) -> int | None:
    """The seconds left of ``seat``'s turn, if its turn timer runs."""
    deadline = live.deadline
    if deadline is None or deadline.seat != seat or live.state.turn != seat:
        return None
    return seconds_left(deadline.deadline)
