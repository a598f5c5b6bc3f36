"""The Bot API methods the fake server implements, keyed by lower-cased method name.

Each handler takes the world and the call's parameters and returns the `result` value, or
raises ApiError with Telegram's code and description.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from .errors import NOT_MODIFIED, WEBHOOK_ACTIVE, ApiError, bad_request
from .markup import check_text, parse_reply_markup, render
from .params import Params
from .state import CallbackAnswer, ChatState, SimMessage, member_api
from .updates import parse_allowed
from .world import World

JSON = dict[str, Any]
Handler = Callable[[World, Params], Awaitable[Any]]
H = TypeVar("H", bound=Handler)

METHODS: dict[str, Handler] = {}

#: Methods that only need to succeed for a bot's start-up to work.
NO_OP_METHODS = ("setMyName", "setChatMenuButton", "setMyDefaultAdministratorRights")
CHAT_ACTIONS = frozenset({
    "typing", "upload_photo", "record_video", "upload_video", "record_voice", "upload_voice",
    "upload_document", "choose_sticker", "find_location", "record_video_note",
    "upload_video_note",
})
_COMMAND_RE = re.compile(r"^[a-z0-9_]{1,32}$")
_SECRET_RE = re.compile(r"^[A-Za-z0-9_-]{1,256}$")


def api(name: str) -> Callable[[H], H]:
    """Register a handler under Telegram's (case-insensitive) method name."""

    def register(handler: H) -> H:
        METHODS[name.lower()] = handler
        return handler

    return register


def chat_id_param(params: Params) -> int | str | None:
    """The raw chat_id of a call (for logging and storms), without validating it."""
    value = params.values.get("chat_id")
    if value is None:
        return None
    if isinstance(value, int):
        return value
    text = str(value).strip()
    return int(text) if re.fullmatch(r"-?\d+", text) else text


def _chat(world: World, params: Params) -> ChatState:
    ref = chat_id_param(params)
    if ref is None or ref == "":
        raise bad_request("chat_id is empty")
    return world.chat(ref)


def _writable_chat(world: World, params: Params) -> ChatState:
    chat = _chat(world, params)
    world.check_writable(chat)
    return chat


def _reply_target(world: World, chat: ChatState, params: Params) -> SimMessage | None:
    reply = params.get_json("reply_parameters")
    allow = params.get_bool("allow_sending_without_reply")
    if isinstance(reply, dict):
        message_id = reply.get("message_id")
        allow = bool(reply.get("allow_sending_without_reply", allow))
        if reply.get("chat_id") is not None:
            chat = world.chat(reply["chat_id"])
    else:
        message_id = params.get_int("reply_to_message_id")
    if message_id is None:
        return None
    msg = chat.messages.get(int(message_id))
    if msg is None or msg.deleted:
        if allow:
            return None
        raise bad_request("message to be replied not found")
    return msg


def _thread(chat: ChatState, params: Params, reply_to: SimMessage | None) -> int | None:
    """The forum topic a new message goes to: ``message_thread_id``, else the topic of the
    message it replies to, else General (None). A topic that is not there is refused, as
    Telegram does."""
    thread = params.get_int("message_thread_id")
    if thread is None:
        return reply_to.thread_id if reply_to is not None else None
    if not chat.is_forum or thread not in chat.topics:
        raise bad_request("message thread not found")
    return thread


# -- identity, commands, polling, webhook ---------------------------------------------------


@api("getMe")
async def get_me(world: World, params: Params) -> JSON:
    return world.bot.get_me()


async def no_op(world: World, params: Params) -> bool:
    """close, logOut and the cosmetic set* methods: accepted, nothing to simulate."""
    return True


for _name in ("close", "logOut", *NO_OP_METHODS):
    api(_name)(no_op)


def _commands_key(params: Params) -> tuple[str, str]:
    scope = params.get_json("scope")
    if not isinstance(scope, dict):
        scope = {"type": "default"}
    key = ",".join(f"{k}={scope[k]}" for k in sorted(scope))
    return key, params.get_str("language_code") or ""


@api("setMyCommands")
async def set_my_commands(world: World, params: Params) -> bool:
    commands = params.get_json("commands")
    if not isinstance(commands, list):
        raise bad_request("commands is empty")
    clean: list[JSON] = []
    for item in commands:
        if not isinstance(item, dict):
            raise bad_request("BOT_COMMAND_INVALID")
        command, description = str(item.get("command", "")), str(item.get("description", ""))
        if not _COMMAND_RE.match(command) or not 1 <= len(description) <= 256:
            raise bad_request("BOT_COMMAND_INVALID")
        clean.append({"command": command, "description": description})
    if len(clean) > 100:
        raise bad_request("BOT_COMMANDS_TOO_MUCH")
    world.commands[_commands_key(params)] = clean
    return True


@api("getMyCommands")
async def get_my_commands(world: World, params: Params) -> list[JSON]:
    return list(world.commands.get(_commands_key(params), []))


@api("deleteMyCommands")
async def delete_my_commands(world: World, params: Params) -> bool:
    world.commands.pop(_commands_key(params), None)
    return True


def _description_method(kind: str, limit: int) -> None:
    """set/getMy(Short)Description: the text per language code ("" = the default)."""

    async def set_text(world: World, params: Params) -> bool:
        text = params.get_str(kind) or ""
        if len(text) > limit:
            raise bad_request(f"{kind.upper()}_INVALID")
        world.descriptions[(kind, params.get_str("language_code") or "")] = text
        return True

    async def get_text(world: World, params: Params) -> JSON:
        return {kind: world.descriptions.get((kind, params.get_str("language_code") or ""), "")}

    name = "".join(part.title() for part in kind.split("_"))
    api(f"setMy{name}")(set_text)
    api(f"getMy{name}")(get_text)


_description_method("description", 512)
_description_method("short_description", 120)


@api("getUpdates")
async def get_updates(world: World, params: Params) -> list[JSON]:
    if world.webhook.active:
        raise ApiError(409, WEBHOOK_ACTIVE)
    limit = params.get_int("limit") or 100
    updates = await world.updates.get(
        offset=params.get_int("offset"),
        limit=max(1, min(100, limit)),
        timeout=max(0.0, params.get_float("timeout") or 0.0),
        allowed_updates=params.get_json("allowed_updates"),
    )
    return [update.to_api() for update in updates]


@api("setWebhook")
async def set_webhook(world: World, params: Params) -> bool:
    url = params.get_str("url") or ""
    if not url:
        return await delete_webhook(world, params)
    if not re.match(r"^https?://\S+$", url):
        raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
    secret = params.get_str("secret_token")
    if secret and not _SECRET_RE.match(secret):
        raise bad_request("secret token contains unallowed characters")
    allowed_param = params.get_json("allowed_updates")
    if allowed_param is not None:
        world.updates.allowed = parse_allowed(allowed_param)
    backlog = world.updates.drain()
    if params.get_bool("drop_pending_updates"):
        backlog = []
    world.updates.terminate_polls()
    world.webhook.activate(
        url, secret or None, params.get_int("max_connections") or 40,
        world.updates.allowed, backlog,
    )
    return True


@api("deleteWebhook")
async def delete_webhook(world: World, params: Params) -> bool:
    drop = params.get_bool("drop_pending_updates")
    if world.webhook.active:
        left = await world.webhook.deactivate()
        if not drop:
            world.updates.requeue(left)
    if drop:
        world.updates.drain()
    return True


@api("getWebhookInfo")
async def get_webhook_info(world: World, params: Params) -> JSON:
    hook = world.webhook
    info: JSON = {
        "url": hook.url or "",
        "has_custom_certificate": False,
        "pending_update_count": (
            hook.pending_count if hook.active else world.updates.pending_count
        ),
    }
    if hook.active:
        info.update(max_connections=hook.max_connections, ip_address="127.0.0.1")
        if hook.allowed is not None:
            info["allowed_updates"] = sorted(hook.allowed)
    if hook.last_error_date is not None:
        info.update(
            last_error_date=hook.last_error_date, last_error_message=hook.last_error_message
        )
    return info


# -- sending and editing -------------------------------------------------------------------


@api("sendMessage")
async def send_message(world: World, params: Params) -> JSON:
    chat = _writable_chat(world, params)
    raw = params.get_str("text") or ""
    parse_mode = params.get_str("parse_mode")
    text, entities = render(raw, parse_mode, params.get_json("entities"))
    check_text(text)
    inline, other = parse_reply_markup(params.get_json("reply_markup"))
    reply_to = _reply_target(world, chat, params)
    thread = _thread(chat, params, reply_to)
    world.throttle("sendMessage", chat)
    msg = world.add_message(
        chat, world.bot, text=text, raw_text=raw, parse_mode=parse_mode, entities=entities,
        reply_markup=inline, other_markup=other, reply_to=reply_to, method="sendMessage",
        params=params.plain(), thread_id=thread,
    )
    return msg.to_api()


async def _send_media(world: World, params: Params, kind: str, method: str) -> JSON:
    chat = _writable_chat(world, params)
    upload = params.get_upload(kind)
    if upload is None or upload == "":
        raise bad_request(f"there is no {kind} in the request")
    raw = params.get_str("caption") or ""
    parse_mode = params.get_str("parse_mode")
    caption, entities = render(raw, parse_mode, params.get_json("caption_entities"))
    check_text(caption, caption=True)
    inline, other = parse_reply_markup(params.get_json("reply_markup"))
    reply_to = _reply_target(world, chat, params)
    thread = _thread(chat, params, reply_to)
    file = world.prepare_file(kind, upload, chat.id)
    world.throttle(method, chat)
    msg = world.add_message(
        chat, world.bot, kind=kind, text=caption, raw_text=raw, parse_mode=parse_mode,
        entities=entities, reply_markup=inline, other_markup=other, reply_to=reply_to,
        file=file, method=method, params=params.plain(), thread_id=thread,
    )
    return msg.to_api()


@api("sendPhoto")
async def send_photo(world: World, params: Params) -> JSON:
    return await _send_media(world, params, "photo", "sendPhoto")


@api("sendDocument")
async def send_document(world: World, params: Params) -> JSON:
    return await _send_media(world, params, "document", "sendDocument")


def _bot_message(world: World, params: Params) -> SimMessage:
    """The bot's message an edit call targets."""
    if params.has("inline_message_id") and not params.has("chat_id"):
        raise bad_request("MESSAGE_ID_INVALID")  # inline-mode messages are not simulated
    chat = _chat(world, params)
    msg = world.message(chat, params.require_int("message_id"), "message to edit not found")
    if not msg.from_bot:
        raise bad_request("message can't be edited")
    world.check_writable(chat)
    return msg


def _edit_markup(params: Params) -> JSON | None:
    inline, other = parse_reply_markup(params.get_json("reply_markup"))
    if other is not None:
        raise bad_request("inline keyboard expected")
    return inline


@api("editMessageText")
async def edit_message_text(world: World, params: Params) -> JSON:
    msg = _bot_message(world, params)
    if msg.kind != "text":
        raise bad_request("there is no text in the message to edit")
    raw = params.get_str("text") or ""
    text, entities = render(raw, params.get_str("parse_mode"), params.get_json("entities"))
    check_text(text)
    markup = _edit_markup(params)
    if text == msg.text and entities == msg.entities and markup == msg.reply_markup:
        raise ApiError(400, NOT_MODIFIED)
    world.throttle("editMessageText", msg.chat)
    world.edit_message(
        msg, text=text, raw_text=raw, entities=entities, reply_markup=markup,
        method="editMessageText",
    )
    return msg.to_api()


@api("editMessageCaption")
async def edit_message_caption(world: World, params: Params) -> JSON:
    msg = _bot_message(world, params)
    if msg.kind not in ("photo", "document"):
        raise bad_request("there is no caption in the message to edit")
    raw = params.get_str("caption") or ""
    text, entities = render(
        raw, params.get_str("parse_mode"), params.get_json("caption_entities")
    )
    check_text(text, caption=True)
    markup = _edit_markup(params)
    if text == msg.text and entities == msg.entities and markup == msg.reply_markup:
        raise ApiError(400, NOT_MODIFIED)
    world.throttle("editMessageCaption", msg.chat)
    world.edit_message(
        msg, text=text, raw_text=raw, entities=entities, reply_markup=markup,
        method="editMessageCaption",
    )
    return msg.to_api()


@api("editMessageReplyMarkup")
async def edit_message_reply_markup(world: World, params: Params) -> JSON:
    msg = _bot_message(world, params)
    markup = _edit_markup(params)
    if markup == msg.reply_markup:
        raise ApiError(400, NOT_MODIFIED)
    world.throttle("editMessageReplyMarkup", msg.chat)
    world.edit_message(
        msg, text=msg.text, raw_text=msg.raw_text, entities=msg.entities,
        reply_markup=markup, method="editMessageReplyMarkup",
    )
    return msg.to_api()


def _delete_one(world: World, chat: ChatState, message_id: int) -> None:
    msg = world.message(chat, message_id, "message to delete not found")
    if not msg.from_bot and chat.is_group and chat.bot_status != "administrator":
        raise bad_request("message can't be deleted")
    world.delete_message(msg)


@api("deleteMessage")
async def delete_message(world: World, params: Params) -> bool:
    chat = _chat(world, params)
    _delete_one(world, chat, params.require_int("message_id"))
    return True


@api("deleteMessages")
async def delete_messages(world: World, params: Params) -> bool:
    chat = _chat(world, params)
    ids = params.get_json("message_ids")
    if not isinstance(ids, list) or not ids:
        raise bad_request("message_ids is empty")
    for message_id in ids:
        msg = chat.messages.get(int(message_id))
        if msg is not None and not msg.deleted:
            _delete_one(world, chat, msg.message_id)
    return True


@api("pinChatMessage")
async def pin_chat_message(world: World, params: Params) -> bool:
    chat = _writable_chat(world, params)
    msg = world.message(chat, params.require_int("message_id"), "message to pin not found")
    if chat.is_group and chat.bot_status != "administrator":
        raise bad_request("not enough rights to manage pinned messages in the chat")
    chat.pinned = msg.message_id
    world.notifier.touch(chat.id)
    return True


@api("unpinChatMessage")
async def unpin_chat_message(world: World, params: Params) -> bool:
    chat = _writable_chat(world, params)
    chat.pinned = None
    world.notifier.touch(chat.id)
    return True


@api("answerCallbackQuery")
async def answer_callback_query(world: World, params: Params) -> bool:
    text = params.get_str("text")
    if text is not None and len(text) > 200:
        raise bad_request("MESSAGE_TOO_LONG")
    world.answer_callback(
        params.require_str("callback_query_id"),
        CallbackAnswer(
            text=text or None, show_alert=params.get_bool("show_alert"),
            url=params.get_str("url"), cache_time=params.get_int("cache_time") or 0,
        ),
    )
    return True


@api("sendChatAction")
async def send_chat_action(world: World, params: Params) -> bool:
    chat = _writable_chat(world, params)
    action = params.require_str("action")
    if action not in CHAT_ACTIONS:
        raise bad_request("wrong parameter action in request")
    chat.actions.append(action)
    chat.stats.actions += 1
    world.notifier.touch(chat.id)
    return True


# -- chats and members ---------------------------------------------------------------------


@api("getChat")
async def get_chat(world: World, params: Params) -> JSON:
    chat = _chat(world, params)
    if chat.user is not None and not chat.user.started:
        raise bad_request("chat not found")
    world.check_migrated(chat)
    return chat.full_info()


def _status(world: World, chat: ChatState, user_id: int) -> str:
    if user_id == world.bot.id:
        return chat.bot_status if chat.is_group else "member"
    if not chat.is_group:
        return "member" if user_id == chat.id else "left"
    return chat.members.get(user_id, "left")


@api("getChatMember")
async def get_chat_member(world: World, params: Params) -> JSON:
    chat = _chat(world, params)
    user_id = params.require_int("user_id")
    if user_id == world.bot.id:
        return member_api(world.bot.to_api(), _status(world, chat, user_id))
    user = world.users.get(user_id)
    if user is None:
        raise bad_request("user not found")
    return member_api(user.to_api(), _status(world, chat, user_id))


@api("getChatAdministrators")
async def get_chat_administrators(world: World, params: Params) -> list[JSON]:
    chat = _chat(world, params)
    if not chat.is_group:
        raise bad_request("there are no administrators in the private chat")
    admins = [
        member_api(world.users[uid].to_api(), status)
        for uid, status in chat.members.items()
        if status in ("creator", "administrator") and uid in world.users
    ]
    if chat.bot_status == "administrator":
        admins.append(member_api(world.bot.to_api(), "administrator"))
    return admins


@api("getChatMemberCount")
async def get_chat_member_count(world: World, params: Params) -> int:
    chat = _chat(world, params)
    if not chat.is_group:
        return 2
    present = ("creator", "administrator", "member")
    bot = 1 if chat.bot_status in present else 0
    return sum(1 for status in chat.members.values() if status in present) + bot


@api("getFile")
async def get_file(world: World, params: Params) -> JSON:
    file = world.files_by_id.get(params.require_str("file_id"))
    if file is None:
        raise bad_request("invalid file_id")
    return {
        "file_id": file.file_id, "file_unique_id": file.file_unique_id,
        "file_size": file.size, "file_path": file.file_path(),
    }
