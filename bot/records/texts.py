"""The texts of /stats, /top and /history (Telegram HTML), from ``locales/*/records.ftl``.

Each function takes what the storage returned and the chat's language; names are escaped
here. Long lists come in pages (`bot.records.format.page_request`); ``has_previous`` /
``has_next`` tell the bot which of its buttons to show.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import TypeVar

from bot.i18n import Translator
from bot.records.format import (
    PAGE_SIZE,
    date_text,
    duration_text,
    game_name,
    html_player,
    number,
    page_number,
    percent,
    signed,
    total_pages,
)
from bot.records.rating import is_provisional, shown
from engine import Game
from storage import HistoryEntry, LeaderboardEntry, Page, PlayerRef, PlayerStats

T = TypeVar("T")


def has_previous(page: Page[T]) -> bool:
    return page.offset > 0


def has_next(page: Page[T]) -> bool:
    return page.offset + len(page.items) < page.total


def page_footer(page: Page[T], lang: str, tr: Translator, page_size: int = PAGE_SIZE) -> str:
    """``Страница 2 из 5`` (empty when everything fits on one page)."""
    pages = total_pages(page.total, page_size)
    if pages <= 1:
        return ""
    return tr.text(lang, "rec-page", page=page_number(page.offset, page_size), pages=pages)


# -------------------------------------------------------------------- /stats


def stats_text(
    player: PlayerRef, name: str | None, stats: Sequence[PlayerStats], lang: str, tr: Translator
) -> str:
    """A player's statistics, one block per game they finished a match of."""
    title = tr.text(lang, "rec-stats-title", name=html_player(player, name, lang, tr))
    if not stats:
        return "\n".join([title, "", tr.text(lang, "rec-stats-empty")])
    lines = [title]
    for entry in stats:
        lines += ["", *_game_block(entry, lang, tr)]
    return "\n".join(lines)


def _game_block(s: PlayerStats, lang: str, tr: Translator) -> list[str]:
    c = s.counters
    lines = [f"<b>{html.escape(game_name(s.game, lang, tr))}</b>"]
    if s.rating is not None:
        key = "rec-stats-rating-provisional" if is_provisional(s.rating) else "rec-stats-rating"
        lines.append(tr.text(lang, key, rating=shown(s.rating), matches=s.rating.matches))
    lines.append(tr.text(
        lang, "rec-stats-matches", matches=s.matches, wins=s.wins,
        percent=percent(s.wins, s.matches),
    ))
    places = [
        tr.text(lang, "rec-stats-place", place=place, count=count)
        for place, count in enumerate(s.places, start=1) if count
    ]
    average = round(s.average_score or 0)
    lines.append(tr.text(
        lang, "rec-stats-places", places=", ".join(places), average=number(average),
        settlement=signed(s.settlement_sum),
    ))
    lines.append(tr.text(
        lang, "rec-stats-contracts", deals=c.deals, contracts=c.contracts,
        made=c.contracts_made, failed=c.contracts_failed,
        average=round(c.average_contract or 0),
    ))
    lines += _game_lines(s.game, s, lang, tr)
    lines.append(tr.text(lang, "rec-stats-time", time=duration_text(s.seconds_played, lang, tr)))
    return lines


def _game_lines(game: Game, s: PlayerStats, lang: str, tr: Translator) -> list[str]:
    c = s.counters
    lines: list[str] = []
    if game in (Game.THOUSAND, Game.THOUSAND_ONE):
        spades, clubs, diamonds, hearts = c.marriages
        lines.append(tr.text(
            lang, "rec-stats-marriages", spades=spades, clubs=clubs, diamonds=diamonds,
            hearts=hearts, aces=c.ace_marriages,
        ))
    if game == Game.THOUSAND:
        lines.append(tr.text(lang, "rec-stats-bolts", bolts=c.bolts, penalties=c.bolt_penalties))
        lines.append(tr.text(
            lang, "rec-stats-barrel", mounted=c.perch_mounted, made=c.perch_made,
            fallen=c.perch_fallen,
        ))
        lines.append(tr.text(
            lang, "rec-stats-thousand-extras", concessions=c.concessions, redeals=c.redeals,
            trucks=c.dump_trucks,
        ))
    elif game == Game.THOUSAND_ONE:
        lines.append(tr.text(lang, "rec-stats-throws", throws=c.throws))
    else:
        lines.append(tr.text(
            lang, "rec-stats-tumbochka-declarations", troyans=c.troyans,
            trilyazhes=c.trilyazhes,
        ))
        lines.append(tr.text(
            lang, "rec-stats-tumbochka", sits=c.perch_mounted, made=c.perch_made,
            falls=c.perch_fallen, bagels=c.golden_bagels,
        ))
    return lines


# -------------------------------------------------------------------- /top


def top_text(
    page: Page[LeaderboardEntry], game: Game, lang: str, tr: Translator, *,
    humans_only: bool = False,
) -> str:
    """The chat's leaderboard of ``game``: position, name, rating (``*`` = provisional),
    matches and wins in this chat; computer players are flagged 🤖."""
    key = "rec-top-title-humans" if humans_only else "rec-top-title"
    lines = [tr.text(lang, key, game=html.escape(game_name(game, lang, tr)))]
    if not page.items:
        return "\n".join([*lines, "", tr.text(lang, "rec-top-empty")])
    lines.append("")
    provisional = False
    for entry in page.items:
        mark = ""
        if is_provisional(entry.rating):
            mark, provisional = "*", True
        lines.append(tr.text(
            lang, "rec-top-line", position=entry.position,
            name=html_player(entry.player, entry.name, lang, tr),
            rating=shown(entry.rating), mark=mark, matches=entry.matches, wins=entry.wins,
        ))
    if provisional:
        lines += ["", tr.text(lang, "rec-top-provisional")]
    footer = page_footer(page, lang, tr)
    return "\n".join([*lines, *(["", footer] if footer else [])])


# -------------------------------------------------------------------- /history


def history_text(page: Page[HistoryEntry], lang: str, tr: Translator) -> str:
    """The chat's last matches: date, game, players with final scores, winner."""
    lines = [tr.text(lang, "rec-history-title")]
    if not page.items:
        return "\n".join([*lines, "", tr.text(lang, "rec-history-empty")])
    for entry in page.items:
        lines += ["", *history_entry_lines(entry, lang, tr)]
    footer = page_footer(page, lang, tr)
    return "\n".join([*lines, *(["", footer] if footer else [])])


def history_entry_lines(entry: HistoryEntry, lang: str, tr: Translator) -> list[str]:
    """Two lines: the heading (date, game, winner or "stopped") and the players' scores."""
    game = html.escape(game_name(entry.game, lang, tr))
    date = date_text(entry.finished_at, lang, tr)
    if entry.winner is not None:
        seat = entry.seats[entry.winner]
        heading = tr.text(
            lang, "rec-history-finished", date=date, game=game,
            winner=html_player(seat.player, seat.name, lang, tr, seat.seat),
        )
    else:
        heading = tr.text(lang, "rec-history-abandoned", date=date, game=game)
    order = sorted(entry.seats, key=lambda s: (s.place or s.seat + 1, s.seat))
    scores = [
        tr.text(
            lang, "rec-history-seat", name=html_player(s.player, s.name, lang, tr, s.seat),
            score=number(s.score),
        )
        if s.score is not None
        else html_player(s.player, s.name, lang, tr, s.seat)
        for s in order
    ]
    return [heading, " · ".join(scores)]
