"""Hostile WebSocket messages to the console: refused with a reason, the socket and the table go on."""

from __future__ import annotations

import json
from typing import Any

import httpx
import websockets

from tests.integration.browser.conftest import PASSWORD
from tests.integration.browser.test_console_play import BLACKJACK_SHOE


async def test_deep_nesting_and_garbage_are_refused_and_the_socket_goes_on(console_table: Any) -> None:
    table = await console_table("blackjack", stacked=BLACKJACK_SHOE)
    async with httpx.AsyncClient(base_url=table.url) as http:
        deep = await http.post("/api/login", content=b"[" * 50_000, headers={"content-type": "application/json"})
        assert deep.status_code == 413  # refused by its length before it is read, not a server error
        huge = await http.post("/api/login", json={"user": "dana", "password": PASSWORD, "pad": "x" * 20_000})
        assert huge.status_code == 413  # a sign-in is bounded like any command, before it is read
        nested = await http.post("/api/login", content=b"[" * 5000, headers={"content-type": "application/json"})
        assert nested.status_code == 400  # small enough to read, too deep to parse
        login = await http.post("/api/login", json={"user": "dana", "password": PASSWORD})
        assert login.status_code == 200, login.text
        cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
    ws_url = table.url.replace("http://", "ws://").rstrip("/") + "/ws"
    async with websockets.connect(ws_url, additional_headers={"Cookie": cookie}) as socket:
        replies: list[dict[str, Any]] = []

        async def reply_to(text: str) -> dict[str, Any]:
            await socket.send(text)
            while True:
                message = json.loads(await socket.recv())
                replies.append(message)
                if message.get("type") == "result":
                    return message

        for hostile in ("[" * 8000, '{"a":' * 1000 + "1" + "}" * 1000, "not json at all", "\x00\xff"):
            refused = await reply_to(hostile)
            assert refused["ok"] is False and refused["code"] == "console.json", refused
        # the same socket still takes a real request afterwards
        await socket.send(json.dumps({"type": "snapshot"}))
        while True:
            message = json.loads(await socket.recv())
            if message.get("type") == "snapshot":
                break
    assert table.core.table_id  # the table is alive and nothing was journaled for the garbage
