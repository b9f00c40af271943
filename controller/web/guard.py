"""The ASGI guard in front of both web apps: security headers on every response, the Origin of
every state-changing request and every WebSocket upgrade checked, JSON bodies required and
bounded while they stream in (never read whole first), and a body that trickles timed out.

A browser always sends ``Origin`` on a cross-origin POST and on every WebSocket handshake, so
a page on another port of the same host (same-site: SameSite cookies do not stop it) is refused
here; a client that sends no Origin is not a browser and carries no victim's cookie.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: no inline script or style, nothing from another origin, never framed
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'")
HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
)
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: a WebSocket refused before it is accepted (uvicorn answers the handshake with 403)
WS_FORBIDDEN = 4403


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def same_origin(scope: Scope) -> bool:
    """True unless the request says it comes from another origin (``Origin``, or
    ``Sec-Fetch-Site`` when the Origin is absent)."""
    host = _header(scope, b"host")
    origin = _header(scope, b"origin")
    if origin is not None:
        secure = scope.get("scheme") in ("https", "wss")
        return host is not None and origin == f"{'https' if secure else 'http'}://{host}"
    site = _header(scope, b"sec-fetch-site")
    return site is None or site in ("same-origin", "none")


async def _answer(send: Send, status: int, message: str) -> None:
    body = json.dumps({"ok": False, "error": message, "message": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close"), *HEADERS]})
    await send({"type": "http.response.body", "body": body})


class WebGuard:
    """Wraps an ASGI app; ``max_body`` bytes per request body, read within ``body_timeout`` s."""

    def __init__(self, app: ASGIApp, *, max_body: int = 8192, body_timeout: float = 10.0) -> None:
        self.app = app
        self.max_body = max_body
        self.body_timeout = body_timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            if not same_origin(scope):
                await send({"type": "websocket.close", "code": WS_FORBIDDEN})
                return
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), *HEADERS]
            await send(message)

        if scope["method"] in SAFE_METHODS:
            await self.app(scope, receive, with_headers)
            return
        if not same_origin(scope):
            await _answer(send, 403, "this request came from another site")
            return
        kind = (_header(scope, b"content-type") or "").split(";")[0].strip().lower()
        if kind != "application/json":
            await _answer(send, 415, "send JSON (Content-Type: application/json)")
            return
        body = await self._read(scope, receive, send)
        if body is None:
            return
        given = False

        async def replay() -> Message:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, with_headers)

    async def _read(self, scope: Scope, receive: Receive, send: Send) -> bytes | None:
        """The body, or None once refused: too large (by its Content-Length, or as it streams
        in), or not all there within the timeout."""
        declared = _header(scope, b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_body):
            await _answer(send, 413, f"a request body is at most {self.max_body} bytes")
            return None
        chunks: list[bytes] = []
        size = 0
        try:
            async with asyncio.timeout(self.body_timeout):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return None
                    chunk = bytes(message.get("body", b""))
                    size += len(chunk)
                    if size > self.max_body:
                        await _answer(send, 413, f"a request body is at most {self.max_body} bytes")
                        return None
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        return b"".join(chunks)
        except TimeoutError:
            await _answer(send, 408, "the request body did not arrive in time")
            return None
