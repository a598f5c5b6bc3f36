"""Every kind of event has a line in every language; results read as expected."""

from __future__ import annotations

import pytest

from bot.i18n import SUPPORTED_LANGUAGES, Translator
from bot.render import render_deal_result, render_event_line, render_match_result
from engine import Declaration, Game, Rules, new_match, view
from engine.cards import card
from engine.events import (
    BidMade,
    BoltGiven,
    CardGiven,
    CardPlayed,
    Conceded,
    ContractNamed,
    DealScored,
    DealStarted,
    Declared,
    DeclarerChosen,
    DumpTruck,
    Event,
    FallCause,
    Fell,
    GoldenBagel,
    MatchOver,
    Mounted,
    Passed,
    RedealAsked,
    RedealGround,
    TalonShown,
    TalonTaken,
    Thrown,
    TrickWon,
    TrilyazhBroken,
    TrilyazhCompleted,
    TrumpChanged,
)

NAMES = ("Анна", "Борис", "Вера")

EVENTS: tuple[Event, ...] = (
    DealStarted(3, 0, (1, 2, 0)),
    BidMade(1, 100, forced=True),
    BidMade(2, 105),
    Passed(0),
    Passed(0, automatic=True),
    DeclarerChosen(2, 105, without_bid=False),
    DeclarerChosen(2, 40, without_bid=True),
    TalonShown((card(6, 3), card(5, 3), card(3, 0))),
    TalonTaken(2),
    CardGiven(2, 0),
    ContractNamed(2, 120),
    *(RedealAsked(1, ground) for ground in RedealGround),
    Conceded(2, 120),
    Thrown(2, 120, without_contract=False),
    Thrown(2, 40, without_contract=True),
    CardPlayed(2, card(8, 3)),
    *(Declared(2, Declaration.MARRIAGE, suit, 40 + 20 * suit) for suit in range(4)),
    Declared(2, Declaration.ACES, 0, 200),
    Declared(2, Declaration.TROYAN, 1, 0),
    Declared(2, Declaration.TRILYAZH, 2, 0),
    TrumpChanged(3),
    TrickWon(0, (1, 2, 3), 25),
    TrilyazhCompleted(1, 2),
    TrilyazhBroken(1, 2),
    DealScored(2, 120, True, (20, 0, 130), (20, 0, 120), (555, -40, 880)),
    DealScored(2, 120, False, (60, 0, 60), (60, 0, -120), (60, 0, -120)),
    DealScored(None, 0, False, (0, 0, 0), (0, 0, 0), (0, 0, 0)),
    BoltGiven(1, 2, 0),
    BoltGiven(1, 0, 120),
    Mounted(2),
    *(Fell(2, cause, 760) for cause in FallCause),
    GoldenBagel(0),
    DumpTruck(0),
    MatchOver(2, (300, -40, 1001), (-701, -1041, 1742)),
)


@pytest.fixture(scope="module")
def tr() -> Translator:
    return Translator(strict=True)


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
@pytest.mark.parametrize("game", list(Game))
def test_every_event_has_a_line(tr: Translator, lang: str, game: Game) -> None:
    lines = [render_event_line(e, NAMES, lang, tr, game=game) for e in EVENTS]
    assert all(line and "\n" not in line and "{" not in line for line in lines)


def test_lines_read_naturally(tr: Translator) -> None:
    def line(event: Event, lang: str = "ru", game: Game = Game.THOUSAND) -> str | None:
        return render_event_line(event, NAMES, lang, tr, game=game)

    assert line(BidMade(1, 120)) == "Борис: 120"
    assert line(Passed(0)) == "Анна: пас"
    assert line(Declared(2, Declaration.MARRIAGE, 3, 100)) == "📣 Вера: марьяж ♥️ 100"
    assert line(TrumpChanged(0), "en") == "Trump is now ♠"
    assert line(CardPlayed(0, card(8, 3)), "en") == "Анна: A♥️"
    assert line(CardPlayed(0, card(7, 1))) == "Анна: 10♣"
    assert line(Mounted(1), game=Game.TUMBOCHKA) == "Борис садится на тумбочку"
    assert line(Mounted(1)) == "Борис садится на бочку"
    assert line(BoltGiven(1, 0, 120)) == "Борис: третья палка — −120"


def test_deal_result(tr: Translator) -> None:
    rules = Rules(game=Game.THOUSAND)
    public = view(new_match(rules)._replace(deals=4), None)
    events = (
        CardPlayed(2, 1),
        TrickWon(2, (1, 2, 3), 0),
        DealScored(2, 120, True, (14, 0, 125), (15, 0, 120), (555, -40, 880)),
        BoltGiven(1, 1, 0),
        Mounted(2),
        DumpTruck(0),
    )
    text = render_deal_result(events, public, NAMES, "ru", tr)
    assert text is not None
    assert text.startswith("<b>Итоги раздачи 4</b>")
    assert "✅ Вера играет 120 и делает заказ: 125 очков" in text
    assert "Анна: 14 очков → +15, итого <b>555</b>" in text
    assert "Борис: 0 очков → 0, итого <b>−40</b>" in text
    assert "Борис получает палку (всего 1)" in text
    assert "Вера садится на бочку" in text
    assert "Самосвал" in text
    assert render_deal_result(events[:2], public, NAMES, "ru", tr) is None
    assert render_match_result(events, public, NAMES, "ru", tr) is None


def test_concession_and_redeal_results(tr: Translator) -> None:
    public = view(new_match(Rules(game=Game.THOUSAND))._replace(deals=2), None)
    conceded = (Conceded(2, 120), DealScored(2, 120, False, (0,) * 3, (60, 60, -120),
                                             (60, 60, -120)))
    text = render_deal_result(conceded, public, NAMES, "en", tr)
    assert text is not None and "Вера concedes (120)" in text and "falls short" not in text
    assert "Анна: +60, total <b>60</b>" in text
    redeal = (RedealAsked(0, RedealGround.FOUR_NINES),)
    text = render_deal_result(redeal, public, NAMES, "uk", tr)
    assert text is not None and "чотири дев'ятки" in text


def test_match_result(tr: Translator) -> None:
    public = view(new_match(Rules(game=Game.THOUSAND)), None)
    events = (MatchOver(2, (300, -40, 1001), (-701, -1041, 1742)),)
    text = render_match_result(events, public, NAMES, "ru", tr)
    assert text is not None
    assert "Побеждает <b>Вера</b>" in text
    lines = text.splitlines()
    assert "1. Вера — 1001 (расчёт +1742)" in lines
    assert "2. Анна — 300 (расчёт −701)" in lines
    assert "3. Борис — −40 (расчёт −1041)" in lines
