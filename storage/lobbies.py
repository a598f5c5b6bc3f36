"""Lobbies: the message in a group where players gather before a match, and its seats.

A lobby holds the chosen rules (the notation's header lines, with ``game`` and ``players``
also as columns), the turn timer, the lobby message id, and its filled seats (a user, or a
computer player of some level). Only an open lobby changes; starting it
(`Matches.create_from_lobby`) or cancelling it closes it for good. A group chat has at most one
game at a time: an open lobby or a running match (`ChatBusy`). On PostgreSQL every change of
a lobby, and every write that opens a game in a chat, holds the chat's lock
(`storage.locks.chat_lock`), since several processes write one database.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import Game
from engine.rules import PLAYER_COUNTS
from storage._rows import (
    as_int,
    check_header,
    check_seat,
    column,
    load,
    placeholders,
    to_text,
)
from storage.backend import Backend
from storage.conn import Row
from storage.errors import (
    AlreadySeated,
    ChatBusy,
    LobbyFull,
    NotFound,
    SeatTaken,
    WrongStatus,
)
from storage.locks import chat_lock
from storage.models import GAMES, Lobby, LobbySeat, LobbyStatus

_COLUMNS = (
    "lobby_id, chat_id, topic_id, creator_id, message_id, game, players, rules, turn_seconds, "
    "status, created_at, updated_at, settings_open"
)


def check_rules(game: str, players: int, rules: str) -> None:
    """The game is known, the table size fits it, and the header agrees with both."""
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}")
    if players not in PLAYER_COUNTS[Game(game)]:
        raise ValueError(f"{game} is not played by {players}")
    check_header(game, players, rules)


def check_turn_seconds(turn_seconds: int | None) -> None:
    """A positive number of seconds, or None for no timer."""
    if turn_seconds is not None and (isinstance(turn_seconds, bool) or turn_seconds <= 0):
        raise ValueError(f"turn_seconds must be positive or None, not {turn_seconds!r}")


def check_level(level: str) -> None:
    """A computer player's level name."""
    if not isinstance(level, str) or not 1 <= len(level) <= 32:
        raise ValueError(f"a computer level is a name of 1..32 characters, not {level!r}")


async def refuse_busy_chat(db: Backend, chat_id: int, topic_id: int = 0) -> None:
    """Raise `ChatBusy` if the place (the chat, and its forum topic) has an open lobby or a
    running match; inside a write transaction, which then holds the chat's lock: the game
    it opens there is the only one."""
    await db.lock(chat_lock(chat_id))
    lobby_id = await db.fetch_value(
        "SELECT lobby_id FROM lobbies WHERE chat_id = ? AND topic_id = ? AND status = 'open'",
        (chat_id, topic_id),
    )
    if lobby_id is not None:
        raise ChatBusy(
            chat_id, lobby_id=as_int(lobby_id, table="lobbies", key=chat_id, name="lobby_id")
        )
    match_id = await db.fetch_value(
        "SELECT match_id FROM matches WHERE chat_id = ? AND topic_id = ? AND status = 'running'",
        (chat_id, topic_id),
    )
    if match_id is not None:
        raise ChatBusy(
            chat_id, match_id=as_int(match_id, table="matches", key=chat_id, name="match_id")
        )


async def lock_lobby_chat(db: Backend, lobby_id: int) -> None:
    """Take the lock of the lobby's chat (`storage.locks.chat_lock`) inside a write
    transaction: its seats, rules and status, and the place's one game, change one writer
    at a time. The chat is read before the lock and again after it, since a group's move to
    a supergroup (`storage.chats`) may have moved the lobby meanwhile."""
    locked: set[int] = set()
    while True:
        value = await db.fetch_value("SELECT chat_id FROM lobbies WHERE lobby_id = ?", (lobby_id,))
        if value is None:
            return
        chat_id = as_int(value, table="lobbies", key=lobby_id, name="chat_id")
        if chat_id in locked:
            return
        locked.add(chat_id)
        await db.lock(chat_lock(chat_id))


class Lobbies:
    """Repository of the ``lobbies`` and ``lobby_seats`` tables."""

    def __init__(self, db: Backend) -> None:
        self._db = db

    # ---------------------------------------------------------------- reading

    async def get(self, lobby_id: int) -> Lobby | None:
        """The lobby with its seats, or None."""
        lobbies = await self._select("lobby_id = ?", (lobby_id,))
        return lobbies[0] if lobbies else None

    async def open_in_chat(self, chat_id: int, topic_id: int = 0) -> Lobby | None:
        """The open lobby of the chat (in the forum topic ``topic_id``), or None."""
        lobbies = await self._select(
            "chat_id = ? AND topic_id = ? AND status = 'open'", (chat_id, topic_id)
        )
        return lobbies[0] if lobbies else None

    async def open_in_group(self, chat_id: int) -> list[Lobby]:
        """The chat's open lobbies, in any of its forum topics."""
        return await self._select("chat_id = ? AND status = 'open'", (chat_id,))

    async def list_for_user(
        self, user_id: int, status: LobbyStatus | None = "open"
    ) -> list[Lobby]:
        """The lobbies the user sits in (open ones by default; None = any status), oldest first."""
        where = "lobby_id IN (SELECT lobby_id FROM lobby_seats WHERE user_id = ?)"
        params: tuple[object, ...] = (user_id,)
        if status is not None:
            where += " AND status = ?"
            params += (status,)
        return await self._select(where, params)

    async def list_open(self) -> list[Lobby]:
        """Every open lobby (after a restart the bot re-renders their messages)."""
        return await self._select("status = 'open'", ())

    # ---------------------------------------------------------------- writing

    async def create(
        self,
        chat_id: int,
        *,
        creator_id: int,
        game: Game,
        players: int,
        rules: str,
        turn_seconds: int | None = None,
        message_id: int | None = None,
        topic_id: int = 0,
    ) -> Lobby:
        """Open a lobby with no seats filled (in the forum topic ``topic_id``, 0: none).
        Raises `ChatBusy` if that place has a game.

        The chat and the creator must be stored already (`Chats.upsert`, `Users.upsert`).
        """
        check_rules(game, players, rules)
        check_turn_seconds(turn_seconds)
        now = to_text(self._db.now())
        async with self._db.transaction():
            await refuse_busy_chat(self._db, chat_id, topic_id)
            new_id = await self._db.fetch_value(
                "INSERT INTO lobbies (chat_id, topic_id, creator_id, message_id, game, players, "
                "                     rules, turn_seconds, status, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?) RETURNING lobby_id",
                (
                    chat_id, topic_id, creator_id, message_id, game, players, rules,
                    turn_seconds, now, now,
                ),
            )
            return await self._require(
                as_int(new_id, table="lobbies", key=chat_id, name="lobby_id")
            )

    async def set_message_id(self, lobby_id: int, message_id: int | None) -> Lobby:
        """Remember the lobby message (any status: it is edited after the start too)."""
        return await self._update(lobby_id, "message_id = ?", (message_id,), open_only=False)

    async def set_rules(self, lobby_id: int, *, game: Game, players: int, rules: str) -> Lobby:
        """Change the rules of an open lobby. A smaller table must not drop a filled seat."""
        check_rules(game, players, rules)
        async with self._db.transaction():
            lobby = await self._require_open(lobby_id)
            beyond = [s.seat for s in lobby.seats if s.seat >= players]
            if beyond:
                raise ValueError(f"seats {beyond} are filled; free them before shrinking")
            return await self._update(
                lobby_id, "game = ?, players = ?, rules = ?", (game, players, rules)
            )

    async def set_settings_open(self, lobby_id: int, open_: bool) -> Lobby:
        """Whether the open lobby's message shows the settings screen (any process may take
        its next press)."""
        return await self._update(lobby_id, "settings_open = ?", (int(open_),))

    async def set_turn_seconds(self, lobby_id: int, turn_seconds: int | None) -> Lobby:
        """Set the turn timer of an open lobby (None = no timer)."""
        check_turn_seconds(turn_seconds)
        return await self._update(lobby_id, "turn_seconds = ?", (turn_seconds,))

    async def sit_user(self, lobby_id: int, user_id: int, seat: int | None = None) -> Lobby:
        """Seat a user (at `seat`, or the first free one). Raises `AlreadySeated`,
        `SeatTaken`, `LobbyFull`, `WrongStatus` (not open), `NotFound`."""
        async with self._db.transaction():
            lobby = await self._require_open(lobby_id)
            current = lobby.seat_of(user_id)
            if current is not None:
                raise AlreadySeated(lobby_id, user_id, current)
            return await self._sit(lobby, seat, user_id, None)

    async def sit_computer(self, lobby_id: int, level: str, seat: int | None = None) -> Lobby:
        """Seat a computer player of `level` (at `seat`, or the first free one)."""
        check_level(level)
        async with self._db.transaction():
            lobby = await self._require_open(lobby_id)
            return await self._sit(lobby, seat, None, level)

    async def free_seat(self, lobby_id: int, seat: int) -> Lobby:
        """Empty a seat of an open lobby (whoever sits there); an empty seat stays empty."""
        async with self._db.transaction():
            lobby = await self._require_open(lobby_id)
            check_seat(seat, lobby.players)
            await self._db.execute(
                "DELETE FROM lobby_seats WHERE lobby_id = ? AND seat = ?", (lobby_id, seat)
            )
            return await self._touch(lobby_id)

    async def leave(self, lobby_id: int, user_id: int) -> Lobby:
        """Take the user out of an open lobby (no change if they do not sit there)."""
        async with self._db.transaction():
            await self._require_open(lobby_id)
            await self._db.execute(
                "DELETE FROM lobby_seats WHERE lobby_id = ? AND user_id = ?", (lobby_id, user_id)
            )
            return await self._touch(lobby_id)

    async def cancel(self, lobby_id: int) -> Lobby:
        """Close an open lobby without a match; the chat is free for a new game."""
        return await self._update(lobby_id, "status = 'cancelled'", ())

    # ---------------------------------------------------------------- internals

    async def _sit(
        self, lobby: Lobby, seat: int | None, user_id: int | None, level: str | None
    ) -> Lobby:
        if seat is None:
            if not lobby.free_seats:
                raise LobbyFull(lobby.lobby_id)
            seat = lobby.free_seats[0]
        check_seat(seat, lobby.players)
        if seat not in lobby.free_seats:
            raise SeatTaken(lobby.lobby_id, seat)
        await self._db.execute(
            "INSERT INTO lobby_seats (lobby_id, seat, user_id, computer_level) "
            "VALUES (?, ?, ?, ?)",
            (lobby.lobby_id, seat, user_id, level),
        )
        return await self._touch(lobby.lobby_id)

    async def _update(
        self,
        lobby_id: int,
        assignment: str,
        values: tuple[object, ...],
        *,
        open_only: bool = True,
    ) -> Lobby:
        async with self._db.transaction():
            if open_only:
                await self._require_open(lobby_id)
            changed = await self._db.execute(
                f"UPDATE lobbies SET {assignment}, updated_at = ? WHERE lobby_id = ?",
                (*values, to_text(self._db.now()), lobby_id),
            )
            if changed == 0:
                raise NotFound("lobby", lobby_id)
            return await self._require(lobby_id)

    async def _touch(self, lobby_id: int) -> Lobby:
        return await self._update(lobby_id, "lobby_id = lobby_id", (), open_only=False)

    async def _require(self, lobby_id: int) -> Lobby:
        lobby = await self.get(lobby_id)
        if lobby is None:
            raise NotFound("lobby", lobby_id)
        return lobby

    async def _require_open(self, lobby_id: int) -> Lobby:
        """The open lobby, read under its chat's lock (every change of an open lobby reads
        it here first)."""
        await lock_lobby_chat(self._db, lobby_id)
        lobby = await self._require(lobby_id)
        if lobby.status != "open":
            raise WrongStatus("lobby", lobby_id, lobby.status, "open")
        return lobby

    async def _select(self, where: str, params: Sequence[object]) -> list[Lobby]:
        async with self._db.snapshot():
            rows = await self._db.fetch_all(
                f"SELECT {_COLUMNS} FROM lobbies WHERE {where} ORDER BY lobby_id", params
            )
            ids = [column(r, "lobby_id", int, table="lobbies", key=None) for r in rows]
            seat_rows = (
                await self._db.fetch_all(
                    "SELECT lobby_id, seat, user_id, computer_level FROM lobby_seats "
                    f"WHERE lobby_id IN ({placeholders(ids)}) ORDER BY lobby_id, seat",
                    ids,
                )
                if ids
                else []
            )
        seats: dict[int, list[Row]] = {lobby_id: [] for lobby_id in ids}
        for seat_row in seat_rows:
            seats[seat_row.pop("lobby_id")].append(seat_row)
        return [
            load(
                Lobby,
                row,
                table="lobbies",
                key=lobby_id,
                seats=tuple(
                    load(LobbySeat, s, table="lobby_seats", key=(lobby_id, s.get("seat")))
                    for s in seats[lobby_id]
                ),
            )
            for lobby_id, row in zip(ids, rows, strict=True)
        ]
