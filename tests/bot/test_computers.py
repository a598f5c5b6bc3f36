"""Computer players through the fake Bot API (issue 6): a lobby filled with computers plays
to the end, a human plays among computers, a timed-out human is played for (and after three
timeouts replaced until /back), /kick by the creator and by vote, timers across a restart,
and /solo in a private chat."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.match import thinking
from bot.match.matchlog import replay_match
from bot.services import Services
from engine import Phase, SeatAction
from storage import Match, Store
from tests.bot.conftest import Cast
from tests.bot.harness import LANG, TR, BotUnderTest, Driver, plain, running_bot
from tests.bot.policies import passive
from tests.fakebot import FakeTelegramServer, SimMessage, SimUser

QUICK: dict[str, Any] = {
    "computer_workers": 0, "computer_budget_seconds": 0.05, "option_wait_seconds": 0.2
}
"""Computers think in the bot's process, briefly: these tests are about the flow."""


async def _match(services: Services) -> Match:
    rows = await services.store.db.fetch_all("SELECT match_id FROM matches")
    match = await services.store.matches.get(int(rows[-1]["match_id"]))
    assert match is not None
    return match


async def _finished(services: Services) -> Match:
    match = await _match(services)
    assert match.status == "finished"
    state = replay_match(match.rules, await services.store.matches.read_log(match.match_id))
    assert state.phase is Phase.MATCH_OVER and state.winner == match.winner_seat
    return match


async def _lobby_with_computers(
    driver: Driver, creator: SimUser, levels: Sequence[str], *, humans: Sequence[SimUser] = ()
) -> SimMessage:
    lobby = await driver.open_lobby(creator, "/new tumbochka", by_button=humans)
    for level in levels:
        await driver.press_lobby(creator, lobby, "bot", level)
    return lobby


async def _alice_among(
    bot: BotUnderTest, server: FakeTelegramServer, cast: Cast, levels: Sequence[str], deals: int
) -> tuple[list[str], int]:
    """Alice plays `passive` among computers of ``levels`` until deal ``deals``: the match's
    log and her presses."""
    driver = Driver(server, cast.group, [cast.alice], bot)
    lobby = await _lobby_with_computers(driver, cast.alice, levels)
    await driver.start(cast.alice, lobby)
    await driver.play(passive, stop=lambda d: d.deal_number() >= deals)
    match = await _match(bot.services)
    return await bot.services.store.matches.read_log(match.match_id), driver.presses


async def test_a_lobby_of_computers_plays_to_the_end(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    async with running_bot(server, tmp_path / "bot.db", **QUICK) as bot:
        driver = Driver(server, cast.group, [cast.alice], bot)
        lobby = await driver.open_lobby(cast.alice, "/new tumbochka")
        buttons = lobby.button_texts()
        for level in ("easy", "hard"):
            assert TR.text(LANG, "lobby-add-computer", level=level) in buttons
        assert TR.text(LANG, "lobby-remove-computer") not in buttons
        await driver.press_lobby(cast.alice, lobby, "leave")
        for level in ("easy", "hard", "easy"):
            await driver.press_lobby(cast.alice, lobby, "bot", level)
        computer = plain(TR.text(LANG, "lobby-computer", number=2, level="hard"))
        assert computer in lobby.text
        assert TR.text(LANG, "lobby-remove-computer") in lobby.button_texts()
        await driver.press_lobby(cast.alice, lobby, "unbot")
        assert computer in lobby.text and "2 из 3" in lobby.text  # the last one left
        await driver.press_lobby(cast.alice, lobby, "bot", "easy")
        await driver.start(cast.alice, lobby)
        await server.wait_for(lambda: driver.match_result() is not None, timeout=240)
        match = await _finished(bot.services)
        assert [s.computer_level for s in match.seats] == ["easy", "hard", "easy"]
        assert plain(TR.text(LANG, "computer-name", number=1, level="easy")) in lobby.text
        # Named alike everywhere: the table, the result, the records.
        strong = "🤖 Компьютер 2 (сильный)"
        assert strong in lobby.text
        result = driver.match_result()
        assert result is not None and strong in result.text
        top = await driver.say(cast.bob, "/top")  # the chat's last match was a Тумбочка
        reply = await server.wait_for_message(cast.group, after=top)
        assert "🤖 Компьютер (сильный)" in reply.text  # rated and flagged, one per level
        assert "Тумбочка" in reply.text
        asked = await driver.say(cast.bob, "/history")
        reply = await server.wait_for_message(cast.group, after=asked)
        assert strong in reply.text and "🤖 Компьютер 1 (лёгкий)" in reply.text


async def test_a_human_among_computers_in_the_process_pool(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    settings: dict[str, Any] = {"computer_workers": 1, "computer_budget_seconds": 0.2}
    async with running_bot(server, tmp_path / "bot.db", **settings) as bot:
        log, presses = await _alice_among(bot, server, cast, ["hard", "easy"], deals=3)
        assert any(line.startswith("p2 ") for line in log)
        assert any(line.startswith("p3 ") for line in log)
        assert presses > 0


async def test_a_timed_out_human_is_played_for_then_replaced_until_back(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    async with running_bot(server, tmp_path / "bot.db", turn_seconds=1, **QUICK) as bot:
        services = bot.services
        # Alice is away; Bob and Carol press at once, so only Alice's timer runs out.
        driver = Driver(server, cast.group, [cast.bob, cast.carol], bot, private_only=True)
        lobby = await driver.open_lobby(cast.alice, "/new", by_button=[cast.bob, cast.carol])
        assert plain(TR.text(LANG, "lobby-timer", seconds=1)) in lobby.text
        await driver.start(cast.alice, lobby)
        live = services.games.in_chat(cast.group.id)
        assert live is not None

        await driver.play(passive, stop=lambda d: live.row.seats[0].replaced_by_computer)
        match = await _match(services)
        assert match.seats[0].replaced_by_computer and match.seats[0].computer_level == "hard"
        assert match.seats[0].consecutive_timeouts == 3
        shown = "\n".join(cast.group.texts_shown(from_bot=True))
        assert plain(TR.text(LANG, "turn-timed-out", name="Алиса")) in shown
        assert plain(TR.text(LANG, "turn-replaced", name="Алиса")) in shown
        hand = Driver(server, cast.group, [cast.alice], bot).hand(cast.alice)
        assert hand is not None and not hand.buttons()
        assert plain(TR.text(LANG, "hand-replaced")) in hand.text
        # Her own chat told her each time: the computer moved for her, then took the seat.
        told = "\n".join(cast.alice.chat.texts_shown(from_bot=True))
        assert plain(TR.text(LANG, "hand-timed-out")) in told
        assert "/back" in hand.text
        log = await services.store.matches.read_log(match.match_id)
        assert any(line.startswith("p1 ") for line in log)  # moves made for Alice

        await driver.say(cast.alice, "/back")
        match = await _match(services)
        assert not match.seats[0].replaced_by_computer
        assert match.seats[0].consecutive_timeouts == 0
        shown = "\n".join(cast.group.texts_shown(from_bot=True))
        assert plain(TR.text(LANG, "bot-back-done", name="Алиса")) in shown


async def test_the_creator_kicks_and_the_player_comes_back(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    async with running_bot(server, tmp_path / "bot.db", turn_seconds=0, **QUICK) as bot:
        services = bot.services
        players = [cast.alice, cast.bob, cast.carol]
        driver = Driver(server, cast.group, players, bot)
        lobby = await driver.open_lobby(cast.alice, "/new", by_button=[cast.bob, cast.carol])
        assert plain(TR.text(LANG, "lobby-timer-off")) in lobby.text
        await driver.start(cast.alice, lobby)

        refused = await driver.say(cast.dave, "/kick 2")
        answer = await server.wait_for_message(cast.group, after=refused)
        assert answer.text == plain(TR.text(LANG, "bot-kick-not-player"))

        await driver.say(cast.alice, "/kick 2")
        match = await _match(services)
        assert match.seats[1].replaced_by_computer
        assert match.seats[1].computer_level == "hard"
        assert plain(TR.text(LANG, "bot-kick-done", name="Борис")) in lobby.text
        await driver.play(passive, stop=lambda d: d.presses >= 4)
        log = await services.store.matches.read_log(match.match_id)
        assert any(line.startswith("p2 ") for line in log)
        hand = driver.hand(cast.bob)
        assert hand is not None and not hand.buttons()

        await driver.say(cast.bob, "/back", chat=cast.bob.chat)
        match = await _match(services)
        assert not match.seats[1].replaced_by_computer
        again = await driver.say(cast.bob, "/back", chat=cast.bob.chat)
        reply = await server.wait_for_message(cast.bob.chat, after=again)
        assert reply.text == plain(TR.text(LANG, "bot-back-nothing"))


async def test_the_other_players_vote_to_kick(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    async with running_bot(server, tmp_path / "bot.db", turn_seconds=0, **QUICK) as bot:
        players = [cast.alice, cast.bob, cast.carol]
        driver = Driver(server, cast.group, players, bot)
        lobby = await driver.open_lobby(cast.alice, "/new", by_button=[cast.bob, cast.carol])
        await driver.start(cast.alice, lobby)
        vote = await driver.say(cast.bob, "/kick 1")
        reply = await server.wait_for_message(cast.group, after=vote)
        assert "1 из 2" in reply.text
        assert not (await _match(bot.services)).seats[0].replaced_by_computer
        await driver.say(cast.carol, "/kick 1")
        assert (await _match(bot.services)).seats[0].replaced_by_computer


async def test_a_turn_timer_survives_a_restart(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    database = tmp_path / "bot.db"
    async with running_bot(server, database, turn_seconds=3, **QUICK) as bot:
        driver = Driver(server, cast.group, [cast.alice], bot)
        lobby = await _lobby_with_computers(driver, cast.alice, ["easy", "easy"])
        await driver.press_lobby(cast.alice, lobby, "settings")
        await driver.press_lobby(cast.alice, lobby, "timer", "3")  # 3 → 30 s
        await driver.press_lobby(cast.alice, lobby, "timer", "30")  # 30 → 60 s
        await driver.press_lobby(cast.alice, lobby, "timer", "60")  # 60 → 120 s
        await driver.press_lobby(cast.alice, lobby, "back")
        assert plain(TR.text(LANG, "lobby-timer", seconds=120)) in lobby.text
        await driver.start(cast.alice, lobby)
        await driver.settle()
        match = await _match(bot.services)
        deadlines = await bot.services.store.deadlines.for_match(match.match_id)
        assert match.turn_seconds == 120
        assert [(d.seat, d.version) for d in deadlines] == [(0, match.version)]
    # While the bot is down its deadline passes: after the restart it fires at once and a
    # computer moves for Alice.
    store = await Store.open(database)
    try:
        await store.deadlines.set(
            match.match_id, 0, datetime.now(UTC) - timedelta(seconds=1), version=match.version
        )
    finally:
        await store.close()
    async with running_bot(server, database, **QUICK) as bot:
        timed_out = plain(TR.text(LANG, "turn-timed-out", name="Алиса"))
        await server.wait_for(lambda: timed_out in lobby.text, timeout=30)
        assert (await _match(bot.services)).seats[0].consecutive_timeouts == 1


async def test_solo_in_a_private_chat(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    async with running_bot(server, tmp_path / "bot.db", **QUICK) as bot:
        in_group = await cast.alice.send(cast.group, "/solo")
        reply = await server.wait_for_message(cast.group, after=in_group)
        assert reply.text == plain(TR.text(LANG, "bot-solo-group"))
        driver = Driver(server, cast.alice.chat, [cast.alice], bot, private_only=True)
        await driver.say(cast.alice, "/solo tumbochka easy", chat=cast.alice.chat)
        busy = await driver.say(cast.alice, "/solo", chat=cast.alice.chat)
        reply = await server.wait_for_message(cast.alice.chat, after=busy)
        assert reply.text == plain(TR.text(LANG, "bot-solo-busy"))
        await driver.play(passive, stop=lambda d: d.deal_number() >= 2)
        # One message carries the table and the hand: the computers' moves are told in it.
        games = ("Тумбочка",)
        shown = [m for m in cast.alice.chat.messages(from_bot=True) if m.text.startswith(games)]
        assert len(shown) == 1
        told = "\n".join(cast.alice.chat.texts_shown(from_bot=True))
        assert TR.text(LANG, "table-note") in told and "🤖 Компьютер 2 (лёгкий):" in told
        result = await driver.play(passive)
        assert result is not None
        match = await _finished(bot.services)
        assert match.chat_id == cast.alice.id and match.turn_seconds is None
        assert [s.computer_level for s in match.seats] == [None, "easy", "easy"]


async def test_a_failing_computer_player_does_not_stall_the_table(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(*args: object) -> SeatAction:
        raise RuntimeError("the computer player is broken")

    monkeypatch.setattr(thinking.Thinking, "decide", broken)
    async with running_bot(server, tmp_path / "bot.db", **QUICK) as bot:
        log, _ = await _alice_among(bot, server, cast, ["hard", "hard"], deals=2)
        assert any(line.startswith("p2 ") for line in log)
