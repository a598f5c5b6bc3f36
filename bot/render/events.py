"""One line of HTML per public event («Анна: 120», «Козырь теперь ♥», «Анна берёт взятку»),
for the table's optional "last move" note and for the deal result.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import Translator
from bot.render.common import card_label, cards_text, html_name, number, signed, suit_symbol
from bot.render.state import declaration_text
from engine import Game
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
    Fell,
    GoldenBagel,
    MatchOver,
    Mounted,
    Passed,
    RedealAsked,
    TalonShown,
    TalonTaken,
    Thrown,
    TrickWon,
    TrilyazhBroken,
    TrilyazhCompleted,
    TrumpChanged,
)


def render_event_line(
    event: Event, names: Sequence[str], lang: str, tr: Translator, *,
    game: Game = Game.THOUSAND,
) -> str | None:
    """A one-line description of ``event`` (HTML, names escaped); ``game`` picks the barrel
    or the tumbochka wording of ``Mounted`` and ``Fell``. ``None`` for anything unknown."""
    if isinstance(event, DealScored):
        return _scored(event, names, lang, tr)
    if isinstance(event, Declared):
        text = declaration_text(
            event.seat, event.kind, event.suit, event.value, names, lang, tr
        )
        return tr.text(lang, "event-declared", declaration=text)
    if isinstance(event, TalonShown):
        return tr.text(lang, "event-talon-shown", cards=cards_text(event.cards, lang, tr))
    if isinstance(event, TrumpChanged):
        return tr.text(lang, "event-trump", suit=suit_symbol(event.suit, lang, tr))
    if isinstance(event, MatchOver):
        return tr.text(lang, "event-match-over", name=html_name(names, event.winner))
    if isinstance(event, TrilyazhCompleted | TrilyazhBroken):
        kind = "completed" if isinstance(event, TrilyazhCompleted) else "broken"
        return tr.text(
            lang, f"event-trilyazh-{kind}", name=html_name(names, event.seat),
            suit=suit_symbol(event.suit, lang, tr),
        )
    return _seat_event(event, names, lang, tr, game)


def _seat_event(
    event: Event, names: Sequence[str], lang: str, tr: Translator, game: Game
) -> str | None:
    if isinstance(event, DealStarted):
        return tr.text(lang, "event-deal-started", number=event.number,
                       name=html_name(names, event.dealer))
    seat = getattr(event, "seat", None)
    if not isinstance(seat, int):
        return None
    name = html_name(names, seat)
    if isinstance(event, BidMade):
        return tr.text(lang, "event-bid-forced" if event.forced else "event-bid",
                       name=name, value=event.value)
    if isinstance(event, Passed):
        return tr.text(lang, "event-pass-automatic" if event.automatic else "event-pass",
                       name=name)
    if isinstance(event, DeclarerChosen):
        message_id = "event-declarer-without-bid" if event.without_bid else "event-declarer"
        return tr.text(lang, message_id, name=name, value=event.bid)
    if isinstance(event, TalonTaken):
        return tr.text(lang, "event-talon-taken", name=name)
    if isinstance(event, CardGiven):
        return tr.text(lang, "event-card-given", name=name, to=html_name(names, event.to))
    if isinstance(event, ContractNamed):
        return tr.text(lang, "event-contract", name=name, value=event.value)
    if isinstance(event, RedealAsked):
        return tr.text(lang, "event-redeal", name=name,
                       ground=tr.text(lang, f"redeal-ground-{event.ground.value}"))
    if isinstance(event, Conceded):
        return tr.text(lang, "event-conceded", name=name, value=event.contract)
    if isinstance(event, Thrown):
        if event.without_contract:
            return tr.text(lang, "event-thrown-without-contract", name=name)
        return tr.text(lang, "event-thrown", name=name, value=event.contract)
    if isinstance(event, CardPlayed):
        return tr.text(lang, "event-card-played", name=name, card=card_label(event.card, lang, tr))
    if isinstance(event, TrickWon):
        return tr.text(lang, "event-trick", name=name, points=event.points)
    return _match_event(event, name, lang, tr, game)


def _match_event(event: Event, name: str, lang: str, tr: Translator, game: Game) -> str | None:
    if isinstance(event, BoltGiven):
        if event.penalty:
            return tr.text(lang, "event-bolt-penalty", name=name, penalty=number(-event.penalty))
        return tr.text(lang, "event-bolt", name=name, bolts=event.bolts)
    if isinstance(event, Mounted):
        return tr.text(lang, "event-mounted", name=name, game=game.value)
    if isinstance(event, Fell):
        return tr.text(
            lang, f"event-fell-{event.cause.value}", name=name, game=game.value,
            score=number(event.score),
        )
    if isinstance(event, GoldenBagel):
        return tr.text(lang, "event-golden-bagel", name=name)
    if isinstance(event, DumpTruck):
        return tr.text(lang, "event-dump-truck", name=name)
    return None


def _scored(event: DealScored, names: Sequence[str], lang: str, tr: Translator) -> str:
    if event.declarer is None:
        return tr.text(lang, "event-deal-scored")
    return tr.text(
        lang, "event-contract-made" if event.made else "event-contract-failed",
        name=html_name(names, event.declarer), value=event.contract,
        change=signed(event.changes[event.declarer]),
    )
