"""The score sheet's line chart, drawn by matplotlib: a fresh ``Figure`` on the Agg canvas,
never pyplot, so no global state and safe in a worker thread; and matplotlib's bundled DejaVu
Sans, which the whole sheet is written in.

`bot.records.sheet` imports this module on the first sheet it draws, not at the bot's start:
matplotlib is most of the bot's import time (issue 13).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Final

import matplotlib
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ft2font import FT2Font
from matplotlib.ticker import MaxNLocator
from PIL import Image

from bot.i18n import Translator
from bot.records.summary import MatchSummary
from engine import Game

FONT_FAMILY: Final = "DejaVu Sans"
LINE_COLOR: Final = "#8d6e63"
CHART_BOX: Final = (0.07, 0.675, 0.90, 0.205)
"""left, bottom, width, height of the chart, in figure fractions (matplotlib's y is up)."""


def font_dir() -> Path:
    """The folder of matplotlib's bundled TrueType fonts."""
    return Path(matplotlib.get_data_path()) / "fonts" / "ttf"


@cache
def charmap(font: Path) -> frozenset[int]:
    """The characters ``font`` can draw."""
    return frozenset(FT2Font(str(font)).get_charmap())


def draw(
    summary: MatchSummary,
    labels: Sequence[str],
    lang: str,
    tr: Translator,
    *,
    size: tuple[int, int],
    dpi: int,
    colors: Sequence[str],
) -> Image.Image:
    """The chart of every seat's score after each deal, on a white image of ``size`` pixels
    (the sheet draws its title, table and legend around it)."""
    width, height = size
    figure = Figure(figsize=(width / dpi, height / dpi), dpi=dpi)
    canvas = FigureCanvasAgg(figure)
    figure.patch.set_facecolor("white")
    ax = figure.add_axes(CHART_BOX)
    xs = list(range(len(summary.sheet) + 1))
    for seat, label in enumerate(labels):
        ys = [summary.start_scores[seat], *(row.scores[seat] for row in summary.sheet)]
        ax.plot(xs, ys, marker="o", markersize=3, linewidth=2, color=colors[seat % len(colors)],
                label=label)
    if summary.perch_score is not None:
        barrel = summary.game == Game.THOUSAND
        key = "rec-sheet-line-barrel" if barrel else "rec-sheet-line-tumbochka"
        ax.axhline(summary.perch_score, color=LINE_COLOR, linestyle="--", linewidth=1,
                   label=tr.text(lang, key, score=summary.perch_score))
    if summary.target is not None and summary.game != Game.THOUSAND:
        ax.axhline(summary.target, color=LINE_COLOR, linestyle=":", linewidth=1,
                   label=tr.text(lang, "rec-sheet-line-target", score=summary.target))
    ax.set_xlim(0, max(1, len(xs) - 1))
    ax.set_xlabel(tr.text(lang, "rec-sheet-axis-deal"), family=FONT_FAMILY, fontsize=9)
    ax.set_ylabel(tr.text(lang, "rec-sheet-axis-score"), family=FONT_FAMILY, fontsize=9)
    ax.grid(True, color="#dddddd", linewidth=0.6)
    ax.tick_params(labelsize=8)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.legend(loc="lower left", bbox_to_anchor=(0, 1.0), prop={"family": FONT_FAMILY, "size": 9},
              ncol=6, frameon=False, borderaxespad=0.2)
    raw = io.BytesIO()
    figure.savefig(raw, format="rgba", dpi=dpi)
    return Image.frombytes("RGBA", canvas.get_width_height(), raw.getvalue()).convert("RGB")
