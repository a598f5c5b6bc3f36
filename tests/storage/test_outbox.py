"""The database outbox: messages stored with a change, marked when delivered, and what a
restart must send again (only the stale, the newest matches first)."""

from __future__ import annotations

import pytest

from storage import MatchWrite, Store, VersionConflict
from storage.outbox import Delivered, Outgoing
from tests.storage.helpers import full_lobby

TABLE, HAND = "table:1", "hand:1"


def show(key: str, version: int, text: str, match_id: int = 1, chat_id: int = -5) -> Outgoing:
    return Outgoing(chat_id, key, "show", match_id, version, {"text": text})


async def stale(store: Store) -> list[tuple[int, str, int, str]]:
    return [(s.chat_id, s.key, s.version, s.body["text"]) for s in await store.outbox.stale()]


async def test_a_newer_state_replaces_the_row_and_a_delivery_marks_it(store: Store) -> None:
    async with store.transaction():
        await store.outbox.record([show(TABLE, 3, "v3"), show(HAND, 3, "hand", chat_id=7)])
    async with store.transaction():
        await store.outbox.record([show(TABLE, 4, "v4")])
        await store.outbox.record([show(TABLE, 2, "older writer")])  # never goes back
    assert await stale(store) == [(-5, TABLE, 4, "v4"), (7, HAND, 3, "hand")]
    await store.outbox.delivered([Delivered(-5, TABLE, 3), Delivered(7, HAND, 3)])
    # The table showed version 3 only: still stale; the hand is up to date.
    assert await stale(store) == [(-5, TABLE, 4, "v4")]
    await store.outbox.delivered([Delivered(-5, TABLE, 4)])
    assert await stale(store) == [] and await store.outbox.count() == 0
    async with store.transaction():
        await store.outbox.record([show(TABLE, 5, "v5")])
    assert await stale(store) == [(-5, TABLE, 5, "v5")]


async def test_posts_and_final_states_go_once_delivered(store: Store) -> None:
    post = Outgoing(-5, "post:1:9:deal", "post", 1, 9, {"text": "deal"})
    async with store.transaction():
        await store.outbox.record([show(TABLE, 9, "final"), post])
    await store.outbox.delivered([Delivered(-5, TABLE, 8, done=True)])  # an older state
    assert [k for _, k, _, _ in await stale(store)] == [TABLE, post.key]
    await store.outbox.delivered(
        [Delivered(-5, TABLE, 9, done=True), Delivered(-5, post.key, 9, True)]
    )
    assert await store.db.fetch_value("SELECT count(*) FROM outbox") == 0


async def test_the_newest_matches_come_first_and_in_a_chat_edits_before_posts(
    store: Store,
) -> None:
    async with store.transaction():
        await store.outbox.record(
            [
                Outgoing(-5, "ending:1", "ending", 1, 9, {"text": "won"}),
                Outgoing(-5, "post:1:9:deal", "post", 1, 9, {"text": "deal"}),
                show(TABLE, 9, "old match"),
                show("table:2", 4, "new match", match_id=2, chat_id=-6),
            ]
        )
    assert [k for _, k, _, _ in await stale(store)] == [
        "table:2",
        TABLE,
        "post:1:9:deal",
        "ending:1",
    ]


async def test_rows_go_with_the_change_that_carries_them_or_not_at_all(store: Store) -> None:
    match = await store.matches.create_from_lobby(await full_lobby(store))
    rows = [show(f"table:{match.match_id}", 1, "with the change", match_id=match.match_id)]
    stale_write = MatchWrite(match.match_id, 5, extra=(store.outbox.statement(rows),))
    with pytest.raises(VersionConflict):
        await store.matches.commit(stale_write)
    assert await store.outbox.count() == 0
    await store.matches.commit(MatchWrite(match.match_id, 0, extra=(store.outbox.statement(rows),)))
    assert [t for _, _, _, t in await stale(store)] == ["with the change"]
