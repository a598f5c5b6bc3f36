"""``Rules``: the games, player counts and table conventions of docs/rules.md."""

from __future__ import annotations

import pytest

from engine import OPTIONS, Game, Rules, RulesError, preset
from engine.rules import OptionValue

THOUSAND_DEFAULTS: dict[str, OptionValue] = {
    "ace_marriage": False,
    "bid_step": 5,
    "bid_cap_without_marriage": True,
    "minus_bidding": None,
    "hidden_talon_on_hundred": False,
    "redeal": True,
    "concede": True,
    "concede_penalty": True,
    "rounding": 5,
    "bolts": True,
    "golden_round": False,
    "dump_truck": True,
    "target": 1001,
    "barrel": 880,
    "barrel_bidding": True,
}

THOUSAND_CHOICES: dict[str, tuple[str, ...]] = {
    "ace_marriage": ("off", "on"),
    "bid_step": ("5", "10"),
    "bid_cap_without_marriage": ("on", "off"),
    "minus_bidding": ("off", "0", "-100", "-200", "-300"),
    "hidden_talon_on_hundred": ("off", "on"),
    "redeal": ("on", "off"),
    "concede": ("on", "off"),
    "concede_penalty": ("on", "off"),
    "rounding": ("5", "10", "none"),
    "bolts": ("on", "off"),
    "golden_round": ("off", "on"),
    "dump_truck": ("on", "off"),
    "target": ("1001", "1000"),
    "barrel": ("880", "off"),
    "barrel_bidding": ("on", "off"),
}


def test_thousand_options_and_defaults_are_the_rules_page() -> None:
    specs = OPTIONS[Game.THOUSAND]
    assert {s.name: s.default for s in specs} == THOUSAND_DEFAULTS
    assert {s.name: tuple(s.text(c) for c in s.choices) for s in specs} == THOUSAND_CHOICES
    r = Rules()
    assert r.game is Game.THOUSAND and r.players == 3
    for name, value in THOUSAND_DEFAULTS.items():
        assert r.option(name) == value


def test_thousand_one_has_only_ace_marriage_and_rounding() -> None:
    assert [s.name for s in OPTIONS[Game.THOUSAND_ONE]] == ["ace_marriage", "rounding"]
    r = Rules(game=Game.THOUSAND_ONE)
    assert r.option("ace_marriage") is False
    assert r.option("rounding") == 5


def test_tumbochka_has_no_options() -> None:
    assert OPTIONS[Game.TUMBOCHKA] == ()


@pytest.mark.parametrize(
    ("name", "text", "value"),
    [
        ("ace_marriage", "on", True),
        ("ace_marriage", "OFF", False),
        ("bid_step", "10", 10),
        ("bid_cap_without_marriage", "off", False),
        ("minus_bidding", "0", 0),
        ("minus_bidding", "-100", -100),
        ("minus_bidding", "-200", -200),
        ("minus_bidding", "-300", -300),
        ("minus_bidding", "off", None),
        ("hidden_talon_on_hundred", "on", True),
        ("redeal", "off", False),
        ("concede", "off", False),
        ("concede_penalty", "off", False),
        ("rounding", "10", 10),
        ("rounding", "none", None),
        ("bolts", "off", False),
        ("golden_round", "on", True),
        ("dump_truck", "off", False),
        ("target", "1000", 1000),
        ("barrel", "off", None),
        ("barrel_bidding", "off", False),
    ],
)
def test_with_option_parses_the_notation(name: str, text: str, value: OptionValue) -> None:
    r = Rules().with_option(name, text)
    assert r.option(name) == value
    assert r.changed_options() == (
        ()
        if value == THOUSAND_DEFAULTS[name]
        else ((next(s for s in OPTIONS[Game.THOUSAND] if s.name == name), value),)
    )


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("bid_step", "15"),
        ("minus_bidding", "-50"),
        ("rounding", "off"),
        ("rounding", "20"),
        ("target", "2000"),
        ("barrel", "900"),
        ("golden_round", "yes"),
        ("no_such_option", "on"),
    ],
)
def test_with_option_refuses_values_and_names_that_do_not_exist(name: str, text: str) -> None:
    with pytest.raises(RulesError):
        Rules().with_option(name, text)


@pytest.mark.parametrize(
    ("game", "name"),
    [
        (Game.THOUSAND_ONE, "bolts"),
        (Game.THOUSAND_ONE, "barrel"),
        (Game.THOUSAND_ONE, "golden_round"),
        (Game.TUMBOCHKA, "ace_marriage"),
        (Game.TUMBOCHKA, "rounding"),
        (Game.TUMBOCHKA, "target"),
    ],
)
def test_an_option_of_another_game_is_refused(game: Game, name: str) -> None:
    with pytest.raises(RulesError):
        Rules(game=game).with_option(name, "on" if name != "target" else "1000")
    with pytest.raises(RulesError):
        Rules(game=game).option(name)


def test_constructing_rules_with_a_foreign_option_is_refused() -> None:
    with pytest.raises(RulesError):
        Rules(game=Game.THOUSAND_ONE, bolts=False)
    with pytest.raises(RulesError):
        Rules(game=Game.TUMBOCHKA, ace_marriage=True)
    with pytest.raises(RulesError):
        Rules(game=Game.THOUSAND, bid_step=7)


@pytest.mark.parametrize(
    ("game", "players", "ok"),
    [
        (Game.THOUSAND, 3, True),
        (Game.THOUSAND, 4, False),
        (Game.THOUSAND, 2, False),
        (Game.THOUSAND_ONE, 3, True),
        (Game.THOUSAND_ONE, 4, True),
        (Game.THOUSAND_ONE, 5, False),
        (Game.TUMBOCHKA, 3, True),
        (Game.TUMBOCHKA, 4, False),
    ],
)
def test_player_counts(game: Game, players: int, ok: bool) -> None:
    if ok:
        assert Rules(game=game, players=players).players == players
    else:
        with pytest.raises(RulesError):
            Rules(game=game, players=players)


def test_preset_gives_the_defaults() -> None:
    assert preset(Game.THOUSAND) == Rules()
    assert preset(Game.THOUSAND_ONE, 4) == Rules(game=Game.THOUSAND_ONE, players=4)
    assert preset(Game.TUMBOCHKA).players == 3


def test_changed_options_keep_the_page_order() -> None:
    r = Rules().with_option("target", "1000").with_option("ace_marriage", "on")
    assert [s.name for s, _ in r.changed_options()] == ["ace_marriage", "target"]
    assert [v for _, v in r.changed_options()] == [True, 1000]


def test_rules_are_frozen_and_compare_by_value() -> None:
    a = Rules().with_option("bolts", "off")
    b = Rules(bolts=False)
    assert a == b
    assert hash(a) == hash(b)
    with pytest.raises(AttributeError):
        a.bolts = True  # type: ignore[misc]
