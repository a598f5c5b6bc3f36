"""Records of played matches (issue 5): results, statistics, ratings, the score sheet.

* `summary` — `summarize(header, log, players)`: a match's `MatchSummary` from its text
  (places, scores, settlement, per-seat counters, the deal-by-deal sheet). Pure.
* `rating` — OpenSkill Plackett–Luce per game: `rate_match`, `shown`, `is_provisional`.
* `service` — `end_match(store, match_id)` inside the transaction of the last action;
  `summary_of(store, match_id)` for /score.
* `sheet` — `render_sheet(summary, names, lang, tr)`: the «пулька» as a PNG.
* `texts` — /stats, /top, /history texts and paging; `export` — the /export CSV.
* `format` — shared formatting (numbers, names, dates, pages, the words that name a game).
* `ending` — what is left to show of a match that ended (`Ending`); `announce` — the one
  announcement of a match's result, the score sheet with the result as its caption
  (`Announcer`, which the match service calls once the match's lock is released).

Storage: `storage.results.Results` (tables of migration 2). Texts: ``locales/*/records.ftl``.
"""

from bot.records.export import EXPORT_FILENAME, export_csv
from bot.records.format import (
    PAGE_SIZE,
    PageRequest,
    game_from_argument,
    page_request,
    total_pages,
)
from bot.records.rating import PROVISIONAL_MATCHES, is_provisional, rate_match, shown
from bot.records.service import end_match, players_of, result_write, summary_of
from bot.records.sheet import SHEET_DPI, SHEET_HEIGHT, SHEET_WIDTH, render_sheet
from bot.records.summary import DealOutcome, Mark, MatchSummary, SheetRow, summarize
from bot.records.texts import has_next, has_previous, history_text, stats_text, top_text

__all__ = [
    "EXPORT_FILENAME",
    "PAGE_SIZE",
    "PROVISIONAL_MATCHES",
    "SHEET_DPI",
    "SHEET_HEIGHT",
    "SHEET_WIDTH",
    "DealOutcome",
    "Mark",
    "MatchSummary",
    "PageRequest",
    "SheetRow",
    "end_match",
    "export_csv",
    "game_from_argument",
    "has_next",
    "has_previous",
    "history_text",
    "is_provisional",
    "page_request",
    "players_of",
    "rate_match",
    "render_sheet",
    "result_write",
    "shown",
    "stats_text",
    "summarize",
    "summary_of",
    "top_text",
    "total_pages",
]
