"""The one announcement of a match's result: the score sheet picture in the match's chat,
with the result as its caption (`Announcer.announce`).

Whatever ended the match — a press, a computer's move, a timeout, /stop, or a result stored
but not posted before a restart — the match service hands its `Ending` here after it let go
of the match's lock, so a picture that takes a while to draw and send never holds up the
match. The result goes after the table and the deal results (the outbox delivers those
first); it goes out as text instead if the picture cannot be drawn or sent, and before the
picture if it is too long for a caption. The stored row of the result (`storage.outbox`) is
marked delivered once it is shown.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Final

from telegram import Bot

from bot.chats.people import People
from bot.i18n import Translator
from bot.records.ending import Ending
from bot.records.format import game_name, player_name
from bot.records.sheet import render_sheet
from bot.records.summary import MatchSummary
from bot.telegram.outbox import Content, Outbox
from bot.telegram.uploads import send_photo
from storage.outbox import Delivered

log = logging.getLogger(__name__)

SHEET_FILENAME: Final = "score-sheet.png"
CAPTION_LIMIT: Final = 1024
"""Telegram's limit of a caption, in characters (of the text without its HTML tags: the
HTML is measured, so the check errs on the safe side)."""


class Announcer:
    """Posts the results of ended matches."""

    def __init__(self, bot: Bot, outbox: Outbox, people: People, tr: Translator) -> None:
        self._bot = bot
        self._outbox = outbox
        self._people = people
        self._tr = tr

    async def announce(self, ending: Ending) -> None:
        """Post the match's result with its score sheet in its chat."""
        chat_id = ending.chat_id
        try:
            png: bytes | None = await self.picture(ending.summary, ending.lang)
        except Exception:
            log.exception("the score sheet of match %s cannot be drawn", ending.summary.match_id)
            png = None
        await self._outbox.idle([chat_id])
        if png is not None and len(ending.result) <= CAPTION_LIMIT:
            sent = await send_photo(
                self._bot, chat_id, png, filename=SHEET_FILENAME, caption=ending.result,
                html=True, topic=ending.topic,
            )
            if sent is not None:
                self._announced(ending)
                return
            png = None
        # The stored result (storage.outbox) goes once this text is delivered.
        self._outbox.post(
            chat_id, Content(ending.result, topic=ending.topic), key=ending.key,
            version=ending.version,
        )
        if png is not None:
            await self._outbox.idle([chat_id])
            caption = self.caption(ending.summary, ending.lang)
            await send_photo(
                self._bot, chat_id, png, filename=SHEET_FILENAME, caption=caption,
                topic=ending.topic,
            )

    async def picture(self, summary: MatchSummary, lang: str) -> bytes:
        """The score sheet picture, rendered in a worker thread (also for /score)."""
        names = []
        for seat, player in enumerate(summary.players):
            user = None if player.user_id is None else await self._people.user(player.user_id)
            name = None if user is None else user.first_name
            names.append(player_name(player, name, lang, self._tr, seat))
        return await asyncio.to_thread(render_sheet, summary, names, lang, self._tr)

    def caption(self, summary: MatchSummary, lang: str) -> str:
        """The caption of a score sheet sent without the result (/score)."""
        game = game_name(summary.game, lang, self._tr)
        return self._tr.text(lang, "rec-sheet-title", game=game)

    def _announced(self, ending: Ending) -> None:
        """The match's result was posted: its stored row goes."""
        mark = self._outbox.on_delivered
        if mark is not None:
            mark(Delivered(ending.chat_id, ending.key, ending.version, done=True))
