"""The console's HTTP side: the page and its files, sign-in/out, recall, and the WebSocket.

Pages are served from ``static/`` next to this module and the shared front-end module from
``controller/web/static`` (no build step, nothing from a CDN), behind ``WebGuard`` (security
headers, Origin, bounded JSON bodies). A sign-in (throttled by ``SignInGuard``) sets an
HTTP-only, same-site session cookie named after the table (two consoles on one host keep
their own sessions), ``Secure`` when served over TLS; state-changing requests also carry the
session's CSRF token. The WebSocket and every API call check the session again: a sign-out
or an expired session closes the socket (code 4401) and the page asks to sign in.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from controller.auth import Accounts, Session
from controller.console.hub import ConsoleHub, Page
from controller.console.words import recall_round
from controller.jsonbound import check_json
from controller.table.game import Assets
from controller.table.inputs import InputRefused
from controller.table.recall import recall
from controller.web import STATIC as COMMON
from controller.web.assets import with_assets
from controller.web.guard import WebGuard
from controller.web.signin import SignInGuard

STATIC = Path(__file__).with_name("static")
COOKIE = "croupier_console"
MAX_MESSAGE = 8192
#: a console message nests a command's arguments (a correction's changes) at most this deep
MAX_MESSAGE_DEPTH = 6


def cookie_name(table: str) -> str:
    """The session cookie of one table's console (cookies are per host, not per port)."""
    return f"{COOKIE}_{re.sub(r'[^A-Za-z0-9_-]', '_', table)[:48]}"


def _session(accounts: Accounts, token: str | None) -> Session | None:
    return accounts.session(token)


def _refused(status: int, message: str, retry_after: float = 0.0) -> JSONResponse:
    headers = {"Retry-After": str(max(1, round(retry_after)))} if retry_after else None
    return JSONResponse({"ok": False, "message": message}, status_code=status, headers=headers)


def page_with(assets: Assets) -> str:
    """The console's page loading its game's own style sheets and scripts (its layout, its boards'
    drawing), served under ``/game/`` from the game's ``static/`` folder: the page names no game."""
    return with_assets((STATIC / "console.html").read_text(), [f"/game/{name}" for name in assets.styles],
                       [f"/game/{name}" for name in (*assets.boards, *assets.scripts)])


def console_app(hub: ConsoleHub, accounts: Accounts, journal_path: str | Path,
                simulator: Any = None, signin: SignInGuard | None = None, assets: Assets | None = None) -> WebGuard:
    """The app of one table's console, behind its guard (times in the hub's ``time_zone``), with
    its game's own page ``assets`` (none: a game without any)."""
    assets = assets or Assets()
    page = page_with(assets)
    cookie = cookie_name(str(hub.core.table_id))
    guard = signin or SignInGuard(accounts)
    #: session token -> its open sockets, closed when it signs out
    sockets: dict[str, set[WebSocket]] = {}

    def _state_changing(request: Request) -> Session | Response:
        session = _session(accounts, request.cookies.get(cookie))
        if session is None:
            return _refused(401, "sign in first")
        if not accounts.csrf_ok(session, request.headers.get("x-csrf-token")):
            return _refused(403, "this request lacks the session's CSRF token: reload the page")
        return session

    async def index(request: Request) -> Response:
        return HTMLResponse(page, headers={"Cache-Control": "no-store"})

    async def login(request: Request) -> Response:
        try:  # bounded in size and depth before it is parsed, like every command
            body = check_json(await request.body())
            user, password = str(body["user"])[:64], str(body["password"])[:256]
        except (InputRefused, KeyError, TypeError):
            return _refused(400, "give user and password")
        client = request.client.host if request.client else "?"
        session = await guard.sign_in(user, password, client)
        if not isinstance(session, Session):
            return _refused(session.status, session.message, session.retry_after)
        hub.sign(session, "sign_in")
        response = JSONResponse({"ok": True, "user": session.user, "role": session.role, "csrf": session.csrf})
        response.set_cookie(cookie, session.token, httponly=True, samesite="strict",
                            secure=request.url.scheme == "https", max_age=int(accounts.ttl))
        return response

    async def logout(request: Request) -> Response:
        session = _state_changing(request)
        if not isinstance(session, Session):
            return session
        hub.sign(session, "sign_out")
        accounts.sign_out(session.token)
        for websocket in sockets.pop(session.token, set()):
            with contextlib.suppress(Exception):
                await websocket.close(code=4401)
        response = JSONResponse({"ok": True})
        response.delete_cookie(cookie)
        return response

    async def me(request: Request) -> Response:
        session = _session(accounts, request.cookies.get(cookie))
        table = {"table": str(hub.core.table_id), "game": hub.core.adapter.game}  # the sign-in names the table
        if session is None:
            return JSONResponse({"ok": False, **table}, status_code=401)
        return JSONResponse({"ok": True, "user": session.user, "role": session.role, "csrf": session.csrf, **table})

    async def recall_rounds(request: Request) -> Response:
        if _session(accounts, request.cookies.get(cookie)) is None:
            return JSONResponse({"ok": False, "message": "sign in first"}, status_code=401)
        core = hub.core
        if core.engine is not None and core.hold is None:
            return JSONResponse({"ok": False, "message": "recall is available between rounds or while the table holds"},
                                status_code=409)
        rounds = await asyncio.to_thread(recall, journal_path, last=10)
        return JSONResponse({"ok": True, "recall": True, "rounds": [recall_round(r, hub.time_zone) for r in rounds[::-1]]})

    async def socket(websocket: WebSocket) -> None:
        session = _session(accounts, websocket.cookies.get(cookie))
        if session is None:
            await websocket.close(code=4401)
            return
        await websocket.accept()
        client = websocket.query_params.get("client", "")[:64] or session.token[:12]
        page = Page(session, f"{session.user}:{client}")
        sockets.setdefault(session.token, set()).add(websocket)
        hub.attach(page)
        sender = asyncio.create_task(_send_loop(websocket, page, accounts))
        try:
            while True:
                text = await websocket.receive_text()
                if accounts.session(session.token) is None:
                    await websocket.close(code=4401)
                    return
                if len(text) > MAX_MESSAGE:
                    page.send({"type": "result", "cseq": 0, "ok": False, "code": "console.size",
                               "message": "message too large"})
                    continue
                try:  # size and nesting are bounded before the parser sees the text
                    raw = check_json(text, max_bytes=MAX_MESSAGE, max_depth=MAX_MESSAGE_DEPTH)
                except InputRefused as refused:
                    page.send({"type": "result", "cseq": 0, "ok": False, "code": "console.json",
                               "message": refused.message})
                    continue
                if isinstance(raw, dict) and raw.get("type") == "snapshot":
                    hub.attach(page)
                elif isinstance(raw, dict) and raw.get("type") == "sim":
                    _simulate(page, simulator, raw)
                else:
                    hub.handle(page, raw)
        except WebSocketDisconnect:
            pass
        except RuntimeError:  # closed by a sign-out while it waited
            pass
        finally:
            sender.cancel()
            hub.detach(page)
            sockets.get(session.token, set()).discard(websocket)
            if not sockets.get(session.token, True):
                del sockets[session.token]

    app = Starlette(routes=[
        Route("/", index),
        Route("/favicon.ico", lambda request: Response(status_code=204)),
        Route("/api/login", login, methods=["POST"]),
        Route("/api/logout", logout, methods=["POST"]),
        Route("/api/me", me),
        Route("/api/recall", recall_rounds),
        WebSocketRoute("/ws", socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        Mount("/common", StaticFiles(directory=COMMON), name="common"),
        *([Mount("/game", StaticFiles(directory=assets.folder), name="game")] if assets.folder else []),
    ])
    return WebGuard(app, max_body=MAX_MESSAGE)


def _simulate(page: Page, simulator: Any, raw: dict[str, Any]) -> None:
    if simulator is None:
        page.send({"type": "sim", "ok": False, "message": "no simulated device on this table"})
        return
    ok, message = simulator.request(raw)
    page.send({"type": "sim", "ok": ok, "message": message})


async def _send_loop(websocket: WebSocket, page: Page, accounts: Accounts) -> None:
    while True:
        await page.wake.wait()
        if accounts.session(page.session.token) is None:  # expired or signed out: nothing more
            await websocket.close(code=4401)
            return
        for text in page.take():
            await websocket.send_text(text)
