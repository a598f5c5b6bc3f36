"""A group's life as Telegram changes it under the bot (issue 12).

* A basic group upgraded to a supergroup gets a new chat id (``migrate_to_chat_id``). Its
  rows move to the new id (`storage.chats.Chats.migrate`), its running match and open lobby
  follow in memory, and their messages are posted anew in the supergroup: the bot cannot edit
  the old group's messages any more. Telegram tells both chats; the second notice finds
  nothing left to move.
* The bot removed from a group (left, kicked) can neither show nor hear the group's game: its
  open lobby is cancelled, its running match stops, recorded as abandoned, and every player is
  told in their private chat, where their hand loses its buttons.
"""

from __future__ import annotations

import html
import logging

from bot.lobby.service import lobby_key
from bot.match.drawing import table_key
from bot.match.live import LiveMatch
from bot.services import Services
from storage import NotFound

log = logging.getLogger(__name__)


async def migrated(found: Services, old_chat_id: int, new_chat_id: int) -> bool:
    """Move the group's lobby and match to its new id; False if there was nothing to move."""
    await found.games.load_for(old_chat_id, None)  # a match not loaded since a restart
    try:
        await found.store.chats.migrate(old_chat_id, new_chat_id)
    except NotFound:
        return False
    live = found.games.in_chat(old_chat_id)
    if live is not None:
        async with live.lock:
            await found.store.matches.set_table_message_id(live.match_id, None)
            live.row = live.row.model_copy(
                update={"chat_id": new_chat_id, "table_message_id": None}
            )
            found.outbox.forget(old_chat_id, table_key(live.match_id))
            await found.screens.show_table(live)
    lobby = await found.store.lobbies.open_in_chat(new_chat_id)
    if lobby is not None:
        lobby = await found.store.lobbies.set_message_id(lobby.lobby_id, None)
        found.outbox.forget(old_chat_id, lobby_key(lobby.lobby_id))
        await found.lobbies.show(lobby)
    log.info("chat %s became %s", old_chat_id, new_chat_id)
    return True


async def bot_removed(found: Services, chat_id: int, title: str) -> None:
    """Cancel the group's lobbies and stop its matches (in every forum topic), telling their
    players privately."""
    for lobby in await found.store.lobbies.open_in_group(chat_id):
        await found.store.lobbies.cancel(lobby.lobby_id)
        found.outbox.forget(chat_id, lobby_key(lobby.lobby_id))
    for live in found.games.in_group(chat_id):
        await _stopped_for_removal(found, live, chat_id, title)


async def _stopped_for_removal(found: Services, live: LiveMatch, chat_id: int, title: str) -> None:
    players = [user_id for user_id in live.user_ids if user_id is not None]
    group = html.escape(title)
    note = found.tr.text(await found.people.chat_language(chat_id), "bot-removed-match",
                         group=group)
    if not await found.games.stop(live, note, announce=False):
        return
    found.outbox.forget(chat_id, table_key(live.match_id))
    for user_id in players:
        lang = await found.people.user_language(user_id)
        await found.screens.post(user_id, found.tr.text(lang, "bot-removed-match", group=group))
