"""Storage of the bot: SQLite through aiosqlite, schema migrations and repositories.

It stores text, not engine objects: the rules of a match as the match notation's header lines
and the action log as notation lines, so a stored match replays with the engine's script
runner. Nothing here imports the bot or Telegram.

Modules: `database` (the connection, pragmas, transactions), `migrations` (the schema),
`models` (the rows returned), `errors`, and one repository per job: `users`, `chats`,
`lobbies`, `matches` (with the action log), `deadlines` (turn timers); `store` bundles them.
`results` (with `result_models`) keeps match results, players' totals and ratings;
`writes` is the one-trip write of a change of a running match (`MatchWrite`).
"""

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
    Game,
    Lobby,
    LobbySeat,
    LobbyStatus,
    Match,
    MatchSeat,
    MatchStatus,
    NewSeat,
    User,
)
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
from storage.results import AlreadyRecorded, Results, ResultWrite
from storage.store import Store
from storage.users import Users
from storage.writes import MatchWrite, Statement, TurnDeadline

__all__ = [
    "COUNTER_NAMES",
    "LATEST_VERSION",
    "AlreadyRecorded",
    "AlreadySeated",
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
]
