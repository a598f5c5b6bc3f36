"""The match notation (docs/notation.md), the shuffle of docs/engine-decisions.md 1, and the
script runner ``python -m engine.script``."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    Bid,
    Concede,
    Deal,
    Declaration,
    Game,
    Give,
    MatchReader,
    NameContract,
    NotationError,
    Pass,
    Play,
    Redeal,
    SeatAction,
    Throw,
    acting_seat,
    format_action,
    format_deal,
    format_header,
    new_match,
    opens_deal,
    parse_action,
    replay,
    shuffled_deal,
)
from engine.cards import parse_card
from engine.script import ExpectationFailed, run_script
from tests.engine.helpers import mask, rules

ROOT = Path(__file__).resolve().parents[2]
C = parse_card


@pytest.mark.parametrize(
    ("line", "action"),
    [
        ("p2 bid 110", Bid(1, 110)),
        ("p3 pass", Pass(2)),
        ("p1 give KH p2", Give(0, C("KH"), 1)),
        ("p1 contract 120", NameContract(0, 120)),
        ("p2 redeal", Redeal(1)),
        ("p1 concede", Concede(0)),
        ("p1 throw", Throw(0)),
        ("p1 play KS", Play(0, C("KS"))),
        ("p1 play TS", Play(0, C("TS"))),
        ("p1 play KH marriage", Play(0, C("KH"), Declaration.MARRIAGE)),
        ("p3 play AD aces", Play(2, C("AD"), Declaration.ACES)),
        ("p2 play 6S troyan", Play(1, C("6S"), Declaration.TROYAN)),
        ("p2 play JD trilyazh", Play(1, C("JD"), Declaration.TRILYAZH)),
        ("p3 bid 4", Bid(2, 4)),
    ],
)
def test_every_action_kind_round_trips(line: str, action: SeatAction) -> None:
    assert parse_action(line, 3) == action
    assert format_action(action) == line


def test_a_fourth_seat_with_four_players() -> None:
    assert parse_action("p4 bid 40", 4) == Bid(3, 40)
    assert format_action(Bid(3, 40)) == "p4 bid 40"


@pytest.mark.parametrize(
    ("line", "canonical"),
    [
        ("P2 BID 105", "p2 bid 105"),
        ("p1 Play 10h", "p1 play TH"),
        ("p1 play K♥ MARRIAGE", "p1 play KH marriage"),
        ("p1 give q♣ P3", "p1 give QC p3"),
        ("p3 pass   # a comment", "p3 pass"),
        ("  p1   contract   125  ", "p1 contract 125"),
    ],
)
def test_parsing_is_case_insensitive_and_accepts_10_and_symbols(line: str, canonical: str) -> None:
    assert format_action(parse_action(line, 3)) == canonical


@pytest.mark.parametrize(
    "line",
    [
        "",
        "p1",
        "p4 pass",
        "p0 pass",
        "x1 pass",
        "1 pass",
        "p1 fly",
        "p1 bid",
        "p1 bid x",
        "p1 bid 100 105",
        "p1 pass now",
        "p1 play",
        "p1 play ZZ",
        "p1 play 1S",
        "p1 play AS wedding",
        "p1 play AS marriage now",
        "p1 give AS",
        "p1 give AS p4",
        "p1 give XX p2",
        "p1 contract",
        "p1 concede 100",
    ],
)
def test_malformed_action_lines(line: str) -> None:
    with pytest.raises(NotationError):
        parse_action(line, 3)


def test_a_well_formed_card_outside_the_game_is_parsed_and_then_refused() -> None:
    # notation: a card that is not in this game's deck is simply not in the hand
    assert parse_action("p1 play 9S", 3) == Play(0, C("9S"))


# --- headers, deal blocks, replay ---------------------------------------------------------
def test_format_header_lists_changed_options_only() -> None:
    r = rules(Game.THOUSAND, golden_round="on", minus_bidding="-100", rounding="none")
    assert format_header(r) == [
        "game thousand",
        "players 3",
        "option minus_bidding=-100",
        "option rounding=none",
        "option golden_round=on",
    ]
    assert format_header(rules(Game.THOUSAND_ONE, 4)) == ["game thousand-one", "players 4"]
    assert format_header(r, scores=(0, 880, 0), bolts=(1, 0, 2))[-2:] == [
        "scores 0 880 0",
        "bolts 1 0 2",
    ]


def test_format_deal_and_replay() -> None:
    r = rules(Game.THOUSAND_ONE, 4, ace_marriage="on")
    state = new_match(r)
    d = shuffled_deal(state, 7, dealer=2)
    lines = format_deal(d)
    assert lines[0] == "dealer p3"
    assert [line.split()[1] for line in lines[1:-1]] == ["p1", "p2", "p4"]
    assert lines[-1].startswith("talon ")
    replayed = replay([*format_header(r), *lines])
    assert replayed.rules == r
    assert replayed.deal is not None
    assert replayed.deal.hands == d.hands and replayed.deal.talon == d.talon


def test_replay_of_a_script_with_header_scores() -> None:
    s = replay(["game thousand", "option bolts=off", "scores 0 880 -50", "dealer p2", "shuffle 9"])
    assert s.rules.bolts is False
    assert s.scores == (0, 880, -50)
    assert s.perch == 1
    assert s.deal is not None and s.deal.dealer == 1


SCRIPT_OK = """\
game thousand
dealer p1
hand p1 AS TS KS QS JS 9S AH
hand p2 AC TC KC QC JC 9C TH
hand p3 AD TD KD QD JD 9D KH
talon QH JH 9H
p3 pass
p1 pass
p2 give 9H p1
p2 give JH p3
p2 concede
"""


@pytest.mark.parametrize(
    ("line_no", "bad"),
    [
        (7, "p3 bid"),
        (7, "p9 pass"),
        (8, "p1 dance"),
        (3, "hand p1 AS TS KS QS JS 9S XX"),
        (3, "hand p7 AS TS KS QS JS 9S AH"),
        (1, "game chess"),
        (2, "players four"),
        (9, "p2 play ZZ"),
        (11, "p2 concede now"),
    ],
)
def test_a_malformed_line_is_reported_with_its_number(line_no: int, bad: str) -> None:
    lines = SCRIPT_OK.splitlines()
    if line_no == 2:
        lines.insert(1, bad)
    else:
        lines[line_no - 1] = bad
    reader = MatchReader()
    with pytest.raises(NotationError) as caught:
        for number, text in enumerate(lines, start=1):
            reader.feed(number, text)
        reader.flush()
    assert caught.value.line == line_no
    with pytest.raises(NotationError) as again:
        replay(lines)
    assert again.value.line == line_no


@pytest.mark.parametrize(
    ("script", "line_no"),
    [
        ("game thousand\noption bolts=maybe\ndealer p1\nshuffle 1\n", 2),
        ("game thousand-one\noption bolts=off\ndealer p1\nshuffle 1\n", 2),
        ("game tumbochka\noption golden_round=on\ndealer p1\nshuffle 1\n", 2),
        ("game thousand\ndealer p1\nshuffle 1\ngame thousand\n", 4),
        ("game thousand\ndealer p1\nhand p1 AS\ntalon 9H\np2 pass\n", 2),
        ("game thousand\ndealer p1\nshuffle 1\np3 pass\np1 pass\np2 give 9H p2\n", 6),
        ("game thousand\ndealer p1\nshuffle 1\np3 pass\np2 pass\n", 5),
    ],
)
def test_script_errors_name_their_line(script: str, line_no: int) -> None:
    with pytest.raises(NotationError) as caught:
        replay(script.splitlines())
    assert caught.value.line == line_no


def test_a_wrong_dealer_is_an_error_of_the_deal_block() -> None:
    text = "game thousand-one\ndealer p1\nshuffle 1\np2 pass\np3 pass\np1 throw\n"
    with pytest.raises(NotationError) as caught:
        replay((text + "dealer p1\nshuffle 2\n").splitlines())
    assert caught.value.line in (7, 8)
    assert "wrong-dealer" in caught.value.message
    block = (
        "dealer p3\n"
        + "\n".join(
            f"hand p{i} {h}"
            for i, h in (
                (1, "AS TS KS QS JS 9S AH"),
                (2, "AC TC KC QC JC 9C TH"),
                (3, "AD TD KD QD JD 9D KH"),
            )
        )
        + "\ntalon QH JH 9H\n"
    )
    with pytest.raises(NotationError) as caught:
        replay((text + block).splitlines())
    assert caught.value.line == 7


@pytest.mark.parametrize(
    ("script", "line_no"),
    [
        ("game thousand\noption golden_round=on\nscores 900 0 0\ndealer p1\nshuffle 1\n", 3),
        ("game thousand\nscores 0 0 0 0\noption bolts=off\ndealer p1\nshuffle 1\n", 2),
        ("game thousand\nplayers 4\n\ndealer p1\nshuffle 1\n", 2),
        ("game tumbochka\nbolts 1 0 0\n# c\ndealer p1\nshuffle 1\n", 2),
    ],
)
def test_impossible_headers_are_reported_at_the_header_line(script: str, line_no: int) -> None:
    with pytest.raises(NotationError) as caught:
        replay(script.splitlines())
    assert caught.value.line == line_no


@pytest.mark.parametrize(
    "header",
    [
        "game thousand\nscores 881 0 0",
        "game thousand\nscores 1001 0 0",
        "game thousand\noption target=1000\nscores 1000 0 0",
        "game thousand\nscores -1000 0 0",
        "game thousand\nscores 880 880 0",
        "game thousand\nbolts 3 0 0",
        "game thousand\nscores 0 0",
        "game tumbochka\nscores 21 0 0",
        "game tumbochka\nscores 20 0 20",
        "game tumbochka\nbolts 1 0 0",
        "game thousand-one\nscores 1001 0 0",
        "game thousand-one\nplayers 5",
    ],
)
def test_impossible_starting_states_are_script_errors(header: str) -> None:
    with pytest.raises(NotationError):
        replay([*header.splitlines(), "dealer p1", "shuffle 1"])


@pytest.mark.parametrize(
    ("header", "perch", "scores"),
    [
        ("game thousand\nscores 0 880 0", 1, (0, 880, 0)),
        ("game thousand\noption barrel=off\nscores 900 0 0", None, (900, 0, 0)),
        ("game thousand\noption target=1000\nscores 0 0 880", 2, (0, 0, 880)),
        ("game thousand\nscores -995 0 0", None, (-995, 0, 0)),
        ("game tumbochka\nscores -4 20 0", 1, (-4, 20, 0)),
    ],
)
def test_possible_starting_states(header: str, perch: int | None, scores: tuple[int, ...]) -> None:
    s = replay(header.splitlines())
    assert s.scores == scores
    assert s.perch == perch
    assert s.perch_attempts == 0


# --- the shuffle (engine-decisions 1) -------------------------------------------------------
@pytest.mark.parametrize(
    ("game", "players", "dealer", "seed"),
    [
        (Game.THOUSAND, 3, 0, 1),
        (Game.THOUSAND, 3, 2, 12345),
        (Game.THOUSAND, 3, 1, "abc"),
        (Game.THOUSAND_ONE, 4, 0, 3),
        (Game.THOUSAND_ONE, 4, 3, 99),
        (Game.TUMBOCHKA, 3, 1, 42),
    ],
)
def test_shuffle_deals_blocks_of_seven_from_the_seat_after_the_dealer(
    game: Game, players: int, dealer: int, seed: int | str
) -> None:
    ranks = "678JQK" if game is Game.TUMBOCHKA else "9JQKTA"
    deck = [r + s for s in "SCDH" for r in ranks]
    random.Random(seed).shuffle(deck)
    seats = [(dealer + i) % players for i in range(1, players + 1)]
    if players == 4:
        seats = seats[:3]
    expected_hands = [0] * players
    for i, seat in enumerate(seats):
        expected_hands[seat] = mask(" ".join(deck[7 * i : 7 * i + 7]))
    expected = Deal(dealer, tuple(expected_hands), mask(" ".join(deck[7 * len(seats) :])))
    state = new_match(rules(game, players))
    assert shuffled_deal(state, seed, dealer) == expected
    lines = [f"game {game.value}", f"players {players}", f"dealer p{dealer + 1}", f"shuffle {seed}"]
    replayed = replay(lines)
    assert replayed.deal is not None
    assert replayed.deal.hands == expected.hands
    assert replayed.deal.talon == expected.talon


def test_shuffle_seed_is_an_integer_when_it_parses_as_one() -> None:
    as_int = replay(["game thousand", "dealer p1", "shuffle 0017"])
    assert as_int.deal is not None
    assert as_int.deal.hands == shuffled_deal(new_match(rules()), 17, 0).hands
    as_str = replay(["game thousand", "dealer p1", "shuffle seventeen"])
    assert as_str.deal is not None
    assert as_str.deal.hands == shuffled_deal(new_match(rules()), "seventeen", 0).hands


def test_the_first_dealer_defaults_to_p1_and_later_deals_rotate() -> None:
    s = replay(["game thousand", "shuffle 1"])
    assert s.deal is not None and s.deal.dealer == 0
    with pytest.raises(NotationError):
        replay([*SCRIPT_OK.splitlines(), "dealer p1", "shuffle 2"])
    s = replay([*SCRIPT_OK.splitlines(), "dealer p2", "shuffle 2"])
    assert s.deal is not None and s.deal.dealer == 1
    s = replay([*SCRIPT_OK.splitlines(), "shuffle 2"])
    assert s.deal is not None and s.deal.dealer == 1


# --- expectations and the runner ------------------------------------------------------------
EXPECTING = SCRIPT_OK.replace(
    "p3 pass\n",
    "expect phase bidding\nexpect turn p3\nexpect contract none\nexpect illegal p3 bid 103\n"
    "p3 pass\n",
) + (
    "expect phase deal-over\nexpect turn none\nexpect contract p2 100\nexpect scores 50 -100 50\n"
    "expect bolts 0 0 0\nexpect barrel none\nexpect winner none\nexpect trump none\n"
    "expect points 0 0 0\n"
)


def test_a_script_with_expectations_runs() -> None:
    run_script(EXPECTING)


@pytest.mark.parametrize(
    ("expectation", "message"),
    [
        ("expect scores 0 0 0", "scores is 50 -100 50, expected 0 0 0"),
        ("expect turn p1", "turn is none, expected p1"),
        ("expect phase play", "phase is deal-over, expected play"),
        ("expect contract p1 100", "contract is p2 100, expected p1 100"),
        ("expect illegal p1 pass", None),
        ("expect winner p2", "winner is none, expected p2"),
        ("expect barrel p1 attempts 0", "barrel is none, expected p1 attempts 0"),
    ],
)
def test_a_failed_expectation_stops_at_its_line(expectation: str, message: str | None) -> None:
    text = SCRIPT_OK + expectation + "\n"
    if expectation.startswith("expect illegal"):
        run_script(text)  # refused in deal-over: the expectation holds
        return
    with pytest.raises(ExpectationFailed) as caught:
        run_script(text)
    assert caught.value.line == len(text.splitlines())
    assert caught.value.reason == message


def test_expect_illegal_of_a_legal_action_fails() -> None:
    text = SCRIPT_OK.replace("p2 concede\n", "expect illegal p2 concede\n")
    with pytest.raises(ExpectationFailed) as caught:
        run_script(text)
    assert caught.value.line == 11


@pytest.mark.parametrize(
    "expectation",
    [
        "expect illegal p9 pass",
        "expect illegal p1 play XX",
        "expect colour red",
        "expect scores 1 2",
        "expect phase nap",
        "expect barrel p1 attempts x",
    ],
)
def test_malformed_expectations_are_script_errors(expectation: str) -> None:
    with pytest.raises(NotationError):
        run_script(SCRIPT_OK + expectation + "\n")


def _run(*paths: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine.script", *map(str, paths)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def test_the_runner_prints_ok_and_fail_lines_and_counts_failures(tmp_path: Path) -> None:
    good = tmp_path / "good.txt"
    good.write_text(EXPECTING, encoding="utf-8")
    wrong = tmp_path / "wrong.txt"
    wrong.write_text(SCRIPT_OK + "expect scores 1 2 3\n", encoding="utf-8")
    broken = tmp_path / "broken.txt"
    broken.write_text(SCRIPT_OK.replace("p1 pass", "p1 dance"), encoding="utf-8")
    missing = tmp_path / "missing.txt"
    result = _run(good, wrong, broken, missing)
    lines = result.stdout.splitlines()
    assert lines[0] == f"ok {good}"
    assert lines[1] == f"FAIL {wrong}:12 scores is 50 -100 50, expected 1 2 3"
    assert re.fullmatch(rf"FAIL {re.escape(str(broken))}:8 .+", lines[2])
    assert re.fullmatch(rf"FAIL {re.escape(str(missing))}:\d+ .+", lines[3])
    assert len(lines) == 4
    assert result.returncode == 3


def test_the_runner_exits_0_when_all_pass(tmp_path: Path) -> None:
    paths = []
    for i in range(3):
        path = tmp_path / f"s{i}.txt"
        path.write_text(EXPECTING, encoding="utf-8")
        paths.append(path)
    result = _run(*paths)
    assert result.returncode == 0
    assert result.stdout.splitlines() == [f"ok {p}" for p in paths]


def test_the_runner_reports_an_illegal_action_with_its_reason(tmp_path: Path) -> None:
    path = tmp_path / "illegal.txt"
    path.write_text(SCRIPT_OK.replace("p1 pass", "p2 bid 105"), encoding="utf-8")
    result = _run(path)
    assert result.stdout.strip() == f"FAIL {path}:8 illegal action: not-your-turn"
    assert result.returncode == 1


def test_the_exit_code_is_capped_at_100(tmp_path: Path) -> None:
    paths = []
    for i in range(101):
        path = tmp_path / f"bad{i}.txt"
        path.write_text("game chess\n", encoding="utf-8")
        paths.append(path)
    result = _run(*paths)
    assert len(result.stdout.splitlines()) == 101
    assert all(line.startswith("FAIL ") for line in result.stdout.splitlines())
    assert result.returncode == 100


_SEATS = st.integers(min_value=0, max_value=3)
_CARDS = st.integers(min_value=0, max_value=35)
ACTIONS = st.one_of(
    st.builds(Bid, _SEATS, st.integers(min_value=0, max_value=400)),
    st.builds(Pass, _SEATS),
    st.builds(Give, _SEATS, _CARDS, _SEATS),
    st.builds(NameContract, _SEATS, st.integers(min_value=0, max_value=400)),
    st.builds(Redeal, _SEATS),
    st.builds(Concede, _SEATS),
    st.builds(Throw, _SEATS),
    st.builds(Play, _SEATS, _CARDS, st.sampled_from(list(Declaration))),
)


@settings(max_examples=300, deadline=None)
@given(ACTIONS)
def test_any_action_formats_and_parses_back(action: SeatAction) -> None:
    line = format_action(action)
    assert parse_action(line, 4) == action
    assert parse_action(line.upper(), 4) == action


@pytest.mark.parametrize(
    ("line", "seat", "opens"),
    [
        ("p2 play AS", 1, False),
        ("P3 bid 120  # a comment", 2, False),
        ("p1 pass", 0, False),
        ("dealer p2", None, True),
        ("hand p1 9S TS", None, False),
        ("talon 9H TH JH", None, False),
        ("shuffle 7", None, False),
        ("players 3", None, False),
        ("# dealer p1", None, False),
        ("", None, False),
        ("p4 pass", None, False),
    ],
)
def test_a_log_line_names_its_acting_seat_and_whether_it_opens_a_deal(
    line: str, seat: int | None, opens: bool
) -> None:
    assert acting_seat(line, 3) == seat
    assert opens_deal(line) is opens
