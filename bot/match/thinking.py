"""Deciding off the event loop: the bot awaits ``decide_async`` and its loop stays free.

Decisions run in a ``concurrent.futures.ProcessPoolExecutor`` (the search is CPU-bound
Python, so threads would serialise on the GIL), created on first use with the ``spawn``
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
from engine.ai.levels import get_agent
from engine.view import SeatView

TIMEOUT_FACTOR: Final = 3.0
TIMEOUT_SLACK: Final = 5.0
FALLBACK_LEVEL: Final = "easy"
PR_SET_PDEATHSIG: Final = 1
"""``prctl`` option of <linux/prctl.h>: the signal a process gets when its parent dies."""
WATCH_SECONDS: Final = 1.0
"""How often a worker's watchdog looks whether its parent is still the bot."""

_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None
_broken = False
_workers: int | None = None


def configure(workers: int | None) -> None:
    """Set the pool's size (default: the CPU count, at most 4) before its first use;
    ``0`` disables the pool (every decision runs in this process)."""
    global _workers, _broken
    shutdown()
    _workers = workers
    _broken = workers == 0


def shutdown() -> None:
    """Stop the worker processes (the next decision starts a new pool)."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=False, cancel_futures=True)


def running() -> bool:
    """Whether a process pool is up (the last decisions ran in it)."""
    with _lock:
        return _pool is not None


def decide_sync(
    view: SeatView, level: str, seed: int | str, budget: float = DEFAULT_BUDGET
) -> SeatAction:
    """The decision of the agent of ``level`` for ``view``, with its generator seeded."""
    return get_agent(level).decide(view, random.Random(seed), budget)


async def decide_async(
    view: SeatView, level: str, seed: int | str, budget: float = DEFAULT_BUDGET
) -> SeatAction:
    """``decide_sync`` in the process pool, awaited without blocking the event loop."""
    loop = asyncio.get_running_loop()
    pool = _get_pool()
    if pool is None:
        return await asyncio.to_thread(decide_sync, view, level, seed, budget)
    try:
        future = loop.run_in_executor(pool, decide_sync, view, level, seed, budget)
        return await asyncio.wait_for(future, budget * TIMEOUT_FACTOR + TIMEOUT_SLACK)
    except TimeoutError:
        return decide_sync(view, FALLBACK_LEVEL, seed, budget)
    except (BrokenProcessPool, OSError):
        # A worker died: this decision runs here, the next one in a fresh pool.
        shutdown()
        return await asyncio.to_thread(decide_sync, view, level, seed, budget)


def _get_pool() -> Executor | None:
    global _pool
    with _lock:
        if _broken:
            return None
        if _pool is None:
            try:
                workers = _workers or min(4, os.cpu_count() or 1)
                context = multiprocessing.get_context("spawn")
                _pool = ProcessPoolExecutor(
                    max_workers=workers,
                    mp_context=context,
                    initializer=die_with_parent,
                    initargs=(os.getpid(),),
                )
            except (OSError, ValueError, NotImplementedError):
                return None
        return _pool


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
