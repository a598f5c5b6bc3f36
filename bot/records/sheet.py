"""The score sheet («пулька») as a PNG: the deals in a table and the scores as a line chart.

`render_sheet(summary, names, lang, tr)` returns PNG bytes of exactly `SHEET_WIDTH` ×
`SHEET_HEIGHT` pixels. The line chart is drawn by matplotlib (`bot.records.chart`, imported
with the first sheet; safe in a worker thread: the bot should call this through
``asyncio.to_thread``); the title, the table and the legend are drawn on the same
image with Pillow (matplotlib's own image library), whose text drawing is fast enough for a
table of 44 deals well under a second. Texts come from ``records.ftl``; the fonts are
matplotlib's bundled DejaVu Sans, which has Cyrillic and the marks used (✓ ✗ ★ ◎ ↑ ↓ ⊘);
characters a font lacks (emoji in names) are left out.

The table shows one row per deal: the deal number, the declarer with the contract and ✓ made
/ ✗ failed (or the concession, the throw, the redeal), then each player's running score, the
deal's change and their marks: ``|`` a bolt, ``⊘`` the third bolt (−120), the barrel or the
tumbochka (sitting; ↑ climbed, ↓ fell), the dump truck, ◎ a golden bagel, ★ the winner (in
bold). Up to `ROWS_PER_BLOCK` deals fit in one column block, two blocks side by side beyond
that; a longer match shows its last deals and says how many earlier ones are left out.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final

from PIL import ImageDraw, ImageFont

from bot.i18n import Translator
from bot.records.format import game_name, number, short, signed
from bot.records.summary import DealOutcome, Mark, MatchSummary, SheetRow
from engine import Game

SHEET_WIDTH: Final = 1200
SHEET_HEIGHT: Final = 900
SHEET_DPI: Final = 100
ROWS_PER_BLOCK: Final = 22
MAX_BLOCKS: Final = 2
REGULAR: Final = "DejaVuSans.ttf"
BOLD: Final = "DejaVuSans-Bold.ttf"
"""Font files of matplotlib's bundled DejaVu Sans."""
COLORS: Final = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd")
TEXT_COLOR: Final = "#111111"
MADE_COLOR: Final = "#1a7f37"
FAILED_COLOR: Final = "#c62828"
QUIET_COLOR: Final = "#666666"
STRIPE_COLOR: Final = "#f2f2f2"
HEADER_COLOR: Final = "#e3e8ef"
RULE_COLOR: Final = "#c8c8c8"
MARGIN: Final = 24
TABLE_TOP: Final = 352
TABLE_BOTTOM: Final = 840
BLOCK_GAP: Final = 24
CELL_PADDING: Final = 8
TABLE_FONT_SIZES: Final = (15, 14, 13, 12, 11, 10)


def render_sheet(
    summary: MatchSummary, names: Sequence[str], lang: str, tr: Translator
) -> bytes:
    """The score sheet of ``summary`` as PNG bytes (`SHEET_WIDTH` × `SHEET_HEIGHT`).

    ``names`` are the seats' display names (plain text, not HTML).
    """
    labels = [
        short(_printable(names[s]) if s < len(names) and names[s].strip() else f"#{s + 1}")
        for s in range(len(summary.players))
    ]
    # matplotlib is imported on the first sheet, not with the bot: it is most of the bot's
    # import time, and a restart should serve players at once (issue 13).
    from bot.records import chart

    image = chart.draw(summary, labels, lang, tr, size=(SHEET_WIDTH, SHEET_HEIGHT), dpi=SHEET_DPI,
                       colors=COLORS)
    draw = ImageDraw.Draw(image)
    _title(draw, summary, labels, lang, tr)
    _table(draw, summary, labels, lang, tr)
    legend = tr.text(lang, f"rec-sheet-legend-{summary.game}")
    draw.text((SHEET_WIDTH / 2, SHEET_HEIGHT - 26), legend, font=_font(REGULAR, 13),
              fill=QUIET_COLOR, anchor="mm")
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", dpi=(SHEET_DPI, SHEET_DPI))
    return buffer.getvalue()


# -------------------------------------------------------------------- the chart


def _title(
    draw: ImageDraw.ImageDraw, summary: MatchSummary, labels: Sequence[str], lang: str,
    tr: Translator,
) -> None:
    game = game_name(summary.game, lang, tr)
    draw.text((SHEET_WIDTH / 2, 30), tr.text(lang, "rec-sheet-title", game=game),
              font=_font(BOLD, 24), fill=TEXT_COLOR, anchor="mm")
    deals = len(summary.sheet)
    if summary.winner is not None:
        subtitle = tr.text(lang, "rec-sheet-subtitle-finished", deals=deals,
                           winner=labels[summary.winner])
    else:
        subtitle = tr.text(lang, "rec-sheet-subtitle-running", deals=deals)
    draw.text((SHEET_WIDTH / 2, 60), subtitle, font=_font(REGULAR, 15), fill=QUIET_COLOR,
              anchor="mm")


# -------------------------------------------------------------------- the table


@dataclass(frozen=True, slots=True)
class _Cell:
    text: str
    color: str = TEXT_COLOR
    bold: bool = False


def _table(
    draw: ImageDraw.ImageDraw, summary: MatchSummary, labels: Sequence[str], lang: str,
    tr: Translator,
) -> None:
    rows = list(summary.sheet)
    omitted = max(0, len(rows) - ROWS_PER_BLOCK * MAX_BLOCKS)
    rows = rows[omitted:]
    if not rows:
        draw.text((SHEET_WIDTH / 2, TABLE_TOP + 60), tr.text(lang, "rec-sheet-no-deals"),
                  font=_font(REGULAR, 16), fill=QUIET_COLOR, anchor="mm")
        return
    header = [
        _Cell(tr.text(lang, "rec-sheet-col-deal"), bold=True),
        _Cell(tr.text(lang, "rec-sheet-col-contract"), bold=True),
        *(_Cell(label, bold=True) for label in labels),
    ]
    body = [_cells(row, summary, labels, lang, tr) for row in rows]
    blocks = 1 if len(rows) <= ROWS_PER_BLOCK else MAX_BLOCKS
    per_block = -(-len(rows) // blocks)
    block_width = (SHEET_WIDTH - 2 * MARGIN - BLOCK_GAP * (blocks - 1)) / blocks
    size, widths = _fit_columns([header, *body], block_width)
    row_height = (TABLE_BOTTOM - TABLE_TOP) / (ROWS_PER_BLOCK + 1)
    for block in range(blocks):
        chunk = body[block * per_block:(block + 1) * per_block]
        left = MARGIN + block * (block_width + BLOCK_GAP)
        right = left + sum(widths)
        bottom = TABLE_TOP + (len(chunk) + 1) * row_height
        draw.rectangle((left, TABLE_TOP, right, TABLE_TOP + row_height), fill=HEADER_COLOR)
        for i in range(1, len(chunk), 2):
            top = TABLE_TOP + (i + 1) * row_height
            draw.rectangle((left, top, right, top + row_height), fill=STRIPE_COLOR)
        for i, cells in enumerate([header, *chunk]):
            _row(draw, cells, left, TABLE_TOP + (i + 0.5) * row_height, widths, size)
        for y in (TABLE_TOP, TABLE_TOP + row_height, bottom):
            draw.line((left, y, right, y), fill=RULE_COLOR, width=1)
        x = left
        for width in (0, *widths):
            x += width
            draw.line((x, TABLE_TOP, x, bottom), fill=RULE_COLOR, width=1)
    if omitted:
        draw.text((MARGIN, TABLE_BOTTOM + 12), tr.text(lang, "rec-sheet-omitted", count=omitted),
                  font=_font(REGULAR, 12), fill=QUIET_COLOR, anchor="lm")


def _fit_columns(rows: Sequence[Sequence[_Cell]], room: float) -> tuple[int, list[float]]:
    """The largest font size at which every column fits ``room``, and the column widths
    stretched (or, at the smallest size, squeezed: names are cut with …) to fill it."""
    size = TABLE_FONT_SIZES[-1]
    widths: list[float] = []
    for size in TABLE_FONT_SIZES:
        widths = [
            max(_font(BOLD if cell.bold else REGULAR, size).getlength(cell.text)
                for cell in column) + 2 * CELL_PADDING
            for column in zip(*rows, strict=True)
        ]
        if sum(widths) <= room:
            break
    scale = room / sum(widths)
    return size, [w * scale for w in widths]


def _row(
    draw: ImageDraw.ImageDraw, cells: Sequence[_Cell], left: float, middle: float,
    widths: Sequence[float], size: int,
) -> None:
    x = left
    for cell, width in zip(cells, widths, strict=True):
        font = _font(BOLD if cell.bold else REGULAR, size)
        text = _cut(cell.text, font, width - 2 * CELL_PADDING)
        draw.text((x + width / 2, middle), text, font=font, fill=cell.color, anchor="mm")
        x += width


def _cut(text: str, font: ImageFont.FreeTypeFont, room: float) -> str:
    if font.getlength(text) <= room:
        return text
    while len(text) > 1 and font.getlength(text + "…") > room:
        text = text[:-1]
    return text + "…"


def _outcome_color(outcome: DealOutcome) -> str:
    if outcome is DealOutcome.MADE:
        return MADE_COLOR
    if outcome is DealOutcome.REDEAL:
        return QUIET_COLOR
    return FAILED_COLOR


def _cells(
    row: SheetRow, summary: MatchSummary, labels: Sequence[str], lang: str, tr: Translator
) -> list[_Cell]:
    return [
        _Cell(str(row.number)),
        _Cell(_contract_cell(row, labels, lang, tr), _outcome_color(row.outcome)),
        *(
            _Cell(_score_cell(row, seat, summary, lang, tr),
                  bold=bool(row.marks) and Mark.WINNER in row.marks[seat])
            for seat in range(len(labels))
        ),
    ]


def _contract_cell(row: SheetRow, labels: Sequence[str], lang: str, tr: Translator) -> str:
    if row.outcome is DealOutcome.REDEAL:
        asker = labels[row.redeal_by] if row.redeal_by is not None else ""
        return tr.text(lang, "rec-sheet-redeal", name=short(asker, 10))
    if row.declarer is None:
        return ""
    name = short(labels[row.declarer], 10)
    if row.contract is None:
        return tr.text(lang, "rec-sheet-thrown-free", name=name)
    return tr.text(lang, f"rec-sheet-{row.outcome.value}", name=name, contract=row.contract)


def _score_cell(
    row: SheetRow, seat: int, summary: MatchSummary, lang: str, tr: Translator
) -> str:
    text = number(row.scores[seat])
    if row.changes[seat]:
        text += f" ({signed(row.changes[seat])})"
    marks = _marks(row.marks[seat] if row.marks else frozenset(), summary, lang, tr)
    return f"{text} {marks}" if marks else text


def _marks(marks: frozenset[Mark], summary: MatchSummary, lang: str, tr: Translator) -> str:
    parts = []
    if Mark.BOLT_PENALTY in marks:
        parts.append("⊘")
    elif Mark.BOLT in marks:
        parts.append("|")
    if marks & {Mark.ON_PERCH, Mark.MOUNTED, Mark.FELL}:
        game = Game.TUMBOCHKA if summary.game == Game.TUMBOCHKA else Game.THOUSAND
        perch = tr.text(lang, f"rec-sheet-mark-perch-{game.value}")
        if Mark.MOUNTED in marks:
            perch += "↑"
        if Mark.FELL in marks:
            perch += "↓"
        parts.append(perch)
    if Mark.DUMP_TRUCK in marks:
        parts.append(tr.text(lang, "rec-sheet-mark-dump-truck"))
    if Mark.BAGEL in marks:
        parts.append("◎")
    if Mark.WINNER in marks:
        parts.append("★")
    return " ".join(parts)


# -------------------------------------------------------------------- fonts


def _font(name: str, size: int) -> ImageFont.FreeTypeFont:
    """The font at ``size`` pixels, one object per thread: a FreeType face must not be used
    by two threads at once (two sheets rendered in parallel worker threads)."""
    return _thread_font(threading.get_ident(), name, size)


@cache
def _thread_font(thread: int, name: str, size: int) -> ImageFont.FreeTypeFont:
    from bot.records import chart

    path = chart.font_dir() / name
    return ImageFont.truetype(str(path), size, layout_engine=ImageFont.Layout.BASIC)


@cache
def _charmap() -> frozenset[int]:
    from bot.records import chart

    return chart.charmap(chart.font_dir() / REGULAR)


def _printable(text: str) -> str:
    """``text`` without the characters DejaVu Sans cannot draw (emoji in names...)."""
    known = _charmap()
    kept = "".join(ch for ch in text if ord(ch) in known)
    return " ".join(kept.split()) or "?"
