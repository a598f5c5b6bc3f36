"""A match's last action and its result are one transaction: neither is ever stored without
the other.

* In this process: the result is written and then the write fails, inside the transaction of
  the last press. Nothing of that press is stored — no log line, no result, no counters, no
  rating — the presser is told something went wrong, the match runs on at the same version,
  and the same press then ends it with its result (posted with the score sheet).
* A bot process killed with SIGKILL right after writing the result, before the commit
  (``sitecustomize`` patches the result write in that process only): the database holds the
  match as it was before the last press; a new process resumes it, and the same press ends it
  with its result.
* A match whose log ended but whose row was left running is closed with its result when the
  bot starts.
"""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest

import storage.result_writes
from bot.records import MatchSummary, summarize
from bot.services import Services
from engine import Game, format_action
from storage import NewSeat, PlayerRef, ResultWrite, Store
from storage.conn import Conn
from tests.bot.conftest import Cast
from tests.bot.harness import (
    CONFIRM,
    LANG,
    TR,
    Driver,
    Option,
    bot_process,
    check_score_sheet,
    running_bot,
)
from tests.bot.policies import Policy, thousand
from tests.fakebot import FakeTelegramServer

POLICY = thousand()
PRESSES = 57
"""Presses of the whole match with the deal seed "test" (the last one ends it)."""
ROOT = Path(__file__).resolve().parents[2]
KILLER = f"""
import os, signal, sys
sys.path.insert(0, {str(ROOT)!r})
import storage.result_writes

_store_result = storage.result_writes.store_result


async def store_result(conn, write, now):
    await _store_result(conn, write, now)
    os.kill(os.getpid(), signal.SIGKILL)  # the result is written, not yet committed


storage.result_writes.store_result = store_result
"""


def _choice(driver: Driver, policy: Policy) -> Option:
    """The button the policy presses next among the newest keyboards shown."""
    options = driver.options()
    newest = max(o.press.version for o in options)
    options = [o for o in options if o.press.version == newest]
    action = policy([o.action for o in options], driver.deal_number())
    return next(o for o in options if o.action == action)


async def _gather(driver: Driver, cast: Cast) -> None:
    lobby = await driver.open_lobby(cast.alice, "/new", by_button=[cast.bob, cast.carol])
    await driver.start(cast.alice, lobby)


async def _nothing_recorded(store: Store) -> None:
    for table in ("match_results", "match_result_seats", "player_stats", "ratings"):
        assert await store.db.fetch_value(f"SELECT count(*) FROM {table}") == 0, table


async def _recorded(store: Store, log: list[str]) -> None:
    """Match 1 is finished with the result of its whole log, rated and counted."""
    match = await store.matches.get(1)
    assert match is not None and match.status == "finished"
    players = tuple(PlayerRef.human(s.user_id or 0) for s in match.seats)
    expected = summarize(match.rules, log, players, match_id=1)
    entry = await store.results.result_of(1)
    assert entry is not None and entry.recorded and entry.status == "finished"
    assert entry.winner == expected.winner == match.winner_seat
    assert tuple(s.score for s in entry.seats) == expected.scores
    assert tuple(s.place for s in entry.seats) == expected.places
    assert tuple(s.settlement for s in entry.seats) == expected.settlement
    for player in players:
        rating = await store.results.rating_of(player, Game.THOUSAND)
        assert rating is not None and rating.matches == 1
        (stats,) = await store.results.stats_for(player)
        assert stats.matches == 1


async def test_a_failed_result_write_takes_the_last_action_with_it(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with running_bot(server, tmp_path / "bot.db") as bot:
        services: Services = bot.services
        store = services.store
        driver = Driver(server, cast.group, [cast.alice, cast.bob, cast.carol], bot)
        await _gather(driver, cast)
        assert await driver.play(POLICY, stop=lambda d: d.presses == PRESSES - 1) is None
        before = await store.matches.read_log(1)
        record = storage.result_writes.store_result
        failures: list[MatchSummary] = []

        async def written_then_failed(conn: Conn, write: ResultWrite, now: str) -> None:
            await record(conn, write, now)
            assert isinstance(write.result, MatchSummary)
            failures.append(write.result)
            raise OSError("disk I/O error")

        monkeypatch.setattr(storage.result_writes, "store_result", written_then_failed)
        last = _choice(driver, POLICY)
        answer = await driver.act(last)

        # The result was worked out from the log with the last line, and written...
        (failed,) = failures
        assert failed.winner is not None and failed.version == len(before) + 1
        # ...but the transaction took it back together with the last action.
        assert answer.text == TR.text(LANG, "bot-error")
        assert await store.matches.read_log(1) == before
        match = await store.matches.get(1)
        assert match is not None and match.status == "running"
        assert match.version == len(before)
        await _nothing_recorded(store)
        assert driver.match_result() is None
        live = services.games.in_chat(cast.group.id)
        assert live is not None and live.version == len(before)

        # The match runs on: the same button, shown unchanged, now ends it with its result.
        monkeypatch.setattr(storage.result_writes, "store_result", record)
        again = _choice(driver, POLICY)
        assert (again.data, again.user) == (last.data, last.user)
        answer = await driver.act(again)
        assert answer.text is None
        result = driver.match_result()
        assert result is not None
        after = await store.matches.read_log(1)
        assert after == [*before, format_action(last.action)]
        await _recorded(store, after)
        assert services.games.in_chat(cast.group.id) is None
        check_score_sheet(result)


async def test_a_bot_killed_between_the_last_action_and_its_result(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    database, output = tmp_path / "bot.db", tmp_path / "bot.log"
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "sitecustomize.py").write_text(KILLER, encoding="utf-8")
    driver = Driver(server, cast.group, [cast.alice, cast.bob, cast.carol])
    async with bot_process(server, database, output, PYTHONPATH=str(hooks)) as first:
        await _gather(driver, cast)
        assert await driver.play(POLICY, stop=lambda d: d.presses == PRESSES - 1) is None
        last = _choice(driver, POLICY)
        asked = await (await last.user.press(last.message, last.data)).answer()
        assert asked.text == CONFIRM  # the match ends with a concession: it is asked first
        await driver.server.wait_for(lambda: len(last.message.buttons()) == 2)
        await last.user.press(last.message, last.data)
        assert await asyncio.wait_for(first.wait(), 30) == -signal.SIGKILL
    async with await Store.open(database) as store:
        before = await store.matches.read_log(1)
        match = await store.matches.get(1)
        assert match is not None and match.status == "running"
        assert match.version == len(before)
        await _nothing_recorded(store)
    assert driver.match_result() is None

    # The new process resumes the match; the press (pressed again, or redelivered if it was
    # never confirmed to Telegram) ends it, once.
    async with bot_process(server, database, output) as second:
        result = await driver.play(POLICY)
        assert result is not None
        check_score_sheet(result)
        second.send_signal(signal.SIGTERM)
        assert await second.wait() == 0, output.read_text()
    async with await Store.open(database) as store:
        assert await store.matches.read_log(1) == [*before, format_action(last.action)]
        await _recorded(store, [*before, format_action(last.action)])


async def test_a_match_over_in_its_log_is_closed_with_its_result_at_start(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    """A played match's log stored again as a second match, with a running row."""
    database = tmp_path / "bot.db"
    async with running_bot(server, database) as bot:
        driver = Driver(server, cast.group, [cast.alice, cast.bob, cast.carol], bot)
        await _gather(driver, cast)
        assert await driver.play(POLICY) is not None
        log = await bot.services.store.matches.read_log(1)
        played = await bot.services.store.matches.get(1)
        assert played is not None
    async with await Store.open(database) as store:
        match = await store.matches.create(
            cast.group.id, game=Game.THOUSAND, players=3, rules=played.rules,
            seats=[NewSeat.human(u.id) for u in (cast.alice, cast.bob, cast.carol)],
        )
        await store.matches.append_actions(match.match_id, 0, log)
    async with running_bot(server, database) as bot:
        await bot.services.games.settled()  # the matches load in the background
        store = bot.services.store
        row = await store.matches.get(match.match_id)
        assert row is not None and row.status == "finished"
        entry = await store.results.result_of(match.match_id)
        assert entry is not None and entry.recorded and entry.winner == row.winner_seat
        (stats,) = await store.results.stats_for(PlayerRef.human(cast.alice.id))
        assert stats.matches == 2
