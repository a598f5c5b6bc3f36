"""The state of a match as lines of HTML, shared by the hand and the table: the header, one
line per seat (score, bolts, barrel or tumbochka, cards, tricks), and the deal's public facts
(bids, contract, trump, talon when shown, declarations, the trick on the table).

Everything here reads only public fields of a ``SeatView`` (never ``hand``), so the same
lines are safe in the group chat.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import Translator
from bot.render.common import (
    card_label,
    cards_text,
    game_label,
    html_name,
    joined,
    number,
    suit_symbol,
)
from engine import Declaration, Game, Outcome, Phase, SeatView

Names = Sequence[str]

ATTEMPTS = 3
"""Deals on the barrel or the tumbochka before a fall."""
TRILYAZH_TRICKS = 3
SHOWN_BIDS = 9


def header(view: SeatView, lang: str, tr: Translator, *, stopped: bool = False) -> str:
    """``<b>Тысяча</b> · раздача 5 · Торговля``; ``stopped``: the match was stopped."""
    game = game_label(view.rules.game, lang, tr)
    phase = tr.text(lang, f"phase-{view.phase.value}")
    if view.outcome is Outcome.REDEALT and view.phase is Phase.DEAL_OVER:
        phase = tr.text(lang, "phase-redealt")
    if stopped:
        phase = tr.text(lang, "phase-stopped")
    if view.deals == 0:
        phase = tr.text(lang, "phase-starting")
        return tr.text(lang, "state-header-start", game=game, phase=phase)
    return tr.text(lang, "state-header", game=game, number=view.deals, phase=phase)


def _in_deal(view: SeatView) -> bool:
    return view.dealer is not None and view.phase is not Phase.MATCH_OVER


def seat_lines(view: SeatView, names: Names, lang: str, tr: Translator) -> list[str]:
    """One line per seat: ``▶ Анна — 120 · играет · 8 карт · 2 взятки, 24 очка``."""
    lines = []
    for seat in range(view.rules.players):
        marker = "▶ " if view.turn == seat else ""
        winner = "🏆 " if view.winner == seat else ""
        line = tr.text(
            lang, "state-seat", marker=marker + winner, name=html_name(names, seat),
            score=number(view.scores[seat]),
        )
        lines.append(joined([line, *_tags(view, seat, lang, tr)]))
    return lines


def _tags(view: SeatView, seat: int, lang: str, tr: Translator) -> list[str]:
    """What the seat line says besides the score: dealer, declarer, perch, bagel, bolts, and
    in a deal the cards held and the tricks and points taken."""
    tags: list[str] = []
    in_deal = _in_deal(view)
    if in_deal and seat == view.dealer:
        tags.append(tr.text(lang, "tag-dealer"))
    if in_deal and seat not in view.active:
        tags.append(tr.text(lang, "tag-sits-out"))
    if in_deal and seat == view.declarer:
        tags.append(tr.text(lang, "tag-declarer"))
    if seat == view.perch:
        tags.append(tr.text(lang, f"tag-perch-{view.rules.game.value}"))
    if view.bagels[seat]:
        tags.append(tr.text(lang, "tag-bagel"))
    if view.rules.game is Game.THOUSAND and view.rules.bolts and view.bolts[seat]:
        tags.append(tr.text(lang, "tag-bolts", n=view.bolts[seat]))
    if in_deal and seat in view.active:
        if view.phase is not Phase.DEAL_OVER:
            tags.append(tr.text(lang, "tag-cards", n=view.hand_sizes[seat]))
        if view.tricks or view.declarations:
            tags.append(_taken(view, seat, lang, tr))
    return tags


def _taken(view: SeatView, seat: int, lang: str, tr: Translator) -> str:
    """``2 взятки, 24 очка``; in Тумбочка a trick is a point, so tricks alone unless a
    trilyazh added points."""
    tricks, points = view.won[seat], view.points[seat]
    if view.rules.game is Game.TUMBOCHKA and points == tricks:
        return tr.text(lang, "tag-tricks", tricks=tricks)
    return tr.text(lang, "tag-taken", tricks=tricks, points=points)


def deal_lines(view: SeatView, names: Names, lang: str, tr: Translator) -> list[str]:
    """The deal's public facts, each line only when it says something."""
    if not _in_deal(view):
        return []
    lines = []
    if view.phase is Phase.BIDDING and view.bids:
        lines.append(tr.text(lang, "state-bids", bids=_bids(view, names, lang, tr)))
    contract = _contract(view, names, lang, tr)
    if contract:
        lines.append(contract)
    if view.talon is not None:
        lines.append(tr.text(lang, "state-talon", cards=cards_text(view.talon, lang, tr)))
    if view.phase is Phase.PLAY or view.trump is not None:
        if view.trump is None:
            lines.append(tr.text(lang, "state-no-trump"))
        else:
            lines.append(tr.text(lang, "state-trump", suit=suit_symbol(view.trump, lang, tr)))
    if view.declarations:
        items = [declaration_text(d.seat, d.kind, d.suit, d.value, names, lang, tr)
                 for d in view.declarations]
        lines.append(tr.text(lang, "state-declarations", list=joined(items)))
    if view.trilyazh is not None:
        seat, suit, stage = view.trilyazh
        lines.append(tr.text(
            lang, "state-trilyazh", name=html_name(names, seat),
            suit=suit_symbol(suit, lang, tr), stage=stage, total=TRILYAZH_TRICKS,
        ))
    if view.trick:
        lines.append(tr.text(lang, "state-trick", plays=_plays(view.trick, names, lang, tr)))
    elif view.tricks and view.phase is Phase.PLAY:
        winner, plays = view.tricks[-1]
        lines.append(tr.text(
            lang, "state-last-trick", name=html_name(names, winner),
            plays=_plays(plays, names, lang, tr),
        ))
    return lines


def perch_line(view: SeatView, names: Names, lang: str, tr: Translator) -> str | None:
    """``На бочке: Анна · попыток использовано: 1 из 3`` (Тысяча, Тумбочка)."""
    if view.perch is None:
        return None
    return tr.text(
        lang, f"state-perch-{view.rules.game.value}", name=html_name(names, view.perch),
        used=view.perch_attempts, total=ATTEMPTS,
    )


def declaration_text(
    seat: int, kind: Declaration, suit: int, value: int, names: Names, lang: str,
    tr: Translator,
) -> str:
    """``Анна: марьяж ♥ 100``."""
    return tr.text(
        lang, f"declaration-{kind.value}", name=html_name(names, seat),
        suit=suit_symbol(suit, lang, tr), value=value,
    )


def _bids(view: SeatView, names: Names, lang: str, tr: Translator) -> str:
    """The bids so far, the latest ``SHOWN_BIDS`` of a long bidding."""
    items = ["…"] if len(view.bids) > SHOWN_BIDS else []
    for seat, value in view.bids[-SHOWN_BIDS:]:
        if value is None:
            items.append(tr.text(lang, "state-bid-pass", name=html_name(names, seat)))
        else:
            items.append(tr.text(lang, "state-bid", name=html_name(names, seat), value=value))
    return joined(items)


def _contract(view: SeatView, names: Names, lang: str, tr: Translator) -> str | None:
    if view.declarer is None or view.phase is Phase.BIDDING:
        return None
    name = html_name(names, view.declarer)
    if view.without_bid and not view.contract_named:
        return tr.text(lang, "state-declarer-without-bid", name=name, value=view.contract)
    settled = view.contract_named or view.phase in (Phase.PLAY, Phase.DEAL_OVER)
    kind = "contract" if settled else "bid"
    return tr.text(lang, f"state-declarer-{kind}", name=name, value=view.contract)


def _plays(plays: Sequence[tuple[int, int]], names: Names, lang: str, tr: Translator) -> str:
    return joined(
        tr.text(lang, "state-play", name=html_name(names, seat), card=card_label(c, lang, tr))
        for seat, c in plays
    )
