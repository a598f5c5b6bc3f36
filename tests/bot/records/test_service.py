"""Scripted matches through `end_match` on a real SQLite file: the totals and ratings equal
the values worked out by hand, abandoned matches count for the history only, two matches
ending at once in two chats both land, and the export lists a player's matches."""

from __future__ import annotations

import asyncio
import csv
import io
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.i18n import Translator
from bot.records import end_match, export_csv, summarize, summary_of
from bot.records.summary import MatchSummary
from engine import Game
from storage import Counters, NewSeat, PlayerRef, Results, Store, VersionConflict
from tests.bot.records.scripts import players_in, script, split
from tests.bot.records.test_rating import MU, SIGMA, by_hand
from tests.storage.helpers import GROUP, OTHER_GROUP, USERS, Clock, seed

ALICE, BOB, CAROL, DAVE = (PlayerRef.human(u) for u in USERS)
BOT = PlayerRef.computer("strong")
TR = Translator(strict=True)


@pytest.fixture
async def store(tmp_path: Path, clock: Clock) -> AsyncIterator[Store]:
    async with await Store.open(tmp_path / "records.db", clock=clock) as opened:
        await seed(opened)
        yield opened


@pytest.fixture
def clock() -> Clock:
    return Clock()


def seat(player: PlayerRef) -> NewSeat:
    if player.user_id is not None:
        return NewSeat.human(player.user_id)
    return NewSeat.computer(player.computer_level or "")


async def start(
    store: Store, name: str, players: tuple[PlayerRef, ...], chat_id: int = GROUP,
    cut: int | None = None,
) -> tuple[int, int, list[str]]:
    """Store the golden script as a running match with all but its last ``cut`` lines (by
    default all but the last line); return the id, the version and the lines still to come."""
    header, log = split(script(name))
    game: Game = Game.THOUSAND
    for line in header:
        if line.split()[0] == "game":
            game = Game.TUMBOCHKA if line.split()[1] == Game.TUMBOCHKA else game
    match = await store.matches.create(
        chat_id, game=game, players=players_in(header), rules="\n".join(header),
        seats=[seat(p) for p in players],
    )
    keep = len(log) - 1 if cut is None else cut
    version = await store.matches.append_actions(match.match_id, 0, log[:keep])
    return match.match_id, version, log[keep:]


async def finish(store: Store, match_id: int, version: int, rest: list[str]) -> MatchSummary:
    """The game service's last step: the last action and the result in one transaction."""
    async with store.transaction():
        await store.matches.append_actions(match_id, version, rest)
        return await end_match(store, match_id)


async def play(
    store: Store, clock: Clock, name: str, players: tuple[PlayerRef, ...],
    chat_id: int = GROUP,
) -> MatchSummary:
    match_id, version, rest = await start(store, name, players, chat_id)
    clock.advance(600)
    return await finish(store, match_id, version, rest)


async def test_three_thousand_matches_add_up(store: Store, clock: Clock) -> None:
    results = Results(store.db)
    first = await play(store, clock, "barrel-win-880-plus-contract", (ALICE, BOB, BOT))
    assert (first.winner, first.scores) == (0, (1001, 0, 0))
    await play(store, clock, "barrel-outright-win-from-below", (BOB, ALICE, BOT))
    await play(store, clock, "match-ends-at-minus-1000", (ALICE, BOT, BOB))
    await play(store, clock, "tumbochka-sitter-wins-raised-contract", (CAROL, ALICE, BOT),
               chat_id=OTHER_GROUP)

    # Alice: won the barrel (1001, +2002), second with 0 (−1005), last at −1000 (−1010).
    (alice, tumbochka) = await results.stats_for(ALICE)
    assert (alice.matches, alice.wins, alice.places) == (3, 1, (1, 1, 1, 0))
    assert (alice.score_sum, alice.settlement_sum, alice.seconds_played) == (1, -13, 1800)
    assert alice.counters == Counters(
        deals=3, contracts=2, contracts_made=1, contracts_failed=1, contract_points=121 + 105,
        marriages_hearts=1, perch_made=1, bolts=1,
    )
    assert (tumbochka.game, tumbochka.places, tumbochka.counters.deals) == (
        "tumbochka", (0, 0, 1, 0), 1,
    )
    (bot, _) = await results.stats_for(BOT)
    assert (bot.matches, bot.wins, bot.places, bot.counters.bolts) == (3, 1, (1, 0, 2, 0), 1)

    # Ratings, match by match, with the update worked out by hand.
    mu = {ALICE: MU, BOB: MU, BOT: MU}
    sigma = dict.fromkeys(mu, SIGMA)
    for seats, places in (
        ((ALICE, BOB, BOT), [1, 2, 3]), ((BOB, ALICE, BOT), [1, 2, 3]),
        ((ALICE, BOT, BOB), [3, 1, 2]),
    ):
        after = by_hand([mu[p] for p in seats], [sigma[p] for p in seats], places)
        for player, (m, s) in zip(seats, after, strict=True):
            mu[player], sigma[player] = m, s
    for player in (ALICE, BOB, BOT):
        rating = await results.rating_of(player, Game.THOUSAND)
        assert rating is not None and rating.matches == 3
        assert rating.mu == pytest.approx(mu[player])
        assert rating.sigma == pytest.approx(sigma[player])

    board = await results.leaderboard(GROUP, Game.THOUSAND)
    assert {(e.player, e.matches, e.wins) for e in board.items} == {
        (ALICE, 3, 1), (BOB, 3, 1), (BOT, 3, 1),
    }
    history = await results.history(GROUP)
    assert [e.winner for e in history.items] == [1, 0, 0]
    assert [e.seats[e.winner].player for e in history.items if e.winner is not None] == [
        BOT, BOB, ALICE,
    ]

    rows = list(csv.reader(io.StringIO(
        export_csv(await results.matches_of_user(USERS[0]), USERS[0], "en", TR).decode(
            "utf-8-sig"
        )
    )))
    assert rows[0][0] == "Date (UTC)" and len(rows) == 5
    assert [(r[2], r[5], r[6], r[7], r[8]) for r in rows[1:]] == [
        ("Thousand", "p1", "1", "1001", "2002"),
        ("Thousand", "p2", "2", "0", "-1005"),
        ("Thousand", "p1", "3", "-1000", "-1010"),
        ("Tumbochka", "p2", "3", "4", "-16"),
    ]


async def test_a_stopped_match_is_history_only(store: Store) -> None:
    results = Results(store.db)
    match_id, version, rest = await start(
        store, "bolt-third-costs-120", (ALICE, BOB, BOT), cut=40
    )
    during = await summary_of(store, match_id)
    assert during.running and during.deals == 1 and during.version == version
    with pytest.raises(RuntimeError):
        await end_match(store, match_id)
    async with store.transaction():
        summary = await end_match(store, match_id)  # /stop
    assert summary.winner is None and summary.settlement is None
    match = await store.matches.get(match_id)
    assert match is not None and match.status == "abandoned"
    assert await results.stats_for(ALICE) == []
    assert await results.rating_of(ALICE, Game.THOUSAND) is None
    (entry,) = (await results.history(GROUP)).items
    assert (entry.status, entry.recorded, [s.score for s in entry.seats]) == (
        "abandoned", True, [100, -120, 0],
    )
    assert rest  # the rest of the script was never played


async def test_two_matches_ending_at_once_in_two_chats(store: Store, clock: Clock) -> None:
    first = await start(store, "barrel-win-880-plus-contract", (ALICE, BOB, BOT), GROUP)
    second = await start(store, "match-ends-at-minus-1000", (CAROL, DAVE, BOT), OTHER_GROUP)
    clock.advance(60)
    one, two = await asyncio.gather(finish(store, *first), finish(store, *second))
    assert (one.winner, two.winner) == (0, 1)
    results = Results(store.db)
    for chat_id in (GROUP, OTHER_GROUP):
        (entry,) = (await results.history(chat_id)).items
        assert entry.status == "finished" and entry.recorded
    rating = await results.rating_of(BOT, Game.THOUSAND)
    assert rating is not None and rating.matches == 2
    (bot,) = await results.stats_for(BOT)
    assert (bot.matches, bot.wins) == (2, 0)  # Dave won the second


async def test_a_summary_made_by_the_caller_must_cover_the_whole_log(store: Store) -> None:
    match_id, version, rest = await start(store, "barrel-win-880-plus-contract", (ALICE, BOB, BOT))
    header, log = split(script("barrel-win-880-plus-contract"))
    early = summarize(header, log[:-1], (ALICE, BOB, BOT), match_id=match_id)
    with pytest.raises(VersionConflict):
        async with store.transaction():
            await store.matches.append_actions(match_id, version, rest)
            await end_match(store, match_id, early)
    with pytest.raises(ValueError):
        async with store.transaction():
            await end_match(store, match_id + 1, early)
    whole = summarize(header, log, (ALICE, BOB, BOT), match_id=match_id)
    async with store.transaction():
        await store.matches.append_actions(match_id, version, rest)
        assert await end_match(store, match_id, whole) is whole
    match = await store.matches.get(match_id)
    assert match is not None and match.status == "finished"
