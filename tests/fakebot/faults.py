"""Faults between the bot and the Bot API, as a flaky network or a struggling Telegram makes
them, each for a number of seconds (or calls):

* `Faults.fail` — every call is answered with an HTTP error (500 by default), not executed;
* `Faults.hang` — calls get no answer until the fault is over, then the connection is
  dropped; they are not executed (the bot's client times out first);
* `Faults.refuse` — the server stops listening and drops the connections it has: new ones are
  refused (ECONNREFUSED) until the fault is over;
* `Faults.lose` — calls are executed, then the connection is dropped before the answer: the
  bot cannot know that they were (a lost response).

`methods` limits a fault to those methods (case-insensitive); by default ``getUpdates`` is
spared by `fail`, `hang` and `lose`, so that the bot still hears its users (a refusal takes the
whole server away, getUpdates included). The server consults `Faults.now` for every call.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass
from typing import Literal

Kind = Literal["fail", "hang", "lose", "refuse"]
SPARED = frozenset({"getupdates"})


@dataclass
class Fault:
    kind: Kind
    until: float | None
    calls_left: int | None
    methods: frozenset[str] | None
    status: int = 500

    def covers(self, method: str, now: float) -> bool:
        if not self.alive(now):
            return False
        name = method.lower()
        if self.methods is not None:
            return name in self.methods
        return self.kind == "refuse" or name not in SPARED

    def alive(self, now: float) -> bool:
        if self.until is not None and now >= self.until:
            return False
        return self.calls_left is None or self.calls_left > 0


class Faults:
    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        *,
        stop_listening: Callable[[], Awaitable[None]] | None = None,
        listen_again: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self._clock = clock
        self._faults: list[Fault] = []
        self._stop_listening = stop_listening
        self._listen_again = listen_again
        self._tasks: set[asyncio.Task[None]] = set()
        self.hit: list[tuple[Kind, str]] = []
        """(fault, method) of every call a fault met."""

    def fail(
        self,
        *,
        seconds: float | None = None,
        calls: int | None = None,
        status: int = 500,
        methods: Collection[str] | None = None,
    ) -> None:
        self._add("fail", seconds, calls, methods, status)

    def hang(self, *, seconds: float, methods: Collection[str] | None = None) -> None:
        self._add("hang", seconds, None, methods)

    def lose(
        self,
        *,
        seconds: float | None = None,
        calls: int | None = None,
        methods: Collection[str] | None = None,
    ) -> None:
        self._add("lose", seconds, calls, methods)

    def refuse(self, seconds: float) -> None:
        """Stop listening for ``seconds`` (and drop the open connections meanwhile)."""
        if self._stop_listening is None or self._listen_again is None:
            raise RuntimeError("this server cannot stop listening")
        self._add("refuse", seconds, None, None)
        stop, again = self._stop_listening, self._listen_again

        async def outage() -> None:
            await stop()
            await asyncio.sleep(seconds)
            await again()

        task = asyncio.get_running_loop().create_task(outage())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def now(self, method: str) -> Fault | None:
        """The fault that meets a call of ``method`` now (counted), or None."""
        now = self._clock()
        self._faults = [f for f in self._faults if f.alive(now)]
        for fault in self._faults:
            if fault.covers(method, now):
                if fault.calls_left is not None:
                    fault.calls_left -= 1
                self.hit.append((fault.kind, method))
                return fault
        return None

    async def over(self, fault: Fault) -> None:
        """Wait until ``fault`` ends (a hanging call's answer never comes before)."""
        while fault.until is not None and self._clock() < fault.until:
            await asyncio.sleep(min(0.1, fault.until - self._clock()))

    @property
    def active(self) -> bool:
        now = self._clock()
        return any(f.alive(now) for f in self._faults)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def _add(
        self,
        kind: Kind,
        seconds: float | None,
        calls: int | None,
        methods: Collection[str] | None,
        status: int = 500,
    ) -> None:
        if seconds is None and calls is None:
            raise ValueError("give seconds=T or calls=N")
        self._faults.append(
            Fault(
                kind=kind,
                until=None if seconds is None else self._clock() + seconds,
                calls_left=calls,
                methods=None if methods is None else frozenset(m.lower() for m in methods),
                status=status,
            )
        )
