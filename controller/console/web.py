"""The console's HTTP side: the page and its files, sign-in/out, recall, and the WebSocket.

Pages are served from ``static/`` next to this module (no build step, nothing from a CDN). A
sign-in sets an HTTP-only, same-site session cookie; the WebSocket and every API call check it
again, so an expired session closes the socket (code 4401) and the page asks to sign in.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from controller.auth import Accounts, Session
from controller.console.hub import ConsoleHub, Page
from controller.table.inputs import InputRefused
from controller.table.recall import recall
from controller.table.schema import check_json

STATIC = Path(__file__).with_name("static")
COOKIE = "croupier_console"
MAX_MESSAGE = 8192
#: a console message nests a command's arguments (a correction's changes) at most this deep
MAX_MESSAGE_DEPTH = 6


def _session(accounts: Accounts, token: str | None) -> Session | None:
    return accounts.session(token)


def console_app(hub: ConsoleHub, accounts: Accounts, journal_path: str | Path,
                simulator: Any = None) -> Starlette:
    """The Starlette app of one table's console."""

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "console.html", headers={"Cache-Control": "no-store"})

    async def login(request: Request) -> Response:
        try:  # bounded in size and depth before it is parsed, like every command
            body = check_json(await request.body())
            user, password = str(body["user"])[:64], str(body["password"])[:256]
        except (InputRefused, KeyError, TypeError):
            return JSONResponse({"ok": False, "message": "give user and password"}, status_code=400)
        session = await asyncio.to_thread(accounts.sign_in, user, password)
        if session is None:
            return JSONResponse({"ok": False, "message": "unknown user or wrong password"}, status_code=401)
        hub.sign(session, "sign_in")
        response = JSONResponse({"ok": True, "user": session.user, "role": session.role})
        response.set_cookie(COOKIE, session.token, httponly=True, samesite="strict",
                            max_age=int(accounts.ttl))
        return response

    async def logout(request: Request) -> Response:
        token = request.cookies.get(COOKIE)
        session = _session(accounts, token)
        if session is not None:
            hub.sign(session, "sign_out")
            accounts.sign_out(session.token)
        response = JSONResponse({"ok": True})
        response.delete_cookie(COOKIE)
        return response

    async def me(request: Request) -> Response:
        session = _session(accounts, request.cookies.get(COOKIE))
        if session is None:
            return JSONResponse({"ok": False}, status_code=401)
        return JSONResponse({"ok": True, "user": session.user, "role": session.role})

    async def recall_rounds(request: Request) -> Response:
        if _session(accounts, request.cookies.get(COOKIE)) is None:
            return JSONResponse({"ok": False, "message": "sign in first"}, status_code=401)
        core = hub.core
        if core.engine is not None and core.hold is None:
            return JSONResponse({"ok": False, "message": "recall is available between rounds or while the table holds"},
                                status_code=409)
        rounds = await asyncio.to_thread(recall, journal_path, last=10)
        return JSONResponse({"ok": True, "recall": True, "rounds": rounds[::-1]})

    async def socket(websocket: WebSocket) -> None:
        session = _session(accounts, websocket.cookies.get(COOKIE))
        if session is None:
            await websocket.close(code=4401)
            return
        await websocket.accept()
        client = websocket.query_params.get("client", "")[:64] or session.token[:12]
        page = Page(session, f"{session.user}:{client}")
        hub.attach(page)
        sender = asyncio.create_task(_send_loop(websocket, page))
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
        finally:
            sender.cancel()
            hub.detach(page)

    return Starlette(routes=[
        Route("/", index),
        Route("/favicon.ico", lambda request: Response(status_code=204)),
        Route("/api/login", login, methods=["POST"]),
        Route("/api/logout", logout, methods=["POST"]),
        Route("/api/me", me),
        Route("/api/recall", recall_rounds),
        WebSocketRoute("/ws", socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ])


def _simulate(page: Page, simulator: Any, raw: dict[str, Any]) -> None:
    if simulator is None:
        page.send({"type": "sim", "ok": False, "message": "no simulated device on this table"})
        return
    ok, message = simulator.request(raw)
    page.send({"type": "sim", "ok": ok, "message": message})


async def _send_loop(websocket: WebSocket, page: Page) -> None:
    while True:
        await page.wake.wait()
        for text in page.take():
            await websocket.send_text(text)
