"""Tests of the fake Telegram Bot API server, over plain HTTP and with python-telegram-bot."""

from __future__ import annotations

import asyncio
import socket
import struct
import time
import zlib
from collections.abc import AsyncIterator, Callable, Coroutine
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from telegram import (
    Bot,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputFile,
    Message,
    ReplyParameters,
    Update,
)
from telegram.error import BadRequest, Conflict, Forbidden, RetryAfter
from telegram.ext import Application, CallbackQueryHandler, CommandHandler, ContextTypes

from tests.fakebot import (
    SECRET_HEADER,
    ButtonNotFound,
    FakeTelegramServer,
    RateLimits,
    SimChat,
    SimUser,
)

TOKEN = "123456:TEST-token"
JSON = dict[str, Any]
Call = Callable[..., Coroutine[Any, Any, tuple[int, JSON]]]


class FakeClock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegramServer]:
    async with FakeTelegramServer() as srv:
        yield srv
        assert srv.internal_errors == []


@pytest.fixture
async def bot(server: FakeTelegramServer) -> AsyncIterator[Bot]:
    async with Bot(TOKEN, base_url=server.base_url, base_file_url=server.base_file_url) as b:
        yield b


@pytest.fixture
async def call(server: FakeTelegramServer) -> AsyncIterator[Call]:
    """Plain-HTTP Bot API calls with a JSON body; returns (HTTP status, body)."""
    async with aiohttp.ClientSession() as session:

        async def do(method: str, **params: Any) -> tuple[int, JSON]:
            async with session.post(server.api_url(TOKEN, method), json=params) as resp:
                return resp.status, await resp.json()

        yield do


def keyboard(*rows: list[tuple[str, str]]) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(text, callback_data=data) for text, data in row] for row in rows]
    )


def png(width: int, height: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"".join(b"\x00" + b"\x00\x00\x00" * width for _ in range(height))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw))
            + chunk(b"IEND", b""))


# -- plain HTTP ------------------------------------------------------------------------------


async def test_http_shapes_get_me_unknown_method_and_tokens(
    server: FakeTelegramServer, call: Call
) -> None:
    status, body = await call("getMe")
    assert status == 200 and body["ok"] is True
    assert body["result"]["username"] == "tysyacha_test_bot" and body["result"]["is_bot"]
    status, body = await call("getme")  # method names are case-insensitive
    assert status == 200
    assert await call("sendCarrierPigeon") == (
        404, {"ok": False, "error_code": 404, "description": "Not Found"}
    )
    assert server.tokens == {TOKEN}
    assert server.call_counts["getMe"] == 1 and server.call_counts["sendCarrierPigeon"] == 1
    async with (  # GET with a query string works too
        aiohttp.ClientSession() as session,
        session.get(server.api_url("other:tok", "getMe")) as resp,
    ):
        assert resp.status == 200
    assert server.tokens == {TOKEN, "other:tok"}


async def test_http_send_edit_answer_round_trip(server: FakeTelegramServer, call: Call) -> None:
    alice = server.user(11, "Alice", "alice")
    await alice.start_bot()
    markup = {"inline_keyboard": [[{"text": "Bid 100", "callback_data": "bid:100"}]]}
    status, body = await call(
        "sendMessage", chat_id=alice.id, text="Your turn", reply_markup=markup
    )
    assert status == 200
    sent = body["result"]
    assert sent["chat"] == {"id": 11, "type": "private", "first_name": "Alice",
                            "username": "alice"}
    assert sent["from"]["id"] == server.bot.id and isinstance(sent["date"], int)
    assert sent["reply_markup"] == markup and sent["message_id"] == 2  # 1 is "/start"

    press = await alice.press(server.last_message(alice), "Bid 100")  # type: ignore[arg-type]
    status, body = await call("getUpdates", offset=0, timeout=0)
    query = body["result"][-1]["callback_query"]
    assert query["data"] == "bid:100" and query["from"]["id"] == 11
    assert query["message"]["reply_markup"] == markup and query["chat_instance"]
    assert (await call("answerCallbackQuery", callback_query_id=query["id"], text="OK"))[0] == 200
    assert (await press.answer()).text == "OK"
    status, body = await call("answerCallbackQuery", callback_query_id=query["id"])
    assert status == 400 and "query is too old" in body["description"]

    status, body = await call("editMessageText", chat_id=11, message_id=2, text="Bid placed")
    assert status == 200 and "reply_markup" not in body["result"]  # no markup = keyboard gone
    assert body["result"]["edit_date"] >= sent["date"]
    status, body = await call("editMessageText", chat_id=11, message_id=2, text="Bid placed")
    assert (status, body["description"].split(":")[0]) == (400, "Bad Request")
    assert "message is not modified" in body["description"]
    status, body = await call("editMessageText", chat_id=11, message_id=99, text="x")
    assert (status, body["description"]) == (400, "Bad Request: message to edit not found")
    assert (await call("deleteMessage", chat_id=11, message_id=2))[0] == 200
    status, body = await call("deleteMessage", chat_id=11, message_id=2)
    assert body["description"] == "Bad Request: message to delete not found"
    msg = server.message(alice, 2)
    assert msg.deleted and msg.history == ["Your turn", "Bid placed"]
    assert server.chat_stats(alice).sends == 1 and server.chat_stats(alice).edits == 1


async def test_http_429_body_shape_and_storm(server: FakeTelegramServer, call: Call) -> None:
    alice = server.user(12, "Alice")
    await alice.start_bot()
    server.inject_429(calls=2, retry_after=7)
    for _ in range(2):
        status, body = await call("sendMessage", chat_id=alice.id, text="hi")
        assert status == 429
        assert body == {
            "ok": False, "error_code": 429, "description": "Too Many Requests: retry after 7",
            "parameters": {"retry_after": 7},
        }
    assert (await call("getUpdates", timeout=0))[0] == 200  # polling is spared by default
    assert (await call("sendMessage", chat_id=alice.id, text="hi"))[0] == 200
    assert [(s.reason, s.retry_after) for s in server.served_429] == [("storm", 7)] * 2


async def test_storm_for_seconds_and_selected_methods() -> None:
    clock = FakeClock()
    async with (
        FakeTelegramServer(clock=clock) as server,
        Bot(TOKEN, base_url=server.base_url) as bot,
    ):
        alice = server.user(13, "Alice")
        await alice.start_bot()
        server.inject_429(seconds=30, retry_after=3, methods=["sendMessage"])
        await bot.send_chat_action(alice.id, "typing")  # not in the storm
        with pytest.raises(RetryAfter):
            await bot.send_message(alice.id, "a")
        clock.now += 31
        await bot.send_message(alice.id, "b")
    assert server.chat_actions(alice) == ["typing"]
    assert [s.method for s in server.served_429] == ["sendMessage"]


async def test_get_updates_offsets_limit_and_allowed_updates(
    server: FakeTelegramServer, call: Call
) -> None:
    alice, bob = server.user(21, "Alice"), server.user(22, "Bob")
    group = server.group(title="Table", members=[alice])
    await group.add(bob)  # chat_member (not delivered by default) + new_chat_members message
    for i in range(3):
        await alice.send(group, f"msg {i}")
    _, body = await call("getUpdates", timeout=0)
    kinds = [next(k for k in u if k != "update_id") for u in body["result"]]
    assert kinds == ["message"] * 4
    assert body["result"][0]["message"]["new_chat_members"][0]["id"] == bob.id
    ids = [u["update_id"] for u in body["result"]]
    assert ids == sorted(ids) and len(set(ids)) == 4
    _, body = await call("getUpdates", offset=ids[1] + 1, limit=1)
    assert [u["update_id"] for u in body["result"]] == [ids[2]]
    _, body = await call("getUpdates", offset=-1)
    assert [u["update_id"] for u in body["result"]] == [ids[3]]
    await group.remove(bob)
    _, body = await call("getUpdates", offset=ids[3] + 1, allowed_updates=["chat_member"])
    assert [u["chat_member"]["new_chat_member"]["status"] for u in body["result"]] == ["left"]


async def test_newer_get_updates_releases_older_poll(
    server: FakeTelegramServer, call: Call
) -> None:
    first = asyncio.create_task(call("getUpdates", timeout=5))
    await server.wait_for(lambda: server.polls_waiting == 1, timeout=2)
    assert (await call("getUpdates", timeout=0))[0] == 200
    assert await asyncio.wait_for(first, 1) == (200, {"ok": True, "result": []})


async def test_parallel_polls_conflict_when_asked() -> None:
    async with (
        FakeTelegramServer(conflict_on_parallel_polls=True) as server,
        aiohttp.ClientSession() as session,
    ):
        url = server.api_url(TOKEN, "getUpdates")

        async def poll(timeout: int) -> tuple[int, JSON]:
            async with session.post(url, json={"timeout": timeout}) as resp:
                return resp.status, await resp.json()

        first = asyncio.create_task(poll(5))
        await server.wait_for(lambda: server.polls_waiting == 1, timeout=2)
        assert (await poll(0))[0] == 200
        status, body = await first
        assert status == 409 and "terminated by other getUpdates request" in body["description"]


# -- python-telegram-bot ---------------------------------------------------------------------


async def test_ptb_builds_urls_from_base_url(server: FakeTelegramServer, bot: Bot) -> None:
    assert bot.base_url == f"{server.root}/bot{TOKEN}"
    me = await bot.get_me()
    assert me.username == "tysyacha_test_bot" and me.id == server.bot.id


async def test_ptb_send_edit_answer_round_trip(server: FakeTelegramServer, bot: Bot) -> None:
    alice = server.user(31, "Alice")
    await alice.start_bot()
    group = server.group(-100500, "Table", members=[alice])
    sent = await bot.send_message(
        group.id, "<b>Game</b> &amp; <i>bids</i>", parse_mode="HTML",
        reply_markup=keyboard([("Join", "join"), ("Leave", "leave")]),
    )
    assert sent.text == "Game & bids"
    assert [(e.type, e.offset, e.length) for e in sent.entities] == [
        ("bold", 0, 4), ("italic", 7, 4)
    ]
    msg = server.last_message(group)
    assert msg is not None and msg.raw_text.startswith("<b>")
    assert msg.button_texts() == ["Join", "Leave"]

    press = await alice.press(msg, "Join")
    updates = await bot.get_updates(timeout=1)
    query = updates[-1].callback_query
    assert query is not None and query.data == "join" and query.from_user.id == alice.id
    assert query.message is not None and query.message.message_id == sent.message_id
    await bot.answer_callback_query(query.id, text="Welcome!", show_alert=True)
    answer = await press.answer()
    assert (answer.text, answer.show_alert) == ("Welcome!", True)
    with pytest.raises(BadRequest, match=r"(?i)query is too old"):
        await bot.answer_callback_query(query.id, text="again")

    await bot.edit_message_text(
        "Alice joined", chat_id=group.id, message_id=sent.message_id,
        reply_markup=keyboard([("Leave", "leave")]),
    )
    assert msg.text == "Alice joined" and msg.button_texts() == ["Leave"]
    with pytest.raises(BadRequest, match=r"(?i)message is not modified"):
        await bot.edit_message_text(
            "Alice joined", chat_id=group.id, message_id=sent.message_id,
            reply_markup=keyboard([("Leave", "leave")]),
        )
    await bot.edit_message_reply_markup(group.id, sent.message_id, reply_markup=None)
    with pytest.raises(BadRequest, match=r"(?i)message is not modified"):
        await bot.edit_message_reply_markup(group.id, sent.message_id, reply_markup=None)
    with pytest.raises(ButtonNotFound, match="Leave"):
        await alice.press(msg, "Leave")
    assert msg.history == ["Game & bids", "Alice joined", "Alice joined"]
    assert server.texts_shown(group) == ["Game & bids", "Alice joined"]
    stats = server.chat_stats(group)
    assert (stats.sends, stats.edits) == (1, 2)

    reply = await bot.send_message(
        group.id, "Reply", reply_parameters=ReplyParameters(sent.message_id)
    )
    assert reply.reply_to_message is not None
    assert reply.reply_to_message.message_id == sent.message_id
    with pytest.raises(BadRequest, match=r"(?i)message to be replied not found"):
        await bot.send_message(group.id, "x", reply_parameters=ReplyParameters(999))


async def test_forbidden_until_user_starts_the_bot(server: FakeTelegramServer, bot: Bot) -> None:
    carol = server.user(41, "Carol")
    with pytest.raises(Forbidden, match="bot can't initiate conversation with a user"):
        await bot.send_message(carol.id, "Your cards")
    with pytest.raises(BadRequest, match=r"(?i)chat not found"):
        await bot.send_message(424242, "nobody")
    start = await carol.start_bot("join_-100777")
    assert start.text == "/start join_-100777"
    assert start.entities == [{"type": "bot_command", "offset": 0, "length": 6}]
    await bot.send_message(carol.id, "Your cards")
    assert server.last_message(carol).text == "Your cards"  # type: ignore[union-attr]
    await carol.block_bot()
    with pytest.raises(Forbidden, match="blocked by the user"):
        await bot.send_message(carol.id, "still there?")
    kinds = [u.kind for u in server.updates_emitted]
    assert kinds == ["message", "my_chat_member"]


async def test_callback_data_and_text_limits(server: FakeTelegramServer, bot: Bot) -> None:
    dave = server.user(51, "Dave")
    await dave.start_bot()
    ok_data = "й" * 32  # 64 bytes in UTF-8
    await bot.send_message(dave.id, "ok", reply_markup=keyboard([("A", ok_data)]))
    with pytest.raises(BadRequest, match=r"(?i)button_data_invalid"):
        await bot.send_message(dave.id, "no", reply_markup=keyboard([("A", ok_data + "x")]))
    await bot.send_message(dave.id, "x" * 4096)
    with pytest.raises(BadRequest, match=r"(?i)message is too long"):
        await bot.send_message(dave.id, "x" * 4097)
    await bot.send_message(dave.id, "<b>" + "&lt;" * 4096 + "</b>", parse_mode="HTML")
    with pytest.raises(BadRequest, match=r"(?i)message is too long"):
        await bot.send_message(dave.id, "<b>" + "y" * 4097 + "</b>", parse_mode="HTML")
    for bad in ("<b>unclosed", "1 < 2", "<b><i>x</b></i>", "<blink>x</blink>"):
        with pytest.raises(BadRequest, match=r"(?i)can't parse entities"):
            await bot.send_message(dave.id, bad, parse_mode="HTML")
    await bot.send_message(dave.id, "1 < 2")  # plain text needs no escaping
    with pytest.raises(BadRequest, match=r"(?i)message text is empty"):
        await bot.send_message(dave.id, "<b></b>", parse_mode="HTML")
    msg = await bot.send_message(dave.id, "😀 <u>bold</u>", parse_mode="HTML")
    assert [(e.offset, e.length) for e in msg.entities] == [(3, 4)]  # UTF-16 offsets


async def test_group_limit_counts_sends_and_edits() -> None:
    clock = FakeClock()
    async with (
        FakeTelegramServer(clock=clock) as server,
        Bot(TOKEN, base_url=server.base_url) as bot,
    ):
        group = server.group(title="Busy table")
        first = await bot.send_message(group.id, "m0")
        for i in range(1, 10):
            await bot.send_message(group.id, f"m{i}")
        for i in range(10):
            await bot.edit_message_text(f"e{i}", chat_id=group.id,
                                        message_id=first.message_id)
        clock.now += 10
        with pytest.raises(RetryAfter) as caught:
            await bot.send_message(group.id, "one too many")
        assert "Retry in 50 seconds" in caught.value.message
        other = server.group(title="Quiet table")  # other groups are not affected
        await bot.send_message(other.id, "fine")
        clock.now += 50
        await bot.send_message(group.id, "window moved on")
    stats = server.chat_stats(group)
    assert (stats.sends, stats.edits, stats.rejected_429) == (11, 10, 1)
    assert [(s.reason, s.chat_id, s.retry_after) for s in server.served_429] == [
        ("group", group.id, 50)
    ]


async def test_global_limit_and_switching_limits_off() -> None:
    clock = FakeClock()
    async with (
        FakeTelegramServer(clock=clock, limits=RateLimits(global_messages=5)) as server,
        Bot(TOKEN, base_url=server.base_url) as bot,
    ):
        users = [server.user(60 + i, f"U{i}") for i in range(6)]
        for user in users:
            await user.start_bot()
        for user in users[:5]:
            await bot.send_message(user.id, "hi")
        with pytest.raises(RetryAfter):
            await bot.send_message(users[5].id, "hi")
        server.limits.enabled = False
        for _ in range(30):
            await bot.send_message(users[5].id, "unlimited")
    assert [s.reason for s in server.served_429] == ["global"]


async def test_long_polling_returns_promptly_with_pressed_button(
    server: FakeTelegramServer, bot: Bot
) -> None:
    erin = server.user(71, "Erin")
    await erin.start_bot()
    sent = await bot.send_message(erin.id, "Pick", reply_markup=keyboard([("7♠", "card:7S")]))
    offset = (await bot.get_updates(timeout=0))[-1].update_id + 1
    started = time.monotonic()
    poll = asyncio.create_task(bot.get_updates(offset=offset, timeout=10))
    await server.wait_for(lambda: server.polls_waiting == 1, timeout=2)
    await erin.press(server.message(erin, sent.message_id), "7♠")
    updates = await asyncio.wait_for(poll, timeout=3)
    assert time.monotonic() - started < 2
    query = updates[0].callback_query
    assert query is not None and query.data == "card:7S"
    assert isinstance(query.message, Message) and query.message.reply_markup is not None
    forged = await erin.press_data(erin, 999, "card:AS")  # no such message: inaccessible
    updates = await bot.get_updates(offset=updates[-1].update_id + 1, timeout=1)
    assert updates[0].callback_query is not None
    assert updates[0].callback_query.data == forged.data == "card:AS"
    assert updates[0].callback_query.message is not None
    assert updates[0].callback_query.message.date.timestamp() == 0


async def test_files_are_kept_with_bytes_and_names(server: FakeTelegramServer, bot: Bot) -> None:
    frank = server.user(81, "Frank")
    await frank.start_bot()
    image = png(3, 2)
    photo = await bot.send_photo(frank.id, InputFile(image, filename="score.png"),
                                 caption="<b>Score</b>", parse_mode="HTML")
    assert photo.caption == "Score" and photo.photo[-1].width == 3
    csv = b"player,score\nAlice,1000\n"
    doc = await bot.send_document(frank.id, csv, filename="scores.csv")
    assert doc.document is not None and doc.document.file_name == "scores.csv"
    png_file, csv_file = server.files
    assert (png_file.data, png_file.filename, png_file.kind) == (image, "score.png", "photo")
    assert (csv_file.data, csv_file.filename, csv_file.content_type) == (
        csv, "scores.csv", "text/csv"
    )
    assert server.message(frank, doc.message_id).file is csv_file
    downloaded = await (await bot.get_file(doc.document.file_id)).download_as_bytearray()
    assert bytes(downloaded) == csv
    with pytest.raises(BadRequest, match=r"(?i)caption is too long"):
        await bot.send_photo(frank.id, image, caption="c" * 1025)


async def test_groups_members_and_admins(server: FakeTelegramServer, bot: Bot) -> None:
    alice, bob, carol = server.user(91, "Alice"), server.user(92, "Bob"), server.user(93, "Carol")
    group = server.group(-100900, "Friday game", members=[bob], creator=alice)
    chat = await bot.get_chat(group.id)
    assert (chat.type, chat.title) == ("supergroup", "Friday game")
    assert (await bot.get_chat_member(group.id, alice.id)).status == "creator"
    assert (await bot.get_chat_member(group.id, carol.id)).status == "left"
    await group.add(carol, admin=True)
    admins = await bot.get_chat_administrators(group.id)
    assert sorted(a.user.id for a in admins) == [alice.id, carol.id]
    await group.remove(carol)
    assert (await bot.get_chat_member(group.id, carol.id)).status == "left"
    assert (await bot.get_chat_member(group.id, server.bot.id)).status == "member"
    updates = await bot.get_updates(timeout=0)
    messages = [u.message for u in updates if u.message]
    assert messages[0].new_chat_members[0].id == carol.id
    assert messages[1].left_chat_member is not None and messages[1].left_chat_member.id == carol.id
    with pytest.raises(AssertionError, match="not a member"):
        await carol.send(group, "hi")
    await group.set_bot_status("kicked")
    with pytest.raises(Forbidden, match="kicked"):
        await bot.send_message(group.id, "hello?")


async def test_forum_topics_carry_their_thread(server: FakeTelegramServer, bot: Bot) -> None:
    alice, bob = server.user(95, "Alice"), server.user(96, "Bob")
    forum = server.group(title="Forum", members=[alice, bob], forum=True)
    plain_group = server.group(title="Plain", members=[alice])
    topic = await forum.create_topic(alice, "Тысяча")
    asked = await bob.send(forum, "/new", topic=topic)
    general = await bob.send(forum, "/score")
    updates = await bot.get_updates(timeout=0)
    created, in_topic, in_general = (u.message for u in updates)
    assert created is not None and created.forum_topic_created is not None
    assert created.message_thread_id == topic and created.chat.is_forum
    assert in_topic is not None and (in_topic.message_thread_id, in_topic.is_topic_message) == (
        topic, True
    )
    # As Telegram does: a message in a topic replies to the topic's creation message.
    assert in_topic.reply_to_message is not None
    assert in_topic.reply_to_message.message_id == topic
    assert in_general is not None and in_general.message_thread_id is None
    sent = await bot.send_message(forum.id, "table", message_thread_id=topic)
    assert sent.message_thread_id == topic
    answer = await bot.send_message(
        forum.id, "answer", reply_parameters=ReplyParameters(asked.message_id)
    )
    assert answer.message_thread_id == topic  # a reply goes to the topic of what it answers
    await bot.send_message(forum.id, "to General")
    assert [m.text for m in forum.topic_messages(topic)] == ["table", "answer"]
    assert [m.text for m in forum.topic_messages(None)] == ["to General"]
    assert general.thread_id is None
    with pytest.raises(BadRequest, match="thread not found"):
        await bot.send_message(forum.id, "x", message_thread_id=topic + 100)
    with pytest.raises(BadRequest, match="thread not found"):
        await bot.send_message(plain_group.id, "x", message_thread_id=topic)


async def test_user_commands_replies_and_deep_links(
    server: FakeTelegramServer, bot: Bot
) -> None:
    alice = server.user(101, "Alice")
    group = server.group(title="T", members=[alice])
    cmd = await alice.send(group, "/new@tysyacha_test_bot 1000")
    assert cmd.entities == [{"type": "bot_command", "offset": 0, "length": 22}]
    sent = await bot.send_message(group.id, "Game created")
    answer = await alice.reply(group, sent.message_id, "ok")
    start = await alice.open_link(server.deep_link("join_-100901"))
    assert start.text == "/start join_-100901" and alice.started
    with pytest.raises(AssertionError, match="not for"):
        await alice.open_link("https://t.me/some_other_bot?start=x")
    updates = await bot.get_updates(timeout=0)
    texts = [u.message.text for u in updates if u.message]
    assert texts == ["/new@tysyacha_test_bot 1000", "ok", "/start join_-100901"]
    replied = updates[1].message
    assert replied is not None and replied.reply_to_message is not None
    assert replied.reply_to_message.message_id == sent.message_id
    assert answer.reply_to is server.message(group, sent.message_id)


async def test_commands_set_get_delete(server: FakeTelegramServer, bot: Bot) -> None:
    await bot.set_my_commands([("new", "Новая игра"), ("help", "Помощь")])
    assert [c.command for c in await bot.get_my_commands()] == ["new", "help"]
    assert server.commands()[0] == {"command": "new", "description": "Новая игра"}
    await bot.delete_my_commands()
    assert await bot.get_my_commands() == ()
    with pytest.raises(BadRequest):
        await bot.set_my_commands([("Bad Command", "x")])


async def test_waits_fail_with_the_recent_texts(server: FakeTelegramServer, bot: Bot) -> None:
    group = server.group(title="T")
    await bot.send_message(group.id, "Alice bids 120")
    with pytest.raises(AssertionError) as caught:
        await server.wait_for_message(group, contains="Bob bids", timeout=0.05)
    assert "Alice bids 120" in str(caught.value) and "timed out" in str(caught.value)
    found = await server.wait_for_message(group, contains="Alice")
    assert found.text == "Alice bids 120"


async def test_webhook_delivery_with_secret_token(server: FakeTelegramServer, bot: Bot) -> None:
    received: list[JSON] = []

    async def hook(request: web.Request) -> web.Response:
        if request.headers.get(SECRET_HEADER) != "s3cret":
            return web.Response(status=403)
        received.append(await request.json())
        return web.Response()

    app = web.Application()
    app.router.add_post("/hook", hook)
    runner = web.AppRunner(app)
    await runner.setup()
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    await web.SockSite(runner, sock).start()
    try:
        gina = server.user(111, "Gina")
        await gina.start_bot()  # queued before the webhook: delivered once it is set
        url = f"http://127.0.0.1:{sock.getsockname()[1]}/hook"
        await bot.set_webhook(url, secret_token="s3cret")
        await gina.send(gina, "hello")
        await server.wait_for(lambda: len(received) == 2, timeout=5)
        assert [u["message"]["text"] for u in received] == ["/start", "hello"]
        info = await bot.get_webhook_info()
        assert (info.url, info.pending_update_count) == (url, 0)
        with pytest.raises(Conflict):
            await bot.get_updates(timeout=0)
        assert await server.post_to_webhook(secret_token="wrong") == 403
        assert await server.post_to_webhook(secret_token=None) == 403
        await bot.delete_webhook()
        await gina.send(gina, "polling again")
        updates = await bot.get_updates(timeout=0)
        assert [u.message.text for u in updates if u.message] == ["polling again"]
    finally:
        await runner.cleanup()


# -- a real python-telegram-bot Application ------------------------------------------------


async def test_ptb_application_polling_end_to_end(server: FakeTelegramServer) -> None:
    async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_message is not None
        await update.effective_message.reply_text(
            f"Hi! args={context.args}", reply_markup=keyboard([("Join", "join")])
        )

    async def pressed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        assert query is not None and query.from_user is not None
        await query.answer("Joined!")
        await query.edit_message_text(f"{query.from_user.first_name} joined")

    app = Application.builder().token(TOKEN).base_url(server.base_url).build()
    app.add_handler(CommandHandler("start", start))
    app.add_handler(CallbackQueryHandler(pressed))
    hana = server.user(121, "Hana")
    async with app:
        await app.start()
        assert app.updater is not None
        await app.updater.start_polling(poll_interval=0.0, timeout=5)
        try:
            cmd = await hana.start_bot("g42")
            menu = await server.wait_for_message(hana, after=cmd)
            assert menu.text == "Hi! args=['g42']"
            press = await hana.press(menu, "Join")
            assert (await press.answer()).text == "Joined!"
            await server.wait_for_edit(menu, contains="Hana joined")
            assert server.callback_answers[0][0] == "join"
            assert menu.reply_markup is None
            await server.settle()
        finally:
            await app.updater.stop()
            await app.stop()
    assert server.errors == []
    assert server.call_counts["getMe"] == 1


async def test_ptb_application_webhook_end_to_end(server: FakeTelegramServer) -> None:
    async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_message is not None
        await update.effective_message.reply_text("hello via webhook")

    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    app = Application.builder().token(TOKEN).base_url(server.base_url).build()
    app.add_handler(CommandHandler("start", start))
    ivan = server.user(141, "Ivan")
    async with app:
        await app.start()
        assert app.updater is not None
        await app.updater.start_webhook(
            listen="127.0.0.1", port=port, url_path="hook",
            webhook_url=f"http://127.0.0.1:{port}/hook", secret_token="s3cret",
        )
        try:
            assert (server.webhook_url, server.webhook_secret) == (
                f"http://127.0.0.1:{port}/hook", "s3cret"
            )
            cmd = await ivan.start_bot()
            reply = await server.wait_for_message(ivan, after=cmd)
            assert reply.text == "hello via webhook"
            assert await server.post_to_webhook(secret_token="wrong") == 403
        finally:
            await app.updater.stop()
            await app.stop()
    assert server.errors == [] and server.pending_updates == 0


async def test_sim_objects_compare_by_id(server: FakeTelegramServer) -> None:
    alice = server.user(131, "Alice")
    assert server.user(131, "ignored") is alice
    group = server.group(title="G")
    assert server.chat(group.id) == group and isinstance(server.chat(alice), SimChat)
    assert isinstance(alice, SimUser) and alice.chat == server.chat(alice.id)
