"""The callback data of inline buttons: a compact codec, at most 64 bytes by construction.

Game buttons: ``a:<match id>:<version>:<seat><code>`` with the ids in base 36 and the codes

====================  ======================================
``b<value>``          bid (decimal)
``p``                 pass
``g<card><to>``       give a card (card id in base 36) to a seat
``c<value>``          name the contract
``r`` ``x`` ``t``     redeal, concede ("расписать"), throw the cards
``y<card>[m|a|t|j]``  play a card, optionally declaring a marriage, the aces,
                      a troyan or a trilyazh
====================  ======================================

and, for the parts of a keyboard that fit a phone (they change what the player sees, not the
game): ``s<card>`` the card to give (its recipients are shown next), ``n<page>`` a page of
the larger bids or contracts, ``k`` back to the first part.

The version is the match's version when the keyboard was drawn, so the application can
answer a press on an outdated keyboard without applying anything. The seat in the data is the
seat the keyboard was drawn for: the application must check that the presser holds it.

Lobby buttons: ``l:<lobby id>:<verb>:<arg>``, the verb and argument chosen by the application.

Page buttons of a list (/top, /history): ``p:<list>:<arg>``, the list's name and its page
(and whatever else the list needs) chosen by the application. Before they had a kind of their
own they were lobby buttons of "lobby 0" (``l:0:top:<arg>``, ``l:0:hist:<arg>``; lobby ids
start at 1): such a button on an old message decodes as a `StalePage`, so it is answered, not
taken for a lobby's.

``decode`` never raises: anything that ``encode_*`` could not have produced gives ``None``,
ids beyond SQLite's integers (`MAX_ID`) included.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from engine import (
    Bid,
    Concede,
    Declaration,
    Give,
    NameContract,
    Pass,
    Play,
    Redeal,
    SeatAction,
    Throw,
)
from engine.cards import CARD_COUNT

__all__ = [
    "MAIN",
    "MAX_ARG_LENGTH",
    "MAX_DATA_BYTES",
    "MAX_ID",
    "ActionPress",
    "LobbyPress",
    "Menu",
    "MenuPress",
    "PagePress",
    "StalePage",
    "decode",
    "encode_action",
    "encode_lobby",
    "encode_menu",
    "encode_page",
    "fits",
]

MAX_DATA_BYTES: Final = 64
MAX_ARG_LENGTH: Final = 24
MAX_VERB_LENGTH: Final = 12
_DIGITS: Final = "0123456789abcdefghijklmnopqrstuvwxyz"
_DECLARATION_CODES: Final = {
    Declaration.NONE: "",
    Declaration.MARRIAGE: "m",
    Declaration.ACES: "a",
    Declaration.TROYAN: "t",
    Declaration.TRILYAZH: "j",
}
_CODE_DECLARATIONS: Final = {code: kind for kind, code in _DECLARATION_CODES.items()}
MAX_ID: Final = 2**63 - 1
"""The largest id a row can have (SQLite's INTEGER): larger ones name nothing."""
_ID_LIMIT: Final = MAX_ID + 1
_ID: Final = r"(0|[1-9a-z][0-9a-z]{0,12})"
_ACTION_RE: Final = re.compile(rf"a:{_ID}:{_ID}:([0-9])([a-z])([0-9a-z]{{0,3}})")
_LOBBY_RE: Final = re.compile(rf"l:{_ID}:([a-z0-9_-]{{1,{MAX_VERB_LENGTH}}}):(.*)", re.DOTALL)
_PAGE_RE: Final = re.compile(rf"p:([a-z0-9_-]{{1,{MAX_VERB_LENGTH}}}):(.*)", re.DOTALL)
_OLD_PAGE_LISTS: Final = frozenset({"top", "hist"})
"""The lists whose page buttons were lobby 0's (``l:0:top:...``, ``l:0:hist:...``)."""
_VERB_RE: Final = re.compile(rf"[a-z0-9_-]{{1,{MAX_VERB_LENGTH}}}")
_NUMBER_RE: Final = re.compile(r"[1-9][0-9]{0,2}")


@dataclass(frozen=True)
class ActionPress:
    match_id: int
    version: int
    action: SeatAction


@dataclass(frozen=True)
class Menu:
    """The part of a seat's keyboard its player looks at: the first part (`MAIN`), the
    recipients of a card to give, a page of larger bids or contracts, or the question whether
    to concede or throw (``confirm``: set by the game service, never by a button)."""

    card: int | None = None
    page: int = 0
    confirm: SeatAction | None = None


MAIN: Final = Menu()


@dataclass(frozen=True)
class MenuPress:
    match_id: int
    version: int
    seat: int
    menu: Menu


@dataclass(frozen=True)
class LobbyPress:
    lobby_id: int
    verb: str
    arg: str


@dataclass(frozen=True)
class PagePress:
    """A page button of a list: the list (``kind``) and its page (``arg``, the list's own)."""

    kind: str
    arg: str


@dataclass(frozen=True)
class StalePage:
    """A page button of a list drawn before page buttons had their own kind (``l:0:...``)."""

    kind: str


Press = ActionPress | MenuPress | LobbyPress | PagePress | StalePage
"""Whatever a button's data may decode to."""


def _base36(n: int) -> str:
    if not 0 <= n < _ID_LIMIT:
        raise ValueError(f"id out of range: {n}")
    digits = ""
    while True:
        n, d = divmod(n, 36)
        digits = _DIGITS[d] + digits
        if not n:
            return digits


def _code(action: SeatAction) -> str:
    if isinstance(action, Bid):
        return f"b{action.value}"
    if isinstance(action, Pass):
        return "p"
    if isinstance(action, Give):
        return f"g{_DIGITS[action.card]}{action.to}"
    if isinstance(action, NameContract):
        return f"c{action.value}"
    if isinstance(action, Redeal):
        return "r"
    if isinstance(action, Concede):
        return "x"
    if isinstance(action, Throw):
        return "t"
    return f"y{_DIGITS[action.card]}{_DECLARATION_CODES[action.declaration]}"


def _check(data: str) -> str:
    if len(data.encode("utf-8")) > MAX_DATA_BYTES:
        raise ValueError(f"callback data over {MAX_DATA_BYTES} bytes: {data!r}")
    return data


def encode_action(match_id: int, version: int, action: SeatAction) -> str:
    """The data of a button that takes ``action`` in match ``match_id`` at ``version``."""
    if not 0 <= action.seat <= 9:
        raise ValueError(f"seat out of range: {action.seat}")
    return _check(f"a:{_base36(match_id)}:{_base36(version)}:{action.seat}{_code(action)}")


def encode_menu(match_id: int, version: int, seat: int, menu: Menu) -> str:
    """The data of a button that shows ``menu`` of ``seat``'s keyboard."""
    if not 0 <= seat <= 9:
        raise ValueError(f"seat out of range: {seat}")
    if menu.confirm is not None:
        raise ValueError("a confirmation is asked by the game service, not by a button")
    if menu.card is not None:
        code = f"s{_DIGITS[menu.card]}"
    elif menu.page:
        code = f"n{menu.page}"
    else:
        code = "k"
    return _check(f"a:{_base36(match_id)}:{_base36(version)}:{seat}{code}")


def encode_lobby(lobby_id: int, verb: str, arg: str = "") -> str:
    """The data of a lobby button; ``ValueError`` for a verb or argument that cannot fit."""
    if not _VERB_RE.fullmatch(verb):
        raise ValueError(f"verb must be 1-{MAX_VERB_LENGTH} of [a-z0-9_-]: {verb!r}")
    if len(arg) > MAX_ARG_LENGTH:
        raise ValueError(f"argument over {MAX_ARG_LENGTH} characters: {arg!r}")
    return _check(f"l:{_base36(lobby_id)}:{verb}:{arg}")


def encode_page(kind: str, arg: str) -> str:
    """The data of a page button of the list ``kind``; ``ValueError`` if it cannot fit."""
    if not _VERB_RE.fullmatch(kind):
        raise ValueError(f"list name must be 1-{MAX_VERB_LENGTH} of [a-z0-9_-]: {kind!r}")
    if len(arg) > MAX_ARG_LENGTH:
        raise ValueError(f"argument over {MAX_ARG_LENGTH} characters: {arg!r}")
    return _check(f"p:{kind}:{arg}")


def decode(data: str | None, players: int) -> Press | None:
    """The press that ``data`` encodes, or ``None`` for anything malformed or forged."""
    if not isinstance(data, str) or len(data.encode("utf-8")) > MAX_DATA_BYTES:
        return None
    if data.startswith("p:"):
        page = _PAGE_RE.fullmatch(data)
        if page is None or len(page[2]) > MAX_ARG_LENGTH:
            return None
        return PagePress(page[1], page[2])
    if data.startswith("l:"):
        lobby = _LOBBY_RE.fullmatch(data)
        if lobby is None or len(lobby[3]) > MAX_ARG_LENGTH:
            return None
        lobby_id = int(lobby[1], 36)
        if lobby_id == 0 and lobby[2] in _OLD_PAGE_LISTS:
            return StalePage(lobby[2])
        return LobbyPress(lobby_id, lobby[2], lobby[3]) if lobby_id <= MAX_ID else None
    match = _ACTION_RE.fullmatch(data)
    if match is None:
        return None
    seat = int(match[3])
    if seat >= players:
        return None
    menu = _menu(match[4], match[5])
    if menu is not None:
        return MenuPress(int(match[1], 36), int(match[2], 36), seat, menu)
    action = _action(seat, match[4], match[5], players)
    match_id, version = int(match[1], 36), int(match[2], 36)
    if action is None or match_id > MAX_ID or version > MAX_ID:
        return None
    return ActionPress(match_id, version, action)


def fits(press: ActionPress | MenuPress, players: int) -> bool:
    """Whether a press decoded for a larger table names only seats of a table of ``players``
    (what ``decode(data, players)`` checks), so that data is decoded once, before the match
    is known."""
    if isinstance(press, MenuPress):
        return press.seat < players
    action = press.action
    if isinstance(action, Give) and action.to >= players:
        return False
    return action.seat < players


def _card(char: str) -> int | None:
    c = _DIGITS.find(char)
    return c if 0 <= c < CARD_COUNT else None


def _menu(kind: str, rest: str) -> Menu | None:
    if kind == "k":
        return MAIN if not rest else None
    if kind == "s":
        card = _card(rest) if len(rest) == 1 else None
        return None if card is None else Menu(card=card)
    if kind == "n":
        return Menu(page=int(rest)) if _NUMBER_RE.fullmatch(rest) else None
    return None


def _action(seat: int, kind: str, rest: str, players: int) -> SeatAction | None:
    simple: dict[str, Callable[[int], SeatAction]] = {
        "p": Pass, "r": Redeal, "x": Concede, "t": Throw,
    }
    if kind in simple:
        return simple[kind](seat) if not rest else None
    if kind in "bc":
        if not _NUMBER_RE.fullmatch(rest):
            return None
        return Bid(seat, int(rest)) if kind == "b" else NameContract(seat, int(rest))
    if kind == "g":
        if len(rest) != 2 or not rest[1].isdigit():
            return None
        card, to = _card(rest[0]), int(rest[1])
        if card is None or to >= players or to == seat:
            return None
        return Give(seat, card, to)
    if kind == "y":
        if not 1 <= len(rest) <= 2 or rest[1:] not in _CODE_DECLARATIONS:
            return None
        card = _card(rest[0])
        if card is None:
            return None
        return Play(seat, card, _CODE_DECLARATIONS[rest[1:]])
    return None
