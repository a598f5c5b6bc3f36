"""Start-up recovery: the running matches are handed to the game service, which loads each
when an update or a timer first needs it and the others in the background (issue 13: the bot
polls at once, however many matches are open); loading replays a match from its log, deals on
if it stopped between deals, and edits its table and hands back into place. The stored turn
deadlines are armed at once. Open lobbies are redrawn.

A match whose row or log cannot be read is abandoned with a clear log line (and a note in its
group) so that one broken match never keeps the bot, or the others, from starting.
"""

from __future__ import annotations

import logging

from bot.services import Services
from storage import CorruptRow, Match, StorageError

log = logging.getLogger(__name__)


async def recover(services: Services) -> None:
    matches = await _running_matches(services)
    services.games.expect(matches, await services.store.deadlines.list_all())
    try:
        lobbies = await services.store.lobbies.list_open()
    except StorageError as error:
        log.error("open lobbies cannot be read: %s", error)
        return
    for lobby in lobbies:
        await services.lobbies.show(lobby)
    log.info(
        "recovered %d open lobbies; %d running matches load in the background",
        len(lobbies),
        len(matches),
    )


async def _running_matches(services: Services) -> list[Match]:
    store = services.store
    try:
        return await store.matches.list_unfinished()
    except CorruptRow as error:
        log.error("a running match cannot be read (%s); loading them one by one", error)
    # The repository loads all running matches at once; to set one broken row apart we list
    # their ids ourselves and load each alone.
    rows = await store.db.fetch_all(
        "SELECT match_id, chat_id FROM matches WHERE status = 'running' ORDER BY match_id"
    )
    found = []
    for row in rows:
        match_id, chat_id = int(row["match_id"]), int(row["chat_id"])
        try:
            match = await store.matches.get(match_id)
        except CorruptRow as error:
            await services.games.abandon_broken(match_id, chat_id, str(error))
            continue
        if match is not None:
            found.append(match)
    return found
