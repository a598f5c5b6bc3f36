"""The simulated world's state and the operations shared by Bot API methods and simulated people.

Everything a call changes goes through here, so every change wakes the waiting helpers
(`notifier.touch(chat_id)`) and every update goes either to the getUpdates queue or the webhook.
"""

from __future__ import annotations

import itertools
import mimetypes
import struct
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .errors import BLOCKED, CANT_INITIATE, QUERY_TOO_OLD, ApiError, bad_request, forbidden
from .notify import ChangeNotifier
from .params import UploadPart
from .ratelimit import RateLimiter, RateLimits
from .state import (
    BotIdentity,
    CallbackAnswer,
    CallbackQueryRecord,
    ChatState,
    MessageVersion,
    Sender,
    ShownText,
    SimMessage,
    UploadedFile,
    UserState,
    now_ts,
)
from .updates import PendingUpdate, UpdateStore
from .webhook import WebhookDelivery

JSON = dict[str, Any]

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@dataclass(frozen=True)
class ApiCall:
    """One Bot API request as served: HTTP status 200 or the error code and description."""

    method: str
    token: str
    chat_id: int | None
    status: int
    description: str | None
    at: float


class World:
    """All state of one fake server."""

    def __init__(
        self,
        *,
        bot: BotIdentity,
        limits: RateLimits,
        clock: Callable[[], float] = time.monotonic,
        privacy_mode: bool = False,
        callback_ttl: float | None = None,
        conflict_on_parallel_polls: bool = False,
    ) -> None:
        self.bot = bot
        self.clock = clock
        self.privacy_mode = privacy_mode
        self.callback_ttl = callback_ttl
        self.users: dict[int, UserState] = {}
        self.chats: dict[int, ChatState] = {}
        self.callbacks: dict[str, CallbackQueryRecord] = {}
        self.files: list[UploadedFile] = []
        self.files_by_id: dict[str, UploadedFile] = {}
        self.commands: dict[tuple[str, str], list[JSON]] = {}
        self.descriptions: dict[tuple[str, str], str] = {}
        """setMyDescription / setMyShortDescription: (kind, language code) -> text."""
        self.calls: list[ApiCall] = []
        self.call_counts: Counter[str] = Counter()
        self.all_updates: list[PendingUpdate] = []
        self.limiter = RateLimiter(limits, clock)
        self.notifier = ChangeNotifier()
        self.updates = UpdateStore(
            on_poll=self.notifier.touch, conflict_on_parallel_polls=conflict_on_parallel_polls
        )
        self.webhook = WebhookDelivery(on_change=self.notifier.touch)
        self.inflight = 0  # Bot API calls being served, long polls excluded
        self.last_activity = time.monotonic()
        self._serial = itertools.count(1)
        self._query_ids = itertools.count(4_611_686_018_427_387_905)

    # -- chats -------------------------------------------------------------------------------

    def private_chat(self, user: UserState) -> ChatState:
        chat = self.chats.get(user.id)
        if chat is None:
            chat = self.chats[user.id] = ChatState(id=user.id, type="private", user=user)
        return chat

    def chat(self, ref: int | str) -> ChatState:
        """The chat a `chat_id` parameter names; 400 "chat not found" otherwise."""
        if isinstance(ref, str):
            ref = ref.strip()
            if ref.startswith("@"):
                for chat in self.chats.values():
                    if chat.username and chat.username.lower() == ref[1:].lower():
                        return chat
                raise bad_request("chat not found")
            try:
                ref = int(ref)
            except ValueError:
                raise bad_request("chat not found") from None
        found = self.chats.get(ref)
        if found is not None:
            return found
        user = self.users.get(ref)
        if user is None:
            raise bad_request("chat not found")
        return self.private_chat(user)

    @staticmethod
    def check_migrated(chat: ChatState) -> None:
        """400 with `migrate_to_chat_id` for a basic group upgraded to a supergroup."""
        if chat.migrated_to is not None:
            raise ApiError(
                400, "Bad Request: group chat was upgraded to a supergroup chat",
                migrate_to_chat_id=chat.migrated_to,
            )

    def check_writable(self, chat: ChatState) -> None:
        """403s for chats the bot may not write to."""
        if chat.user is not None:
            if chat.user.blocked:
                raise forbidden(BLOCKED)
            if not chat.user.started:
                raise forbidden(CANT_INITIATE)
        elif chat.migrated_to is not None:
            self.check_migrated(chat)
        elif chat.bot_status == "kicked":
            raise forbidden(f"Forbidden: bot was kicked from the {chat.type} chat")
        elif chat.bot_status == "left":
            raise forbidden(f"Forbidden: bot is not a member of the {chat.type} chat")

    @staticmethod
    def message(chat: ChatState, message_id: int, missing: str) -> SimMessage:
        msg = chat.messages.get(message_id)
        if msg is None or msg.deleted:
            raise bad_request(missing)
        return msg

    def service_user(self, api: JSON) -> UserState:
        """A sender that is not one of the test's people (Telegram's service account)."""
        known = self.users.get(api["id"])
        if known is None:
            known = self.users[api["id"]] = UserState(api["id"], api["first_name"])
        return known

    # -- messages ----------------------------------------------------------------------------

    def add_message(
        self,
        chat: ChatState,
        sender: Sender,
        *,
        kind: str = "text",
        text: str = "",
        raw_text: str | None = None,
        parse_mode: str | None = None,
        entities: list[JSON] | None = None,
        reply_markup: JSON | None = None,
        other_markup: JSON | None = None,
        reply_to: SimMessage | None = None,
        file: UploadedFile | None = None,
        service: JSON | None = None,
        method: str = "sendMessage",
        params: JSON | None = None,
        extra: JSON | None = None,
        thread_id: int | None = None,
    ) -> SimMessage:
        msg = SimMessage(
            chat=chat, message_id=chat.alloc_message_id(), sender=sender, date=now_ts(),
            kind=kind, text=text, raw_text=text if raw_text is None else raw_text,
            parse_mode=parse_mode, entities=list(entities or []), reply_markup=reply_markup,
            other_markup=other_markup, reply_to=reply_to, file=file,
            service=dict(service or {}), params=dict(params or {}), extra=dict(extra or {}),
            thread_id=thread_id,
        )
        msg.versions.append(MessageVersion(
            msg.text, msg.raw_text, msg.entities, reply_markup, msg.date, method
        ))
        chat.messages[msg.message_id] = msg
        if kind != "service":
            chat.shown.append(ShownText(msg.message_id, text, sender.is_bot, 0))
        if sender.is_bot:
            chat.stats.sends += 1
        if file is not None:
            file.message_id = msg.message_id
            self.files.append(file)
            self.files_by_id[file.file_id] = file
        self.notifier.touch(chat.id)
        return msg

    def edit_message(
        self,
        msg: SimMessage,
        *,
        text: str,
        raw_text: str,
        entities: list[JSON],
        reply_markup: JSON | None,
        method: str,
    ) -> None:
        changed_text = text != msg.text
        msg.text, msg.raw_text, msg.entities, msg.reply_markup = (
            text, raw_text, entities, reply_markup
        )
        msg.edit_date = now_ts()
        msg.versions.append(
            MessageVersion(text, raw_text, entities, reply_markup, msg.edit_date, method)
        )
        if changed_text:
            msg.chat.shown.append(
                ShownText(msg.message_id, text, msg.from_bot, len(msg.versions) - 1)
            )
        if msg.from_bot:
            msg.chat.stats.edits += 1
        self.notifier.touch(msg.chat.id)

    def delete_message(self, msg: SimMessage) -> None:
        msg.deleted = True
        msg.chat.stats.deletes += 1
        self.notifier.touch(msg.chat.id)

    def bot_sees(self, chat: ChatState, msg: SimMessage) -> bool:
        """Whether a user's message reaches the bot (membership and privacy mode)."""
        if not chat.is_group:
            return True
        if chat.bot_status not in ("member", "administrator"):
            return False
        if not self.privacy_mode or chat.bot_status == "administrator" or msg.kind == "service":
            return True
        if msg.reply_to is not None and msg.reply_to.from_bot:
            return True
        mention = f"@{self.bot.username}".lower()
        for entity in msg.entities:
            start, end = entity["offset"], entity["offset"] + entity["length"]
            word = msg.text[start:end].lower()  # offsets are UTF-16 but commands are ASCII
            if entity["type"] == "bot_command" and ("@" not in word or word.endswith(mention)):
                return True
            if entity["type"] == "mention" and word == mention:
                return True
        return False

    # -- updates -----------------------------------------------------------------------------

    def emit(self, kind: str, payload: JSON, chat_id: int | None) -> PendingUpdate:
        """Create an update and hand it to getUpdates or the webhook."""
        update = self.updates.make(kind, payload, chat_id)
        self.all_updates.append(update)
        if self.webhook.active:
            self.webhook.submit(update)
        else:
            self.updates.push(update)
        self.notifier.touch(chat_id)
        return update

    # -- flood control -----------------------------------------------------------------------

    def throttle(self, method: str, chat: ChatState) -> None:
        """Count a send/edit against the flood limits; 429 if over."""
        try:
            self.limiter.check(method, chat.id, chat.is_group)
        except ApiError:
            chat.stats.rejected_429 += 1
            raise

    # -- files -------------------------------------------------------------------------------

    def prepare_file(self, kind: str, upload: UploadPart | str, chat_id: int) -> UploadedFile:
        """Validate an upload/file_id/URL and make its record (registered by add_message)."""
        if isinstance(upload, str):
            known = self.files_by_id.get(upload)
            if known is not None:
                data, name, ctype, url = known.data, known.filename, known.content_type, None
            elif upload.startswith(("http://", "https://")):
                data, name, ctype, url = None, upload.rsplit("/", 1)[-1] or None, None, upload
            else:
                raise bad_request("wrong file identifier/HTTP URL specified")
        else:
            if not upload.data:
                raise bad_request("file must be non-empty")
            data, name, url = upload.data, upload.filename, None
            ctype = upload.content_type
            if (not ctype or ctype == "application/octet-stream") and name:
                ctype = mimetypes.guess_type(name)[0] or ctype
        serial = next(self._serial)
        prefix = "AgAC" if kind == "photo" else "BQAC"
        width, height = _png_size(data) if data else (0, 0)
        return UploadedFile(
            file_id=f"{prefix}{serial:08d}fake", file_unique_id=f"AQAD{serial:08d}",
            kind=kind, filename=name, content_type=ctype, data=data, url=url,
            chat_id=chat_id, width=width, height=height,
        )

    # -- callback queries --------------------------------------------------------------------

    def new_callback(
        self, user: UserState, chat_id: int, message_id: int, data: str
    ) -> CallbackQueryRecord:
        record = CallbackQueryRecord(
            id=str(next(self._query_ids)), user=user, chat_id=chat_id,
            message_id=message_id, data=data, created_at=self.clock(),
        )
        self.callbacks[record.id] = record
        return record

    def answer_callback(self, query_id: str, answer: CallbackAnswer) -> None:
        record = self.callbacks.get(query_id)
        expired = (
            record is not None and self.callback_ttl is not None
            and self.clock() - record.created_at > self.callback_ttl
        )
        if record is None or record.answered or expired:
            raise ApiError(400, QUERY_TOO_OLD)
        record.answer = answer
        self.notifier.touch(record.chat_id)

    # -- diagnostics -------------------------------------------------------------------------

    def describe(self, chat_ids: list[int] | None = None, last: int = 12) -> str:
        """Recent texts (of `chat_ids` or all chats) and recent failed calls, for messages."""
        lines: list[str] = []
        chats = [self.chats[c] for c in chat_ids or self.chats if c in self.chats]
        for chat in chats[-20:]:
            shown = chat.shown[-last:]
            lines.append(f"chat {chat.id} ({chat.title or chat.type}): last {len(shown)} texts")
            for item in shown:
                who = "bot" if item.from_bot else "user"
                lines.append(f"  #{item.message_id} v{item.version} {who}: {item.text!r}")
        errors = [c for c in self.calls if c.status != 200][-5:]
        if errors:
            lines.append("recent failed calls:")
            lines += [f"  {c.method} chat={c.chat_id}: {c.status} {c.description}" for c in errors]
        lines.append(
            f"pending updates: {self.updates.pending_count} (polls waiting: "
            f"{self.updates.polls_waiting}), webhook pending: {self.webhook.pending_count}"
        )
        return "\n".join(lines)


def _png_size(data: bytes) -> tuple[int, int]:
    if data[:8] == _PNG_SIGNATURE and data[12:16] == b"IHDR" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return int(width), int(height)
    return 0, 0
