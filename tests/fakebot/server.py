"""The fake Telegram Bot API HTTP server for end-to-end tests (aiohttp, in the test's loop).

URL layout, as python-telegram-bot 22 builds it: `Bot(token, base_url=B)` calls
`f"{B}{token}/{method}"` (PTB appends the token to `base_url` unless `base_url` contains a
`{token}` placeholder, then adds `/{method}`), so `base_url=f"{server.root}/bot"` — exposed as
`server.base_url` — gives `POST {root}/bot{token}/{method}`.  PTB posts url-encoded forms whose
non-string values are JSON-encoded, and multipart for uploads; plain JSON bodies and GET query
strings work too.  Files are served at `{root}/file/bot{token}/{file_path}`
(`base_file_url=server.base_file_url`).  Any token is accepted (see `tokens`) unless
`accept_tokens` is given; method names are case-insensitive like Telegram's.

Usage::

    async with FakeTelegramServer() as server:
        alice = server.user(1001, "Alice")
        cmd = await alice.start_bot()
        app = Application.builder().token("123:TEST").base_url(server.base_url).build()
        ...  # start the app (polling or webhook), then:
        menu = await server.wait_for_message(alice, after=cmd)
        answer = await (await alice.press(menu, "Join")).answer()

Constructor options: `bot_username` (deep links, `/cmd@name`), `limits` (a mutable
`RateLimits`; `limits.enabled = False` switches flood control off), `privacy_mode` (group
messages reach the bot only if commands, replies to it or mentions, unless it is admin),
`callback_ttl` (seconds after which answering a query fails like an expired one),
`accept_tokens` (others get 401), `clock` (monotonic clock for the limits, to fake time),
`conflict_on_parallel_polls` (a newer getUpdates ends an older waiting one with 409 instead
of an empty result).

`server.faults` injects network faults: 5xx answers, hanging calls, refused connections and
lost responses (`tests.fakebot.faults`).
"""

from __future__ import annotations

import json
import socket
import time
import traceback
from collections.abc import Callable, Collection, Iterable
from types import TracebackType
from typing import Any, Self

import aiohttp
from aiohttp import web

from .errors import ApiError, not_found
from .faults import Faults
from .inspection import ChatRef, Inspection
from .methods import METHODS, chat_id_param
from .params import read_params
from .people import SimChat, SimUser
from .ratelimit import RateLimits
from .state import BotIdentity, ChatState, UserState, now_ts
from .webhook import SECRET_HEADER
from .world import ApiCall, World

JSON = dict[str, Any]

DEFAULT_BOT_USERNAME = "tysyacha_test_bot"


class FakeTelegramServer(Inspection):
    """A Telegram Bot API look-alike with simulated users and groups.

    Start it with `await server.start()` (or `async with`), point the bot at `server.base_url`,
    create people with `user()` / `group()` and drive them with their async methods.
    """

    def __init__(
        self,
        *,
        bot_username: str = DEFAULT_BOT_USERNAME,
        bot_first_name: str = "Тысяча (тест)",
        bot_id: int = 7_000_000_001,
        host: str = "127.0.0.1",
        port: int = 0,
        limits: RateLimits | None = None,
        privacy_mode: bool = False,
        callback_ttl: float | None = None,
        accept_tokens: Collection[str] | None = None,
        clock: Callable[[], float] = time.monotonic,
        conflict_on_parallel_polls: bool = False,
    ) -> None:
        self.limits = limits if limits is not None else RateLimits()
        self.world = World(
            bot=BotIdentity(bot_id, bot_first_name, bot_username, not privacy_mode),
            limits=self.limits, clock=clock, privacy_mode=privacy_mode,
            callback_ttl=callback_ttl, conflict_on_parallel_polls=conflict_on_parallel_polls,
        )
        self.host = host
        self.port = port
        self.accept_tokens = None if accept_tokens is None else set(accept_tokens)
        self.tokens: set[str] = set()
        self.internal_errors: list[str] = []
        self.faults = Faults(clock, stop_listening=self._stop_listening, listen_again=self._listen)
        """Faults between the bot and this server (`tests.fakebot.faults`)."""
        self._runner: web.AppRunner | None = None
        self._site: web.SockSite | None = None
        self._session: aiohttp.ClientSession | None = None
        self._users: dict[int, SimUser] = {}
        self._next_group_id = -1_001_000_000_001

    # -- lifecycle ---------------------------------------------------------------------------

    async def start(self) -> Self:
        """Listen on host:port (port 0 = a free one, see `self.port`)."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle_api)
        app.router.add_get("/file/bot{token}/{path:.+}", self._handle_file)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.5)
        await self._runner.setup()
        await self._listen()
        self._session = aiohttp.ClientSession()
        self.world.webhook.session = self._session
        return self

    async def _listen(self) -> None:
        assert self._runner is not None
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((self.host, self.port))
        self.port = sock.getsockname()[1]
        self._site = web.SockSite(self._runner, sock, backlog=1024)
        await self._site.start()

    async def _stop_listening(self) -> None:
        if self._site is not None:
            await self._site.stop()
            self._site = None

    async def close(self) -> None:
        """Release long polls, stop webhook delivery and the HTTP server."""
        await self.faults.close()
        self.world.updates.close()
        await self.world.webhook.deactivate()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    @property
    def root(self) -> str:
        """`http://127.0.0.1:PORT`."""
        return f"http://{self.host}:{self.port}"

    @property
    def base_url(self) -> str:
        """What to pass as python-telegram-bot's `base_url` (the token gets appended)."""
        return f"{self.root}/bot"

    @property
    def base_file_url(self) -> str:
        return f"{self.root}/file/bot"

    def api_url(self, token: str, method: str) -> str:
        return f"{self.root}/bot{token}/{method}"

    @property
    def bot(self) -> BotIdentity:
        return self.world.bot

    @property
    def bot_username(self) -> str:
        return self.world.bot.username

    def deep_link(self, payload: str) -> str:
        return f"https://t.me/{self.world.bot.username}?start={payload}"

    # -- people ------------------------------------------------------------------------------

    def user(
        self,
        id: int,
        first_name: str,
        username: str | None = None,
        language_code: str | None = "ru",
        *,
        last_name: str | None = None,
    ) -> SimUser:
        """A simulated user (the same object again for a known id)."""
        known = self._users.get(id)
        if known is not None:
            return known
        if id <= 0:
            raise ValueError("user ids are positive")
        state = UserState(id, first_name, username, language_code, last_name)
        self.world.users[id] = state
        user = self._users[id] = SimUser(self.world, state)
        return user

    def group(
        self,
        id: int | None = None,
        title: str = "Test group",
        *,
        members: Iterable[SimUser] = (),
        admins: Iterable[SimUser] = (),
        creator: SimUser | None = None,
        bot_admin: bool = False,
        username: str | None = None,
        basic: bool = False,
        forum: bool = False,
    ) -> SimChat:
        """A supergroup (negative id; automatic if None) with the bot and these members; a
        basic group (type "group") if `basic`, which `SimChat.migrate` turns into a supergroup;
        a forum (a supergroup with topics: `SimChat.create_topic`) if `forum`.

        Setup only: no updates are emitted.  Use `group.add()` / `remove()` for joins/leaves.
        """
        if id is None:
            id = self._next_group_id
            self._next_group_id -= 1
        if id >= 0:
            raise ValueError("group chat ids are negative")
        if id in self.world.chats:
            raise ValueError(f"chat {id} exists")
        state = ChatState(
            id=id, type="group" if basic else "supergroup", title=title, username=username,
            bot_status="administrator" if bot_admin else "member", is_forum=forum,
        )
        for user in members:
            state.members[user.id] = "member"
        for user in admins:
            state.members[user.id] = "administrator"
        if creator is not None:
            state.members[creator.id] = "creator"
        self.world.chats[id] = state
        return SimChat(self.world, state)

    def chat(self, chat: ChatRef) -> SimChat:
        return SimChat(self.world, self._state(chat))

    # -- control -----------------------------------------------------------------------------

    def inject_429(
        self,
        *,
        calls: int | None = None,
        seconds: float | None = None,
        retry_after: int = 5,
        methods: Collection[str] | None = None,
    ) -> None:
        """A 429 storm: the next `calls` calls, or all calls for `seconds`, get 429.

        Covers every method but getUpdates unless `methods` names the ones to hit.
        """
        self.world.limiter.storm(
            calls=calls, seconds=seconds, retry_after=retry_after, methods=methods
        )

    @property
    def webhook_url(self) -> str | None:
        return self.world.webhook.url

    @property
    def webhook_secret(self) -> str | None:
        return self.world.webhook.secret_token

    async def post_to_webhook(
        self, update: JSON | None = None, *, secret_token: str | None = "wrong-secret"
    ) -> int:
        """POST an update to the bot's webhook with this secret header; returns HTTP status."""
        url = self.world.webhook.url
        if url is None or self._session is None:
            raise RuntimeError("no webhook is set (or the server is not started)")
        if update is None:
            someone = {"id": 666, "is_bot": False, "first_name": "Mallory"}
            update = self.world.updates.make("message", {
                "message_id": 1, "date": now_ts(), "from": someone,
                "chat": {"id": 666, "type": "private", "first_name": "Mallory"},
                "text": "/start forged",
            }, None).to_api()
        headers = {"Content-Type": "application/json"}
        if secret_token is not None:
            headers[SECRET_HEADER] = secret_token
        async with self._session.post(url, data=json.dumps(update), headers=headers) as resp:
            await resp.read()
            return resp.status

    # -- HTTP --------------------------------------------------------------------------------

    async def _handle_api(self, request: web.Request) -> web.Response:
        world = self.world
        token, name = request.match_info["token"], request.match_info["method"]
        self.tokens.add(token)
        world.call_counts[name] += 1
        polling = name.lower() == "getupdates"
        if not polling:
            world.inflight += 1
            world.last_activity = time.monotonic()
        chat_ref: int | str | None = None
        result: Any = None
        fault = self.faults.now(name)
        if fault is not None and fault.kind in ("hang", "refuse"):
            if fault.kind == "hang":
                await self.faults.over(fault)
            return self._dropped(request, name, token, polling, fault.kind)
        try:
            if fault is not None and fault.kind == "fail":
                raise ApiError(fault.status, "Internal Server Error")
            if self.accept_tokens is not None and token not in self.accept_tokens:
                raise ApiError(401, "Unauthorized")
            handler = METHODS.get(name.lower())
            if handler is None:
                raise not_found()
            params = await read_params(request)
            chat_ref = chat_id_param(params)
            world.limiter.check_storm(name, chat_ref if isinstance(chat_ref, int) else None)
            result = await handler(world, params)
            status, body = 200, {"ok": True, "result": result}
        except ApiError as exc:
            status, body = exc.code, exc.to_api()
        except ConnectionResetError:
            # The client went away mid-request (killed, or its connection dropped by a fault).
            status = 0
            body = {"ok": False, "error_code": 0, "description": "client disconnected"}
        except Exception:
            self.internal_errors.append(traceback.format_exc())
            status = 500
            body = {"ok": False, "error_code": 500, "description": "Internal Server Error"}
        finally:
            if not polling:
                world.inflight -= 1
        if not polling or result:
            world.last_activity = time.monotonic()
        world.calls.append(ApiCall(
            name, token, chat_ref if isinstance(chat_ref, int) else None, status,
            body.get("description"), time.monotonic(),
        ))
        world.notifier.touch()
        if fault is not None and fault.kind == "lose" and request.transport is not None:
            request.transport.close()  # done, but the answer never leaves
        return web.Response(
            body=json.dumps(body, ensure_ascii=False).encode("utf-8"),
            status=status, content_type="application/json",
        )

    def _dropped(
        self, request: web.Request, name: str, token: str, polling: bool, kind: str
    ) -> web.Response:
        """Close the connection of a call a fault took, without executing or answering it."""
        if not polling:
            self.world.inflight -= 1
        dropped = ApiCall(name, token, None, 0, f"dropped ({kind})", time.monotonic())
        self.world.calls.append(dropped)
        if request.transport is not None:
            request.transport.close()
        return web.Response(status=503)

    async def _handle_file(self, request: web.Request) -> web.Response:
        path = request.match_info["path"]
        for file in self.world.files:
            if file.file_path() == path and file.data is not None:
                return web.Response(
                    body=file.data, content_type=file.content_type or "application/octet-stream"
                )
        return web.json_response(not_found().to_api(), status=404)
