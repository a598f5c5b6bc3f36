"""Long /top and /history lists come in pages with ◀ ▶ buttons that edit the message in
place, in the chat's language; /top flags computer players and has a humans-only view (by its
button, or ``/top люди``); a game is chosen by name; forged page buttons are refused.

The chat's records are stored directly (golden scripts ended with `end_match`, and stopped
matches), so that the lists are long without playing a dozen matches through the buttons."""

from __future__ import annotations

from pathlib import Path

from bot.handlers.records import HISTORY, TOP, TopView, history_data
from bot.records import end_match, history_text, page_request, top_text
from bot.services import Services
from bot.telegram.callbacks import LobbyPress, PagePress, StalePage, decode
from engine import Game
from storage import NewSeat, PlayerRef, Store
from tests.bot.conftest import Cast
from tests.bot.harness import TR, Driver, plain, running_bot
from tests.bot.records.scripts import script, split
from tests.fakebot import FakeTelegramServer, SimMessage, SimUser

FINISHED = (
    "barrel-win-880-plus-contract",
    "barrel-outright-win-from-below",
    "match-ends-at-minus-1000",
    "barrel-golden-round-win",
)
STOPPED = 8


async def _match(store: Store, chat_id: int, name: str, players: list[PlayerRef], *,
                 played: bool) -> None:
    """The golden script ``name`` as a match of ``players`` in the chat, ended with its result
    (played to its end, or stopped before its first deal)."""
    header, log = split(script(name))
    match = await store.matches.create(
        chat_id, game=Game.THOUSAND, players=3, rules="\n".join(header),
        seats=[
            NewSeat.human(p.user_id) if p.user_id is not None
            else NewSeat.computer(p.computer_level or "")
            for p in players
        ],
    )
    async with store.transaction():
        if played:
            await store.matches.append_actions(match.match_id, 0, log)
        await end_match(store, match.match_id)


async def _records(services: Services, cast: Cast) -> None:
    """12 players of Тысяча in the group (3 humans, 9 computer players) and 12 ended
    matches (4 finished, 8 stopped)."""
    store = services.store
    await store.chats.upsert(cast.group.id, type="supergroup", title=cast.group.title)
    humans = [cast.alice, cast.bob, cast.carol]
    for user in humans:
        await store.users.upsert(user.id, first_name=user.first_name)
    computers = [PlayerRef.computer(f"c{n}") for n in range(1, 10)]
    tables = [
        [PlayerRef.human(cast.alice.id), PlayerRef.human(cast.bob.id), computers[0]],
        [PlayerRef.human(cast.carol.id), *computers[1:3]],
        computers[3:6],
        computers[6:9],
    ]
    for name, players in zip(FINISHED, tables, strict=True):
        await _match(store, cast.group.id, name, players, played=True)
    for _ in range(STOPPED):
        await _match(store, cast.group.id, FINISHED[0], tables[0], played=False)


async def _top(
    services: Services, cast: Cast, lang: str, number: int = 1, *, humans_only: bool = False,
    game: Game = Game.THOUSAND,
) -> str:
    request = page_request(number)
    page = await services.store.results.leaderboard(
        cast.group.id, game, humans_only=humans_only, limit=request.limit,
        offset=request.offset,
    )
    return plain(top_text(page, game, lang, TR, humans_only=humans_only))


async def _history(services: Services, cast: Cast, lang: str, number: int) -> str:
    request = page_request(number)
    page = await services.store.results.history(
        cast.group.id, limit=request.limit, offset=request.offset
    )
    return plain(history_text(page, lang, TR))


async def _answer(driver: Driver, user: SimUser, text: str) -> SimMessage:
    asked = await driver.say(user, text)
    return await driver.server.wait_for_message(driver.group, after=asked)


async def _turn(driver: Driver, user: SimUser, message: SimMessage, button: str) -> None:
    answer = await driver.press(user, message, button)
    assert answer.text is None, answer.text


async def test_top_and_history_in_pages(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path
) -> None:
    async with running_bot(server, tmp_path / "bot.db") as bot:
        services = bot.services
        await _records(services, cast)
        driver = Driver(server, cast.group, [cast.alice, cast.bob, cast.carol], bot)
        ru = {key: TR.text("ru", f"rec-{key}") for key in (
            "page-previous", "page-next", "top-humans-only", "top-everyone",
        )}

        top = await _answer(driver, cast.alice, "/top")
        assert top.text == await _top(services, cast, "ru", 1)
        assert "🤖 Компьютер (c" in top.text  # computer players are flagged
        assert "Страница 1 из 2" in top.text
        assert top.button_rows() == [[ru["page-next"]], [ru["top-humans-only"]]]
        await _turn(driver, cast.bob, top, ru["page-next"])
        assert top.text == await _top(services, cast, "ru", 2)
        assert "Страница 2 из 2" in top.text and top.text.count(" · ") == 2
        assert top.button_rows() == [[ru["page-previous"]], [ru["top-humans-only"]]]
        await _turn(driver, cast.bob, top, ru["page-previous"])
        assert top.text == await _top(services, cast, "ru", 1)
        await _turn(driver, cast.carol, top, ru["top-humans-only"])
        assert top.text == await _top(services, cast, "ru", humans_only=True)
        assert "🤖" not in top.text and "(только люди)" in top.text
        assert top.button_rows() == [[ru["top-everyone"]]]
        await _turn(driver, cast.carol, top, ru["top-everyone"])
        assert top.text == await _top(services, cast, "ru", 1)
        assert len([m for m in cast.group.messages(from_bot=True) if m.text.startswith("🏆")]) == 1

        humans = await _answer(driver, cast.alice, "/top тысяча люди")
        assert humans.text == await _top(services, cast, "ru", humans_only=True)
        other = await _answer(driver, cast.alice, "/top 1001")
        assert other.text == await _top(services, cast, "ru", game=Game.THOUSAND_ONE)
        assert other.text.endswith(TR.text("ru", "rec-top-empty"))
        usage = await _answer(driver, cast.alice, "/top шахматы")
        assert usage.text == TR.text("ru", "rec-top-usage")

        history = await _answer(driver, cast.bob, "/history")
        assert history.text == await _history(services, cast, "ru", 1)
        assert history.text.count("остановлена") == STOPPED
        assert history.button_rows() == [[ru["page-next"]]]
        await _turn(driver, cast.alice, history, ru["page-next"])
        assert history.text == await _history(services, cast, "ru", 2)
        assert history.text.count("🏆") == 2
        assert history.button_rows() == [[ru["page-previous"]]]

        await driver.say(cast.alice, "/lang en")
        top = await _answer(driver, cast.alice, "/top")
        assert top.text == await _top(services, cast, "en", 1)
        assert top.text.startswith("🏆 Thousand — this chat's ratings")
        assert top.button_rows() == [
            [TR.text("en", "rec-page-next")], [TR.text("en", "rec-top-humans-only")],
        ]
        await _turn(driver, cast.bob, top, TR.text("en", "rec-page-next"))
        assert top.text == await _top(services, cast, "en", 2)
        assert "Page 2 of 2" in top.text
        # An older Russian list, paged now, speaks the group's language.
        await _turn(driver, cast.alice, history, ru["page-previous"])
        assert history.text == await _history(services, cast, "en", 1)
        assert history.button_rows() == [[TR.text("en", "rec-page-next")]]


def test_the_page_buttons_data() -> None:
    view = TopView(Game.THOUSAND_ONE, humans_only=True, page=12)
    press = decode(view.data(), 4)
    assert isinstance(press, PagePress) and press.kind == TOP
    assert TopView.parse(press.arg) == view
    history = decode(history_data(3), 4)
    assert isinstance(history, PagePress) and history.kind == HISTORY
    assert history.arg == "3"
    for forged in ("", "0:thousand:a", "1:chess:a", "1:thousand:x", "1:thousand:a:b", "x:t:a"):
        assert TopView.parse(forged) is None, forged
    lobby = decode("l:1:top:1:thousand:a", 4)
    assert isinstance(lobby, LobbyPress) and lobby.lobby_id == 1
    # The page buttons of old messages, from when they posed as presses on "lobby 0".
    assert decode("l:0:top:1:thousand:a", 4) == StalePage(TOP)
    assert decode("l:0:hist:2", 4) == StalePage(HISTORY)
