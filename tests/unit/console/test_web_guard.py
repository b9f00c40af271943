"""The guard in front of both web apps, on a bare ASGI app: Origin, content type, body bound
and body timeout, and the headers every response carries."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from controller.web.guard import CSP, WS_FORBIDDEN, WebGuard


async def echo(scope: Any, receive: Any, send: Any) -> None:
    if scope["type"] == "websocket":
        await send({"type": "websocket.accept"})
        return
    body = (await receive())["body"]
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": body})


def scope(method: str = "POST", kind: str = "http", **headers: str) -> dict[str, Any]:
    base = {"host": "table.local:8080", "content-type": "application/json",
            **{k.replace("_", "-"): v for k, v in headers.items()}}
    return {"type": kind, "method": method, "scheme": "http" if kind == "http" else "ws",
            "headers": [(k.encode(), v.encode()) for k, v in base.items()]}


async def call(guard: WebGuard, s: dict[str, Any], chunks: list[bytes] | None = None,
               stall: bool = False) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []
    queue = list(chunks or [b"{}"])

    async def receive() -> dict[str, Any]:
        if stall and not queue:
            await asyncio.Event().wait()
        if not queue:
            return {"type": "http.disconnect"}
        chunk = queue.pop(0)
        return {"type": "http.request", "body": chunk, "more_body": bool(queue) or stall}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await guard(s, receive, send)
    return sent


def status(sent: list[dict[str, Any]]) -> int:
    return int(sent[0]["status"])


async def test_same_origin_json_passes_with_the_security_headers() -> None:
    sent = await call(WebGuard(echo), scope(origin="http://table.local:8080"), [b'{"a":', b"1}"])
    assert status(sent) == 200 and sent[1]["body"] == b'{"a":1}'
    headers = dict(sent[0]["headers"])
    assert headers[b"content-security-policy"] == CSP.encode() and headers[b"x-frame-options"] == b"DENY"


@pytest.mark.parametrize("headers", [{"origin": "http://table.local:9999"}, {"origin": "null"},
                                     {"origin": "https://table.local:8080"}, {"sec_fetch_site": "same-site"},
                                     {"sec_fetch_site": "cross-site"}])
async def test_a_state_changing_request_from_another_origin_is_refused(headers: dict[str, str]) -> None:
    assert status(await call(WebGuard(echo), scope(**headers))) == 403


async def test_a_websocket_from_another_origin_is_refused_before_it_is_accepted() -> None:
    sent = await call(WebGuard(echo), scope("GET", "websocket", origin="http://table.local:9999"))
    assert sent == [{"type": "websocket.close", "code": WS_FORBIDDEN}]
    sent = await call(WebGuard(echo), scope("GET", "websocket", origin="http://table.local:8080"))
    assert sent == [{"type": "websocket.accept"}]


@pytest.mark.parametrize("kind", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data", ""])
async def test_only_json_bodies_are_read(kind: str) -> None:
    assert status(await call(WebGuard(echo), scope(content_type=kind))) == 415


async def test_bodies_are_bounded_by_length_and_as_they_stream_and_timed() -> None:
    guard = WebGuard(echo, max_body=100, body_timeout=0.05)
    assert status(await call(guard, scope(content_length="100000000"))) == 413
    assert status(await call(guard, scope(), [b" " * 60, b" " * 60])) == 413
    assert status(await call(guard, scope(), [b"{"], stall=True)) == 408
