"""The outbox when Telegram fails: 5xx answers, calls that time out, refused connections and
lost answers. Whatever the fault, the newest state of every message arrives once Telegram is
back, without a restart; a new message whose answer was lost does not appear twice; and a
final error drops the message with a log line (reported delivered, so no start retries it)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from telegram import Bot
from telegram.request import HTTPXRequest

from bot.telegram.outbox import Content, Outbox
from storage.outbox import Delivered
from tests.bot.harness import TOKEN
from tests.fakebot import FakeTelegramServer, SimChat, SimUser

TIMEOUT = 1.0
"""The bot's read timeout here (PTB's default is 5 s)."""


@pytest.fixture
async def bot(server: FakeTelegramServer) -> AsyncIterator[Bot]:
    request = HTTPXRequest(read_timeout=TIMEOUT, write_timeout=TIMEOUT, connect_timeout=TIMEOUT)
    async with Bot(
        TOKEN, base_url=server.base_url, base_file_url=server.base_file_url, request=request
    ) as b:
        yield b


@pytest.fixture
async def ann(server: FakeTelegramServer) -> SimUser:
    user = server.user(201, "Ann")
    await user.start_bot()
    return user


@pytest.fixture
def group(server: FakeTelegramServer, ann: SimUser) -> SimChat:
    return server.group(title="Cards", members=[ann])


def _outbox(bot: Bot, marks: list[Delivered] | None = None) -> Outbox:
    return Outbox(bot, group_rate=1000, on_delivered=None if marks is None else marks.append)


async def _changing_while(outbox: Outbox, chat: SimChat, seconds: float) -> int:
    """Show a new table state every 0.2 s for ``seconds``; the last state's number."""
    n = 0
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while loop.time() < end:
        n += 1
        outbox.show(chat.id, "table", Content(f"state {n}"), version=n)
        await asyncio.sleep(0.2)
    return n


@pytest.mark.parametrize("fault", ["fail", "hang", "refuse", "lose"])
async def test_the_newest_state_arrives_after_a_fault(
    server: FakeTelegramServer, bot: Bot, group: SimChat, fault: str
) -> None:
    marks: list[Delivered] = []
    outbox = _outbox(bot, marks)
    outbox.show(group.id, "table", Content("before"), version=0)
    await outbox.idle()
    seconds = 3.0
    if fault == "refuse":
        server.faults.refuse(seconds)
    else:
        getattr(server.faults, fault)(seconds=seconds)
    outbox.post(group.id, Content("news"), key="post:1", version=1)
    last = await _changing_while(outbox, group, seconds)
    loop = asyncio.get_running_loop()
    back = loop.time()
    await asyncio.wait_for(outbox.idle(), 15)
    assert loop.time() - back < 10
    assert server.faults.hit, "the fault met no call"
    assert [m.text for m in group.messages(from_bot=True)] == [f"state {last}", "news"]
    assert Delivered(group.id, "table", last) in marks
    assert Delivered(group.id, "post:1", 1, done=True) in marks
    await outbox.close()


async def test_a_new_message_whose_answer_was_lost_is_not_sent_twice(
    server: FakeTelegramServer, bot: Bot, group: SimChat, ann: SimUser
) -> None:
    outbox = _outbox(bot)
    sent: list[int] = []

    async def remember(message_id: int) -> None:
        sent.append(message_id)

    outbox.show(group.id, "table", Content("table"), on_sent=remember)
    await outbox.idle()
    await ann.send(group, "someone talks in between")
    server.faults.lose(calls=1, methods=["sendMessage"])
    outbox.post(group.id, Content("deal result"))
    await outbox.idle()
    assert ("lose", "sendMessage") in server.faults.hit
    assert [m.text for m in group.messages(from_bot=True)] == ["table", "deal result"]
    # A hand sent for the first time, its answer lost, then changed: one message, newest.
    # The bot knows an id of the chat from an update (the user's /start).
    (start,) = ann.chat.messages(from_bot=False)
    outbox.saw(ann.id, start.message_id)
    server.faults.lose(calls=1, methods=["sendMessage"])
    outbox.show(ann.id, "hand", Content("cards"), on_sent=remember)
    await asyncio.sleep(0.05)
    outbox.show(ann.id, "hand", Content("cards, newer"), on_sent=remember)
    await outbox.idle()
    assert [m.text for m in ann.chat.messages(from_bot=True)] == ["cards, newer"]


async def test_a_final_error_drops_the_message_and_reports_it(
    server: FakeTelegramServer, bot: Bot, group: SimChat
) -> None:
    marks: list[Delivered] = []
    outbox = _outbox(bot, marks)
    server.faults.fail(calls=1, status=400, methods=["sendMessage"])
    outbox.post(group.id, Content("refused for good"), key="post:9", version=3)
    outbox.post(group.id, Content("next"))
    await outbox.idle()
    assert [m.text for m in group.messages(from_bot=True)] == ["next"]
    assert marks == [Delivered(group.id, "post:9", 3, done=True)]
