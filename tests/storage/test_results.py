"""Results on a real SQLite file: migration 2, recording a match in the caller's transaction,
the totals, ratings, leaderboard, history and export queries, and what the schema refuses."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from engine import Game
from storage import (
    COUNTER_NAMES,
    LATEST_VERSION,
    AlreadyRecorded,
    ConstraintViolation,
    Counters,
    Database,
    MatchResult,
    MatchWrite,
    NewSeat,
    NotFound,
    PlayerRef,
    Rating,
    Results,
    Store,
    VersionConflict,
    WrongStatus,
)
from storage.migrations import MIGRATIONS
from tests.storage.helpers import GROUP, OTHER_GROUP, RULES_3, USERS, Clock, seed

ALICE, BOB, CAROL, DAVE = (PlayerRef.human(u) for u in USERS)
BOT = PlayerRef.computer("strong")
RESULT_TABLES = {"match_results", "match_result_seats", "player_stats", "ratings"}


def tables(path: Path) -> set[str]:
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    finally:
        conn.close()
    return {str(name) for (name,) in rows}


async def start(
    store: Store, seats: tuple[PlayerRef, ...] = (ALICE, BOB, BOT), chat_id: int = GROUP,
    lines: int = 2,
) -> int:
    """A running three-seat Тысяча match with ``lines`` log lines; its id."""
    match = await store.matches.create(
        chat_id, game=Game.THOUSAND, players=3, rules=RULES_3,
        seats=[
            NewSeat.human(p.user_id) if p.user_id is not None
            else NewSeat.computer(p.computer_level or "")
            for p in seats
        ],
    )
    await store.matches.append_actions(
        match.match_id, 0, [f"# line {i}" for i in range(1, lines + 1)]
    )
    return match.match_id


def result(
    match_id: int, *, players: tuple[PlayerRef, ...] = (ALICE, BOB, BOT),
    winner: int | None = 0, scores: tuple[int, ...] = (1001, 400, -120),
    places: tuple[int, ...] = (1, 2, 3), version: int = 2,
    counters: tuple[Counters, ...] = (),
) -> MatchResult:
    settlement = None
    if winner is not None:
        settlement = tuple(s - scores[winner] for s in scores)
        settlement = tuple(
            -sum(settlement) if seat == winner else paid for seat, paid in enumerate(settlement)
        )
    return MatchResult(
        match_id=match_id, game=Game.THOUSAND, players=players, version=version, winner=winner,
        scores=scores, places=places, settlement=settlement, deals=12, counters=counters,
    )


def ratings_for(res: MatchResult, mu: tuple[float, ...], matches: int = 1) -> list[Rating]:
    return [
        Rating(player=p, game=res.game, mu=m, sigma=7.5, matches=matches)
        for p, m in zip(res.players, mu, strict=True)
    ]


# -------------------------------------------------------------------- migration 2


async def test_migration_2_creates_the_result_tables_on_an_empty_database(
    tmp_path: Path,
) -> None:
    path = tmp_path / "fresh.db"
    async with await Database.open(path) as db:
        assert await db.fetch_value("PRAGMA user_version") == LATEST_VERSION >= 2
        assert await db.fetch_value("PRAGMA foreign_key_check") is None
        columns = {c["name"] for c in await db.fetch_all("PRAGMA table_info(player_stats)")}
    assert tables(path) >= RESULT_TABLES
    assert set(COUNTER_NAMES) <= columns, "every counter needs its column (a new migration)"


async def test_migration_2_applies_on_top_of_version_1_and_keeps_the_data(
    tmp_path: Path,
) -> None:
    path = tmp_path / "v1.db"
    async with await Database.open(path, migrations=MIGRATIONS[:1]) as db:
        store = Store(db)
        # The users repository reads today's columns: version 1's rows are written by hand.
        await store.chats.upsert(GROUP, type="supergroup", title="Преферансисты")
        async with db.transaction():
            for user_id in USERS:
                await db.execute(
                    "INSERT INTO users (user_id, first_name, private_chat_opened, created_at,"
                    " updated_at) VALUES (?, ?, 0, ?, ?)",
                    (user_id, f"User {user_id}", "2024-05-01T00:00:00Z",
                     "2024-05-01T00:00:00Z"),
                )
            # So are its match rows: the matches repository reads today's columns too.
            match_id = await db.fetch_value(
                "INSERT INTO matches (chat_id, game, players, rules, created_at, updated_at) "
                "VALUES (?, 'thousand', 3, ?, ?, ?) RETURNING match_id",
                (GROUP, RULES_3, "2024-05-01T00:00:00Z", "2024-05-01T00:00:00Z"),
            )
            assert isinstance(match_id, int)
            await db.execute_many(
                "INSERT INTO match_seats (match_id, seat, user_id, computer_level) "
                "VALUES (?, ?, ?, ?)",
                [(match_id, 0, USERS[0], None), (match_id, 1, USERS[1], None),
                 (match_id, 2, None, "strong")],
            )
            await db.execute_many(
                "INSERT INTO match_log (match_id, seq, line, created_at) VALUES (?, ?, ?, ?)",
                [(match_id, seq, f"# line {seq}", "2024-05-01T00:00:00Z") for seq in (1, 2)],
            )
            await db.execute(
                "UPDATE matches SET status = 'finished', winner_seat = 0, finished_at = ? "
                "WHERE match_id = ?",
                ("2024-05-01T01:00:00Z", match_id),
            )
    assert not tables(path) & RESULT_TABLES
    async with await Store.open(path) as store:
        assert await store.db.fetch_value("PRAGMA user_version") == LATEST_VERSION
        match = await store.matches.get(match_id)
        assert match is not None and match.status == "finished"
        results = Results(store.db)
        # An old match has no result: it shows in the history without scores.
        assert await results.unrecorded() == [match_id]
        page = await results.history(GROUP)
        assert page.total == 1 and not page.items[0].recorded
        assert [s.score for s in page.items[0].seats] == [None, None, None]
    assert tables(path) >= RESULT_TABLES


# -------------------------------------------------------------------- recording


async def test_record_match_needs_the_callers_transaction(store: Store) -> None:
    match_id = await start(store)
    res = result(match_id)
    with pytest.raises(RuntimeError, match="inside the transaction"):
        await Results(store.db).record_match(res, ratings_for(res, (30, 25, 20)))
    match = await store.matches.get(match_id)
    assert match is not None and match.status == "running"


async def test_a_finished_match_is_ended_and_recorded_with_its_last_action(
    store: Store, clock: Clock
) -> None:
    results = Results(store.db)
    match_id = await start(store)
    clock.advance(3600 + 125)
    res = result(match_id, version=3, counters=(
        Counters(deals=12, contracts=5, contracts_made=4, contracts_failed=1,
                 contract_points=620, marriages_hearts=2, perch_mounted=1, perch_made=1),
        Counters(deals=12, bolts=4, bolt_penalties=1, concessions=1),
        Counters(deals=12, dump_trucks=1),
    ))
    async with store.transaction():
        version = await store.matches.append_actions(match_id, 2, ["p1 play KH"])
        assert version == 3
        await results.record_match(res, ratings_for(res, (31.5, 24.0, 19.25)))
    match = await store.matches.get(match_id)
    assert match is not None
    assert (match.status, match.winner_seat, match.finished_at) == ("finished", 0, clock.now)

    alice = await results.stats_for(ALICE)
    assert len(alice) == 1
    a = alice[0]
    assert (a.game, a.matches, a.wins, a.places, a.score_sum, a.settlement_sum) == (
        "thousand", 1, 1, (1, 0, 0, 0), 1001, 601 + 1121,
    )
    assert a.seconds_played == 3725
    assert a.counters.contracts_made == 4 and a.counters.marriages == (0, 0, 0, 2)
    assert a.counters.average_contract == 124
    assert a.rating == Rating(player=ALICE, game=Game.THOUSAND, mu=31.5, sigma=7.5, matches=1)
    bot = await results.stats_for(BOT, Game.THOUSAND)
    assert bot[0].places == (0, 0, 1, 0) and bot[0].counters.dump_trucks == 1
    assert await results.stats_for(CAROL) == []
    assert await results.rating_of(BOB, Game.THOUSAND) == Rating(
        player=BOB, game=Game.THOUSAND, mu=24.0, sigma=7.5, matches=1
    )
    assert await results.rating_of(BOB, Game.TUMBOCHKA) is None

    entry = await results.result_of(match_id)
    assert entry is not None and entry.recorded
    assert (entry.status, entry.winner, entry.deals, entry.duration_seconds) == (
        "finished", 0, 12, 3725,
    )
    assert [(s.player, s.score, s.place, s.settlement) for s in entry.seats] == [
        (ALICE, 1001, 1, 1722), (BOB, 400, 2, -601), (BOT, -120, 3, -1121),
    ]
    assert entry.seats[0].name == "User 101" and entry.seats[2].name is None
    rating_after = entry.seats[2].rating_after
    assert rating_after is not None and rating_after.mu == 19.25


async def test_a_second_match_adds_to_the_totals(store: Store) -> None:
    results = Results(store.db)
    first = await start(store)
    res = result(first, counters=(Counters(bolts=1), Counters(), Counters()))
    async with store.transaction():
        await results.record_match(res, ratings_for(res, (30, 25, 20)))
    second = await start(store, seats=(BOB, ALICE, BOT))
    res = result(second, players=(BOB, ALICE, BOT), winner=2, scores=(300, 200, 1001),
                 places=(2, 3, 1),
                 counters=(Counters(), Counters(bolts=2, bolt_penalties=1), Counters()))
    async with store.transaction():
        await results.record_match(res, ratings_for(res, (26, 28, 22), matches=2))
    (a,) = await results.stats_for(ALICE)
    assert (a.matches, a.wins, a.places, a.score_sum) == (2, 1, (1, 0, 1, 0), 1201)
    assert (a.counters.bolts, a.counters.bolt_penalties) == (3, 1)
    assert a.rating is not None and (a.rating.mu, a.rating.matches) == (28, 2)
    assert a.average_place == 2.0


async def test_an_abandoned_match_counts_for_the_history_only(store: Store) -> None:
    results = Results(store.db)
    match_id = await start(store)
    res = result(match_id, winner=None, scores=(120, 300, 0), places=(2, 1, 3))
    with pytest.raises(ValueError, match="not rated"):
        async with store.transaction():
            await results.record_match(res, ratings_for(res, (1, 2, 3)))
    async with store.transaction():
        await results.record_match(res)
    match = await store.matches.get(match_id)
    assert match is not None and (match.status, match.winner_seat) == ("abandoned", None)
    assert await results.stats_for(ALICE) == []
    assert await results.rating_of(ALICE, Game.THOUSAND) is None
    assert (await results.leaderboard(GROUP, Game.THOUSAND)).total == 0
    page = await results.history(GROUP)
    assert [(e.status, e.recorded) for e in page.items] == [("abandoned", True)]
    assert [s.settlement for s in page.items[0].seats] == [None, None, None]
    assert [s.score for s in page.items[0].seats] == [120, 300, 0]


async def test_a_match_finished_first_in_the_same_transaction_is_accepted(store: Store) -> None:
    results = Results(store.db)
    match_id = await start(store)
    res = result(match_id)
    async with store.transaction():
        await store.matches.finish(match_id, 0)
        await results.record_match(res, ratings_for(res, (30, 25, 20)))
    assert await results.unrecorded() == []


async def test_refusals_leave_nothing_behind(store: Store) -> None:
    results = Results(store.db)
    match_id = await start(store)
    res = result(match_id)
    rated = ratings_for(res, (30, 25, 20))
    cases: list[tuple[MatchResult, list[Rating], type[Exception]]] = [
        (result(match_id, version=1), rated, VersionConflict),
        (result(match_id, players=(BOB, ALICE, BOT)), rated, ValueError),
        (res, rated[:2], ValueError),
        (result(999), rated, NotFound),
    ]
    for bad, ratings, error in cases:
        with pytest.raises(error):
            async with store.transaction():
                await results.record_match(bad, ratings)
    match = await store.matches.get(match_id)
    assert match is not None and match.status == "running"
    assert await store.db.fetch_value("SELECT count(*) FROM match_results") == 0
    async with store.transaction():
        await results.record_match(res, rated)
    with pytest.raises(AlreadyRecorded):
        async with store.transaction():
            await results.record_match(res, rated)
    other = await start(store, chat_id=OTHER_GROUP)
    await store.matches.abandon(other)
    with pytest.raises(WrongStatus):
        async with store.transaction():
            await results.record_match(result(other), ratings_for(res, (1, 2, 3)))


async def test_the_schema_guards_results(store: Store) -> None:
    match_id = await start(store)
    with pytest.raises(ConstraintViolation, match="match_running"):
        await store.db.execute(
            "INSERT INTO match_results VALUES (?, 2, 0, 0, '2024-05-01T12:00:00.000000Z')",
            (match_id,),
        )
    res = result(match_id)
    async with store.transaction():
        await Results(store.db).record_match(res, ratings_for(res, (30, 25, 20)))
    for sql in (
        "UPDATE match_results SET deals = 1",
        "DELETE FROM match_results",
        "UPDATE match_result_seats SET score = 0",
        "DELETE FROM match_result_seats",
    ):
        with pytest.raises(ConstraintViolation, match="append_only"):
            await store.db.execute(sql)
    with pytest.raises(ConstraintViolation, match="player"):
        await store.db.execute(
            "INSERT INTO player_stats (player, game, user_id, updated_at) "
            "VALUES ('u:999', 'thousand', 101, 'x')"
        )


# -------------------------------------------------------------------- reading


async def test_the_leaderboard_orders_by_the_conservative_rating_and_pages(
    store: Store,
) -> None:
    results = Results(store.db)
    seatings = [(ALICE, BOB, BOT), (CAROL, BOB, DAVE), (ALICE, CAROL, BOT)]
    mus = [(40.0, 20.0, 30.0), (26.0, 21.0, 25.0), (41.0, 27.0, 31.0)]
    for seats, mu in zip(seatings, mus, strict=True):
        match_id = await start(store, seats=seats)
        res = result(match_id, players=seats)
        async with store.transaction():
            await results.record_match(res, ratings_for(res, mu))
    elsewhere = await start(store, seats=(DAVE, BOB, CAROL), chat_id=OTHER_GROUP)
    res = result(elsewhere, players=(DAVE, BOB, CAROL))
    async with store.transaction():
        await results.record_match(res, ratings_for(res, (50, 10, 10)))
    page = await results.leaderboard(GROUP, Game.THOUSAND)
    # The ratings are global; the chat decides who is listed and counts its own matches.
    assert [(e.position, e.player, e.matches, e.wins) for e in page.items] == [
        (1, DAVE, 1, 0), (2, ALICE, 2, 2), (3, BOT, 2, 0), (4, BOB, 2, 0), (5, CAROL, 2, 1),
    ]  # Bob and Carol tie at 10 and 2 matches: by key
    assert page.total == 5 and page.items[0].rating.mu == 50
    assert page.items[1].name == "User 101" and page.items[2].name is None
    humans = await results.leaderboard(GROUP, Game.THOUSAND, humans_only=True, limit=2, offset=2)
    assert [(e.position, e.player) for e in humans.items] == [(3, BOB), (4, CAROL)]
    assert humans.total == 4
    assert (await results.leaderboard(GROUP, Game.TUMBOCHKA)).items == ()
    with pytest.raises(ValueError):
        await results.leaderboard(GROUP, Game.THOUSAND, limit=0)


async def test_history_is_newest_first_and_export_lists_a_users_matches(
    store: Store, clock: Clock
) -> None:
    results = Results(store.db)
    ids = []
    for chat_id in (GROUP, OTHER_GROUP, GROUP):
        match_id = await start(store, chat_id=chat_id)
        clock.advance(60)
        res = result(match_id)
        async with store.transaction():
            await results.record_match(res, ratings_for(res, (30, 25, 20)))
        ids.append(match_id)
    running = await start(store, seats=(CAROL, ALICE, BOT))
    page = await results.history(GROUP, limit=1)
    assert [e.match_id for e in page.items] == [ids[2]] and page.total == 2
    page = await results.history(GROUP, limit=1, offset=1)
    assert [e.match_id for e in page.items] == [ids[0]]
    mine = await results.matches_of_user(USERS[0])
    assert [e.match_id for e in mine] == ids and running not in [e.match_id for e in mine]
    assert await results.matches_of_user(USERS[2]) == []
    assert await results.result_of(running) is None


# -------------------------------------------------------------------- concurrency


async def test_two_matches_ending_at_the_same_moment_both_land(
    db_path: Path, clock: Clock
) -> None:
    async with await Store.open(db_path, clock=clock) as store:
        await seed(store)
        results = Results(store.db)
        first = await start(store, seats=(ALICE, BOB, BOT), chat_id=GROUP)
        second = await start(store, seats=(CAROL, DAVE, BOT), chat_id=OTHER_GROUP)

        async def end(match_id: int, players: tuple[PlayerRef, ...]) -> None:
            async with store.transaction():
                version = await store.matches.append_actions(match_id, 2, ["p1 play AS"])
                await asyncio.sleep(0)  # let the other task try to interleave
                current = await results.ratings_of(players, Game.THOUSAND)
                res = result(match_id, players=players, version=version)
                ratings = [
                    Rating(player=p, game=Game.THOUSAND, mu=25 + i, sigma=8,
                           matches=(current[p].matches if p in current else 0) + 1)
                    for i, p in enumerate(players)
                ]
                await results.record_match(res, ratings)

        await asyncio.gather(end(first, (ALICE, BOB, BOT)), end(second, (CAROL, DAVE, BOT)))
    async with await Store.open(db_path, clock=clock) as store:
        results = Results(store.db)
        for match_id in (first, second):
            match = await store.matches.get(match_id)
            assert match is not None and (match.status, match.version) == ("finished", 3)
            assert (await results.result_of(match_id)) is not None
        # The computer player sat in both: neither update of its rating is lost.
        rating = await results.rating_of(BOT, Game.THOUSAND)
        assert rating is not None and rating.matches == 2
        (bot,) = await results.stats_for(BOT)
        assert bot.matches == 2


async def test_a_human_replaced_by_a_computer_keeps_the_result(store: Store) -> None:
    results = Results(store.db)
    match_id = await start(store)
    row = await store.matches.get(match_id)
    assert row is not None
    weak = row.seats[1].model_copy(update={"replaced_by_computer": True, "computer_level": "weak"})
    await store.matches.commit(MatchWrite(match_id, row.version, seats=(weak,)))
    res = result(match_id)  # Bob's seat is still Bob's
    async with store.transaction():
        await results.record_match(res, ratings_for(res, (30, 25, 20)))
    (bob,) = await results.stats_for(BOB)
    assert bob.places == (0, 1, 0, 0)
    assert await results.rating_of(PlayerRef.computer("weak"), Game.THOUSAND) is None
