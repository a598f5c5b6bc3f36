"""Keyboards that fit a phone, end to end: giving takes two steps (card, then recipient, and
back), conceding needs a second press within a few seconds, and no keyboard a player is
shown has more than six rows."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.match import presses
from bot.telegram.callbacks import MAIN, MenuPress, decode, encode_menu
from engine import Concede, Give
from tests.bot.conftest import Cast
from tests.bot.harness import CONFIRM, LANG, TR, BotUnderTest, Driver, running_bot
from tests.bot.policies import thousand
from tests.fakebot import FakeTelegramServer, SimMessage

MAX_ROWS = 6


@pytest.fixture
async def bot(server: FakeTelegramServer, tmp_path: Path) -> AsyncIterator[BotUnderTest]:
    async with running_bot(server, tmp_path / "bot.db") as running:
        yield running


@pytest.fixture
async def driver(server: FakeTelegramServer, cast: Cast, bot: BotUnderTest) -> Driver:
    found = Driver(server, cast.group, [cast.alice, cast.bob, cast.carol], bot)
    lobby = await found.open_lobby(cast.alice, "/new", by_button=[cast.bob, cast.carol])
    await found.start(cast.alice, lobby)
    return found


async def _version(bot: BotUnderTest) -> int:
    match = await bot.services.store.matches.get(1)
    assert match is not None
    return match.version


def _rows(message: SimMessage) -> int:
    return len(message.button_rows())


async def test_giving_is_card_then_recipient_with_a_way_back(
    driver: Driver, bot: BotUnderTest, cast: Cast
) -> None:
    await driver.play(thousand(), stop=lambda d: bool(d.card_choices()))
    user, hand, data, press = min(driver.card_choices(), key=lambda c: c[3].menu.card or 0)
    assert not any(isinstance(o.action, Give) for o in driver.options())
    assert _rows(hand) <= MAX_ROWS
    version = await _version(bot)
    assert (await driver.press(user, hand, data)).text is None
    shown = driver.hand(user)
    assert shown is not None
    gives = [o.action for o in driver.options() if isinstance(o.action, Give)]
    assert len(gives) == 2 and {a.card for a in gives if isinstance(a, Give)} == {press.menu.card}
    assert "Кому отдать" in shown.text
    hand = shown
    back = encode_menu(1, version, press.seat, MAIN)
    assert hand.find_button(back) is not None
    assert (await driver.press(user, hand, back)).text is None
    assert driver.card_choices() and not any(isinstance(o.action, Give) for o in driver.options())
    assert await _version(bot) == version  # looking around plays nothing
    # A stranger's or an old navigation press changes nothing and says so.
    stranger = await cast.dave.press_data(cast.dave.chat, hand.message_id, data)
    assert (await stranger.answer()).text == TR.text(LANG, "press-outdated")


async def test_conceding_takes_two_presses(
    driver: Driver, bot: BotUnderTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    def conceding(d: Driver) -> bool:
        return any(isinstance(o.action, Concede) for o in d.options())

    await driver.play(thousand(), stop=conceding)
    concede = next(o for o in driver.options() if isinstance(o.action, Concede))
    version = await _version(bot)
    assert (await driver.press(concede.user, concede.message, concede.data)).text == CONFIRM
    assert await _version(bot) == version
    hand = driver.hand(concede.user)
    assert hand is not None and _rows(hand) == 2
    assert hand.text.splitlines()[-1] == TR.text(LANG, "hand-confirm-concede")

    # Too late: the second press only asks again.
    monkeypatch.setattr(presses, "CONFIRM_SECONDS", 0.0)
    assert (await driver.press(concede.user, hand, concede.data)).text == CONFIRM
    assert await _version(bot) == version
    monkeypatch.undo()

    hand = driver.hand(concede.user)
    assert hand is not None
    confirm = hand.button_rows()[0][0]
    assert confirm.startswith("✔")
    assert (await driver.press(concede.user, hand, concede.data)).text is None
    assert await _version(bot) > version


async def test_every_keyboard_of_a_played_match_fits_a_phone(driver: Driver) -> None:
    seen = 0

    def check(d: Driver) -> bool:
        nonlocal seen
        for user in d.users:
            hand = d.hand(user)
            if hand is not None and hand.buttons():
                assert _rows(hand) <= MAX_ROWS, hand.button_rows()
                seen += 1
                for button in hand.buttons():
                    press = decode(str(button.get("callback_data", "")), 4)
                    assert press is not None
                    assert not isinstance(press, MenuPress) or press.menu.confirm is None
        return False

    assert await driver.play(thousand(play_deals=2), stop=check) is not None
    assert seen > 50
