"""The group's notifications at the end of a deal (contract made or not, score changes,
bolts, barrel and tumbochka, dump truck, golden bagel, redeal, concession, throw) and at
the end of the match (winner, final scores, settlement).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import Translator
from bot.render.common import (
    MAX_MESSAGE,
    card_label,
    html_name,
    joined,
    number,
    short_names,
    signed,
)
from bot.render.events import render_event_line
from engine import Game, SeatView
from engine.events import (
    BoltGiven,
    Conceded,
    DealScored,
    DumpTruck,
    Event,
    Fell,
    GoldenBagel,
    MatchOver,
    Mounted,
    RedealAsked,
    Thrown,
)

_ENDINGS = (DealScored, RedealAsked, Conceded, Thrown)
_AFTERMATH = (BoltGiven, Mounted, Fell, GoldenBagel, DumpTruck)
GOLDEN_DEALS = 3


def render_deal_result(
    events: Sequence[Event], view: SeatView, names: Sequence[str], lang: str, tr: Translator
) -> str | None:
    """The deal's result (HTML) from the events of the action that ended it; ``view`` is any
    view taken right after (it gives the game and the deal number). ``None`` if no deal ended.
    """
    if not any(isinstance(e, _ENDINGS) for e in events):
        return None
    text = _deal_text(events, view, names, lang, tr)
    if len(text) > MAX_MESSAGE:
        text = _deal_text(events, view, short_names(names), lang, tr)
    return text


def _deal_text(
    events: Sequence[Event], view: SeatView, names: Sequence[str], lang: str, tr: Translator
) -> str:
    game = view.rules.game
    lines = [tr.text(lang, "result-title", number=view.deals)]
    played = not any(isinstance(e, RedealAsked | Conceded | Thrown) for e in events)
    for event in events:
        if isinstance(event, RedealAsked | Conceded | Thrown):
            line = render_event_line(event, names, lang, tr, game=game)
            if line:
                lines.append(line)
            if isinstance(event, RedealAsked):
                lines.append(tr.text(lang, "result-redeal-void"))
        elif isinstance(event, DealScored):
            lines += _scored_lines(event, view, names, lang, tr, played=played)
        elif isinstance(event, _AFTERMATH):
            line = render_event_line(event, names, lang, tr, game=game)
            if line:
                lines.append(line)
    return "\n".join(lines).strip()


def _scored_lines(
    event: DealScored, view: SeatView, names: Sequence[str], lang: str, tr: Translator, *,
    played: bool,
) -> list[str]:
    lines = []
    if event.declarer is not None and played:
        lines.append(tr.text(
            lang, "result-made" if event.made else "result-failed",
            name=html_name(names, event.declarer), contract=event.contract,
            points=event.points[event.declarer],
        ))
    rules = view.rules
    if rules.golden_round and 0 < view.deals <= GOLDEN_DEALS:
        lines.append(tr.text(lang, "result-golden-round"))
    lines.append("")
    for seat in range(len(event.scores)):
        args: dict[str, str | int] = {
            "name": html_name(names, seat),
            "change": signed(event.changes[seat]),
            "score": number(event.scores[seat]),
        }
        if played and (seat in view.active or not view.active):
            lines.append(tr.text(lang, "result-seat-points", points=event.points[seat], **args))
        else:
            lines.append(tr.text(lang, "result-seat", **args))
    lines.append("")
    return lines


def render_match_result(
    events: Sequence[Event], view: SeatView, names: Sequence[str], lang: str, tr: Translator
) -> str | None:
    """The match result (HTML) from ``MatchOver``: the winner, the final scores from the
    highest down, and what each player receives or pays. ``None`` if the match did not end."""
    over = next((e for e in events if isinstance(e, MatchOver)), None)
    if over is None:
        return None
    lines = [
        tr.text(lang, "match-title", name=html_name(names, over.winner),
                game=tr.text(lang, f"game-{view.rules.game.value}")),
        "",
    ]
    if _golden_bagel_win(events, view, over.winner):
        lines += [tr.text(lang, "match-golden-bagel", name=html_name(names, over.winner)), ""]
    lines.append(tr.text(lang, "match-scores"))
    order = sorted(range(len(over.scores)), key=lambda s: (s != over.winner, -over.scores[s]))
    for place, seat in enumerate(order, start=1):
        lines.append(tr.text(
            lang, "match-line", place=place, name=html_name(names, seat),
            score=number(over.scores[seat]), settlement=signed(over.settlement[seat]),
        ))
    lines += ["", tr.text(lang, "match-settlement")]
    return "\n".join(lines)


def _golden_bagel_win(events: Sequence[Event], view: SeatView, winner: int) -> bool:
    """The Тумбочка was won by sitting on it alone with a golden bagel (rules 3.4): the
    winner sat down in the very deal that ended the match (a win by contract needs a seat
    taken earlier)."""
    return (
        view.rules.game is Game.TUMBOCHKA
        and bool(view.bagels[winner])
        and any(isinstance(e, Mounted) and e.seat == winner for e in events)
    )


def render_recap(
    events: Sequence[Event], view: SeatView, names: Sequence[str], lang: str, tr: Translator
) -> list[str]:
    """What a player's hand says of the deal just ended until the next deal's first action
    (HTML): its last trick, if it was played out, and one line — how it ended, the player's
    change and total. ``view`` is the player's view right after the deal ended."""
    lines = []
    early = next((e for e in events if isinstance(e, RedealAsked | Conceded | Thrown)), None)
    scored = next((e for e in events if isinstance(e, DealScored)), None)
    if early is None and view.tricks:
        winner, plays = view.tricks[-1]
        lines.append(tr.text(
            lang, "state-last-trick", name=html_name(names, winner),
            plays=joined(
                tr.text(lang, "state-play", name=html_name(names, s), card=card_label(c, lang, tr))
                for s, c in plays
            ),
        ))
    ending: Event | None = early or scored
    outcome = render_event_line(ending, names, lang, tr) if ending is not None else None
    seat = view.seat
    if scored is not None and seat is not None:
        mine = tr.text(
            lang, "recap-you", change=signed(scored.changes[seat]),
            score=number(scored.scores[seat]),
        )
        outcome = f"{outcome} · {mine}" if outcome else mine
    if outcome:
        lines.append(tr.text(lang, "recap-line", number=view.deals, outcome=outcome))
    return lines


def render_stopped_result(
    view: SeatView, names: Sequence[str], lang: str, tr: Translator, stopped_by: str
) -> str:
    """The result of a match stopped with /stop (HTML; ``stopped_by`` is HTML): who stopped
    it and the scores at that moment, from the highest down. Nobody wins it."""
    lines = [
        tr.text(lang, "stopped-title", game=tr.text(lang, f"game-{view.rules.game.value}"),
                name=stopped_by),
        "",
        tr.text(lang, "stopped-scores"),
    ]
    order = sorted(range(view.rules.players), key=lambda s: -view.scores[s])
    for place, seat in enumerate(order, start=1):
        lines.append(tr.text(
            lang, "stopped-line", place=place, name=html_name(names, seat),
            score=number(view.scores[seat]),
        ))
    return "\n".join(lines)
