"""People who come and go: leaving the group (lobby seat freed, running match kept), a player
the bot cannot write to (403) who opens the bot through the table's link, and /stop."""

from __future__ import annotations

from pathlib import Path

from tests.bot.conftest import Cast
from tests.bot.harness import LANG, TR, Driver, plain, running_bot
from tests.bot.policies import thousand
from tests.fakebot import FakeTelegramServer, SimMessage


def _url_buttons(message: SimMessage) -> list[str]:
    return [str(b["url"]) for b in message.buttons() if "url" in b]


async def test_leaving_the_group_frees_the_lobby_seat(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    async with running_bot(server, tmp_path / "bot.db") as bot:
        driver = Driver(server, cast.group, [cast.alice, cast.bob, cast.carol], bot)
        lobby = await driver.open_lobby(cast.alice, "/new", by_button=[cast.bob, cast.carol])
        assert "3 из 3" in lobby.text
        await cast.group.remove(cast.bob)
        await driver.settle()
        assert "2 из 3" in lobby.text and "Борис" not in lobby.text
        await cast.group.remove(cast.carol, by=cast.alice)
        await driver.settle()
        assert "1 из 3" in lobby.text and "Вера" not in lobby.text


async def test_a_removed_player_keeps_playing_in_private(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    async with running_bot(server, tmp_path / "bot.db") as bot:
        driver = Driver(server, cast.group, [cast.alice, cast.bob, cast.carol], bot)
        lobby = await driver.open_lobby(cast.alice, "/new", by_button=[cast.bob, cast.carol])
        await driver.start(cast.alice, lobby)
        await driver.play(thousand(), stop=lambda d: d.presses == 5)
        await cast.group.remove(cast.carol, by=cast.alice)
        await driver.settle()
        result = await driver.play(thousand())
        assert result is not None and "Вера" in result.text


async def test_a_player_the_bot_cannot_reach_opens_it_from_the_table(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    async with running_bot(server, tmp_path / "bot.db") as bot:
        driver = Driver(server, cast.group, [cast.alice, cast.bob, cast.dave], bot)
        lobby = await driver.open_lobby(cast.alice, "/new", by_button=[cast.bob, cast.dave])
        assert "Глеб" in lobby.text.split(TR.text(LANG, "lobby-rules-default"))[1]  # the hint
        assert server.deep_link("lobby-1") in _url_buttons(lobby)
        await driver.start(cast.alice, lobby)
        assert driver.hand(cast.dave) is None
        assert any(c.status == 403 and c.chat_id == cast.dave.id for c in server.calls)
        links = _url_buttons(lobby)  # the lobby message is the table now
        assert links == [server.deep_link("play-1")]
        await cast.dave.open_link(links[0])
        await driver.settle()
        assert driver.hand(cast.dave) is not None
        assert _url_buttons(lobby) == []
        result = await driver.play(thousand())
        assert result is not None


async def test_stop_by_the_creator_or_an_admin_only(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    await cast.group.set_admin(cast.dave)
    async with running_bot(server, tmp_path / "bot.db") as bot:
        driver = Driver(server, cast.group, [cast.alice, cast.bob, cast.carol], bot)
        lobby = await driver.open_lobby(cast.alice, "/new", by_button=[cast.bob, cast.carol])
        await driver.start(cast.alice, lobby)
        asked = await driver.say(cast.bob, "/stop")
        refused = await server.wait_for_message(cast.group, after=asked)
        assert refused.text == TR.text(LANG, "bot-stop-not-allowed")
        await driver.say(cast.dave, "/stop")
        assert lobby.text.splitlines()[-1] == plain(TR.text(LANG, "state-stopped", name="Глеб"))
        assert driver.options() == []
        match = await bot.services.store.matches.get(1)
        assert match is not None and match.status == "abandoned"
        await driver.say(cast.bob, "/new 1001")
        assert (await driver.lobby()).message_id != lobby.message_id


async def test_stop_cancels_an_open_lobby(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    async with running_bot(server, tmp_path / "bot.db") as bot:
        driver = Driver(server, cast.group, [cast.alice], bot)
        lobby = await driver.open_lobby(cast.alice, "/new")
        await driver.say(cast.alice, "/stop")
        assert lobby.text == TR.text(LANG, "lobby-cancelled") and lobby.buttons() == []
