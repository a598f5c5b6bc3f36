"""Change notification for waiting helpers: wake waiters of a key when that part of state moves."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

T = TypeVar("T")

#: Waiters under this key wake on every change.
ANY: Hashable = object()


class ChangeNotifier:
    """Futures keyed by what they watch (usually a chat id); `touch()` resolves them."""

    def __init__(self) -> None:
        self.version = 0
        self._waiters: dict[Hashable, set[asyncio.Future[None]]] = {}

    def touch(self, *keys: Hashable) -> None:
        """Record a change of `keys` and wake their waiters and all `ANY` waiters."""
        self.version += 1
        for key in (*keys, ANY):
            futures = self._waiters.pop(key, None)
            if futures:
                for fut in futures:
                    if not fut.done():
                        fut.set_result(None)

    async def wait_until(
        self,
        predicate: Callable[[], T | None],
        *,
        timeout: float,
        keys: Iterable[Hashable] = (ANY,),
        describe: Callable[[], str] = lambda: "",
        what: str = "condition",
    ) -> T:
        """Return the first truthy value of `predicate()`, re-checked on every touch of `keys`.

        Raises AssertionError with `what` and `describe()` when `timeout` seconds pass.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        keys = tuple(keys)
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                details = describe()
                raise AssertionError(
                    f"timed out after {timeout:g}s waiting for {what}"
                    + (f"\n{details}" if details else "")
                )
            fut: asyncio.Future[None] = loop.create_future()
            for key in keys:
                self._waiters.setdefault(key, set()).add(fut)
            try:
                await asyncio.wait((fut,), timeout=remaining)
            finally:
                for key in keys:
                    bucket = self._waiters.get(key)
                    if bucket is not None:
                        bucket.discard(fut)
                        if not bucket:
                            del self._waiters[key]
