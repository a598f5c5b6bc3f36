"""Storage of the bot: SQLite through aiosqlite or PostgreSQL through asyncpg, schema
migrations and repositories.

It stores text, not engine objects: the rules of a match as the match notation's header lines
and the action log as notation lines, so a stored match replays with the engine's script
runner. It imports the engine only for the names of its games (`engine.Game`, the one
spelling of them); nothing here imports the bot or Telegram.

Modules:

* the connection: `backend` (what the repositories use of a database), `conn` (what a
  one-trip write's work function uses); SQLite's `database` (opening, pragmas, queries) on
  `transactions` (the lock, transactions and one-trip writes, with `_wal_sync` syncing and
  checkpointing the WAL off the database's threads), `migrations/` (the schema, one module
  per migration, and the runner); and
  `postgres/`, the same on a PostgreSQL server (`DATABASE_URL`), where writers run side by
  side and lock what they change (`locks`: a match, a chat, a player's rating);
* the values: `models` (the rows returned), `result_models` (results, totals, ratings),
  `errors`, and `_rows` (row -> model helpers);
* one repository per job: `users`, `chats`, `lobbies`, `matches` (with the action log),
  `deadlines` (turn timers), `outbox` (messages a change must produce), `results` (reading
  results, totals and ratings; `result_writes` writes a result, `result_rows` reads its rows
  back), `relay` (what the processes of one database hand the one that sends), `running`
  (what they ask of each other's matches), `jobs` (which of them runs a match's timer and
  computer moves) and `kicks` (/kick votes); `writes` is the one-trip
  write of a change of a running match (`MatchWrite`); `store` bundles them;
  `postgres/leader` says which of the processes sends.
"""

from engine import Game
from storage.backend import Backend
from storage.chats import Chats
from storage.database import Database
from storage.deadlines import Deadlines
from storage.errors import (
    AlreadySeated,
    ChatBusy,
    Conflict,
    ConstraintViolation,
    CorruptRow,
    DatabaseTooNew,
    LobbyFull,
    LobbyNotFull,
    NotFound,
    SeatTaken,
    StorageError,
    VersionConflict,
    WrongStatus,
)
from storage.lobbies import Lobbies
from storage.matches import Matches
from storage.migrations import LATEST_VERSION
from storage.models import (
    Chat,
    ChatType,
    Deadline,
    Lobby,
    LobbySeat,
    LobbyStatus,
    Match,
    MatchSeat,
    MatchStatus,
    NewSeat,
    User,
)
from storage.postgres.database import PgDatabase, safe_url
from storage.result_models import (
    COUNTER_NAMES,
    Counters,
    HistoryEntry,
    HistorySeat,
    LeaderboardEntry,
    MatchResult,
    Page,
    PlayerRef,
    PlayerStats,
    Rating,
    ResultStatus,
)
from storage.result_writes import AlreadyRecorded, ResultWrite
from storage.results import Results
from storage.store import Store, is_postgres
from storage.users import Users
from storage.writes import MatchWrite, Statement, TurnDeadline

__all__ = [
    "COUNTER_NAMES",
    "LATEST_VERSION",
    "AlreadyRecorded",
    "AlreadySeated",
    "Backend",
    "Chat",
    "ChatBusy",
    "ChatType",
    "Chats",
    "Conflict",
    "ConstraintViolation",
    "CorruptRow",
    "Counters",
    "Database",
    "DatabaseTooNew",
    "Deadline",
    "Deadlines",
    "Game",
    "HistoryEntry",
    "HistorySeat",
    "LeaderboardEntry",
    "Lobbies",
    "Lobby",
    "LobbyFull",
    "LobbyNotFull",
    "LobbySeat",
    "LobbyStatus",
    "Match",
    "MatchResult",
    "MatchSeat",
    "MatchStatus",
    "MatchWrite",
    "Matches",
    "NewSeat",
    "NotFound",
    "Page",
    "PgDatabase",
    "PlayerRef",
    "PlayerStats",
    "Rating",
    "ResultStatus",
    "ResultWrite",
    "Results",
    "SeatTaken",
    "Statement",
    "StorageError",
    "Store",
    "TurnDeadline",
    "User",
    "Users",
    "VersionConflict",
    "WrongStatus",
    "is_postgres",
    "safe_url",
]
