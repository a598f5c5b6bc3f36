"""Simulated people and groups: what a test does to make Telegram send the bot updates.

`SimUser` starts the bot, writes, replies, presses inline buttons and opens deep links;
`SimChat` is a private chat or a group whose membership can change.  Every action records the
message (if any) in the chat and emits the update Telegram would send.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

from .markup import user_entities
from .state import (
    CallbackAnswer,
    CallbackQueryRecord,
    ChatState,
    ShownText,
    SimMessage,
    UserState,
    member_api,
    now_ts,
)
from .world import World

JSON = dict[str, Any]

ANONYMOUS_ADMIN = {
    "id": 1087968824, "is_bot": True, "first_name": "Group", "username": "GroupAnonymousBot",
}
"""The sender Telegram shows for a group's anonymous administrators."""
TELEGRAM_SERVICE = {"id": 777000, "is_bot": False, "first_name": "Telegram"}
"""The sender of a linked channel's posts forwarded into its discussion group."""


class ButtonNotFound(AssertionError):
    """`press()` found no such inline button in the message as currently shown."""


class PressHandle:
    """A pressed button: the callback query sent, and the bot's answer once it comes."""

    def __init__(self, world: World, record: CallbackQueryRecord, message: SimMessage | None):
        self._world = world
        self.record = record
        self.message = message

    def __repr__(self) -> str:
        return f"<PressHandle {self.id} data={self.data!r} answer={self.record.answer!r}>"

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def data(self) -> str:
        return self.record.data

    @property
    def answered(self) -> bool:
        return self.record.answered

    @property
    def answer_now(self) -> CallbackAnswer | None:
        """The answer if the bot already answered, without waiting."""
        return self.record.answer

    async def answer(self, timeout: float = 10.0) -> CallbackAnswer:
        """Wait for the bot's answerCallbackQuery and return it."""
        chat_id = self.record.chat_id
        return await self._world.notifier.wait_until(
            lambda: self.record.answer,
            timeout=timeout,
            keys=(chat_id,),
            what=f"answerCallbackQuery for query {self.id} (data {self.data!r})",
            describe=lambda: self._world.describe([chat_id]),
        )


class SimChat:
    """A chat as the test sees it: a user's private chat with the bot, or a group."""

    def __init__(self, world: World, state: ChatState) -> None:
        self._world = world
        self.state = state

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SimChat) and other.id == self.id

    def __hash__(self) -> int:
        return hash(("SimChat", self.id))

    def __repr__(self) -> str:
        return f"<SimChat {self.id} {self.type} {self.title or ''!r}>"

    @property
    def id(self) -> int:
        return self.state.id

    @property
    def type(self) -> str:
        return self.state.type

    @property
    def title(self) -> str | None:
        return self.state.title

    def status(self, user: SimUser | int) -> str:
        """creator/administrator/member/left/kicked of `user` in this group."""
        uid = user if isinstance(user, int) else user.id
        return self.state.members.get(uid, "left")

    def is_member(self, user: SimUser | int) -> bool:
        return self.status(user) in ("creator", "administrator", "member")

    @property
    def member_ids(self) -> list[int]:
        return [u for u in self.state.members if self.is_member(u)]

    # -- inspection shortcuts -------------------------------------------------------------

    def messages(self, *, from_bot: bool | None = None, include_deleted: bool = False
                 ) -> list[SimMessage]:
        return [
            m for m in self.state.messages.values()
            if (include_deleted or not m.deleted) and (from_bot is None or m.from_bot == from_bot)
        ]

    def last_message(self, *, from_bot: bool | None = True) -> SimMessage | None:
        for message_id in range(self.state.next_message_id - 1, 0, -1):
            msg = self.state.messages.get(message_id)
            if msg and not msg.deleted and (from_bot is None or msg.from_bot == from_bot):
                return msg
        return None

    def texts_shown(self, *, from_bot: bool | None = None) -> list[str]:
        return [s.text for s in self._shown(from_bot)]

    def _shown(self, from_bot: bool | None) -> list[ShownText]:
        return [s for s in self.state.shown if from_bot is None or s.from_bot == from_bot]

    # -- membership ----------------------------------------------------------------------

    def _require_group(self) -> None:
        if not self.state.is_group:
            raise TypeError(f"{self!r} is a private chat")

    def _member_update(self, actor: JSON, subject: JSON, old: str, new: str, kind: str) -> None:
        self._world.emit(kind, {
            "chat": self.state.to_api(), "from": actor, "date": now_ts(),
            "old_chat_member": member_api(subject, old),
            "new_chat_member": member_api(subject, new),
        }, self.id)

    async def create_topic(self, by: SimUser, name: str) -> int:
        """A member opens a topic in this forum: the service message ``forum_topic_created``,
        whose id is the topic's ``message_thread_id`` from then on."""
        if not self.state.is_forum:
            raise TypeError(f"{self!r} is not a forum")
        msg = self._world.add_message(
            self.state, by.state, kind="service",
            service={"forum_topic_created": {"name": name, "icon_color": 7322096}},
        )
        msg.thread_id = msg.message_id
        self.state.topics[msg.message_id] = name
        if self._world.bot_sees(self.state, msg):
            self._world.emit("message", msg.to_api(), self.id)
        return msg.message_id

    def topic_messages(self, thread_id: int | None, *, from_bot: bool | None = True
                       ) -> list[SimMessage]:
        """The messages (not deleted) of one topic; None: the General topic."""
        return [m for m in self.messages(from_bot=from_bot) if m.thread_id == thread_id]

    def _service(self, sender: UserState, service: JSON) -> SimMessage:
        msg = self._world.add_message(self.state, sender, kind="service", service=service)
        if self._world.bot_sees(self.state, msg):
            self._world.emit("message", msg.to_api(), self.id)
        return msg

    async def add(self, user: SimUser, *, admin: bool = False, creator: bool = False,
                  silent: bool = False) -> SimMessage | None:
        """`user` joins; emits chat_member and a `new_chat_members` message (unless silent)."""
        self._require_group()
        old = self.status(user)
        new = "creator" if creator else "administrator" if admin else "member"
        self.state.members[user.id] = new
        self._world.notifier.touch(self.id)
        if silent:
            return None
        self._member_update(user.to_api(), user.to_api(), old, new, "chat_member")
        return self._service(user.state, {"new_chat_members": [user.to_api()]})

    async def remove(self, user: SimUser, *, by: SimUser | None = None,
                     silent: bool = False) -> SimMessage | None:
        """`user` leaves (or is removed `by` someone): chat_member + `left_chat_member`."""
        self._require_group()
        old = self.status(user)
        new = "left" if by is None else "kicked"
        self.state.members[user.id] = new
        self._world.notifier.touch(self.id)
        if silent:
            return None
        actor = (by or user)
        self._member_update(actor.to_api(), user.to_api(), old, new, "chat_member")
        return self._service(actor.state, {"left_chat_member": user.to_api()})

    async def set_admin(self, user: SimUser, admin: bool = True) -> None:
        """Promote/demote `user`; emits a chat_member update."""
        self._require_group()
        old = self.status(user)
        new = "administrator" if admin else "member"
        self.state.members[user.id] = new
        self._member_update(user.to_api(), user.to_api(), old, new, "chat_member")

    async def migrate(self, by: SimUser, *, bot_leaves_first: bool = False) -> SimChat:
        """Upgrade this basic group to a supergroup (a new chat id, the same members): the old
        group gets a `migrate_to_chat_id` message, the new one `migrate_from_chat_id`, and
        the old group takes no more messages. `bot_leaves_first`: the bot is first told that
        it left the old group (my_chat_member), as Telegram may do."""
        if self.state.type != "group":
            raise TypeError(f"{self!r} is not a basic group")
        new_id = int(f"-100{abs(self.id)}")
        state = ChatState(
            id=new_id, type="supergroup", title=self.state.title,
            members=dict(self.state.members), bot_status=self.state.bot_status,
        )
        self._world.chats[new_id] = state
        new = SimChat(self._world, state)
        if bot_leaves_first:
            self.state.migrated_to = new_id
            bot = self._world.bot.to_api()
            self._member_update(bot, bot, self.state.bot_status, "left", "my_chat_member")
        self._service(by.state, {"migrate_to_chat_id": new_id})
        self.state.migrated_to = new_id
        new._service(by.state, {"migrate_from_chat_id": self.id})
        return new

    async def automatic_forward(self, text: str, *, channel_id: int = -1_009_999_999_999,
                                channel_title: str = "Channel") -> SimMessage:
        """A post of the group's linked channel, forwarded into the group by Telegram."""
        self._require_group()
        channel = {"id": channel_id, "type": "channel", "title": channel_title}
        sender = self._world.service_user(TELEGRAM_SERVICE)
        msg = self._world.add_message(
            self.state, sender, text=text, entities=user_entities(text), extra={
                "sender_chat": channel, "is_automatic_forward": True,
                "forward_origin": {
                    "type": "channel", "chat": channel, "message_id": 1, "date": now_ts(),
                },
            },
        )
        self._world.emit("message", msg.to_api(), self.id)
        return msg

    async def set_bot_status(self, status: str, *, by: SimUser | None = None) -> None:
        """member/administrator/left/kicked for the bot; emits my_chat_member."""
        self._require_group()
        old, self.state.bot_status = self.state.bot_status, status
        actor = by.to_api() if by is not None else self._world.bot.to_api()
        bot = self._world.bot.to_api()
        self._member_update(actor, bot, old, status, "my_chat_member")
        if by is not None and status in ("member", "administrator") and old in ("left", "kicked"):
            self._service(by.state, {"new_chat_members": [bot]})


class SimUser:
    """A simulated person talking to the bot."""

    def __init__(self, world: World, state: UserState) -> None:
        self._world = world
        self.state = state

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SimUser) and other.id == self.id

    def __hash__(self) -> int:
        return hash(("SimUser", self.id))

    def __repr__(self) -> str:
        return f"<SimUser {self.id} {self.first_name!r}>"

    @property
    def id(self) -> int:
        return self.state.id

    @property
    def first_name(self) -> str:
        return self.state.first_name

    @property
    def username(self) -> str | None:
        return self.state.username

    @property
    def started(self) -> bool:
        return self.state.started

    @property
    def chat(self) -> SimChat:
        """This user's private chat with the bot."""
        return SimChat(self._world, self._world.private_chat(self.state))

    def to_api(self) -> JSON:
        return self.state.to_api()

    def _chat_state(self, chat: SimChat | SimUser | int) -> ChatState:
        if isinstance(chat, SimUser):
            if chat.id != self.id:
                raise ValueError(f"{self!r} cannot write to {chat!r}'s private chat")
            return self._world.private_chat(self.state)
        if isinstance(chat, SimChat):
            return chat.state
        if chat == self.id:
            return self._world.private_chat(self.state)
        state = self._world.chats.get(chat)
        if state is None:
            raise KeyError(f"no chat {chat}")
        return state

    def _post(self, chat: ChatState, text: str, reply_to: SimMessage | None,
              topic: int | None = None) -> SimMessage:
        if chat.is_group and chat.members.get(self.id) not in (
            "creator", "administrator", "member"
        ):
            raise AssertionError(f"{self!r} is not a member of group {chat.id}")
        if not chat.is_group:
            if chat.id != self.id:
                raise AssertionError(f"{self!r} cannot write in {chat!r}")
            self.state.started = True
        if topic is None and reply_to is not None:
            topic = reply_to.thread_id
        if topic is not None:
            if topic not in chat.topics:
                raise AssertionError(f"no topic {topic} in {chat!r}")
            # As in Telegram: a message in a topic that replies to nothing replies to the
            # topic's creation message.
            reply_to = reply_to or chat.messages[topic]
        msg = self._world.add_message(
            chat, self.state, text=text, entities=user_entities(text), reply_to=reply_to,
            thread_id=topic,
        )
        if self._world.bot_sees(chat, msg) and not self.state.blocked:
            self._world.emit("message", msg.to_api(), chat.id)
        return msg

    async def start_bot(self, payload: str | None = None) -> SimMessage:
        """Press Start in the private chat: sends "/start" or "/start PAYLOAD"."""
        self.state.started = True
        self.state.blocked = False
        text = "/start" if not payload else f"/start {payload}"
        return self._post(self._world.private_chat(self.state), text, None)

    async def open_link(self, url: str) -> SimMessage:
        """Open a t.me deep link to the bot (`https://t.me/<bot>?start=PAYLOAD`)."""
        parts = urlsplit(url)
        query = parse_qs(parts.query)
        name = query.get("domain", [""])[0] if parts.scheme == "tg" else parts.path.strip("/")
        if parts.netloc not in ("t.me", "telegram.me", "resolve") and parts.scheme != "tg":
            raise AssertionError(f"not a Telegram link: {url}")
        if name.lower() != self._world.bot.username.lower():
            raise AssertionError(f"link {url} is not for @{self._world.bot.username}")
        if "startgroup" in query:
            raise AssertionError("startgroup links are not simulated; use group.set_bot_status")
        return await self.start_bot(query.get("start", [None])[0])

    async def send(self, chat: SimChat | SimUser | int, text: str, *,
                   topic: int | None = None) -> SimMessage:
        """Send `text` in `chat` (a group, or this user / `user.chat` for the private chat);
        in a forum, in the topic `topic` (its thread id; None: General)."""
        return self._post(self._chat_state(chat), text, None, topic)

    async def send_anonymously(self, chat: SimChat, text: str) -> SimMessage:
        """Send `text` in a group as its anonymous administrator (this user must be one):
        Telegram shows GroupAnonymousBot as the sender and the group as `sender_chat`."""
        if chat.status(self) not in ("creator", "administrator"):
            raise AssertionError(f"{self!r} is not an administrator of {chat!r}")
        msg = self._world.add_message(
            chat.state, self.state, text=text, entities=user_entities(text),
            extra={"from": dict(ANONYMOUS_ADMIN), "sender_chat": chat.state.to_api()},
        )
        if self._world.bot_sees(chat.state, msg):
            self._world.emit("message", msg.to_api(), chat.id)
        return msg

    async def reply(self, chat: SimChat | SimUser | int, message: SimMessage | int,
                    text: str) -> SimMessage:
        """Send `text` as a reply to `message` in `chat`."""
        state = self._chat_state(chat)
        message_id = message if isinstance(message, int) else message.message_id
        target = state.messages.get(message_id)
        if target is None:
            raise KeyError(f"no message {message_id} in chat {state.id}")
        return self._post(state, text, target)

    async def edit(self, message: SimMessage, text: str) -> SimMessage:
        """Edit one of this user's own messages; the bot gets an `edited_message`."""
        if message.sender is not self.state:
            raise AssertionError(f"{self!r} can only edit their own messages")
        self._world.edit_message(
            message, text=text, raw_text=text, entities=user_entities(text),
            reply_markup=None, method="userEdit",
        )
        if self._world.bot_sees(message.chat, message):
            self._world.emit("edited_message", message.to_api(), message.chat.id)
        return message

    async def press(self, message: SimMessage, button: str) -> PressHandle:
        """Press the inline button with this text (or callback_data) as currently shown."""
        if message.deleted:
            raise ButtonNotFound(f"message {message.chat.id}/{message.message_id} is deleted")
        found = message.find_button(button)
        if found is None:
            raise ButtonNotFound(
                f"no button {button!r} in message {message.chat.id}/{message.message_id} "
                f"{message.text[:80]!r}; buttons: {message.button_rows()}"
            )
        data = found.get("callback_data")
        if data is None:
            raise ButtonNotFound(f"button {button!r} has no callback_data: {found}")
        return self._press(message.chat, message.message_id, str(data))

    async def press_data(self, chat: SimChat | SimUser | int, message_id: int,
                         data: str) -> PressHandle:
        """Forge a callback query with arbitrary `data` on any message id."""
        return self._press(self._chat_state(chat), message_id, data)

    def _press(self, chat: ChatState, message_id: int, data: str) -> PressHandle:
        msg = chat.messages.get(message_id)
        record = self._world.new_callback(self.state, chat.id, message_id, data)
        if msg is not None and not msg.deleted:
            shown = msg.to_api()
        else:  # InaccessibleMessage
            shown = {"chat": chat.to_api(), "message_id": message_id, "date": 0}
        self._world.emit("callback_query", {
            "id": record.id, "from": self.to_api(), "message": shown,
            "chat_instance": str(abs(chat.id) * 7919 + 104729), "data": data,
        }, chat.id)
        return PressHandle(self._world, record, msg)

    async def block_bot(self) -> None:
        """Block the bot: sends fail with 403, the bot gets my_chat_member (kicked)."""
        await self._set_blocked(True)

    async def unblock_bot(self) -> None:
        """Unblock (restart) the bot: my_chat_member back to member."""
        await self._set_blocked(False)

    async def _set_blocked(self, blocked: bool) -> None:
        old, new = ("member", "kicked") if blocked else ("kicked", "member")
        self.state.blocked = blocked
        chat = self._world.private_chat(self.state)
        bot = self._world.bot.to_api()
        self._world.emit("my_chat_member", {
            "chat": chat.to_api(), "from": self.to_api(), "date": now_ts(),
            "old_chat_member": member_api(bot, old), "new_chat_member": member_api(bot, new),
        }, chat.id)
