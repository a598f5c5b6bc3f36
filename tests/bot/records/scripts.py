"""Golden match scripts as stored matches: the header lines and the log lines (the ``expect``
lines dropped, comments and blank lines kept out)."""

from __future__ import annotations

from pathlib import Path

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
SCRIPTS = sorted(GOLDEN.rglob("*.txt"))
_HEADER = ("game", "players", "option", "scores", "bolts")


def script(name: str) -> Path:
    """The golden script ``name`` (file name without ``.txt``) from any game folder."""
    (path,) = [p for p in SCRIPTS if p.stem == name]
    return path


def split(path: Path) -> tuple[list[str], list[str]]:
    """The header lines and the log lines of a script."""
    header: list[str] = []
    log: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        words = line.split("#", 1)[0].split()
        if not words or words[0].lower() == "expect":
            continue
        if not log and words[0].lower() in _HEADER:
            header.append(line.split("#", 1)[0].strip())
        else:
            log.append(line.split("#", 1)[0].strip())
    return header, log


def players_in(header: list[str]) -> int:
    for line in header:
        words = line.split()
        if words[0] == "players":
            return int(words[1])
    return 3
