"""The score sheet picture: a valid PNG of exactly the advertised size, drawn with the chat's
language, for short, long and empty matches, quickly; and matplotlib only loaded for it."""

from __future__ import annotations

import io
import struct
import subprocess
import sys
import time
import warnings
import zlib

import pytest
from PIL import Image

from bot.i18n import Translator
from bot.records.sheet import SHEET_HEIGHT, SHEET_WIDTH, render_sheet
from bot.records.summary import MatchSummary, summarize
from engine import Game, Rules
from storage import PlayerRef
from tests.bot.records.playout import random_log
from tests.bot.records.scripts import players_in, script, split

NAMES = ["Алиса", "Борис 🐻", "Вера Верная-Длинноимённая", "Глеб"]


class Recording(Translator):
    """A strict translator that remembers the languages and messages asked for."""

    def __init__(self) -> None:
        super().__init__(strict=True)
        self.asked: set[tuple[str, str]] = set()

    def text(self, lang: str, message_id: str, **args: str | int) -> str:
        self.asked.add((lang, message_id))
        return super().text(lang, message_id, **args)


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from the PNG header, checking the signature and the IHDR's CRC."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    length, kind = struct.unpack(">I4s", data[8:16])
    assert (length, kind) == (13, b"IHDR")
    body = data[16:29]
    (crc,) = struct.unpack(">I", data[29:33])
    assert zlib.crc32(kind + body) == crc
    width, height = struct.unpack(">II", body[:8])
    assert data.endswith(b"IEND\xaeB`\x82")
    return width, height


def check_png(data: bytes) -> None:
    assert png_size(data) == (SHEET_WIDTH, SHEET_HEIGHT)
    with Image.open(io.BytesIO(data)) as image:
        image.verify()
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG" and image.size == (SHEET_WIDTH, SHEET_HEIGHT)


def golden(name: str) -> MatchSummary:
    header, log = split(script(name))
    n = players_in(header)
    return summarize(header, log, [PlayerRef.human(s) for s in range(n)])


def played(game: Game, deals: int, players: int = 3) -> MatchSummary:
    header, log = random_log(Rules(game=game, players=players), 11, deals)
    return summarize(header, log, [PlayerRef.human(s) for s in range(players)])


@pytest.mark.parametrize("lang", ["ru", "en", "uk"])
def test_a_finished_barrel_match_in_each_language(lang: str) -> None:
    tr = Recording()
    data = render_sheet(golden("barrel-golden-round-win"), NAMES, lang, tr)
    check_png(data)
    assert {m for language, m in tr.asked if language == lang} >= {
        "rec-sheet-title", "rec-game-thousand", "rec-sheet-subtitle-finished",
        "rec-sheet-col-contract", "rec-sheet-axis-deal", "rec-sheet-legend-thousand",
        "rec-sheet-line-barrel",
    }
    assert {language for language, _ in tr.asked} == {lang}


def test_the_languages_draw_different_pictures() -> None:
    summary = golden("bolt-third-costs-120")
    tr = Translator(strict=True)
    ru, en = (render_sheet(summary, NAMES, lang, tr) for lang in ("ru", "en"))
    assert ru != en
    with Image.open(io.BytesIO(ru)) as a, Image.open(io.BytesIO(en)) as b:
        assert a.convert("RGB").tobytes() != b.convert("RGB").tobytes()


@pytest.mark.parametrize(
    ("game", "deals", "players"),
    [(Game.THOUSAND, 12, 3), (Game.THOUSAND_ONE, 30, 4), (Game.TUMBOCHKA, 70, 3)],
)
def test_short_two_block_and_cut_tables(game: Game, deals: int, players: int) -> None:
    summary = played(game, deals, players)
    tr = Recording()
    started = time.perf_counter()
    data = render_sheet(summary, NAMES[:players], "ru", tr)
    elapsed = time.perf_counter() - started
    check_png(data)
    assert ("ru", "rec-sheet-omitted") in tr.asked or len(summary.sheet) <= 44
    # About half a second on an idle machine; the bound leaves room for a busy CI runner.
    assert elapsed < 5


def test_names_with_emoji_and_an_empty_sheet() -> None:
    summary = summarize(["game thousand"], [], [PlayerRef.human(s) for s in range(3)])
    tr = Recording()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a missing glyph would warn
        data = render_sheet(summary, ["🐻🐻", "", "Вера"], "en", tr)
    check_png(data)
    assert ("en", "rec-sheet-no-deals") in tr.asked
    assert ("en", "rec-sheet-subtitle-running") in tr.asked


def test_the_bot_starts_without_matplotlib() -> None:
    # A fresh interpreter: this one imported matplotlib with the sheets above. matplotlib is
    # most of the bot's import time, and a restart should serve players at once (issue 13).
    code = "import sys, bot.app; print('matplotlib' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False", done.stderr
