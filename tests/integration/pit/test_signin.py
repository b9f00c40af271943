"""Signing in to the dashboard: a run of wrong passwords locks the account (the right one is then
refused too, without being checked), and with a certificate the dashboard is HTTPS with a
``Secure`` cookie."""

from __future__ import annotations

import ssl
from pathlib import Path

import httpx

from controller.lab_ca import issue, make_ca
from controller.pit.server import PitServer
from tests.fixtures.mosquitto import MosquittoBroker
from tests.integration.pit.conftest import PASSWORDS, accounts


async def test_wrong_passwords_lock_the_account_and_the_right_one_is_then_refused(pit: PitServer) -> None:
    async with httpx.AsyncClient(base_url=pit.url) as client:
        statuses = [(await client.post("/api/login", json={"user": "pat", "password": f"guess{k}"})).status_code
                    for k in range(30)]
        assert statuses[:5] == [401] * 5 and set(statuses[5:]) == {429}
        right = await client.post("/api/login", json={"user": "pat", "password": PASSWORDS["pat"]})
        assert right.status_code == 429 and int(right.headers["retry-after"]) > 0
        assert "try again" in right.json()["error"]
        assert "pit_session" not in right.headers.get("set-cookie", "")


async def test_with_a_certificate_the_dashboard_is_https_and_its_cookie_secure(mosquitto: MosquittoBroker,
                                                                               hashes: dict[str, str],
                                                                               tmp_path: Path) -> None:
    ca = make_ca(tmp_path / "ca")
    cert = issue(ca, tmp_path / "pit", "pit", hosts=["127.0.0.1"])
    async with PitServer(mosquitto.tcp_url(mosquitto.pit), accounts(hashes), tls=(str(cert.cert), str(cert.key))) as pit:
        assert pit.url.startswith("https://")
        async with httpx.AsyncClient(base_url=pit.url, verify=ssl.create_default_context(cafile=str(ca.cert))) as client:
            login = await client.post("/api/login", json={"user": "pat", "password": PASSWORDS["pat"]})
            assert login.status_code == 200, login.text
            cookie = login.headers["set-cookie"].lower()
            assert "pit_session=" in cookie and "secure" in cookie and "httponly" in cookie
            assert (await client.get("/api/session")).json()["user"] == "pat"
