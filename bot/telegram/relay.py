"""The follower's side of the outbox and the leader's reading of it (issue 17).

Of the bot processes sharing one database only the leader (`storage.postgres.leader`) sends
and edits messages, so Telegram's per-token limits hold however many processes take
updates. Their outbox is a `SharedOutbox`: in a follower (``relay`` set) its calls (``show``,
``post``, ``renew``, ``forget``) and the endings to announce go to a `RelayWriter` instead,
which writes them, in order, to the database's relay (`storage.relay`) in batches, in the
background; the leader hands each one to its own outbox (`replay`). A stored post handed over
twice — relayed, and delivered by a new leader's take-over — is sent once. The states of one
message that two processes hand over may arrive out of order (a follower's redraw relayed
after the leader's own newer change, a take-over's redelivery after a press): every show
says the version of the match it shows, and the outbox drops one older than it has.

Files (a /score picture, an /export file) are uploads, not outbox calls: a follower relays
each with its bytes (`send_file`), and the leader sends it in the background, paced with
everything else it sends.

What a newly sent message's id must update (the ``on_sent`` of a table, a hand, a lobby) is
relayed as a `Remember` — the kind and the ids — and rebuilt in the leader by the function
its services registered under that kind.

The messages a committed change must produce are stored with it in the database outbox
(`storage.outbox`) as well, so a leader that dies with relayed calls in memory loses none of
those: the next leader delivers them (`bot.match.recovery.take_over`). A command's reply is
not stored: one relayed just before the leader died may be lost.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from telegram import Bot, InlineKeyboardMarkup

from bot.telegram.outbox import Outbox
from bot.telegram.queue import Content, OnSent
from bot.telegram.uploads import Upload, send
from storage.relay import Relay

log = logging.getLogger(__name__)

RETRY_SECONDS = 1.0
"""After a failed write to the relay (the database is away), the next try comes this much
later; nothing is dropped meanwhile."""
POSTED_MEMORY = 4096
"""Stored posts remembered (by chat, key and version) so that one is sent once."""


@dataclass(frozen=True)
class Remember:
    """An ``on_sent`` the leader can rebuild: ``kind`` names the function, ``ids`` its
    arguments (a match and a seat, a lobby)."""

    kind: str
    ids: tuple[int, ...]
    call: OnSent

    async def __call__(self, message_id: int) -> None:
        await self.call(message_id)


Rememberers = Mapping[str, Callable[..., OnSent]]
"""Kind → the function that makes a `Remember`'s ``call`` from its ids."""


def content_body(content: Content) -> dict[str, Any]:
    return {
        "text": content.text,
        "markup": None if content.markup is None else content.markup.to_dict(),
        "topic": content.topic,
    }


def content_of(body: Mapping[str, Any]) -> Content:
    markup = body.get("markup")
    topic = body.get("topic")
    return Content(
        str(body.get("text", "")),
        InlineKeyboardMarkup.de_json(markup, None) if isinstance(markup, dict) else None,
        topic=topic if isinstance(topic, int) else 0,
    )


class RelayWriter:
    """A follower's outbox: its calls written to the relay, in order, in the background."""

    def __init__(self, relay: Relay) -> None:
        self._relay = relay
        self._pending: list[dict[str, Any]] = []
        self._flusher: asyncio.Task[None] | None = None
        self._flushed = asyncio.Event()
        self._flushed.set()
        self._closed = False

    @property
    def queued(self) -> int:
        """Calls not written yet."""
        return len(self._pending)

    def show(
        self,
        chat_id: int,
        key: str,
        content: Content,
        *,
        message_id: int | None,
        on_sent: OnSent | None,
        last: bool,
        renew: bool,
        version: int | None,
        state: int | None,
    ) -> None:
        sent = (
            {"kind": on_sent.kind, "ids": list(on_sent.ids)}
            if isinstance(on_sent, Remember)
            else None
        )
        self._add({
            "op": "show", "chat": chat_id, "key": key, **content_body(content),
            "message_id": message_id, "sent": sent, "last": last, "renew": renew,
            "version": version, "state": state,
        })

    def post(self, chat_id: int, content: Content, *, key: str | None, version: int) -> None:
        self._add({
            "op": "post", "chat": chat_id, **content_body(content), "key": key,
            "version": version,
        })

    def renew(self, chat_id: int, key: str) -> None:
        self._add({"op": "renew", "chat": chat_id, "key": key})

    def forget(self, chat_id: int, key: str) -> None:
        self._add({"op": "forget", "chat": chat_id, "key": key})

    def ending(
        self, chat_id: int, match_id: int, version: int, lang: str, text: str, topic: int
    ) -> None:
        """A match's result to announce (the leader draws its score sheet from the log)."""
        self._add({
            "op": "ending", "chat": chat_id, "match": match_id, "version": version,
            "lang": lang, "text": text, "topic": topic,
        })

    def upload(self, upload: Upload) -> None:
        """A file for the leader to send."""
        self._add({
            "op": "upload", "chat": upload.chat_id, "kind": upload.kind,
            "data": base64.b64encode(upload.data).decode("ascii"),
            "filename": upload.filename, "caption": upload.caption, "html": upload.html,
            "topic": upload.topic,
        })

    def _add(self, body: dict[str, Any]) -> None:
        if self._closed:
            log.warning("relay closed: %s to chat %s dropped", body["op"], body["chat"])
            return
        self._pending.append(body)
        self._flushed.clear()
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush(), name="relay")

    async def _flush(self) -> None:
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                while True:
                    try:
                        await self._relay.push(batch)
                        break
                    except Exception:
                        log.exception("the relay cannot be written; trying again")
                        await asyncio.sleep(RETRY_SECONDS)
        finally:
            if not self._pending:
                self._flushed.set()

    async def idle(self) -> None:
        """Wait until every call so far is written."""
        await self._flushed.wait()

    async def close(self) -> None:
        """Write what is left, then take no more."""
        await self.idle()
        self._closed = True


class SharedOutbox(Outbox):
    """The outbox of a process among several on one database: relayed while ``relay`` is set
    (a follower), its own otherwise (the leader)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.relay: RelayWriter | None = None
        self._posted: OrderedDict[tuple[int, str, int], None] = OrderedDict()
        self._handed: OrderedDict[tuple[int, str], Content] = OrderedDict()
        """A follower's last show of each message, handed to the leader (`shown`)."""

    @property
    def queued(self) -> int:
        return super().queued + (0 if self.relay is None else self.relay.queued)

    def show(
        self, chat_id: int, key: str, content: Content, *, message_id: int | None = None,
        on_sent: OnSent | None = None, last: bool = False, renew: bool = False,
        version: int | None = None, state: int | None = None,
    ) -> None:
        if self.relay is not None:
            self.relay.show(
                chat_id, key, content, message_id=message_id, on_sent=on_sent, last=last,
                renew=renew, version=version, state=state,
            )
            self._handed[chat_id, key] = content
            self._handed.move_to_end((chat_id, key))
            if last:
                del self._handed[chat_id, key]
            elif len(self._handed) > POSTED_MEMORY:
                self._handed.popitem(last=False)
        else:
            super().show(
                chat_id, key, content, message_id=message_id, on_sent=on_sent, last=last,
                renew=renew, version=version, state=state,
            )

    def shown(self, chat_id: int, key: str) -> Content | None:
        """What the message shows: in a follower, which never sees a delivery, what it last
        handed the leader for it (the leader may coalesce it with a newer state, but the
        group reads on from there), so that a table's "just now" lines are those not handed
        over yet (`bot.match.drawing.unseen`) and do not pile up."""
        if self.relay is not None:
            return self._handed.get((chat_id, key))
        return super().shown(chat_id, key)

    def post(
        self, chat_id: int, content: Content, *, key: str | None = None, version: int = 0
    ) -> None:
        if self.relay is not None:
            self.relay.post(chat_id, content, key=key, version=version)
            return
        if key is not None:
            if (chat_id, key, version) in self._posted:
                return
            self._posted[chat_id, key, version] = None
            if len(self._posted) > POSTED_MEMORY:
                self._posted.popitem(last=False)
        super().post(chat_id, content, key=key, version=version)

    def renew(self, chat_id: int, key: str) -> None:
        if self.relay is not None:
            self.relay.renew(chat_id, key)
        else:
            super().renew(chat_id, key)

    def forget(self, chat_id: int, key: str) -> None:
        if self.relay is not None:
            self.relay.forget(chat_id, key)
            self._handed.pop((chat_id, key), None)
        else:
            super().forget(chat_id, key)

    async def idle(self, chat_ids: Iterable[int] | None = None) -> None:
        if self.relay is not None:
            await self.relay.idle()
        await super().idle(chat_ids)


async def send_file(bot: Bot, outbox: Outbox, upload: Upload) -> bool:
    """Send a file — in a follower, hand it to the leader, which sends it within the token's
    limits; whether it was sent or handed over."""
    if isinstance(outbox, SharedOutbox) and outbox.relay is not None:
        outbox.relay.upload(upload)
        return True
    return await send(bot, upload) is not None


OnEnding = Callable[[Mapping[str, Any]], Awaitable[None]]
OnUpload = Callable[[Upload], None]


def upload_of(body: Mapping[str, Any]) -> Upload | None:
    """The file of a relayed ``upload`` (None: a broken body)."""
    chat_id, kind, data = body.get("chat"), body.get("kind"), body.get("data")
    filename, caption, topic = body.get("filename"), body.get("caption"), body.get("topic")
    if not (isinstance(chat_id, int) and kind in ("photo", "document") and isinstance(data, str)
            and isinstance(filename, str) and isinstance(caption, str)
            and isinstance(topic, int)):
        return None
    try:
        decoded = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        return None
    photo = kind == "photo"
    return Upload(
        "photo" if photo else "document", chat_id, decoded, filename, caption,
        html=body.get("html") is True, topic=topic,
    )


async def replay(
    body: Mapping[str, Any], outbox: Outbox, rememberers: Rememberers, ending: OnEnding,
    upload: OnUpload | None = None,
) -> None:
    """Hand one relayed call to the leader's outbox, a file to ``upload`` (which sends it in
    the background); a broken body is logged and skipped."""
    op, chat_id, key = body.get("op"), body.get("chat"), body.get("key")
    if not isinstance(chat_id, int):
        log.error("relayed call without a chat: %r", body)
        return
    if op == "show" and isinstance(key, str):
        message_id, version = body.get("message_id"), body.get("version")
        state = body.get("state")
        outbox.show(
            chat_id, key, content_of(body),
            message_id=message_id if isinstance(message_id, int) else None,
            on_sent=_on_sent(body.get("sent"), rememberers),
            last=bool(body.get("last")), renew=bool(body.get("renew")),
            version=version if isinstance(version, int) else None,
            state=state if isinstance(state, int) else None,
        )
    elif op == "post":
        version = body.get("version")
        outbox.post(
            chat_id, content_of(body), key=key if isinstance(key, str) else None,
            version=version if isinstance(version, int) else 0,
        )
    elif op == "renew" and isinstance(key, str):
        outbox.renew(chat_id, key)
    elif op == "forget" and isinstance(key, str):
        outbox.forget(chat_id, key)
    elif op == "ending":
        await ending(body)
    elif op == "upload" and upload is not None and (file := upload_of(body)) is not None:
        upload(file)
    else:
        log.error("relayed call not understood: %r", {k: v for k, v in body.items() if k != "data"})


def _on_sent(sent: object, rememberers: Rememberers) -> OnSent | None:
    if not isinstance(sent, dict):
        return None
    make = rememberers.get(str(sent.get("kind")))
    ids = sent.get("ids")
    if make is None or not isinstance(ids, list) or not all(isinstance(i, int) for i in ids):
        log.error("relayed on_sent not understood: %r", sent)
        return None
    return make(*ids)
