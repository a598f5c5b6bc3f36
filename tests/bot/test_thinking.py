"""The bot's way to computer decisions: ``decide_async`` through the process pool, and its
in-process fallback."""

from __future__ import annotations

import pickle
from collections.abc import Iterator

import pytest

from bot import thinking as pool
from engine.rules import Game, preset
from engine.view import SeatView, view
from tests.engine.ai.helpers import decision_points


def _views() -> list[SeatView]:
    points = decision_points(preset(Game.THOUSAND), None, seed=21, count=12)
    return [view(state, seat) for state, seat in points]


@pytest.fixture
def one_worker() -> Iterator[None]:
    pool.configure(1)
    yield
    pool.configure(None)


def test_views_are_picklable() -> None:
    for seen in _views():
        assert pickle.loads(pickle.dumps(seen)) == seen


async def test_decide_async_in_the_pool_equals_the_direct_decision(one_worker: None) -> None:
    for k, seen in enumerate(_views()[:6]):
        for level in ("easy", "hard"):
            action = await pool.decide_async(seen, level, seed=k, budget=0.2)
            assert action in seen.legal
            assert action == pool.decide_sync(seen, level, seed=k, budget=0.2)
    assert pool.running()


async def test_decide_async_without_a_pool() -> None:
    pool.configure(0)
    try:
        for k, seen in enumerate(_views()[:4]):
            action = await pool.decide_async(seen, "hard", seed=k, budget=0.2)
            assert action == pool.decide_sync(seen, "hard", seed=k, budget=0.2)
        assert not pool.running()
    finally:
        pool.configure(None)
