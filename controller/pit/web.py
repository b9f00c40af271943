"""The dashboard's HTTP and WebSocket face (docs/pit.md): one page, a JSON API, live tiles.

Every API call needs a session (cookie ``pit_session``, HttpOnly, SameSite=Strict, ``Secure``
over TLS). Every request passes ``WebGuard`` (security headers; the Origin of state-changing
requests and WebSocket upgrades; JSON bodies only, bounded before they are read), and a
command also carries the session's CSRF token, so no other page, not even one on another port
of the same host, can make a signed-in browser send one. Any account may look; only a
``pit_boss`` may send a pit command, and the command names that user as its ``sender``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from controller.auth import Session
from controller.jsonbound import check_json
from controller.pit.backend import PitBackend
from controller.pit.commands import KINDS, CommandError, build, topic_for
from controller.pit.rounds import PER_PAGE, rounds_page
from controller.pit.views import device_of, outcome_text, round_row, round_rows, table_view
from controller.table import registry
from controller.table.inputs import InputRefused
from controller.web import STATIC as COMMON
from controller.web.assets import with_assets
from controller.web.guard import WebGuard
from controller.web.signin import SignInGuard

log = logging.getLogger(__name__)
STATIC = Path(__file__).with_name("static")
COOKIE = "pit_session"
MAX_BODY = 4096
WS_UNAUTHORISED = 4401
#: alerts one acknowledge-all may name, and the seconds between its commands (the table takes
#: the pit's commands at 5 a second: controller/runtime/admission.py)
ACK_MAX = 500
ACK_PACE_S = 0.25


def _error(status: int, message: str, retry_after: float = 0.0) -> JSONResponse:
    headers = {"Retry-After": str(max(1, round(retry_after)))} if retry_after else None
    return JSONResponse({"error": message, "message": message}, status_code=status, headers=headers)


async def _json_body(request: Request) -> dict[str, Any] | None:
    try:  # bounded in size and depth before it is parsed
        data = check_json(await request.body(), max_bytes=MAX_BODY)
    except InputRefused:
        return None
    return data if isinstance(data, dict) else None


class PitWeb:
    """The Starlette app over one pit process (its model, accounts and link: ``PitBackend``)."""

    def __init__(self, server: PitBackend) -> None:
        self.server = server
        self.sockets: set[WebSocket] = set()
        self._pacing: set[asyncio.Task[None]] = set()
        self.signin = SignInGuard(server.accounts)
        self.routes = Starlette(routes=[
            Route("/", self.page),
            Route("/table/{table}", self.page),
            Route("/history", self.page),
            Route("/api/login", self.login, methods=["POST"]),
            Route("/api/logout", self.logout, methods=["POST"]),
            Route("/api/session", self.session_info),
            Route("/api/floor", self.floor),
            Route("/api/table/{table}", self.table),
            Route("/api/table/{table}/rounds", self.rounds),
            Route("/api/table/{table}/round/{round}", self.round),
            Route("/api/command", self.command, methods=["POST"]),
            Route("/api/acknowledge", self.acknowledge, methods=["POST"]),
            Route("/api/health", self.health),
            Route("/api/stats", self.stats),
            WebSocketRoute("/ws", self.live),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
            Mount("/common", StaticFiles(directory=COMMON), name="common"),
            *(Mount(f"/games/{game.name}", StaticFiles(directory=game.assets.folder))
              for game in registry.GAMES.values() if game.assets.folder),
        ])
        self.app = WebGuard(self.routes, max_body=MAX_BODY)
        #: the page, loading every game's boards drawing (controller/games/<game>/static/)
        self.html = with_assets((STATIC / "index.html").read_text(), scripts=[
            f"/games/{game.name}/{name}" for game in registry.GAMES.values() for name in game.assets.boards], defer=False)

    # -- sessions ---------------------------------------------------------------------------
    def _session(self, request: Request | WebSocket) -> Session | None:
        return self.server.accounts.session(request.cookies.get(COOKIE))

    async def page(self, request: Request) -> Response:
        return HTMLResponse(self.html, headers={"Cache-Control": "no-store"})

    async def login(self, request: Request) -> Response:
        data = await _json_body(request)
        user, password = (data or {}).get("user"), (data or {}).get("password")
        if not isinstance(user, str) or not isinstance(password, str) or len(user) > 64 or len(password) > 256:
            return _error(400, "give a user name and a password")
        session = await self.signin.sign_in(user, password, request.client.host if request.client else "?")
        if not isinstance(session, Session):
            return _error(session.status, session.message, session.retry_after)
        response = JSONResponse({"ok": True, "user": session.user, "role": session.role, "csrf": session.csrf})
        response.set_cookie(COOKIE, session.token, httponly=True, samesite="strict",
                            secure=request.url.scheme == "https", max_age=int(self.server.accounts.ttl))
        return response

    async def logout(self, request: Request) -> Response:
        session = self._session(request)
        if session is not None:
            if not self.server.accounts.csrf_ok(session, request.headers.get("x-csrf-token")):
                return _error(403, "this request lacks the session's CSRF token: reload the page")
            self.server.accounts.sign_out(session.token)
            for websocket in [w for w in self.sockets if w.cookies.get(COOKIE) == session.token]:
                self.sockets.discard(websocket)  # its pages stop at once, not at the next broadcast
                with contextlib.suppress(Exception):
                    await websocket.close(code=WS_UNAUTHORISED)
        response = JSONResponse({"ok": True})
        response.delete_cookie(COOKIE)
        return response

    async def session_info(self, request: Request) -> Response:
        session = self._session(request)
        if session is None:
            return _error(401, "sign in")
        currency = self.server.currency
        return JSONResponse({"user": session.user, "role": session.role, "commands": list(KINDS), "csrf": session.csrf,
                             "currency": currency[0], "currency_digits": currency[1]})

    # -- views ------------------------------------------------------------------------------
    async def floor(self, request: Request) -> Response:
        if self._session(request) is None:
            return _error(401, "sign in")
        return Response(await self.server.floor_text(), media_type="application/json")

    async def table(self, request: Request) -> Response:
        if self._session(request) is None:
            return _error(401, "sign in")
        model = self.server.model.tables.get(request.path_params["table"])
        if model is None:
            return _error(404, "no such table on the floor")
        edges = await self.server.edges(model)
        return JSONResponse(table_view(model, edges))

    async def rounds(self, request: Request) -> Response:
        """A page of the table's rounds: ``?q=`` words to find, ``page``, ``per``, ``tz`` (the
        browser's getTimezoneOffset, for matching times as the page shows them)."""
        if self._session(request) is None:
            return _error(401, "sign in")
        model = self.server.model.tables.get(request.path_params["table"])
        if model is None:
            return _error(404, "no such table on the floor")
        params = request.query_params
        try:
            page, per, tz = (int(params.get(k, d)) for k, d in (("page", "1"), ("per", str(PER_PAGE)), ("tz", "0")))
        except ValueError:
            return _error(400, "page, per and tz are whole numbers")
        query = params.get("q", "")[:200]
        return JSONResponse(rounds_page(model.rounds.values(), round_row, query=query, page=page, per_page=per,
                                        offset_minutes=max(-24 * 60, min(24 * 60, tz))))

    async def round(self, request: Request) -> Response:
        if self._session(request) is None:
            return _error(401, "sign in")
        model = self.server.model.tables.get(request.path_params["table"])
        record = model.rounds.get(request.path_params["round"]) if model is not None else None
        if record is None:
            return _error(404, "no such round in the dashboard's memory (croupier recall reads the journal)")
        return JSONResponse({"record": record, "rows": round_rows(record), "outcome": outcome_text(record),
                             "device": device_of(record.get("game"))})

    async def health(self, request: Request) -> Response:
        """Unauthenticated liveness for a supervisor: broker link up and tables seen."""
        link = self.server.link
        return JSONResponse({"broker": link.connected, "tables": len(self.server.model.tables)})

    async def stats(self, request: Request) -> Response:
        """The dashboard's own load: messages folded in, dropped, and the feed lag percentiles."""
        if self._session(request) is None:
            return _error(401, "sign in")
        model = self.server.model
        body = {"messages": model.messages, "dropped": model.dropped, "tables": len(model.tables),
                "pages": len(self.sockets), "lag": self.server.lag_percentiles()}
        if request.query_params.get("reset") == "1":  # start a measurement window (bench/pit_floor.py)
            self.server.lags.clear()
        return JSONResponse(body)

    # -- commands ---------------------------------------------------------------------------
    async def _pit_boss(self, request: Request) -> tuple[Session, dict[str, Any]] | JSONResponse:
        """The pit boss's session and JSON body, or the refusal to answer with."""
        session = self._session(request)
        if session is None:
            return self._refused("session", 401, "sign in")
        if not self.server.accounts.csrf_ok(session, request.headers.get("x-csrf-token")):
            return self._refused("csrf", 403, "this request lacks the session's CSRF token: reload the page")
        if session.role != "pit_boss":
            log.warning("pit: %s (%s) refused a pit command", session.user, session.role)
            return self._refused("role", 403, f"{session.user} is a {session.role}: pit commands need a pit boss")
        data = await _json_body(request)
        if data is None:
            return self._refused("invalid", 400, "a JSON object of at most 4 kB, nested at most 4 deep")
        return session, data

    def _send(self, user: str, data: dict[str, Any]) -> dict[str, Any]:
        """Publish one pit command (CommandError if it cannot be sent); its wire body."""
        _, payload = build(user, data)
        topic = topic_for(data, self.server.model.tables.get(str(data["table"])))  # the studio's alert: to the studio
        body: dict[str, Any] = json.loads(payload)
        self.server.answers.sent(str(data["table"]), body, time.time())
        self.server.link.publish(topic, payload, qos=1)
        if self.server.metrics is not None:
            self.server.metrics.sent(str(data["command"]))
        log.info("pit: %s sent %s", user, payload.decode())
        return body

    async def command(self, request: Request) -> Response:
        checked = await self._pit_boss(request)
        if isinstance(checked, JSONResponse):
            return checked
        session, data = checked
        try:
            body = self._send(session.user, data)
        except CommandError as exc:
            return self._refused("invalid", 400, str(exc))
        return JSONResponse({"sent": body, "topic": topic_for(data, self.server.model.tables.get(str(data["table"]))),
                             "queued": not self.server.link.connected})

    async def acknowledge(self, request: Request) -> Response:
        """Acknowledge many alerts of one table (``{"table", "alerts": [seq, ...]}``): one
        ``acknowledge_alert`` each, paced under the table's rate limit for the pit's commands."""
        checked = await self._pit_boss(request)
        if isinstance(checked, JSONResponse):
            return checked
        session, data = checked
        seqs = data.get("alerts")
        if not isinstance(seqs, list) or not 0 < len(seqs) <= ACK_MAX or not all(
                isinstance(s, int) and not isinstance(s, bool) for s in seqs):
            return self._refused("invalid", 400, f"alerts: a list of 1 to {ACK_MAX} alert seqs")
        orders = [{"table": data.get("table"), "command": "acknowledge_alert", "alert": seq} for seq in seqs]
        try:
            build(session.user, orders[0])  # the table and the command's shape, checked before any leaves
        except CommandError as exc:
            return self._refused("invalid", 400, str(exc))
        task = asyncio.create_task(self._paced(session.user, orders))
        self._pacing.add(task)
        task.add_done_callback(self._pacing.discard)
        return JSONResponse({"queued": len(orders), "seconds": len(orders) * ACK_PACE_S})

    def stop_pacing(self) -> None:
        """The dashboard stops: acknowledgements not yet sent are dropped (each stays open)."""
        for task in self._pacing:
            task.cancel()

    async def _paced(self, user: str, orders: list[dict[str, Any]]) -> None:
        for order in orders:
            try:
                self._send(user, order)
            except CommandError as exc:
                log.warning("pit: acknowledgement not sent: %s", exc)
            await asyncio.sleep(ACK_PACE_S)

    def _refused(self, reason: str, status: int, message: str) -> JSONResponse:
        if self.server.metrics is not None:
            self.server.metrics.refused(reason)
        return _error(status, message)

    # -- live -------------------------------------------------------------------------------
    async def live(self, websocket: WebSocket) -> None:
        """A full floor on connect, then every changed tile as it changes."""
        await websocket.accept()  # then close with a code the page understands (a refused handshake is opaque)
        if self._session(websocket) is None:
            await websocket.close(code=WS_UNAUTHORISED)
            return
        await websocket.send_text(await self.server.floor_text("floor"))
        self.sockets.add(websocket)
        try:
            while True:
                await websocket.receive_text()  # the page says nothing; this notices it leaving
        except WebSocketDisconnect:
            pass
        finally:
            self.sockets.discard(websocket)

    async def broadcast(self, message: dict[str, Any] | str) -> None:
        """To every open page (the message, or its JSON text); a page whose session expired is
        closed (it then shows sign-in)."""
        text = message if isinstance(message, str) else json.dumps(message)
        for websocket in list(self.sockets):
            if self._session(websocket) is None:
                self.sockets.discard(websocket)
                with contextlib.suppress(Exception):
                    await websocket.close(code=WS_UNAUTHORISED)
                continue
            try:
                await asyncio.wait_for(websocket.send_text(text), 5.0)
            except (TimeoutError, RuntimeError, OSError, WebSocketDisconnect):  # gone or stalled: it reconnects
                self.sockets.discard(websocket)
