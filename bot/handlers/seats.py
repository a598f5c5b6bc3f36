"""/kick and /back (issue 6). /kick hands a human's seat to a computer player for the rest
of the match: at once when the game's creator asks or the player asks for their own seat,
else when every other human player of the match has asked for the same seat. Votes are stored
(`storage.kicks`: any process of a shared database counts them). /back gives the seat back to
its human."""

from __future__ import annotations

import html

from telegram import Update

from bot.chats.topics import replied_person
from bot.handlers.replies import creator_of, group_ids, ids_of, live_here, reply
from bot.match.live import LiveMatch
from bot.ops.logs import logged, note
from bot.services import Context, services


def _kick_target(update: Update, context: Context, live: LiveMatch) -> int | None:
    """The seat /kick names: the author of the message it replies to, a seat number, or
    else the seat whose turn it is."""
    message = update.effective_message
    replied = replied_person(message) if message is not None else None
    if replied is not None and replied.from_user is not None:
        return live.seat_of(replied.from_user.id)
    if context.args:
        word = context.args[0]
        if word.isdigit() and 1 <= int(word) <= live.row.players:
            return int(word) - 1
        return None
    return live.state.turn


@logged("command-kick")
async def kick(update: Update, context: Context) -> None:
    ids = await group_ids(update, context)
    if ids is None:
        return
    user_id = ids[1]
    found = services(context)
    live = live_here(found, update)
    if live is None:
        await reply(update, context, "bot-kick-nothing")
        return
    seat = _kick_target(update, context, live)
    if seat is None:
        await reply(update, context, "bot-kick-who")
        return
    place = live.row.seats[seat]
    if place.user_id is None or place.replaced_by_computer:
        await reply(update, context, "bot-kick-not-human")
        return
    voters = {
        s.user_id
        for s in live.row.seats
        if s.user_id is not None and not s.replaced_by_computer and s.seat != seat
    }
    at_once = user_id in (place.user_id, await creator_of(found, live))
    if not at_once and user_id not in voters:
        note(result="not-allowed")
        await reply(update, context, "bot-kick-not-player")
        return
    lang = await found.language(update)
    name = html.escape((await found.screens.names(live, lang))[seat])
    votes = await found.store.kick_votes.add(live.match_id, seat, user_id)
    if not at_once and not voters <= votes:
        voter = html.escape(update.effective_user.first_name if update.effective_user else "")
        note(result="vote", seat=seat)
        await reply(
            update,
            context,
            "bot-kick-vote",
            voter=voter,
            name=name,
            votes=len(votes & voters),
            needed=len(voters),
        )
        return
    await found.store.kick_votes.clear(live.match_id, seat)
    if await found.games.replace(live, seat, found.tr.text(lang, "bot-kick-done", name=name)):
        note(result="kicked", seat=seat)


@logged("command-back")
async def back(update: Update, context: Context) -> None:
    ids = ids_of(update)
    if ids is None:
        return
    user_id = ids[1]
    found = services(context)
    returned = False
    for live in found.games.of_user(user_id):
        seat = live.seat_of(user_id)
        if seat is None or not live.row.seats[seat].replaced_by_computer:
            continue
        lang = await found.people.chat_language(live.chat_id)
        user = update.effective_user
        name = html.escape(user.first_name if user is not None else "")
        text = found.tr.text(lang, "bot-back-done", name=name)
        returned = await found.games.give_back(live, seat, text) or returned
    note(result="back" if returned else "nothing")
    if not returned:
        await reply(update, context, "bot-back-nothing")
