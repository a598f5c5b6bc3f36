"""The ledger (`bot.telegram.ledger`) writes the ids of hands sent anew in batches: nothing
before its flush, all of them in one write after it, the newest id per seat; a batch the
database refuses is dropped, not retried for ever."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.telegram.ledger import Ledger
from storage import Store
from tests.storage.helpers import full_lobby, seed

COMPUTER_SEAT = 2
"""`full_lobby` seats two users and, here, a computer player."""


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    async with await Store.open(tmp_path / "ledger.db") as opened:
        await seed(opened)
        yield opened


async def _hands(store: Store, match_id: int) -> list[int | None]:
    match = await store.matches.get(match_id)
    assert match is not None
    return [seat.hand_message_id for seat in match.seats]


async def test_hand_ids_are_written_together_at_the_flush(store: Store) -> None:
    match = await store.matches.create_from_lobby(await full_lobby(store))
    ledger = Ledger(store, every=3600)
    ledger.hand_sent(match.match_id, 0, 10)
    ledger.hand_sent(match.match_id, 1, 11)
    ledger.hand_sent(match.match_id, 0, 12)  # sent anew again: the newest id wins
    assert ledger.pending == 2
    assert await _hands(store, match.match_id) == [None, None, None]
    await ledger.flush()
    assert ledger.pending == 0
    assert await _hands(store, match.match_id) == [12, 11, None]
    await ledger.close()


async def test_a_refused_batch_is_dropped(store: Store) -> None:
    match = await store.matches.create_from_lobby(await full_lobby(store))
    assert match.seats[COMPUTER_SEAT].is_computer
    ledger = Ledger(store, every=3600)
    ledger.hand_sent(match.match_id, COMPUTER_SEAT, 5)  # a computer has no hand message
    await ledger.flush()
    assert ledger.pending == 0
    assert await _hands(store, match.match_id) == [None, None, None]
    await ledger.close()
