"""/stop ends a match cleanly (issue 11): the table says who stopped it and shows the scores
without anyone's turn, the hands lose their prompts and buttons, and the result is posted
like any match end (the scores so far, with the score sheet)."""

from __future__ import annotations

from pathlib import Path

from tests.bot.conftest import Cast
from tests.bot.harness import LANG, TR, Driver, check_score_sheet, plain, running_bot
from tests.bot.policies import thousand
from tests.fakebot import FakeTelegramServer


async def test_stop_leaves_no_stale_state(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    async with running_bot(server, tmp_path / "bot.db") as bot:
        driver = Driver(server, cast.group, [cast.alice, cast.bob, cast.carol], bot)
        table = await driver.open_lobby(cast.alice, "/new", by_button=[cast.bob, cast.carol])
        await driver.start(cast.alice, table)
        await driver.play(thousand(play_deals=5), stop=lambda d: d.deal_number() >= 2)
        hands = {u.id: driver.hand(u) for u in driver.users}
        asked = await driver.say(cast.alice, "/stop")

        stopped = plain(TR.text(LANG, "state-stopped", name="Алиса"))
        # The table was sent anew below the first deal's result: the newest one.
        table = next(
            m for m in reversed(cast.group.messages(from_bot=True))
            if m.text.startswith("Тысяча ·")
        )
        lines = table.text.splitlines()
        assert lines[0].endswith(TR.text(LANG, "phase-stopped")), lines[0]
        assert lines[-1] == stopped
        assert not any(line.startswith("▶") for line in lines), table.text
        assert table.buttons() == []
        for user in driver.users:
            hand = driver.hand(user)
            assert hand is not None and hand.message_id == hands[user.id].message_id  # type: ignore[union-attr]
            assert hand.buttons() == []
            assert hand.text.splitlines()[-1] == stopped
            for prompt in ("hand-prompt-lead", "hand-prompt-follow", "hand-prompt-bid"):
                assert TR.text(LANG, prompt) not in hand.text
            assert "Ждём" not in hand.text

        # The result like any match end: the score sheet with the scores so far.
        result = await server.wait_for_message(cast.group, after=asked)
        check_score_sheet(result)
        caption = result.text
        title = plain(TR.text(LANG, "stopped-title", game="Тысяча", name="Алиса"))
        assert caption.startswith(title), caption
        assert plain(TR.text(LANG, "stopped-scores")) in caption
        for user in driver.users:
            assert user.first_name in caption


async def test_top_after_a_stopped_match_names_its_game(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    """A chat whose only match was a stopped «Тысяча одно» asks /top: it is told that game has
    no ratings yet (the stopped match rates nobody), not Тысяча."""
    async with running_bot(server, tmp_path / "bot.db") as bot:
        driver = Driver(server, cast.group, [cast.alice, cast.bob, cast.carol], bot)
        table = await driver.open_lobby(cast.alice, "/new 1001", by_button=[cast.bob, cast.carol])
        await driver.start(cast.alice, table)
        await driver.say(cast.alice, "/stop")
        asked = await driver.say(cast.bob, "/top")
        top = await server.wait_for_message(cast.group, after=asked)
        assert top.text == plain(
            "\n".join([TR.text(LANG, "rec-top-title", game="Тысяча одно"), "",
                       TR.text(LANG, "rec-top-empty")])
        )
