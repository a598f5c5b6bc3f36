"""What the rooms of the match service share (`Crew`), and their common base (`Room`): the
matches in memory, the commit path, the store, the people, the screens and the texts."""

from __future__ import annotations

from dataclasses import dataclass

from bot.chats.people import People
from bot.i18n import Translator
from bot.match.changes import Changes
from bot.match.running import Running
from bot.match.screens import Screens
from storage import Store


@dataclass(frozen=True)
class Crew:
    running: Running
    changes: Changes
    store: Store
    people: People
    screens: Screens
    tr: Translator


class Room:
    """A part of the match service (presses, autoplay, loading), on the shared crew."""

    def __init__(self, crew: Crew) -> None:
        self._running = crew.running
        self._changes = crew.changes
        self._store = crew.store
        self._people = crew.people
        self._screens = crew.screens
        self._tr = crew.tr
