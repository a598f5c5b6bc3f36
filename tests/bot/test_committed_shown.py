"""What is committed is shown: a bot process killed with SIGKILL right after the commit of a
deal-ending or a match-ending press, before it handed anything of it to the outbox, shows
all of it after the restart — the deal result, the match result with its score sheet and the
final table, each exactly once — and no hand keeps its buttons after the end.

The kill comes from a ``sitecustomize`` hook in the first process only, which patches
`Screens.deliver` (called right after the commit with the batch the commit stored). The
restarted bot must then show what an uninterrupted bot (in this process, against a second
fake server) shows for the same deal seed and presses.
"""

from __future__ import annotations

import asyncio
import functools
import signal
from pathlib import Path

import pytest

from engine import Concede, Give
from storage import Store
from tests.bot.conftest import Cast
from tests.bot.harness import Driver, bot_process, check_score_sheet, running_bot
from tests.bot.policies import thousand
from tests.fakebot import FakeTelegramServer, SimChat, SimMessage

POLICY = thousand(play_deals=1)
ROOT = Path(__file__).resolve().parents[2]
KILLER = f"""
import os, signal, sys
sys.path.insert(0, {str(ROOT)!r})
from bot.match.screens import Screens

_deliver = Screens.deliver


def deliver(self, live, batch):
    if any(row.kind == os.environ["KILL_AT_KIND"] for row in batch.rows):
        os.kill(os.getpid(), signal.SIGKILL)  # committed, nothing handed to the outbox
    return _deliver(self, live, batch)


Screens.deliver = deliver
"""


async def _gather(driver: Driver, cast: Cast) -> None:
    lobby = await driver.open_lobby(cast.alice, "/new", by_button=[cast.bob, cast.carol])
    await driver.start(cast.alice, lobby)


def _posts(group: SimChat) -> list[SimMessage]:
    """The group's new messages after the table (the lobby message, edited into it)."""
    return group.messages(from_bot=True)[1:]


def _seen(driver: Driver) -> tuple[str, list[str], list[str]]:
    """What the group and the players see at the end: the table, the posts, the hands."""
    table = driver.group.messages(from_bot=True)[0]
    hands = []
    for user in driver.users:
        hand = driver.hand(user)
        assert hand is not None
        assert hand.buttons() == [], f"{user.first_name}'s hand keeps its buttons"
        hands.append(hand.text)
    return table.text, [m.text for m in _posts(driver.group)], hands


async def _reference(tmp_path: Path) -> tuple[str, list[str], list[str]]:
    async with FakeTelegramServer() as server:
        server.limits.enabled = False
        people = [server.user(101 + n, name) for n, name in enumerate(("Алиса", "Борис", "Вера"))]
        for user in people:
            await user.start_bot()
        alice, bob, carol = people
        dave = server.user(104, "Глеб")
        group = server.group(title="Четверг", members=[*people, dave])
        cast = Cast(alice, bob, carol, dave, group)
        async with running_bot(server, tmp_path / "reference.db") as bot:
            driver = Driver(server, group, people, bot)
            await _gather(driver, cast)
            assert await driver.play(POLICY) is not None
        return _seen(driver)


async def _play_until_killed(driver: Driver, process: asyncio.subprocess.Process) -> None:
    """Press what the policy picks, without waiting for answers, until the bot dies."""
    while process.returncode is None:
        await driver.server.settle(quiet=0.05)
        options = driver.options()
        choices = driver.card_choices()
        if choices and not any(isinstance(o.action, Give) for o in options):
            # Giving takes two steps: the card (the policy gives its lowest), then whom to.
            user, message, data, _ = min(choices, key=lambda c: c[3].menu.card or 0)
            await user.press(message, data)
            await driver.server.wait_for(
                lambda: any(isinstance(o.action, Give) for o in driver.options())
                or process.returncode is not None,
                timeout=30,
                what="the recipients of the card",
            )
            continue
        newest = max(o.press.version for o in options)
        options = [o for o in options if o.press.version == newest]
        action = POLICY([o.action for o in options], driver.deal_number())
        option = next(o for o in options if o.action == action)
        await option.user.press(option.message, option.data)
        if isinstance(action, Concede):
            # Conceding asks first: the second press of the same button does it.
            await driver.server.wait_for(
                functools.partial(_asked, option.message, process),
                timeout=30,
                what="the question whether to concede",
            )
            if process.returncode is None:
                await option.user.press(option.message, option.data)
        await driver.server.wait_for(
            functools.partial(_moved_on, driver, process, newest),
            timeout=30,
            what="the next keyboard or the bot's death",
        )
    assert await process.wait() == -signal.SIGKILL


def _asked(message: SimMessage, process: asyncio.subprocess.Process) -> bool:
    """The hand shows the question (its two buttons: yes and back), or the bot died."""
    return len(message.buttons()) == 2 or process.returncode is not None


def _moved_on(driver: Driver, process: asyncio.subprocess.Process, version: int) -> bool:
    return (
        process.returncode is not None
        or any(o.press.version > version for o in driver.options())
        or any(c[3].version > version for c in driver.card_choices())
    )


@pytest.mark.parametrize("kind", ["post", "ending"])
async def test_a_kill_right_after_the_commit_loses_nothing_shown(
    server: FakeTelegramServer, cast: Cast, tmp_path: Path, kind: str
) -> None:
    database, output = tmp_path / "bot.db", tmp_path / "bot.log"
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "sitecustomize.py").write_text(KILLER, encoding="utf-8")
    players = [cast.alice, cast.bob, cast.carol]
    driver = Driver(server, cast.group, players)
    async with bot_process(
        server, database, output, PYTHONPATH=str(hooks), KILL_AT_KIND=kind
    ) as first:
        await _gather(driver, cast)
        await _play_until_killed(driver, first)
    async with await Store.open(database) as store:
        # The press was committed with its messages; none of them was delivered.
        assert await store.outbox.count() > 0
        match = await store.matches.get(1)
        assert match is not None
        assert (match.status == "finished") == (kind == "ending")
    posts_before = len(_posts(cast.group))
    async with bot_process(server, database, output) as second:
        result = await driver.play(POLICY)
        assert result is not None
        await server.settle(quiet=0.3)
        second.send_signal(signal.SIGTERM)
        assert await second.wait() == 0, output.read_text()
    async with await Store.open(database) as store:
        assert await store.outbox.count() == 0
    check_score_sheet(result)
    table, posts, hands = _seen(driver)
    expected_table, expected_posts, expected_hands = await _reference(tmp_path)
    assert len(posts) > posts_before
    assert posts == expected_posts  # each deal result and the match result, once
    assert table == expected_table
    assert hands == expected_hands
    assert [m.kind for m in _posts(cast.group)].count("photo") == 1
