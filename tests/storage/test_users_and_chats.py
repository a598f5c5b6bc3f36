"""Users and chats: upserts, languages, the private-chat flag, chat migration."""

from __future__ import annotations

import pytest

from engine import Game
from storage import ChatBusy, NotFound, Store
from tests.storage.helpers import GROUP, OTHER_GROUP, RULES_3, USERS, Clock


async def test_upsert_creates_then_refreshes_a_user(store: Store, clock: Clock) -> None:
    created = await store.users.upsert(7, first_name="Аня", username="anya", telegram_language="ru")
    assert (created.user_id, created.first_name, created.username) == (7, "Аня", "anya")
    assert created.telegram_language == "ru"
    assert created.language is None and not created.private_chat_opened
    assert created.created_at == created.updated_at == clock.now

    clock.advance(60)
    await store.users.set_language(7, "uk")
    await store.users.set_private_chat_opened(7)
    clock.advance(60)
    same = await store.users.upsert(7, first_name="Аня", username="anya", telegram_language="ru")
    assert same.updated_at < clock.now  # nothing changed, nothing written

    renamed = await store.users.upsert(7, first_name="Анна", telegram_language="en")
    assert (renamed.first_name, renamed.username, renamed.telegram_language) == (
        "Анна",
        None,
        "en",
    )
    assert renamed.language == "uk" and renamed.private_chat_opened  # kept
    assert renamed.created_at == created.created_at and renamed.updated_at == clock.now


async def test_language_and_private_chat_flag(store: Store) -> None:
    user = await store.users.set_language(USERS[0], "en")
    assert user.language == "en"
    assert (await store.users.set_language(USERS[0], None)).language is None
    assert (await store.users.set_private_chat_opened(USERS[0])).private_chat_opened
    assert not (await store.users.set_private_chat_opened(USERS[0], False)).private_chat_opened
    with pytest.raises(ValueError, match="language tag"):
        await store.users.set_language(USERS[0], "English")
    with pytest.raises(NotFound):
        await store.users.set_language(424242, "en")
    with pytest.raises(NotFound):
        await store.users.set_private_chat_opened(424242)
    assert await store.users.get(424242) is None


async def test_upsert_and_get_a_chat(store: Store, clock: Clock) -> None:
    chat = await store.chats.upsert(-5, type="group", title="Friends")
    assert (chat.chat_id, chat.type, chat.title, chat.language) == (-5, "group", "Friends", None)
    await store.chats.set_language(-5, "uk")
    clock.advance(5)
    chat = await store.chats.upsert(-5, type="group", title="Best friends")
    assert chat.title == "Best friends" and chat.language == "uk"
    assert chat.updated_at == clock.now
    assert await store.chats.get(-6) is None
    with pytest.raises(NotFound):
        await store.chats.set_language(-6, "ru")
    with pytest.raises(ValueError, match="chat type"):
        await store.chats.upsert(-7, type="forum")  # type: ignore[arg-type]


async def test_a_migrated_chat_takes_its_games_along(store: Store) -> None:
    await store.chats.set_language(GROUP, "en")
    lobby = await store.lobbies.create(
        GROUP, creator_id=USERS[0], game=Game.THOUSAND, players=3, rules=RULES_3
    )
    new_id = -1005555
    chat = await store.chats.migrate(GROUP, new_id)
    assert (chat.chat_id, chat.type, chat.language) == (new_id, "supergroup", "en")
    assert await store.chats.get(GROUP) is None
    moved = await store.lobbies.open_in_chat(new_id)
    assert moved is not None and moved.lobby_id == lobby.lobby_id


async def test_migrating_into_a_stored_chat(store: Store) -> None:
    await store.chats.set_language(GROUP, "uk")
    lobby = await store.lobbies.create(
        GROUP, creator_id=USERS[0], game=Game.THOUSAND, players=3, rules=RULES_3
    )
    await store.chats.upsert(-2001, type="supergroup", title="New")
    chat = await store.chats.migrate(GROUP, -2001)
    assert chat.language == "uk" and chat.title == "New"
    moved = await store.lobbies.get(lobby.lobby_id)
    assert moved is not None and moved.chat_id == -2001
    assert await store.chats.get(GROUP) is None


async def test_migrating_two_busy_chats_together_is_refused(store: Store) -> None:
    await store.lobbies.create(GROUP, creator_id=USERS[0], game=Game.THOUSAND, players=3,
                               rules=RULES_3)
    await store.lobbies.create(OTHER_GROUP, creator_id=USERS[1], game=Game.THOUSAND, players=3,
                               rules=RULES_3)
    with pytest.raises(ChatBusy):
        await store.chats.migrate(GROUP, OTHER_GROUP)
    assert await store.chats.get(GROUP) is not None  # nothing moved
    with pytest.raises(NotFound):
        await store.chats.migrate(-42, -43)
    with pytest.raises(ValueError):
        await store.chats.migrate(GROUP, GROUP)


async def test_turn_pings_are_on_until_switched_off(store: Store) -> None:
    assert (await store.users.upsert(8, first_name="Ира")).turn_pings
    assert not (await store.users.set_turn_pings(8, False)).turn_pings
    assert not (await store.users.upsert(8, first_name="Ирина")).turn_pings  # kept
    assert (await store.users.set_turn_pings(8, True)).turn_pings
    with pytest.raises(NotFound):
        await store.users.set_turn_pings(424242, False)
