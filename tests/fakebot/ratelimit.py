"""Telegram-like flood control: per-group and global sliding windows plus injected 429 storms."""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable, Collection
from dataclasses import dataclass, field

from .errors import ApiError, too_many_requests

#: Methods a storm spares unless named explicitly (polling must keep working).
STORM_SPARED = frozenset({"getupdates"})


@dataclass
class RateLimits:
    """Limits of one server; mutate freely while it runs (e.g. `limits.enabled = False`)."""

    enabled: bool = True
    group_messages: int = 20  # messages + edits per group chat ...
    group_window: float = 60.0  # ... within this many seconds
    global_messages: int = 30  # messages + edits over all chats ...
    global_window: float = 1.0  # ... within this many seconds


@dataclass(frozen=True)
class Served429:
    """One 429 the server answered."""

    method: str
    chat_id: int | None
    retry_after: int
    reason: str  # "group", "global" or "storm"
    at: float


@dataclass
class _Storm:
    retry_after: int
    calls_left: int | None
    until: float | None
    methods: frozenset[str] | None  # lower-cased names; None = all but STORM_SPARED


@dataclass
class RateLimiter:
    """Counts sends/edits and decides on 429s; every 429 served is kept in `served`."""

    limits: RateLimits
    clock: Callable[[], float] = time.monotonic
    served: list[Served429] = field(default_factory=list)
    _per_chat: dict[int, deque[float]] = field(default_factory=dict)
    _global: deque[float] = field(default_factory=deque)
    _storms: list[_Storm] = field(default_factory=list)

    def storm(
        self,
        *,
        calls: int | None = None,
        seconds: float | None = None,
        retry_after: int = 5,
        methods: Collection[str] | None = None,
    ) -> None:
        """The next `calls` calls, or all calls for `seconds`, get 429 retry_after=`retry_after`."""
        if calls is None and seconds is None:
            raise ValueError("give calls=N or seconds=T")
        self._storms.append(_Storm(
            retry_after=retry_after,
            calls_left=calls,
            until=None if seconds is None else self.clock() + seconds,
            methods=None if methods is None else frozenset(m.lower() for m in methods),
        ))

    def check_storm(self, method: str, chat_id: int | None) -> None:
        """Raise 429 if an injected storm covers this call."""
        if not self._storms:
            return
        now = self.clock()
        name = method.lower()
        self._storms = [s for s in self._storms if _alive(s, now)]
        for storm in self._storms:
            covered = name not in STORM_SPARED if storm.methods is None else name in storm.methods
            if not covered:
                continue
            if storm.calls_left is not None:
                storm.calls_left -= 1
            raise self._reject(method, chat_id, storm.retry_after, "storm", now)

    def check(self, method: str, chat_id: int, is_group: bool) -> None:
        """Count one send/edit; raise 429 (and do not count it) if over a limit."""
        if not self.limits.enabled:
            return
        now = self.clock()
        limits = self.limits
        _trim(self._global, now - limits.global_window)
        if len(self._global) >= limits.global_messages:
            wait = self._global[0] + limits.global_window - now
            raise self._reject(method, chat_id, _ceil(wait), "global", now)
        window: deque[float] | None = None
        if is_group:
            window = self._per_chat.setdefault(chat_id, deque())
            _trim(window, now - limits.group_window)
            if len(window) >= limits.group_messages:
                wait = window[0] + limits.group_window - now
                raise self._reject(method, chat_id, _ceil(wait), "group", now)
            window.append(now)
        self._global.append(now)

    def _reject(
        self, method: str, chat_id: int | None, retry_after: int, reason: str, now: float
    ) -> ApiError:
        self.served.append(Served429(method, chat_id, retry_after, reason, now))
        return too_many_requests(retry_after)


def _alive(storm: _Storm, now: float) -> bool:
    if storm.calls_left is not None and storm.calls_left <= 0:
        return False
    return storm.until is None or now < storm.until


def _trim(window: deque[float], older_than: float) -> None:
    while window and window[0] <= older_than:
        window.popleft()


def _ceil(seconds: float) -> int:
    return max(1, math.ceil(seconds))
