"""Several bot processes of one token on one PostgreSQL database (issue 17): which of them
sends and registers the webhook, how leadership passes on, and who runs the timers.

Every process takes updates (webhook workers behind a reverse proxy) and changes any match:
its copy in memory catches up with the log first and the commit checks the version
(`bot.match.loading.Loader.caught_up`). Exactly one process — the leader, the holder of the
database's leader lock (`storage.postgres.leader`) — talks to Telegram for sends and edits,
so the token's limits hold with N processes:

* a follower's outbox writes its calls to the database's relay (`bot.telegram.relay`); the
  leader is woken by the relay's notification (or its own `POLL_SECONDS` poll) and hands
  them to its outbox; the endings a follower's presses produce are relayed too, and the
  leader posts them with their score sheets;
* a follower hands the files it would upload (a /score picture, an /export file) to the
  leader too, which uploads them in the background;
* only the leader registers the webhook and the commands, at its start.

Turn timers and computer moves are not the leader's: every process runs those of the matches
it changed, as their jobs, and takes over those of a process that died (`bot.match.jobs`,
started here for every process of a shared database). Every process re-reads the users and
chats that others changed (`People.refresh`).

When the leader dies its lock goes with its connection; a waiting follower takes it, stops
relaying, takes Telegram's windows as full as the dead leader's pacing may have left them
(`Pacer.inherit`) and delivers the messages the dead leader had not (stored in the database
outbox, `bot.match.recovery.take_over`). If the leader's own connection breaks it cannot
know that it is still the only sender: it stops (``on_lost``), to be restarted as a
follower.

On SQLite (one process) there is no cluster: the process leads, and nothing here runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping
from typing import Any

from telegram import Bot

from bot.chats.people import REFRESH_SECONDS
from bot.lobby.service import lobby_sent
from bot.match.jobs import JobRunner
from bot.match.recovery import ending_of, take_over
from bot.ops.background import Background
from bot.services import Services
from bot.telegram.relay import RelayWriter, Rememberers, SharedOutbox, replay
from bot.telegram.uploads import Upload, send
from storage import StorageError
from storage.outbox import Stored
from storage.postgres.leader import Leadership
from storage.relay import RELAY_CHANNEL, TAKE_LIMIT

log = logging.getLogger(__name__)

POLL_SECONDS = 1.0
"""The leader reads the relay at least this often (a notification wakes it at once)."""
RETRY_SECONDS = 1.0
"""A follower whose waiting connection broke connects anew after this pause."""


class Cluster:
    """This process's part among the processes of its database."""

    def __init__(
        self,
        services: Services,
        bot: Bot,
        leadership: Leadership | None,
        outbox: SharedOutbox | None,
        on_lost: Callable[[], None],
    ) -> None:
        """``leadership`` None: the only process (SQLite), which leads."""
        self._services = services
        self._bot = bot
        self._leadership = leadership
        self._jobs: JobRunner | None = None
        self._wake = asyncio.Event()
        self._background = Background()
        self._announced: set[int] = set()
        self.leading = leadership is None
        """Whether this process sends and registers the webhook."""
        if leadership is not None:
            leadership.on_lost = on_lost
        self._outbox = outbox
        found = services
        self._rememberers: Rememberers = {
            "table": found.screens.remember,
            "hand": found.screens.remember,
            "lobby": lambda lobby_id: lobby_sent(found.store, lobby_id),
        }

    @classmethod
    async def join(cls, services: Services, bot: Bot, on_lost: Callable[[], None]) -> Cluster:
        """Lead if the database has no leader (or is SQLite's), else follow and wait."""
        outbox = services.outbox
        if not services.store.shared:
            return cls(services, bot, None, None, on_lost)
        if not isinstance(outbox, SharedOutbox):
            raise TypeError("processes sharing a database need the shared outbox")
        leadership = await Leadership.connect(str(services.settings.database))
        try:
            cluster = cls(services, bot, leadership, outbox, on_lost)
            await services.people.refresh()
            cluster._background.spawn(cluster._refresh_people(), "re-reading users and chats")
            if await leadership.try_lead():
                await cluster._lead()
            else:
                cluster._follow()
        except BaseException:
            await leadership.close()
            raise
        return cluster

    async def run_jobs(self) -> None:
        """Start renewing this process's match jobs and claiming lapsed ones (a shared
        database; after the start-up's recovery, so that what it delivers goes first)."""
        services = self._services
        jobs = services.games.jobs
        if self._leadership is None or jobs is None or self._jobs is not None:
            return
        self._jobs = await JobRunner.start(
            services.store.jobs, jobs.worker, services.games.nudge,
            str(services.settings.database),
        )

    async def _refresh_people(self) -> None:
        while True:
            await asyncio.sleep(REFRESH_SECONDS)
            try:
                await self._services.people.refresh()
            except Exception:
                log.exception("the users and chats cannot be re-read")

    def _follow(self) -> None:
        log.info("another process leads: this one takes updates and relays what to send")
        services = self._services
        assert self._outbox is not None
        self._outbox.relay = RelayWriter(services.store.relay)
        self._background.spawn(self._wait_to_lead(), "waiting to lead")

    async def _wait_to_lead(self) -> None:
        assert self._leadership is not None and self._outbox is not None
        while True:
            try:
                await self._leadership.lead()
                break
            except Exception:
                # The waiting connection broke (the server restarted?): wait on a new one.
                log.exception("waiting to lead failed; trying again")
                await asyncio.sleep(RETRY_SECONDS)
                with contextlib.suppress(StorageError):
                    await self._leadership.reconnect()
        log.warning("the leader is gone: this process leads now")
        services = self._services
        relay = self._outbox.relay
        if relay is not None:
            await relay.close()
        self._outbox.relay = None
        # What the dead leader sent lately is unknown: its pacing is assumed at its limits.
        services.outbox.pacer.inherit()
        self._announced = await take_over(services)
        await self._lead()

    async def _lead(self) -> None:
        assert self._leadership is not None
        self.leading = True
        await self._leadership.listen(RELAY_CHANNEL, self._wake.set)
        self._background.spawn(self._read_relay(), "reading the relay")

    async def _read_relay(self) -> None:
        services = self._services
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), POLL_SECONDS)
            self._wake.clear()
            try:
                bodies = await services.store.relay.take()
            except Exception:
                log.exception("the relay cannot be read")
                continue
            for body in bodies:
                try:
                    await replay(
                        body, services.outbox, self._rememberers, self._ending, self._upload
                    )
                except Exception:
                    log.exception("a relayed call failed: %r", body.get("op"))
            if len(bodies) >= TAKE_LIMIT:
                self._wake.set()

    def _upload(self, upload: Upload) -> None:
        """A follower's file: sent in the background (its 429s are waited out there)."""
        async def sending() -> None:
            await send(self._bot, upload)

        self._background.spawn(sending(), f"uploading to chat {upload.chat_id}")

    async def _ending(self, body: Mapping[str, Any]) -> None:
        """A follower's match ended: post its result (once, if the take-over did not)."""
        match_id, chat_id, version = body.get("match"), body.get("chat"), body.get("version")
        if not (isinstance(match_id, int) and isinstance(chat_id, int)
                and isinstance(version, int)) or match_id in self._announced:
            return
        self._announced.add(match_id)
        services = self._services
        stored = Stored(
            chat_id, f"ending:{match_id}", "ending", match_id, version, None,
            {"lang": body.get("lang"), "text": body.get("text"), "topic": body.get("topic")},
        )
        ending = await ending_of(services, stored, await services.store.matches.get(match_id))
        if ending is not None:
            services.games.announce_later(ending)

    async def stop_jobs(self) -> None:
        """Let go of the match jobs (call it once the match service stopped its timers and
        moves): the other processes take them over at once."""
        jobs, self._jobs = self._jobs, None
        if jobs is not None:
            await jobs.close()

    async def close(self) -> None:
        """Let go of the match jobs, and stop leading or waiting to (the lock goes with the
        connection)."""
        await self._background.cancel()
        await self.stop_jobs()
        if self._leadership is not None:
            await self._leadership.close()
