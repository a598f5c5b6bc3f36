"""A press on a game button, decoded once by the handler, checked here: the match is
running and at the keyboard's version, the presser holds the seat the keyboard was drawn for
and plays it (no computer stands in), the engine accepts the action. «Расписать» and
«Сбросить карты» act on a second press only (`CONFIRM_SECONDS`), and the parts of a keyboard a
player opens (`bot.telegram.callbacks.Menu`) change nothing in the match. An accepted action
goes through `bot.match.changes`; a press that ended the match has its result announced once
the match's lock is released.
"""

from __future__ import annotations

import time

from bot.match.changes import SeatChanges
from bot.match.computers import level_of
from bot.match.crew import Crew, Room
from bot.match.live import LiveMatch
from bot.match.running import Load
from bot.ops.logs import note
from bot.records.ending import Ending
from bot.render import render_refusal
from bot.render.keyboard import confirms
from bot.telegram.callbacks import ActionPress, Menu, MenuPress, fits
from engine import IllegalAction, apply, format_action
from storage import VersionConflict

CONFIRM_SECONDS = 8.0
"""How long after the question a second press of «Расписать» or «Сбросить карты» does it."""

GamePress = ActionPress | MenuPress


class Presses(Room):
    """Applies the players' presses on their hands."""

    def __init__(self, crew: Crew, load: Load) -> None:
        super().__init__(crew)
        self._load = load

    async def press(self, user_id: int, press: GamePress) -> str:
        """Apply a game button's press; the toast to answer it with ("" = none)."""
        lang = await self._people.user_language(user_id)
        live = await self._load(press.match_id)
        if live is None or not fits(press, live.row.players):
            note(result="outdated")
            return self._tr.text(lang, "press-outdated")
        if live.seat_of(user_id) is not None:
            live.pressed_at[user_id] = time.monotonic()
        if isinstance(press, MenuPress):
            return await self._open_menu(live, user_id, lang, press)
        note(match=live.match_id)
        async with live.lock:
            toast, ending = await self._act(live, user_id, lang, press)
        if ending is not None:
            self._running.announce(ending)
        return toast

    async def _act(
        self, live: LiveMatch, user_id: int, lang: str, press: ActionPress
    ) -> tuple[str, Ending | None]:
        """The press's toast and the match's ending if it ended the match (under the lock)."""
        if not self._running.current(live):
            note(result="over")
            return self._tr.text(lang, "press-outdated"), None
        seat = live.seat_of(user_id)
        if seat is None:
            note(result="not-seated")
            return self._tr.text(lang, "press-not-seated"), None
        if level_of(live.row, seat) is not None:
            note(result="replaced")
            return self._tr.text(lang, "press-replaced"), None
        if press.action.seat != seat or press.version != live.version:
            note(result="outdated")
            return self._tr.text(lang, "press-outdated"), None
        try:
            state, events = apply(live.state, press.action)
        except IllegalAction as refusal:
            note(result=refusal.reason.value)
            return render_refusal(refusal.reason, lang, self._tr), None
        if confirms(press.action) and not live.confirmed(seat, press.action, CONFIRM_SECONDS):
            # The first press of an irreversible early end only asks.
            note(result="asked")
            live.open_menu(seat, Menu(confirm=press.action))
            await self._screens.show_hand(live, seat)
            return self._tr.text(lang, "press-confirm"), None
        line = format_action(press.action)
        note(action=line)
        live.seat_notes.pop(seat, None)
        place = live.row.seats[seat]
        in_time: SeatChanges = ()
        if place.consecutive_timeouts:
            in_time = (place.model_copy(update={"consecutive_timeouts": 0}),)
        try:
            ending = await self._changes.advance(
                live, [line], state, events, seats=in_time, by=user_id
            )
        except VersionConflict:
            return self._tr.text(lang, "press-outdated"), None
        note(result="applied", version=live.version)
        return "", ending

    async def _open_menu(self, live: LiveMatch, user_id: int, lang: str, press: MenuPress) -> str:
        """Show the part of the keyboard a navigation button asks for (nothing is played)."""
        async with live.lock:
            seat = live.seat_of(user_id)
            if (
                not self._running.current(live)
                or seat != press.seat
                or press.version != live.version
                or level_of(live.row, seat) is not None
            ):
                note(result="outdated")
                return self._tr.text(lang, "press-outdated")
            note(match=live.match_id, result="menu")
            live.open_menu(seat, press.menu)
            await self._screens.show_hand(live, seat)
        return ""
