"""The records in the chats: /stats, /top, /history, /score, /export, and the page buttons of
/top and /history (the result of a match when it ends is `bot.records.announce`'s).

* /stats — the sender's statistics; as a reply to someone's message, that person's.
* /top [game] [humans] — the chat's leaderboard of a game (by default the game running here,
  else the game of the chat's last match, else Тысяча), computer players flagged; a button
  (or the word ``humans``/``люди``) shows humans only.
* /history — the chat's ended matches, newest first.
* /score — the score sheet («пулька») of the match running in the group (in private: of the
  sender's match), as a picture.
* /export — in a private chat: the sender's matches as a CSV file.

Texts come from `bot.records` in the chat's language (the user's in a private chat) and go
out through the outbox. Long lists come one page at a time with ◀ ▶ buttons whose presses edit
the message in place; their data is ``encode_page("top" | "hist", arg)`` with the page, the
game and the humans-only flag in ``arg``. The picture (drawn in
a worker thread) and the CSV are files, sent with `bot.telegram.uploads` — by the process
that sends, where several share the database (`bot.telegram.relay.send_file`): a follower
hands them over, so its "sent" for /export means handed over.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Final, TypeVar

from telegram import (
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    Update,
    User,
)
from telegram.constants import ChatType

from bot.chats.topics import replied_person, topic_of_update
from bot.handlers.replies import answer
from bot.ops.logs import logged, note
from bot.records import (
    EXPORT_FILENAME,
    export_csv,
    game_from_argument,
    has_next,
    has_previous,
    history_text,
    page_request,
    stats_text,
    summary_of,
    top_text,
    total_pages,
)
from bot.records.announce import SHEET_FILENAME
from bot.services import Context, Services, services
from bot.telegram.callbacks import PagePress, encode_page
from bot.telegram.outbox import Content
from bot.telegram.relay import send_file
from bot.telegram.uploads import Upload
from engine import DEFAULT_GAME, Game
from storage import HistoryEntry, LeaderboardEntry, Page, PlayerRef
from storage.models import GAMES

T = TypeVar("T")
log = logging.getLogger(__name__)

TOP: Final = "top"
HISTORY: Final = "hist"
HUMANS_WORDS: Final = frozenset({"humans", "people", "люди", "людей"})
_GAMES: Final[dict[str, Game]] = {game: game for game in GAMES}
_PAGE_RE: Final = re.compile(r"[1-9][0-9]{0,3}")
_GROUPS: Final = (ChatType.GROUP, ChatType.SUPERGROUP)


@dataclass(frozen=True)
class TopView:
    """What a /top message shows: a page of a game's leaderboard, maybe of humans only."""

    game: Game
    humans_only: bool = False
    page: int = 1

    def data(self) -> str:
        flag = "h" if self.humans_only else "a"
        return encode_page(TOP, f"{self.page}:{self.game}:{flag}")

    @classmethod
    def parse(cls, arg: str) -> TopView | None:
        parts = arg.split(":")
        if len(parts) != 3:
            return None
        page, game, flag = parts
        known = _GAMES.get(game)
        if not _PAGE_RE.fullmatch(page) or known is None or flag not in ("a", "h"):
            return None
        return cls(known, flag == "h", int(page))


def history_data(page: int) -> str:
    return encode_page(HISTORY, str(page))


# -------------------------------------------------------------------- commands


@logged("command-stats")
async def stats(update: Update, context: Context) -> None:
    chat, user, message = update.effective_chat, update.effective_user, update.effective_message
    if chat is None or user is None or message is None:
        return
    found = services(context)
    target = _replied_to(message) or user
    note(player=target.id)
    player = PlayerRef.human(target.id)
    entries = await found.store.results.stats_for(player)
    lang = await found.language(update)
    answer(found, update, Content(stats_text(player, target.first_name, entries, lang, found.tr)))


@logged("command-top")
async def top(update: Update, context: Context) -> None:
    here = await _group_chat(update, context)
    if here is None:
        return
    found, chat_id, lang = here
    asked = _top_arguments(context.args or [])
    if asked is None:
        answer(found, update, Content(found.tr.text(lang, "rec-top-usage")))
        return
    game, humans_only = asked
    view = TopView(game or await _usual_game(found, chat_id), humans_only)
    note(game=view.game, humans=humans_only)
    answer(found, update, await _top(found, chat_id, view, lang))


@logged("command-history")
async def history(update: Update, context: Context) -> None:
    here = await _group_chat(update, context)
    if here is None:
        return
    found, chat_id, lang = here
    answer(found, update, await _history(found, chat_id, 1, lang))


@logged("command-score")
async def score(update: Update, context: Context) -> None:
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        return
    found = services(context)
    lang = await found.language(update)
    if chat.type in _GROUPS:
        live = found.games.in_chat(chat.id, topic_of_update(update))
    else:
        live = next(iter(found.games.of_user(user.id)), None)
    if live is None:
        answer(found, update, Content(found.tr.text(lang, "rec-score-none")))
        return
    note(match=live.match_id)
    summary = await summary_of(found.store, live.match_id)
    png = await found.announcer.picture(summary, lang)
    caption = found.announcer.caption(summary, lang)
    sheet = Upload("photo", chat.id, png, SHEET_FILENAME, caption, topic=topic_of_update(update))
    await send_file(context.bot, found.outbox, sheet)


@logged("command-export")
async def export(update: Update, context: Context) -> None:
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        return
    found = services(context)
    lang = await found.language(update)
    if chat.type != ChatType.PRIVATE and not await found.people.opened(user.id):
        # The file goes to the private chat only: the bot cannot write there yet.
        answer(found, update, Content(found.tr.text(lang, "rec-export-private")))
        return
    entries = await found.store.results.matches_of_user(user.id)
    note(matches=len(entries))
    if not entries:
        answer(found, update, Content(found.tr.text(lang, "rec-export-empty")))
        return
    mine = await found.people.user_language(user.id)
    data = export_csv(entries, user.id, mine, found.tr)
    caption = found.tr.text(mine, "rec-export-caption")
    sent = await send_file(
        context.bot, found.outbox, Upload("document", user.id, data, EXPORT_FILENAME, caption)
    )
    if chat.type != ChatType.PRIVATE:
        reply = "rec-export-sent" if sent else "rec-export-private"
        answer(found, update, Content(found.tr.text(lang, reply)))


# -------------------------------------------------------------------- buttons and the end


async def turn_page(query: CallbackQuery, found: Services, press: PagePress, lang: str) -> str:
    """Show the page a /top or /history button asks for in its message; the toast to answer
    the press with (``lang``: the presser's language)."""
    message = query.message
    if not isinstance(message, Message):
        return found.tr.text(lang, "press-outdated")
    chat_id = message.chat.id
    shown_in = lang
    if message.chat.type in _GROUPS:
        shown_in = await found.people.chat_language(chat_id)
    if press.kind == TOP:
        view = TopView.parse(press.arg)
        content = None if view is None else await _top(found, chat_id, view, shown_in)
    elif press.kind == HISTORY:
        page = int(press.arg) if _PAGE_RE.fullmatch(press.arg) else None
        content = None if page is None else await _history(found, chat_id, page, shown_in)
    else:
        content = None
    if content is None:
        note(result="forged")
        return found.tr.text(lang, "press-outdated")
    note(page=press.arg)
    found.outbox.show(
        chat_id, f"page:{message.message_id}", content, message_id=message.message_id,
        last=True,
    )
    return ""


# -------------------------------------------------------------------- helpers


async def _group_chat(update: Update, context: Context) -> tuple[Services, int, str] | None:
    """The group a records command came from, the services and the reply's language; in
    another chat the command is told it works in groups only."""
    chat = update.effective_chat
    if chat is None:
        return None
    found = services(context)
    lang = await found.language(update)
    if chat.type not in _GROUPS:
        answer(found, update, Content(found.tr.text(lang, "bot-group-only")))
        return None
    return found, chat.id, lang


def _replied_to(message: Message) -> User | None:
    """The person whose message ``message`` replies to, if a person (not a bot, not the
    start of a forum topic, which every message of the topic "replies" to)."""
    replied = replied_person(message)
    if replied is None:
        return None
    sender = replied.from_user
    return sender if sender is not None and not sender.is_bot else None


def _top_arguments(args: Sequence[str]) -> tuple[Game | None, bool] | None:
    """The game named (None: none) and whether only humans are asked for; None if the
    arguments name no game."""
    words = [word.lower() for word in args]
    humans_only = any(word in HUMANS_WORDS for word in words)
    rest = " ".join(word for word in words if word not in HUMANS_WORDS)
    if not rest:
        return None, humans_only
    game = game_from_argument(rest)
    return None if game is None else (game, humans_only)


HISTORY_LOOKBACK = 20
"""Ended matches looked through for the chat's last finished one (stopped ones have no
leaderboard)."""


async def _usual_game(found: Services, chat_id: int) -> Game:
    """The game running in the chat if it has a leaderboard here, else the game of the chat's
    last finished match, else the game running, else that of the last stopped match, else
    Тысяча. (A new Тысяча started right after a Тумбочка finished must not hide the
    Тумбочка's leaderboard behind an empty one: issue 11; a chat that only ever stopped a
    Тысяча одно is told that game has no ratings yet, not Тысяча.)"""
    live = found.games.in_chat(chat_id)
    results = found.store.results
    if live is not None and (await results.leaderboard(chat_id, live.row.game, limit=1)).total:
        return live.row.game
    ended = await results.history(chat_id, limit=HISTORY_LOOKBACK)
    finished = [entry.game for entry in ended.items if entry.winner is not None]
    if finished:
        return finished[0]
    if live is not None:
        return live.row.game
    return ended.items[0].game if ended.items else DEFAULT_GAME


async def _top(found: Services, chat_id: int, view: TopView, lang: str) -> Content:
    results = found.store.results

    async def load(number: int) -> Page[LeaderboardEntry]:
        request = page_request(number)
        return await results.leaderboard(
            chat_id, view.game, humans_only=view.humans_only, limit=request.limit,
            offset=request.offset,
        )

    page = await _within(load, view.page)
    shown = replace(view, page=_number(page))
    rows = [_pager(page, lang, found, lambda number: replace(shown, page=number).data())]
    if shown.humans_only:
        toggle: str | None = "rec-top-everyone"
    else:
        humans = await results.leaderboard(chat_id, shown.game, humans_only=True, limit=1)
        toggle = "rec-top-humans-only" if humans.total < page.total else None
    if toggle is not None:
        other = TopView(shown.game, not shown.humans_only)
        rows.append([InlineKeyboardButton(found.tr.text(lang, toggle), callback_data=other.data())])
    text = top_text(page, shown.game, lang, found.tr, humans_only=shown.humans_only)
    return Content(text, _markup(rows))


async def _history(found: Services, chat_id: int, number: int, lang: str) -> Content:
    async def load(number: int) -> Page[HistoryEntry]:
        request = page_request(number)
        return await found.store.results.history(
            chat_id, limit=request.limit, offset=request.offset
        )

    page = await _within(load, number)
    rows = [_pager(page, lang, found, history_data)]
    return Content(history_text(page, lang, found.tr), _markup(rows))


async def _within(load: Callable[[int], Awaitable[Page[T]]], number: int) -> Page[T]:
    """Page ``number``, or the last page if there are fewer (a forged button)."""
    page = await load(number)
    if not page.items and page.total:
        page = await load(total_pages(page.total))
    return page


def _number(page: Page[T]) -> int:
    return page.offset // page.limit + 1


def _pager(
    page: Page[T], lang: str, found: Services, data: Callable[[int], str]
) -> list[InlineKeyboardButton]:
    """◀ and ▶ to the neighbouring pages, where there are any."""
    number = _number(page)
    buttons = []
    if has_previous(page):
        label = found.tr.text(lang, "rec-page-previous")
        buttons.append(InlineKeyboardButton(label, callback_data=data(number - 1)))
    if has_next(page):
        label = found.tr.text(lang, "rec-page-next")
        buttons.append(InlineKeyboardButton(label, callback_data=data(number + 1)))
    return buttons


def _markup(rows: Sequence[Sequence[InlineKeyboardButton]]) -> InlineKeyboardMarkup | None:
    kept = [row for row in rows if row]
    return InlineKeyboardMarkup(kept) if kept else None
