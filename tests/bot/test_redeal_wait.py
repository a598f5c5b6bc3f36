"""A human's one-time option is never raced away, end to end (issue 11): in /solo, while the
human may still ask for a redeal, the computer about to close that option waits
`option_wait_seconds` before it moves, and the redeal pressed in that time is taken.

The deal seed `SEED` was found by playing /solo with seeds ``w0``, ``w1``, … until the human
(passing whenever they can) was shown the redeal button while a computer was to act; the test
checks that this is so before it checks the wait, so a change in the dealing or in the
computers' play makes it fail loudly instead of passing on a deal without the option."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from engine import Redeal
from tests.bot.conftest import Cast
from tests.bot.harness import LANG, TR, Driver, plain, running_bot
from tests.bot.policies import passive
from tests.fakebot import FakeTelegramServer

SEED = "w26"
WAIT = 3.0
"""The computer's wait in this test (the bot's default is 4 s)."""
STILL_OPEN_AFTER = 1.0
"""How long after the button appears the test checks that nobody has moved yet: an easy
computer decides in milliseconds, so without the wait its move would have come long before."""


def _redeal_only(driver: Driver) -> bool:
    """The human's hand offers only the redeal: it is someone else's turn, and a computer's."""
    options = driver.options()
    return bool(options) and all(isinstance(o.action, Redeal) for o in options)


async def test_a_computer_waits_while_the_human_may_ask_for_a_redeal(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    settings: dict[str, Any] = {
        "deal_seed": SEED, "computer_workers": 0, "computer_budget_seconds": 0.05,
        "option_wait_seconds": WAIT,
    }
    async with running_bot(server, tmp_path / "bot.db", **settings):
        # No `bot` for the driver: it waits for quiet, not for the computers' tasks, which
        # include the wait this test is about.
        driver = Driver(server, cast.alice.chat, [cast.alice], private_only=True)
        await driver.say(cast.alice, "/solo easy", chat=cast.alice.chat)
        await driver.play(passive, stop=_redeal_only)
        assert _redeal_only(driver), (
            "the redeal was never the human's only button: a computer moved at once, "
            f"or seed {SEED} no longer gives the human the option"
        )
        hand = driver.hand(cast.alice)
        assert hand is not None
        shown = hand.text
        await asyncio.sleep(STILL_OPEN_AFTER)
        assert driver.hand(cast.alice) is hand and hand.text == shown, "a computer moved"
        option = driver.options()[0]
        answer = await (await cast.alice.press(option.message, option.data)).answer()
        assert answer.text is None, answer.text
        told = plain(TR.text(LANG, "event-redeal", name=cast.alice.first_name, ground=""))
        await server.wait_for(
            lambda: driver.deal_number() == 2
            and any(told.rstrip(":") in t for t in cast.alice.chat.texts_shown(from_bot=True)),
            timeout=30, what="the redeal told and deal 2 dealt",
        )
