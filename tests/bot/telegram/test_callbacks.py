"""The callback codec: every legal action round-trips within 64 bytes; junk decodes to None."""

from __future__ import annotations

import pytest

from bot.telegram.callbacks import (
    MAIN,
    MAX_DATA_BYTES,
    ActionPress,
    LobbyPress,
    Menu,
    MenuPress,
    PagePress,
    StalePage,
    decode,
    encode_action,
    encode_lobby,
    encode_menu,
    encode_page,
)
from engine import (
    Bid,
    Concede,
    Declaration,
    Give,
    NameContract,
    Pass,
    Play,
    Redeal,
    SeatAction,
    Throw,
    legal_actions,
)
from tests.bot.render.matches import samples

BIG_ID = 2**63 - 1


def test_every_legal_action_round_trips_within_64_bytes() -> None:
    seen: set[type] = set()
    count = 0
    for index, sample in enumerate(samples()):
        players = sample.state.rules.players
        for action in legal_actions(sample.state):
            for match_id, version in ((index, count), (BIG_ID, BIG_ID)):
                data = encode_action(match_id, version, action)
                assert len(data.encode("utf-8")) <= MAX_DATA_BYTES
                assert decode(data, players) == ActionPress(match_id, version, action)
            seen.add(type(action))
            count += 1
    assert seen == {Bid, Pass, Give, NameContract, Play, Redeal, Concede, Throw}


@pytest.mark.parametrize(
    "action",
    [
        Bid(0, 121), Bid(2, 300), Pass(1), Give(0, 35, 3), NameContract(3, 14), Redeal(2),
        Concede(0), Throw(1), Play(3, 0), Play(0, 14, Declaration.MARRIAGE),
        Play(1, 35, Declaration.ACES), Play(2, 0, Declaration.TROYAN),
        Play(0, 4, Declaration.TRILYAZH),
    ],
)
def test_each_kind_round_trips(action: SeatAction) -> None:
    data = encode_action(12345, 678, action)
    assert decode(data, 4) == ActionPress(12345, 678, action)


@pytest.mark.parametrize(
    "data",
    [
        "", "a", "a:", "a:1:2:", "a:1:2:0", "a:1:2:0z", "a:1:2:0p ", " a:1:2:0p", "a:1:2:0px",
        "a:01:2:0p", "a:1:02:0p", "a:-1:2:0p", "a:+1:2:0p", "a:1_0:2:0p", "a:A:2:0p",
        "a:1:2:3p", "a:1:2:9p", "a:1:2:0b", "a:1:2:0b0", "a:1:2:0b012", "a:1:2:0b1000",
        "a:1:2:0bx", "a:1:2:0c", "a:1:2:0g", "a:1:2:0g1", "a:1:2:0g10", "a:1:2:0gZ1",
        "a:1:2:0g13", "a:1:2:0y", "a:1:2:0y10", "a:1:2:0y-m", "a:1:2:0y1mm", "a:1:2:0y1x",
        "a:1:2:0rr", "a:1:2:0x1", "a:1:2:0t0", "a:1:2:0q", "a:1:2:0p\n",
        "a:1:2:0\u0661p", "a:1:2:0b\u0661\u0662\u0660", "a:1:2:0g1\u0661",
        "a:zzzzzzzzzzzzzz:2:0p", "b:1:2:0p", "l:", "l:1", "l:1:", "l:1::", "l:1:JOIN:",
        "l:1:join", "l:01:join:", "l:1:waytoolongverb:", "l:1:join:" + "x" * 25,
        "x" * 65, "l:1:join:" + "я" * 25,
    ],
)
def test_malformed_data_decodes_to_none(data: str) -> None:
    assert decode(data, 3) is None


def test_none_and_non_strings_decode_to_none() -> None:
    assert decode(None, 3) is None
    assert decode(b"a:1:2:0p", 3) is None  # type: ignore[arg-type]


def test_the_seat_and_recipient_must_exist() -> None:
    assert decode(encode_action(1, 2, Give(0, 5, 2)), 3) is not None
    assert decode(encode_action(1, 2, Give(0, 5, 3)), 3) is None
    assert decode(encode_action(1, 2, Pass(3)), 3) is None
    assert decode(encode_action(1, 2, Pass(3)), 4) is not None


def test_lobby_presses_round_trip() -> None:
    for lobby_id in (0, 1, 35, 36, 10**9, BIG_ID):
        for verb, arg in (("join", ""), ("set", "bid_step=10"), ("bot", "ai:strong"),
                          ("game", "thousand-one"), ("x", "я" * 20), ("set", "y" * 24),
                          ("start", "a:b:c")):
            data = encode_lobby(lobby_id, verb, arg)
            assert len(data.encode("utf-8")) <= MAX_DATA_BYTES
            assert decode(data, 3) == LobbyPress(lobby_id, verb, arg)


@pytest.mark.parametrize(
    ("verb", "arg"),
    [("", ""), ("Join", ""), ("jo:in", ""), ("verbthatislong", ""), ("set", "x" * 25)],
)
def test_lobby_encoding_refuses_what_cannot_fit(verb: str, arg: str) -> None:
    with pytest.raises(ValueError):
        encode_lobby(1, verb, arg)


def test_ids_must_be_non_negative() -> None:
    with pytest.raises(ValueError):
        encode_action(-1, 0, Pass(0))
    with pytest.raises(ValueError):
        encode_lobby(-5, "join")


def test_a_lobby_press_over_64_bytes_is_refused() -> None:
    assert encode_lobby(1, "x", "я" * 24)
    with pytest.raises(ValueError):
        encode_lobby(BIG_ID, "x", "я" * 24)


def test_action_and_lobby_data_never_collide() -> None:
    assert isinstance(decode(encode_action(7, 7, Pass(0)), 3), ActionPress)
    assert isinstance(decode(encode_lobby(7, "p"), 3), LobbyPress)
    assert isinstance(decode(encode_page("top", "1"), 3), PagePress)


def test_page_buttons_have_their_own_kind() -> None:
    assert decode(encode_page("hist", "12"), 3) == PagePress("hist", "12")
    assert decode("p:hist:", 3) == PagePress("hist", "")
    for junk in ("p:", "p::1", "p:Top:1", "p:waytoolongname:1", "p:top:" + "x" * 25):
        assert decode(junk, 3) is None, junk
    for bad in ("", "Top", "a:b"):
        with pytest.raises(ValueError):
            encode_page(bad, "1")
    # Page buttons drawn when they were lobby 0's: lobby ids start at 1.
    assert decode("l:0:top:1:thousand:a", 3) == StalePage("top")


@pytest.mark.parametrize("menu", [MAIN, Menu(card=0), Menu(card=35), Menu(page=1), Menu(page=12)])
def test_each_menu_round_trips(menu: Menu) -> None:
    data = encode_menu(BIG_ID, BIG_ID, 3, menu)
    assert len(data.encode("utf-8")) <= MAX_DATA_BYTES
    assert decode(data, 4) == MenuPress(BIG_ID, BIG_ID, 3, menu)


def test_a_question_is_never_a_button() -> None:
    with pytest.raises(ValueError):
        encode_menu(1, 1, 0, Menu(confirm=Concede(0)))
    assert decode("a:1:1:0s", 3) is None
    assert decode("a:1:1:0n0", 3) is None
    assert decode("a:1:1:0kx", 3) is None
