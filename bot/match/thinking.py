"""Deciding off the event loop: the bot awaits `Thinking.decide` and its loop stays free.

Decisions run in a ``concurrent.futures.ProcessPoolExecutor`` (the search is CPU-bound
Python, so threads would serialise on the GIL) that the services own (`Thinking`; no module
global), created on first use with the ``spawn``
start method (safe beside the bot's threads). Views, actions and seeds are picklable values
(named tuples, frozen dataclasses), and an agent is named by its level, so nothing else
crosses the process boundary.

Fallbacks, so that a computer seat always moves: if the pool cannot be created or breaks,
the decision runs in this process (in a worker thread, keeping the loop responsive); if the
pool does not answer within ``budget × TIMEOUT_FACTOR + TIMEOUT_SLACK`` seconds (a queue of
decisions from many tables), the rule-based player decides instead, which takes
milliseconds. ``decide_sync`` is the same decision for callers without an event loop.

Workers die with the bot however it dies (a SIGKILL included, under a supervisor that does not
kill the process group): each asks Linux for SIGKILL when its parent dies (``prctl``'s
``PR_SET_PDEATHSIG``), and a watchdog thread in it also exits when its parent's pid changes
(other systems, and a parent that died before the request took effect).
"""

from __future__ import annotations

import asyncio
import ctypes
import multiprocessing
import os
import random
import signal
import sys
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Final

from engine.actions import SeatAction
from engine.ai.agent import DEFAULT_BUDGET
from engine.ai.levels import get_agent, make_agent
from engine.view import SeatView

TIMEOUT_FACTOR: Final = 3.0
TIMEOUT_SLACK: Final = 5.0
FALLBACK_LEVEL: Final = "easy"
PR_SET_PDEATHSIG: Final = 1
"""``prctl`` option of <linux/prctl.h>: the signal a process gets when its parent dies."""
WATCH_SECONDS: Final = 1.0
"""How often a worker's watchdog looks whether its parent is still the bot."""

class Thinking:
    """The process pool computer players think in, owned by the bot's services: created on
    first use, shut down with the bot (`close`), renewed after a worker died.

    ``workers``: the pool's size (None: the CPU count, at most 4; ``0``: no pool, every
    decision runs in a thread of this process). ``use_clock``: the search stops at its time
    budget (the table's setting); tests compare pool and direct decisions with it off, so
    that a loaded machine cannot make the two differ.
    """

    def __init__(self, workers: int | None = None, *, use_clock: bool = True) -> None:
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None
        self._broken = workers == 0
        self._workers = workers
        self.use_clock = use_clock

    def close(self) -> None:
        """Stop the worker processes (the next decision starts a new pool)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def running(self) -> bool:
        """Whether a process pool is up (the last decisions ran in it)."""
        with self._lock:
            return self._pool is not None

    async def decide(
        self, view: SeatView, level: str, seed: int | str, budget: float = DEFAULT_BUDGET
    ) -> SeatAction:
        """`decide_sync` in the process pool, awaited without blocking the event loop."""
        loop = asyncio.get_running_loop()
        pool = self._get_pool()
        clock = self.use_clock
        if pool is None:
            return await asyncio.to_thread(decide_sync, view, level, seed, budget, clock)
        try:
            future = loop.run_in_executor(pool, decide_sync, view, level, seed, budget, clock)
            return await asyncio.wait_for(future, budget * TIMEOUT_FACTOR + TIMEOUT_SLACK)
        except TimeoutError:
            return decide_sync(view, FALLBACK_LEVEL, seed, budget, clock)
        except (BrokenProcessPool, OSError):
            # A worker died: this decision runs here, the next one in a fresh pool.
            self.close()
            return await asyncio.to_thread(decide_sync, view, level, seed, budget, clock)

    def _get_pool(self) -> Executor | None:
        with self._lock:
            if self._broken:
                return None
            if self._pool is None:
                try:
                    workers = self._workers or min(4, os.cpu_count() or 1)
                    context = multiprocessing.get_context("spawn")
                    self._pool = ProcessPoolExecutor(
                        max_workers=workers,
                        mp_context=context,
                        initializer=die_with_parent,
                        initargs=(os.getpid(),),
                    )
                except (OSError, ValueError, NotImplementedError):
                    return None
            return self._pool


def decide_sync(
    view: SeatView,
    level: str,
    seed: int | str,
    budget: float = DEFAULT_BUDGET,
    use_clock: bool = True,
) -> SeatAction:
    """The decision of the agent of ``level`` for ``view``, with its generator seeded
    (``use_clock=False``: a search that does not stop at its time budget)."""
    agent = get_agent(level) if use_clock else make_agent(level, use_clock=False)
    return agent.decide(view, random.Random(seed), budget)


def die_with_parent(parent: int) -> None:
    """A worker's initializer: end this process when ``parent`` (the bot) ends."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):
            pass  # the watchdog below still ends the worker
    if os.getppid() != parent:
        os._exit(0)  # the bot died while this worker started
    threading.Thread(target=_watch, args=(parent,), name="parent watchdog", daemon=True).start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os._exit(0)
