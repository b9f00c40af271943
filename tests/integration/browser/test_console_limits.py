"""What a flood of connections or a huge body costs the console (served inside the table's own
process): descriptors bounded per client and in all, silent sockets closed, bodies refused by
their length before they are read, WebSocket messages bounded."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from typing import Any

import httpx
import websockets

from controller.console import start_console
from controller.web.serving import Limits
from tests.integration.browser.conftest import PASSWORD
from tests.integration.browser.conftest import test_accounts as console_accounts


async def closed_by_server(sock: socket.socket, timeout: float = 10.0) -> bool:
    """True once the server has closed ``sock`` (EOF or reset), False if it is still open."""
    loop = asyncio.get_running_loop()
    try:
        data = await asyncio.wait_for(loop.sock_recv(sock, 1024), timeout)
    except TimeoutError:
        return False
    except (ConnectionResetError, OSError):
        return True
    return data == b""


async def connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    sock = socket.socket()
    sock.setblocking(False)
    sock.bind((source, 0))
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    return sock


async def test_idle_connections_are_bounded_per_client_and_closed_when_silent(console_table: Any) -> None:
    table = await console_table("roulette")
    limits = Limits(max_connections=24, per_client=8, header_timeout=1.0)
    server = await start_console(table.harness.loop, table.harness.config, console_accounts(), host="127.0.0.1",
                                 port=0, limits=limits)
    port = int(server.url.rsplit(":", 1)[1].strip("/"))
    socks = [await connect(port) for _ in range(40)]
    try:
        closed = await asyncio.gather(*(closed_by_server(s, 0.5) for s in socks))
        assert closed.count(False) <= limits.per_client  # the rest closed as they were accepted
        # another client still gets the page while the first holds its share
        async with httpx.AsyncClient(transport=httpx.AsyncHTTPTransport(local_address="127.0.0.2")) as other:
            assert (await other.get(server.url)).status_code == 200
        # the silent ones are closed after the header timeout, freeing their descriptors
        still = [s for s, c in zip(socks, closed, strict=True) if not c]
        assert all(await asyncio.gather(*(closed_by_server(s) for s in still)))
        assert server._server.connections.open <= 1
    finally:
        for s in socks:
            s.close()
        await server.close()


async def test_a_huge_body_is_refused_by_its_length_before_it_is_read(console_table: Any) -> None:
    table = await console_table("roulette")
    port = int(table.url.rsplit(":", 1)[1].strip("/"))
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:  # 100 MB announced, none of it sent: the answer comes at once, nothing is buffered
        writer.write(b"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 100000000\r\n\r\n")
        await writer.drain()
        status = await asyncio.wait_for(reader.readline(), 10)
        assert status.startswith(b"HTTP/1.1 413"), status
    finally:
        writer.close()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:  # chunked, no length: refused as soon as it streams past the limit
        writer.write(b"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Transfer-Encoding: chunked\r\n\r\n")
        for _ in range(20):
            writer.write(b"1000\r\n" + b" " * 4096 + b"\r\n")
        await writer.drain()
        status = await asyncio.wait_for(reader.readline(), 10)
        assert status.startswith(b"HTTP/1.1 413"), status
    finally:
        writer.close()


async def test_a_websocket_message_over_the_limit_closes_that_socket_only(console_table: Any) -> None:
    table = await console_table("roulette")
    async with httpx.AsyncClient(base_url=table.url) as http:
        login = await http.post("/api/login", json={"user": "dana", "password": PASSWORD})
        cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
    ws_url = table.url.replace("http://", "ws://").rstrip("/") + "/ws"
    assert login.status_code == 200
    async with websockets.connect(ws_url, additional_headers={"Cookie": cookie}, max_size=None) as ws:
        await ws.send("x" * 1_000_000)
        with contextlib.suppress(websockets.ConnectionClosed):
            while True:
                await asyncio.wait_for(ws.recv(), 10)
        assert ws.close_code == 1009  # message too big: closed, never buffered whole
    async with websockets.connect(ws_url, additional_headers={"Cookie": cookie}) as ws:  # the console goes on
        await ws.send(json.dumps({"type": "snapshot"}))
        assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "snapshot"


async def test_new_connections_from_one_address_are_rate_limited(console_table: Any) -> None:
    table = await console_table("roulette")
    limits = Limits(connect_rate=0.5, connect_burst=5)
    server = await start_console(table.harness.loop, table.harness.config, console_accounts(), host="127.0.0.1",
                                 port=0, limits=limits)
    port = int(server.url.rsplit(":", 1)[1].strip("/"))
    socks = [await connect(port) for _ in range(12)]
    try:
        closed = await asyncio.gather(*(closed_by_server(s, 0.5) for s in socks))
        assert closed.count(False) <= 6 and closed.count(True) >= 6  # the burst, and one more at most
        async with httpx.AsyncClient(transport=httpx.AsyncHTTPTransport(local_address="127.0.0.3")) as other:
            assert (await other.get(server.url)).status_code == 200  # another address has its own allowance
    finally:
        for s in socks:
            s.close()
        await server.close()
