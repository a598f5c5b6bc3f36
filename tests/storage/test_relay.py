"""The relay (`storage.relay`): calls pushed by followers come out once, in order, on SQLite and
PostgreSQL."""

from __future__ import annotations

from storage import Store


async def test_pushed_calls_are_taken_once_in_order(store: Store) -> None:
    await store.relay.push([{"op": "show", "n": 1}, {"op": "post", "n": 2}])
    await store.relay.push([{"op": "forget", "n": 3, "text": "Привет"}])
    assert await store.relay.count() == 3
    assert [body["n"] for body in await store.relay.take(limit=2)] == [1, 2]
    assert await store.relay.take() == [{"op": "forget", "n": 3, "text": "Привет"}]
    assert await store.relay.take() == []
    await store.relay.push([])
    assert await store.relay.count() == 0
