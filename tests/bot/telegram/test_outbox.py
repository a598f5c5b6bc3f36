"""The outbox against the fake Bot API: coalescing, pacing under a group's limit, 429s waited
out with the latest state delivered, "not modified", deleted messages, and 403s; a state
older than one shown, relayed late by another process of the database, is dropped; a
follower's files go through the relay to the leader, which sends them."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from telegram import Bot

from bot.telegram.outbox import Content, Outbox
from bot.telegram.relay import RelayWriter, SharedOutbox, replay, send_file
from bot.telegram.uploads import Upload, send
from storage import Store
from tests.bot.harness import TOKEN
from tests.fakebot import FakeTelegramServer, SimChat, SimUser


@pytest.fixture
async def bot(server: FakeTelegramServer) -> AsyncIterator[Bot]:
    async with Bot(TOKEN, base_url=server.base_url, base_file_url=server.base_file_url) as b:
        yield b


@pytest.fixture
async def ann(server: FakeTelegramServer) -> SimUser:
    user = server.user(201, "Ann")
    await user.start_bot()
    return user


@pytest.fixture
def group(server: FakeTelegramServer, ann: SimUser) -> SimChat:
    return server.group(title="Cards", members=[ann])


async def test_edits_coalesce_and_the_latest_wins(
    server: FakeTelegramServer, bot: Bot, group: SimChat
) -> None:
    sent: list[int] = []

    async def remember(message_id: int) -> None:
        sent.append(message_id)

    outbox = Outbox(bot, group_rate=1000)
    for n in range(30):
        outbox.show(group.id, "table", Content(f"state {n}"), on_sent=remember)
    await outbox.idle()
    [message] = group.messages(from_bot=True)
    assert message.text == "state 29" and sent == [message.message_id]
    assert message.edits <= 1
    outbox.show(group.id, "table", Content("state 29"))  # unchanged: nothing to send
    await outbox.idle()
    assert message.edits <= 1


async def test_a_group_is_paced_under_its_limit(
    server: FakeTelegramServer, bot: Bot, group: SimChat
) -> None:
    server.limits.enabled = True
    server.limits.group_messages, server.limits.group_window = 3, 0.6
    outbox = Outbox(bot, group_rate=3, group_window=0.6)
    for n in range(7):
        outbox.post(group.id, Content(f"news {n}"))
        outbox.show(group.id, "table", Content(f"table {n}"))
    await outbox.idle()
    assert server.served_429 == []
    texts = [m.text for m in group.messages(from_bot=True)]
    assert [t for t in texts if t.startswith("news")] == [f"news {n}" for n in range(7)]
    assert "table 6" in texts


async def test_a_429_storm_is_waited_out_and_the_latest_state_arrives(
    server: FakeTelegramServer, bot: Bot, group: SimChat
) -> None:
    outbox = Outbox(bot, group_rate=1000)
    outbox.show(group.id, "table", Content("before"))
    await outbox.idle()
    server.inject_429(calls=2, retry_after=1)
    outbox.show(group.id, "table", Content("during 1"))
    await asyncio.sleep(0)
    outbox.show(group.id, "table", Content("during 2"))
    await outbox.idle()
    [message] = group.messages(from_bot=True)
    assert message.text == "during 2"
    assert len(server.served_429) == 2


async def test_not_modified_and_deleted_messages(
    server: FakeTelegramServer, bot: Bot, group: SimChat
) -> None:
    first = await bot.send_message(group.id, "same")
    outbox = Outbox(bot, group_rate=1000)
    outbox.show(group.id, "table", Content("same"), message_id=first.message_id)
    await outbox.idle()
    assert [c.description for c in server.errors] == [
        "Bad Request: message is not modified: specified new message content and reply "
        "markup are exactly the same as a current content and reply markup of the message"
    ] or len(server.errors) == 1
    await bot.delete_message(group.id, first.message_id)
    sent: list[int] = []

    async def remember(message_id: int) -> None:
        sent.append(message_id)

    outbox.show(group.id, "table", Content("again"), on_sent=remember)
    await outbox.idle()
    assert [m.text for m in group.messages(from_bot=True)] == ["again"]
    assert sent and sent[0] != first.message_id


async def test_a_403_drops_the_chat_and_tells_the_owner(
    server: FakeTelegramServer, bot: Bot
) -> None:
    stranger = server.user(202, "Stranger")
    refused: list[int] = []

    async def forbidden(chat_id: int) -> None:
        refused.append(chat_id)

    outbox = Outbox(bot, group_rate=1000, on_forbidden=forbidden)
    outbox.show(stranger.id, "hand", Content("cards"))
    outbox.post(stranger.id, Content("hello"))
    await outbox.idle()
    assert refused == [stranger.id]
    assert stranger.chat.messages(from_bot=True) == []


async def test_a_state_older_than_one_shown_is_dropped(
    server: FakeTelegramServer, bot: Bot, group: SimChat
) -> None:
    outbox = Outbox(bot, group_rate=1000)
    outbox.show(group.id, "table", Content("version 6"), version=6)
    outbox.show(group.id, "table", Content("version 5"), version=5)  # another process, late
    await outbox.idle()
    [message] = group.messages(from_bot=True)
    assert message.text == "version 6"
    outbox.show(group.id, "table", Content("version 6, 10 s left"), state=6)  # a redraw
    await outbox.idle()
    assert message.text == "version 6, 10 s left"
    outbox.show(group.id, "table", Content("version 7, over"), version=7, last=True)
    await outbox.idle()
    outbox.show(group.id, "table", Content("version 6, 5 s left"), state=6)  # after the end
    await outbox.idle()
    assert message.text == "version 7, over" and len(group.messages(from_bot=True)) == 1


async def test_a_follower_relays_the_state_its_redraw_shows(
    server: FakeTelegramServer, bot: Bot, group: SimChat, tmp_path: Path
) -> None:
    """The leader showed version 6 of a table itself; a follower's redraw of version 5 (its
    turn timer's, not stored) comes through the relay after it and changes nothing."""
    outbox = Outbox(bot, group_rate=1000)
    outbox.show(group.id, "table", Content("version 6"), version=6)
    async with await Store.open(tmp_path / "relay.db") as store:
        writer = RelayWriter(store.relay)
        writer.show(
            group.id, "table", Content("version 5, 10 s left"), message_id=None, on_sent=None,
            last=False, renew=False, version=None, state=5,
        )
        await writer.close()

        async def ending(body: Mapping[str, Any]) -> None:
            raise AssertionError(body)

        for body in await store.relay.take():
            await replay(body, outbox, {}, ending)
    await outbox.idle()
    [message] = group.messages(from_bot=True)
    assert message.text == "version 6"


async def test_a_follower_hands_its_files_to_the_leader(
    server: FakeTelegramServer, bot: Bot, group: SimChat, ann: SimUser, tmp_path: Path
) -> None:
    """A follower's /score picture and /export file are not uploaded by it (outside the
    leader's pacing) but relayed, bytes and all; the leader sends them; a broken relayed
    file is skipped."""
    picture = io.BytesIO()
    Image.new("RGB", (40, 30), "white").save(picture, format="PNG")
    sheet = Upload("photo", group.id, picture.getvalue(), "score-sheet.png", "<b>Счёт</b>",
                   html=True, topic=0)
    export = Upload("document", ann.id, "матч;очки\n1;120\n".encode(), "export.csv", "CSV")
    follower = SharedOutbox(bot, group_rate=1000)
    async with await Store.open(tmp_path / "relay.db") as store:
        follower.relay = RelayWriter(store.relay)
        assert await send_file(bot, follower, sheet)
        assert await send_file(bot, follower, export)
        await follower.relay.close()
        bodies = await store.relay.take()
    assert server.world.call_counts["sendPhoto"] == server.world.call_counts["sendDocument"] == 0

    async def ending(body: Mapping[str, Any]) -> None:
        raise AssertionError(body)

    files: list[Upload] = []
    broken = {**bodies[0], "data": "not base64!"}
    for body in [broken, {**bodies[1], "kind": "video"}, *bodies]:
        await replay(body, Outbox(bot, group_rate=1000), {}, ending, files.append)
    assert files == [sheet, export]
    for file in files:
        assert await send(bot, file) is not None
    [photo] = group.messages(from_bot=True)
    assert photo.kind == "photo" and photo.text == "Счёт"
    document = ann.chat.last_message(from_bot=True)
    assert document is not None and document.file is not None
    assert document.file.data == export.data
