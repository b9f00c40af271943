"""Console sessions: each table's console has its own cookie (two on one host never share a
sign-in), a sign-out closes that session's sockets at once, and with a certificate configured the
console is served over HTTPS with a ``Secure`` cookie (a certificate from ``controller.lab_ca``,
as ``croupier broker-config --make-ca`` issues)."""

from __future__ import annotations

import asyncio
import json
import ssl
from pathlib import Path
from typing import Any

import httpx
import websockets

from controller.console import start_console
from controller.console.web import cookie_name
from controller.lab_ca import issue, make_ca
from tests.integration.browser.conftest import PASSWORD
from tests.integration.browser.conftest import test_accounts as console_accounts


async def sign_in(client: httpx.AsyncClient, user: str = "dana") -> dict[str, Any]:
    response = await client.post("/api/login", json={"user": user, "password": PASSWORD})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def test_two_consoles_on_one_host_keep_their_own_sessions(console_table: Any, tmp_path: Path) -> None:
    first = await console_table("roulette", directory=tmp_path / "a", table_id="rl-a")
    second = await console_table("roulette", directory=tmp_path / "b", table_id="rl-b")
    assert cookie_name("rl-a") != cookie_name("rl-b")
    async with httpx.AsyncClient() as browser:  # one cookie jar: cookies are per host, not per port
        login = await browser.post(first.url + "api/login", json={"user": "dana", "password": PASSWORD})
        assert login.status_code == 200
        assert cookie_name("rl-a") in login.headers["set-cookie"]
        assert (await browser.get(first.url + "api/me")).status_code == 200
        assert (await browser.get(second.url + "api/me")).status_code == 401  # not signed in there
        # signing in at the second console leaves the first one's session alone (one cookie each)
        assert (await browser.post(second.url + "api/login", json={"user": "petra", "password": PASSWORD})
                ).status_code == 200
        assert (await browser.get(first.url + "api/me")).json()["user"] == "dana"
        assert (await browser.get(second.url + "api/me")).json()["user"] == "petra"


async def test_a_sign_out_closes_the_sessions_websockets_at_once(console_table: Any) -> None:
    table = await console_table("roulette")
    async with httpx.AsyncClient(base_url=table.url) as http:
        body = await sign_in(http)
        cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
        ws_url = table.url.replace("http://", "ws://").rstrip("/") + "/ws"
        async with websockets.connect(ws_url, additional_headers={"Cookie": cookie}) as ws:
            assert json.loads(await ws.recv())["type"] == "snapshot"
            assert (await http.post("/api/logout", json={})).status_code == 403  # the CSRF token is needed
            out = await http.post("/api/logout", json={}, headers={"X-CSRF-Token": body["csrf"]})
            assert out.status_code == 200
            async with asyncio.timeout(5):  # closed now, not at the next message the page sends
                try:
                    while True:
                        await ws.recv()
                except websockets.ConnectionClosed:
                    pass
            assert ws.close_code == 4401


async def test_with_a_certificate_the_console_is_https_and_its_cookie_secure(console_table: Any, tmp_path: Path) -> None:
    table = await console_table("roulette")
    ca = make_ca(tmp_path / "ca")
    cert = issue(ca, tmp_path / "console", "console", hosts=["127.0.0.1", "localhost"])
    config = table.harness.config
    tls = config.model_copy(update={"console": config.console.model_copy(
        update={"tls_cert": str(cert.cert), "tls_key": str(cert.key)})})
    server = await start_console(table.harness.loop, tls, console_accounts(), host="127.0.0.1", port=0)
    try:
        assert server.url.startswith("https://")
        trust = ssl.create_default_context(cafile=str(ca.cert))
        async with httpx.AsyncClient(base_url=server.url, verify=trust) as client:
            login = await client.post("/api/login", json={"user": "dana", "password": PASSWORD},
                                      headers={"Origin": server.url.rstrip("/")})
            assert login.status_code == 200, login.text
            assert "secure" in login.headers["set-cookie"].lower()
        async with httpx.AsyncClient(base_url=table.url) as plain:  # the plain console's cookie is not Secure
            assert "secure" not in (await plain.post("/api/login", json={"user": "dana", "password": PASSWORD})
                                    ).headers["set-cookie"].lower()
    finally:
        await server.close()
