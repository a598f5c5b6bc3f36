"""A fake Telegram Bot API server for end-to-end tests of the bot.

See `server.FakeTelegramServer` for how to start it and point python-telegram-bot at it.
"""

from .errors import ApiError
from .faults import Faults
from .notify import ChangeNotifier
from .people import ButtonNotFound, PressHandle, SimChat, SimUser
from .ratelimit import RateLimits, Served429
from .server import DEFAULT_BOT_USERNAME, FakeTelegramServer
from .state import CallbackAnswer, CallbackQueryRecord, ChatStats, SimMessage, UploadedFile
from .webhook import SECRET_HEADER
from .world import ApiCall

__all__ = [
    "DEFAULT_BOT_USERNAME",
    "SECRET_HEADER",
    "ApiCall",
    "ApiError",
    "ButtonNotFound",
    "CallbackAnswer",
    "CallbackQueryRecord",
    "ChangeNotifier",
    "ChatStats",
    "FakeTelegramServer",
    "Faults",
    "PressHandle",
    "RateLimits",
    "Served429",
    "SimChat",
    "SimMessage",
    "SimUser",
    "UploadedFile",
]
