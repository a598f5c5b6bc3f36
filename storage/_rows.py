"""Helpers shared by the repositories: timestamps, row -> model conversion, argument checks.

Private to the package. Every conversion of a stored row goes through `load` (or `column`), so
a broken row surfaces as `CorruptRow` naming the table and the key, never as a bare
`KeyError`/`ValidationError` from deep inside pydantic.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from storage.errors import CorruptRow

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")

TIME_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"


def to_text(moment: datetime) -> str:
    """An aware datetime as the schema's fixed-width UTC text."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"a naive datetime cannot be stored: {moment!r}; give it a timezone")
    return moment.astimezone(UTC).strftime(TIME_FORMAT)


def load(model: type[M], row: Mapping[str, Any], *, table: str, key: object, **extra: Any) -> M:
    """Validate a row (plus `extra` fields, e.g. loaded seats) into a model or raise CorruptRow."""
    try:
        return model.model_validate({**row, **extra})
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(part) for part in error['loc']) or 'row'}: {error['msg']}"
            for error in exc.errors()
        )
        raise CorruptRow(table, key, problems) from exc


def column(row: Mapping[str, Any], name: str, kind: type[T], *, table: str, key: object) -> T:
    """One column of a row, checked to be of `kind` (bool columns are stored as 0/1)."""
    if name not in row:
        raise CorruptRow(table, key, f"column {name} is missing")
    value = row[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise CorruptRow(table, key, f"column {name} holds {value!r}, not {kind.__name__}")
    return value


def check_lines(lines: Iterable[str]) -> list[str]:
    """Notation lines to store: at least one, each a non-blank single line of text."""
    if isinstance(lines, str):
        raise ValueError("pass a list of lines, not one string")
    checked = list(lines)
    if not checked:
        raise ValueError("no lines to append")
    for line in checked:
        if not isinstance(line, str):
            raise ValueError(f"a log line must be text, not {type(line).__name__}")
        if not line.strip():
            raise ValueError("a log line must not be blank")
        if any(char in line for char in "\r\n\x00"):
            raise ValueError(f"a log line must be one line of text: {line!r}")
    return checked


def check_header(game: str, players: int, rules: str) -> None:
    """The rules header text agrees with the game/players columns stored beside it.

    The storage does not interpret the notation; it only refuses a header whose ``game`` or
    ``players`` line contradicts the columns, since both are read later (the columns by
    queries and constraints, the text by the engine).
    """
    if not rules.strip():
        raise ValueError("the rules header must not be empty")
    for raw in rules.splitlines():
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        verb = words[0].lower()
        if verb == "game" and [w.lower() for w in words[1:]] != [game]:
            raise ValueError(f"the header line {raw.strip()!r} contradicts game={game!r}")
        if verb == "players" and words[1:] != [str(players)]:
            raise ValueError(f"the header line {raw.strip()!r} contradicts players={players}")


def check_seat(seat: int, players: int) -> None:
    """A 0-based seat index within a table of `players`."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise ValueError(f"seat must be 0..{players - 1}, not {seat!r}")


def placeholders(values: Sequence[object]) -> str:
    """``?, ?, ?`` for an ``IN (...)`` list."""
    return ", ".join("?" for _ in values)


def check_language(language: str | None) -> None:
    """A language tag chosen with /lang: ``ru``, ``en``, ``uk``, ``pt-br``...; None = unset."""
    if language is None:
        return
    if not (
        isinstance(language, str)
        and 2 <= len(language) <= 35
        and language[:2].isascii()
        and language[:2].isalpha()
        and language[:2].islower()
    ):
        raise ValueError(f"not a language tag: {language!r}")


def as_int(value: object, *, table: str, key: object, name: str) -> int:
    """A scalar read with `Database.fetch_value`, checked to be an integer."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise CorruptRow(table, key, f"{name} holds {value!r}, not an integer")
    return value
