"""Plain records of the simulated Telegram world: bot, users, chats, messages, files, queries.

Each record can render itself in the Bot API's JSON shape (`to_api()`).  Messages are live
objects: a `SimMessage` a test holds always shows the current text and keyboard, and keeps every
earlier version in `versions`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]


def now_ts() -> int:
    """Telegram's `date`: whole Unix seconds."""
    return int(time.time())


@dataclass(eq=False)
class BotIdentity:
    """The bot the server pretends to be (getMe)."""

    id: int
    first_name: str
    username: str
    can_read_all_group_messages: bool = True

    @property
    def is_bot(self) -> bool:
        return True

    def to_api(self) -> JSON:
        return {
            "id": self.id, "is_bot": True, "first_name": self.first_name,
            "username": self.username,
        }

    def get_me(self) -> JSON:
        return {
            **self.to_api(),
            "can_join_groups": True,
            "can_read_all_group_messages": self.can_read_all_group_messages,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }


@dataclass(eq=False)
class UserState:
    """A simulated person."""

    id: int
    first_name: str
    username: str | None = None
    language_code: str | None = "ru"
    last_name: str | None = None
    started: bool = False  # pressed Start (or wrote) in the private chat with the bot
    blocked: bool = False  # blocked the bot

    @property
    def is_bot(self) -> bool:
        return False

    def to_api(self) -> JSON:
        out: JSON = {"id": self.id, "is_bot": False, "first_name": self.first_name}
        if self.last_name:
            out["last_name"] = self.last_name
        if self.username:
            out["username"] = self.username
        if self.language_code:
            out["language_code"] = self.language_code
        return out


Sender = BotIdentity | UserState


@dataclass(frozen=True)
class MessageVersion:
    """One state a message was shown in: as sent, then after each edit."""

    text: str
    raw_text: str
    entities: list[JSON]
    reply_markup: JSON | None
    date: int
    method: str


@dataclass(frozen=True)
class ShownText:
    """A text that was visible in a chat at some point."""

    message_id: int
    text: str
    from_bot: bool
    version: int


@dataclass(eq=False)
class UploadedFile:
    """A photo/document the bot sent; `data` holds the uploaded bytes (None for URL/file_id)."""

    file_id: str
    file_unique_id: str
    kind: str  # "photo" or "document"
    filename: str | None
    content_type: str | None
    data: bytes | None
    url: str | None
    chat_id: int
    message_id: int | None = None
    width: int = 0
    height: int = 0

    @property
    def size(self) -> int:
        return len(self.data) if self.data is not None else 0

    def file_path(self) -> str:
        folder = "photos" if self.kind == "photo" else "documents"
        name = self.filename or f"{self.file_unique_id}"
        return f"{folder}/{self.file_unique_id}_{name}"

    def to_api(self) -> JSON:
        base: JSON = {
            "file_id": self.file_id, "file_unique_id": self.file_unique_id,
            "file_size": self.size,
        }
        if self.kind == "photo":
            return {**base, "width": self.width, "height": self.height}
        if self.filename:
            base["file_name"] = self.filename
        if self.content_type:
            base["mime_type"] = self.content_type
        return base


@dataclass
class ChatStats:
    """Per-chat counters of what the bot did."""

    sends: int = 0
    edits: int = 0
    deletes: int = 0
    actions: int = 0
    rejected_429: int = 0


@dataclass(eq=False)
class SimMessage:
    """A message in a chat, from the bot or a simulated user, in its current state."""

    chat: ChatState
    message_id: int
    sender: Sender
    date: int
    kind: str = "text"  # "text", "photo", "document" or "service"
    text: str = ""  # visible text, or the caption of a photo/document
    raw_text: str = ""  # as sent (e.g. with HTML tags)
    parse_mode: str | None = None
    entities: list[JSON] = field(default_factory=list)
    reply_markup: JSON | None = None  # inline keyboard as currently shown
    other_markup: JSON | None = None  # reply keyboard / remove / force_reply, never echoed
    reply_to: SimMessage | None = None
    file: UploadedFile | None = None
    service: JSON = field(default_factory=dict)  # new_chat_members / left_chat_member
    edit_date: int | None = None
    deleted: bool = False
    versions: list[MessageVersion] = field(default_factory=list)
    params: JSON = field(default_factory=dict)  # the parameters of the sending call
    extra: JSON = field(default_factory=dict)  # fields over the usual ones (sender_chat, ...)
    thread_id: int | None = None  # the forum topic (its creation message's id); None: General

    def __repr__(self) -> str:
        who = "bot" if self.from_bot else f"user {self.sender.id}"
        flag = " deleted" if self.deleted else ""
        return f"<SimMessage {self.chat.id}/{self.message_id} from {who}{flag}: {self.text!r}>"

    @property
    def chat_id(self) -> int:
        return self.chat.id

    @property
    def from_bot(self) -> bool:
        return self.sender.is_bot

    @property
    def history(self) -> list[str]:
        """Every text this message showed, oldest first (the last one is current)."""
        return [v.text for v in self.versions]

    @property
    def edits(self) -> int:
        return max(0, len(self.versions) - 1)

    def buttons(self) -> list[JSON]:
        """The inline buttons as currently shown, row by row, flattened."""
        if not self.reply_markup:
            return []
        return [b for row in self.reply_markup["inline_keyboard"] for b in row]

    def button_texts(self) -> list[str]:
        return [str(b["text"]) for b in self.buttons()]

    def button_rows(self) -> list[list[str]]:
        if not self.reply_markup:
            return []
        return [[str(b["text"]) for b in row] for row in self.reply_markup["inline_keyboard"]]

    def find_button(self, text_or_data: str) -> JSON | None:
        """A button whose text (preferred) or callback_data equals `text_or_data`."""
        buttons = self.buttons()
        for button in buttons:
            if button["text"] == text_or_data:
                return button
        for button in buttons:
            if button.get("callback_data") == text_or_data:
                return button
        return None

    def to_api(self, *, with_reply: bool = True) -> JSON:
        out: JSON = {
            "message_id": self.message_id,
            "from": self.sender.to_api(),
            "chat": self.chat.to_api(),
            "date": self.date,
        }
        if self.edit_date is not None:
            out["edit_date"] = self.edit_date
        if self.thread_id is not None:
            out["message_thread_id"] = self.thread_id
            out["is_topic_message"] = True
        if with_reply and self.reply_to is not None:
            out["reply_to_message"] = self.reply_to.to_api(with_reply=False)
        if self.kind == "text":
            out["text"] = self.text
            if self.entities:
                out["entities"] = self.entities
        elif self.kind in ("photo", "document"):
            assert self.file is not None
            out[self.kind] = [self.file.to_api()] if self.kind == "photo" else self.file.to_api()
            if self.text:
                out["caption"] = self.text
                if self.entities:
                    out["caption_entities"] = self.entities
        out.update(self.service)
        out.update(self.extra)
        if self.reply_markup is not None:
            out["reply_markup"] = self.reply_markup
        return out


@dataclass(eq=False)
class ChatState:
    """A private chat with the bot or a group; owns its messages."""

    id: int
    type: str  # "private" or "supergroup"
    title: str | None = None
    username: str | None = None
    user: UserState | None = None  # the other party of a private chat
    members: dict[int, str] = field(default_factory=dict)  # user id -> status
    bot_status: str = "member"  # in groups: member/administrator/left/kicked
    messages: dict[int, SimMessage] = field(default_factory=dict)
    next_message_id: int = 1
    shown: list[ShownText] = field(default_factory=list)
    stats: ChatStats = field(default_factory=ChatStats)
    actions: list[str] = field(default_factory=list)
    pinned: int | None = None
    migrated_to: int | None = None  # a basic group upgraded to this supergroup
    is_forum: bool = False  # a supergroup with topics
    topics: dict[int, str] = field(default_factory=dict)  # thread id -> name (General: none)

    def __repr__(self) -> str:
        return f"<ChatState {self.id} {self.type} {self.title or ''!r}>"

    @property
    def is_group(self) -> bool:
        return self.type != "private"

    def alloc_message_id(self) -> int:
        message_id = self.next_message_id
        self.next_message_id += 1
        return message_id

    def to_api(self) -> JSON:
        if self.user is not None:
            out = self.user.to_api()
            out.pop("is_bot", None)
            out.pop("language_code", None)
            return {**out, "type": "private"}
        chat: JSON = {"id": self.id, "type": self.type, "title": self.title or ""}
        if self.username:
            chat["username"] = self.username
        if self.is_forum:
            chat["is_forum"] = True
        return chat

    def full_info(self) -> JSON:
        """The ChatFullInfo object getChat returns."""
        return {
            **self.to_api(),
            "accent_color_id": 0,
            "max_reaction_count": 11,
            "accepted_gift_types": {
                "unlimited_gifts": False, "limited_gifts": False, "unique_gifts": False,
                "premium_subscription": False, "gifts_from_channels": False,
            },
        }


@dataclass(frozen=True)
class CallbackAnswer:
    """What the bot answered to a callback query."""

    text: str | None
    show_alert: bool
    url: str | None
    cache_time: int


@dataclass(eq=False)
class CallbackQueryRecord:
    """A button press and, once the bot answers, its answer."""

    id: str
    user: UserState
    chat_id: int
    message_id: int
    data: str
    created_at: float
    answer: CallbackAnswer | None = None

    @property
    def answered(self) -> bool:
        return self.answer is not None


def member_api(user: JSON, status: str) -> JSON:
    """A ChatMember object for `status` with the fields python-telegram-bot requires."""
    if status == "creator":
        return {"status": "creator", "user": user, "is_anonymous": False}
    if status == "administrator":
        return {
            "status": "administrator", "user": user, "can_be_edited": False,
            "is_anonymous": False, "can_manage_chat": True, "can_delete_messages": True,
            "can_manage_video_chats": True, "can_restrict_members": True,
            "can_promote_members": False, "can_change_info": True, "can_invite_users": True,
            "can_post_stories": False, "can_edit_stories": False, "can_delete_stories": False,
            "can_pin_messages": True,
        }
    if status == "kicked":
        return {"status": "kicked", "user": user, "until_date": 0}
    if status == "left":
        return {"status": "left", "user": user}
    return {"status": "member", "user": user}
