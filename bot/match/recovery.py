"""Start-up recovery: what a stop or a crash kept from being shown is delivered; the running
matches are handed to the game service, which loads each when an update or a timer first
needs it and the others in the background (issue 13: the bot polls at once, however many
matches are open); loading replays a match from its log and deals on if it stopped between
deals. The stored turn deadlines are armed at once. Open lobbies are redrawn.

Every message a committed change must produce was stored with the change (the database
outbox, `storage.outbox`). What is still marked undelivered goes to the outbox first, the
newest matches first: the tables and hands whose delivered state is older than their match's
(and only those: a message already showing its match's state is not redrawn, issue 13), the
deal results, and the results of matches that ended just before the crash, with their score
sheets — so a match that ended is settled in its group, however the bot stopped.

A match whose row or log cannot be read is abandoned with a clear log line (and a note in its
group) so that one broken match never keeps the bot, or the others, from starting.

Where several processes share the database (issue 17) the running matches are not handed
over: each loads in whichever process an update of it comes to, and their timers and
computer moves are the jobs of the processes that changed them last, claimed by another
when one dies (`bot.match.jobs`). `take_over` is the delivery part for a process that
becomes the leader (`bot.ops.cluster`): what the dead leader had not delivered.
"""

from __future__ import annotations

import logging

from bot.chats.topics import stored_topic
from bot.records import players_of, summarize
from bot.records.ending import Ending
from bot.services import Services
from storage import CorruptRow, Match, StorageError
from storage.outbox import Stored

log = logging.getLogger(__name__)


async def recover(services: Services) -> None:
    matches, stale = await _resume(services)
    try:
        lobbies = await services.store.lobbies.list_open()
    except StorageError as error:
        log.error("open lobbies cannot be read: %s", error)
        return
    for lobby in lobbies:
        await services.lobbies.show(lobby)
    log.info(
        "recovered %d open lobbies and %d undelivered messages; %d running matches load in "
        "the background",
        len(lobbies),
        len(stale),
        len(matches),
    )


async def take_over(services: Services) -> set[int]:
    """`recover` without the lobbies, for a process that becomes the leader; the matches
    whose endings it posts."""
    _, stale = await _resume(services)
    return {s.match_id for s in stale if s.kind == "ending" and s.match_id is not None}


async def _resume(services: Services) -> tuple[list[Match], list[Stored]]:
    """Deliver what is stored undelivered and (one process alone on its database) hand the
    running matches to the game service (their timers armed, each loading when needed)."""
    matches = await _running_matches(services)
    # The stored messages go to the outbox before any match loads: a match dealt on as it
    # loads shows its newer state after them.
    stale = await _deliver_stored(services, {m.match_id: m for m in matches})
    if not services.store.shared:
        services.games.expect(matches, await services.store.deadlines.list_all())
    return matches, stale


async def _deliver_stored(services: Services, running: dict[int, Match]) -> list[Stored]:
    """Hand the undelivered stored messages to the outbox; what they were."""
    try:
        stale = await services.store.outbox.stale()
    except StorageError as error:
        log.error("the undelivered messages cannot be read: %s", error)
        return []
    matches = dict(running)
    for stored in stale:
        match_id = stored.match_id
        if match_id is None or match_id in matches:
            continue
        try:
            found = await services.store.matches.get(match_id)
        except CorruptRow as error:
            log.error("match %s of a stored message cannot be read: %s", match_id, error)
            found = None
        if found is not None:
            matches[match_id] = found
    for stored in stale:
        match = matches.get(stored.match_id) if stored.match_id is not None else None
        if stored.kind != "ending":
            services.screens.redeliver(stored, match)
            continue
        ending = await ending_of(services, stored, match)
        if ending is not None:
            services.games.announce_later(ending)
    return stale


async def ending_of(services: Services, stored: Stored, match: Match | None) -> Ending | None:
    """The ending of a match whose result was stored but not posted: its score sheet is
    drawn from the log, like /score's."""
    if match is None:
        log.error("the result of match %s cannot be posted: the match is gone", stored.match_id)
        return None
    try:
        lines = await services.store.matches.read_log(match.match_id)
    except StorageError as error:
        log.error("the result of match %s cannot be posted: %s", match.match_id, error)
        return None
    summary = summarize(match.rules, lines, players_of(match), match_id=match.match_id)
    body = stored.body
    lang = str(body.get("lang") or services.people.default_language)
    return Ending(
        stored.chat_id, lang, str(body.get("text", "")), summary, stored.version,
        stored_topic(body),
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
        "SELECT match_id, chat_id, topic_id FROM matches WHERE status = 'running' "
        "ORDER BY match_id"
    )
    found = []
    for row in rows:
        match_id, chat_id = int(row["match_id"]), int(row["chat_id"])
        topic = row["topic_id"] if isinstance(row["topic_id"], int) else 0
        try:
            match = await store.matches.get(match_id)
        except CorruptRow as error:
            await services.games.abandon_broken(match_id, chat_id, str(error), topic)
            continue
        if match is not None:
            found.append(match)
    return found
