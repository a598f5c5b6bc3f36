"""Complete matches of every game, played end to end through the fake Bot API by pressing the
buttons the players see in their private messages (policies in `tests.bot.policies`), with
the lobby gathered by button and by invite link and its settings changed on the way."""

from __future__ import annotations

from pathlib import Path

from bot.match.matchlog import replay_match
from bot.services import Services
from engine import Phase
from tests.bot.conftest import Cast
from tests.bot.harness import LANG, TR, Driver, running_bot
from tests.bot.policies import TUMBOCHKA_SEED, Policy, thousand, thousand_one, tumbochka
from tests.fakebot import FakeTelegramServer, SimMessage


async def _finished_as_shown(services: Services, result: SimMessage) -> None:
    """The stored match is finished, its log replays to the end, and the winner announced in
    the group is the one stored."""
    rows = await services.store.db.fetch_all("SELECT match_id FROM matches")
    match = await services.store.matches.get(int(rows[-1]["match_id"]))
    assert match is not None and match.status == "finished"
    state = replay_match(match.rules, await services.store.matches.read_log(match.match_id))
    assert state.phase is Phase.MATCH_OVER and state.winner is not None
    assert state.winner == match.winner_seat
    winner = match.seats[state.winner].user_id
    user = await services.people.user(winner or 0)
    assert user is not None and user.first_name in result.text.splitlines()[0]


async def _play(driver: Driver, services: Services, policy: Policy) -> SimMessage:
    result = await driver.play(policy)
    assert result is not None
    await _finished_as_shown(services, result)
    return result


async def test_thousand_with_a_changed_option(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    async with running_bot(server, tmp_path / "bot.db") as bot:
        services = bot.services
        players = [cast.alice, cast.bob, cast.carol]
        driver = Driver(server, cast.group, players, bot)
        lobby = await driver.open_lobby(
            cast.alice, "/new", by_button=[cast.bob], by_link=[cast.carol]
        )
        assert "Вера" in lobby.text and "3 из 3" in lobby.text
        await driver.press_lobby(cast.alice, lobby, "settings")
        assert TR.text(LANG, "lobby-back") in lobby.button_texts()
        await driver.press_lobby(cast.alice, lobby, "opt", "bid_step")
        await driver.press_lobby(cast.alice, lobby, "back")
        assert "Шаг торговли: 10" in lobby.text
        await driver.start(cast.alice, lobby)
        result = await _play(driver, services, thousand())
        assert "Алиса — −10" in result.text  # p1 conceded every deal
        header = (await services.store.matches.get(1))
        assert header is not None and "option bid_step=10" in header.rules


async def test_thousand_one_with_three(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    async with running_bot(server, tmp_path / "bot.db") as bot:
        services = bot.services
        driver = Driver(server, cast.group, [cast.alice, cast.bob, cast.carol], bot)
        lobby = await driver.open_lobby(cast.alice, "/new 1001", by_button=[cast.bob, cast.carol])
        await driver.start(cast.alice, lobby)
        await _play(driver, services, thousand_one)
        assert driver.presses == 93


async def test_thousand_one_with_four_chosen_in_settings(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    async with running_bot(server, tmp_path / "bot.db") as bot:
        services = bot.services
        players = [cast.alice, cast.bob, cast.carol, cast.dave]
        driver = Driver(server, cast.group, players, bot)
        lobby = await driver.open_lobby(cast.alice, "/new", by_button=[cast.bob, cast.carol])
        await driver.press_lobby(cast.alice, lobby, "settings")
        await driver.press_lobby(cast.alice, lobby, "game", "thousand-one")
        await driver.press_lobby(cast.alice, lobby, "players", "4")
        await driver.press_lobby(cast.alice, lobby, "opt", "ace_marriage")
        await driver.press_lobby(cast.alice, lobby, "back")
        assert "Тысяча одно" in lobby.text and "3 из 4" in lobby.text
        await cast.dave.open_link(await driver.invite_link(cast.bob))
        await driver.settle()
        assert "4 из 4" in lobby.text
        await driver.start(cast.alice, lobby)
        await _play(driver, services, thousand_one)
        assert driver.presses == 123


async def test_tumbochka(server: FakeTelegramServer, cast: Cast, tmp_path: Path) -> None:
    async with running_bot(server, tmp_path / "bot.db", deal_seed=TUMBOCHKA_SEED) as bot:
        services = bot.services
        driver = Driver(server, cast.group, [cast.alice, cast.bob, cast.carol], bot)
        lobby = await driver.open_lobby(
            cast.alice, "/new tumbochka", by_button=[cast.bob, cast.carol]
        )
        await driver.start(cast.alice, lobby)
        await _play(driver, services, tumbochka)
        assert driver.presses == 145
