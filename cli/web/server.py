"""The page's server: one player's own page, on 127.0.0.1 only, behind a secret token in the URL.

Starlette serves the page (`static/`: plain ES modules and CSS from the package) and a websocket that pushes every
new snapshot of the seat's view (a JSON object the seat builds, cli/web/seat.py) and carries the player's clicks
back (`on_message`). Hypercorn's trio worker runs it in a thread of its own with its own trio loop, so the page
lives across the games of one command (a rematch keeps the URL) and the peer's loop never waits for a browser.

Who may talk to it (docs/security.md, "The page"): a request must name the token as the first path segment
(`/<token>/...`, compared in constant time), carry a Host of this address (127.0.0.1:port or localhost:port: a DNS
rebinding page has another Host), and, if it has an Origin, this origin; a websocket must have this Origin. Anything
else is refused before the app sees it (403 for a bad Host or Origin, 404 without the token). Responses forbid
framing, other origins' scripts and referrers (the token never leaves in a Referer).
"""

from __future__ import annotations

import contextlib
import hmac
import json
import logging
import secrets
import threading
import time
from collections.abc import Callable
from importlib import resources
from typing import Any

import trio
from adp2p.cli.clients import folders
from hypercorn.config import Config
from hypercorn.trio import serve
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

MAX_MESSAGE = 4096  # a click is a few dozen bytes: anything longer is dropped unread
SCRIPT = "text/javascript; charset=utf-8"
STATIC = {  # the shell's files: name -> content type (nothing else is served but each game's board, `page_file`)
    "index.html": "text/html; charset=utf-8",
    "app.js": SCRIPT,
    "cards.js": SCRIPT,
    "style.css": "text/css; charset=utf-8",
}
log = logging.getLogger(__name__)


def static_file(name: str) -> bytes:
    return resources.files("adp2p.cli.web").joinpath("static", name).read_bytes()


def page_file(name: str) -> tuple[bytes, str] | None:
    """A file of the page and its content type: the shell's (`static/`), or `<game>.js`, a registered game's board
    (its client's `web.js`: cli/<game>/web.js, which app.js imports when a snapshot names the game); None: not ours."""
    if name in STATIC:
        return static_file(name), STATIC[name]
    game = name.removesuffix(".js")
    if name.endswith(".js") and game in folders():
        return resources.files(f"adp2p.cli.{folders()[game]}").joinpath("web.js").read_bytes(), SCRIPT
    return None


class PageServer:
    """`start()` serves until `stop()`; `publish(snapshot)` pushes to every open page; `on_message(dict)` is called
    (in the server's thread) for each message a page sends."""

    def __init__(self, on_message: Callable[[dict[str, Any]], None], host: str = "127.0.0.1") -> None:
        self.on_message = on_message
        self.host = host
        self.token = secrets.token_urlsafe(32)
        self.port = 0
        self._latest = b"{}"
        self._rev = 0
        self._lock = threading.Lock()
        self._ready = threading.Event()
        self._thread: threading.Thread | None = None
        self._trio_token: trio.lowlevel.TrioToken | None = None
        self._changed: trio.Event | None = None
        self._stop: trio.Event | None = None
        self._error: BaseException | None = None
        self.pages = 0  # websockets open now
        self.delivered = 0  # the latest snapshot (its rev) sent to a page

    # -- the address ---------------------------------------------------------------------------------------
    @property
    def origin(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def url(self) -> str:
        return f"{self.origin}/{self.token}/"

    # -- life ---------------------------------------------------------------------------------------------
    def start(self) -> str:
        """Serve in a thread of our own; the page's URL once it listens."""
        self._thread = threading.Thread(target=lambda: trio.run(self._main), name="adp2p-page", daemon=True)
        self._thread.start()
        self._ready.wait(30)
        if self._error is not None or not self.port:
            raise OSError(f"the page's server did not start: {self._error}")
        return self.url

    def stop(self) -> None:
        token, stop = self._trio_token, self._stop
        if token is not None and stop is not None:
            with contextlib.suppress(trio.RunFinishedError):
                token.run_sync_soon(stop.set)
        if self._thread is not None:
            self._thread.join(10)

    async def _main(self) -> None:
        self._trio_token = trio.lowlevel.current_trio_token()
        self._changed, self._stop = trio.Event(), trio.Event()
        cfg = Config()
        cfg.bind = [f"{self.host}:0"]
        cfg.accesslog = None
        cfg.errorlog = logging.getLogger("adp2p.page")  # (not stderr: the terminal is the player's)
        cfg.include_server_header = False
        cfg.websocket_max_message_size = MAX_MESSAGE
        try:
            async with trio.open_nursery() as nursery:
                binds = await nursery.start(lambda task_status: serve(self.asgi, cfg, shutdown_trigger=self._stop.wait,
                                                                      task_status=task_status))
                self.port = int(str(binds[0]).rsplit(":", 1)[1])
                self._ready.set()
        except BaseException as exc:
            self._error = exc
        finally:
            self._ready.set()

    # -- what the pages see -------------------------------------------------------------------------------
    def publish(self, snapshot: dict[str, Any]) -> int:
        """A new snapshot for every open page (any thread); its rev."""
        with self._lock:
            self._rev += 1
            rev = self._rev
            self._latest = json.dumps({**snapshot, "rev": self._rev}, ensure_ascii=False).encode()
        token = self._trio_token
        if token is not None:
            with contextlib.suppress(trio.RunFinishedError):
                token.run_sync_soon(self._wake)
        return rev

    def wait_delivered(self, rev: int, timeout: float) -> bool:
        """Wait (a while) until a page has been sent snapshot `rev` or a later one: the last words before the command
        ends reach the page."""
        deadline = time.monotonic() + timeout
        while self.delivered < rev and time.monotonic() < deadline:
            time.sleep(0.05)
        return self.delivered >= rev

    def latest(self) -> tuple[int, bytes]:
        with self._lock:
            return self._rev, self._latest

    def _wake(self) -> None:
        assert self._changed is not None
        self._changed.set()
        self._changed = trio.Event()

    # -- the gate -----------------------------------------------------------------------------------------
    def refusal(self, scope: dict[str, Any]) -> tuple[int, str] | None:
        """Why this request or websocket is refused (status, reason), or None."""
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        hosts = {f"{self.host}:{self.port}", f"localhost:{self.port}"}
        if headers.get("host") not in hosts:
            return 403, "wrong host"
        origin = headers.get("origin")
        if scope["type"] == "websocket" and origin is None:
            return 403, "no origin"
        if origin is not None and origin not in (self.origin, f"http://localhost:{self.port}"):
            return 403, "other origin"
        first = scope.get("path", "").split("/")[1:2]
        if not first or not hmac.compare_digest(first[0].encode(), self.token.encode()):
            return 404, "no token"
        return None

    async def asgi(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            refused = self.refusal(scope)
            if refused is not None:
                status, _why = refused
                if scope["type"] == "websocket":
                    await receive()  # the connect
                    await send({"type": "websocket.close", "code": 1008})  # before accept: an HTTP 403
                    return
                await Response("refused\n", status_code=status, media_type="text/plain")(scope, receive, send)
                return
        await self.app(scope, receive, send)

    @property
    def app(self) -> Starlette:
        if not hasattr(self, "_app"):
            self._app = Starlette(routes=[
                Route("/{token}/", self._page),
                Route("/{token}/s/{name}", self._static),
                WebSocketRoute("/{token}/ws", self._socket),
            ])
        return self._app

    def _headers(self) -> dict[str, str]:
        return {
            "Content-Security-Policy": ("default-src 'none'; script-src 'self'; style-src 'self'; "
                                        "img-src 'self' data:; "
                                        f"connect-src ws://{self.host}:{self.port} ws://localhost:{self.port}; "
                                        "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"),
            "Referrer-Policy": "no-referrer",
            "X-Content-Type-Options": "nosniff",
            "X-Frame-Options": "DENY",
            "Cache-Control": "no-store",
        }

    async def _page(self, request: Request) -> Response:
        return Response(static_file("index.html"), media_type=STATIC["index.html"], headers=self._headers())

    async def _static(self, request: Request) -> Response:
        found = page_file(request.path_params["name"])
        if found is None:
            return Response("not found\n", status_code=404, media_type="text/plain")
        return Response(found[0], media_type=found[1], headers=self._headers())

    async def _socket(self, ws: WebSocket) -> None:
        await ws.accept()
        self.pages += 1
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._push, ws, nursery.cancel_scope)
                await self._receive(ws)
                nursery.cancel_scope.cancel()
        finally:
            self.pages -= 1

    async def _receive(self, ws: WebSocket) -> None:
        """The page's clicks, until it goes away."""
        while True:
            try:
                text = await ws.receive_text()
            except (WebSocketDisconnect, KeyError, RuntimeError, trio.BrokenResourceError, trio.ClosedResourceError):
                return  # (KeyError, RuntimeError: a binary or closing frame where text was expected)
            if len(text) > MAX_MESSAGE:
                continue
            try:
                message = json.loads(text)
            except ValueError:
                continue
            if isinstance(message, dict):
                try:
                    self.on_message(message)
                except Exception:  # a page's message never takes the server down
                    log.exception("page message")

    async def _push(self, ws: WebSocket, scope: trio.CancelScope) -> None:
        sent = -1
        while True:
            assert self._changed is not None
            changed = self._changed
            rev, data = self.latest()
            if rev != sent:
                try:
                    await ws.send_text(data.decode())
                except (WebSocketDisconnect, RuntimeError, trio.BrokenResourceError, trio.ClosedResourceError):
                    scope.cancel()
                    return
                sent = rev
                self.delivered = max(self.delivered, rev)
                continue
            await changed.wait()
