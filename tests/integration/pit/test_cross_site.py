"""A page on another port of the same host (same-site: SameSite=Strict cookies are sent to it)
tries, in the signed-in browser, to send a pit command and to drive the console's WebSocket:
real Chromium, a real attacker server. Nothing reaches the table."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from collections.abc import AsyncIterator
from typing import Any

import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from controller.pit.server import PitServer
from tests.integration.browser.conftest import PASSWORD, until_js
from tests.integration.pit.conftest import PASSWORDS, until

ATTACK = """
window.tried = {};
const pit = %(pit)s, consoleUrl = %(console)s;
const command = JSON.stringify({table: "rl", command: "close_after_round"});
async function attempt(name, run) {
  try { tried[name] = await run(); } catch (e) { tried[name] = "error: " + e; }
}
(async () => {
  await attempt("text/plain", async () => (await fetch(pit + "api/command", {method: "POST", mode: "no-cors",
    credentials: "include", headers: {"Content-Type": "text/plain"}, body: command})).type);
  await attempt("json", async () => (await fetch(pit + "api/command", {method: "POST", credentials: "include",
    headers: {"Content-Type": "application/json"}, body: command})).status);
  await attempt("form", async () => {
    const frame = document.createElement("iframe"); frame.name = "sink"; document.body.append(frame);
    const form = document.createElement("form");
    form.method = "POST"; form.action = pit + "api/command"; form.enctype = "text/plain"; form.target = "sink";
    const field = document.createElement("input"); field.name = command.slice(0, -1) + ',"x":"'; field.value = '"}';
    form.append(field); document.body.append(form); form.submit();
    await new Promise((r) => frame.addEventListener("load", r, {once: true}));
    return "submitted";
  });
  await attempt("websocket", () => new Promise((resolve) => {
    const ws = new WebSocket(consoleUrl.replace("http", "ws") + "ws?client=evil");
    const seen = [];
    ws.onopen = () => ws.send(JSON.stringify({type: "command", cseq: 1, command: "open_round", args: {}}));
    ws.onmessage = (ev) => seen.push(ev.data.slice(0, 40));
    ws.onclose = (ev) => resolve({code: ev.code, seen});
    setTimeout(() => resolve({code: "still open", seen}), 5000);
  }));
  window.done = true;
})();
"""


@contextlib.asynccontextmanager
async def attacker(pit_url: str, console_url: str) -> AsyncIterator[str]:
    """A site of its own on another port of 127.0.0.1, with no CSP of ours."""
    script = ATTACK % {"pit": json.dumps(pit_url), "console": json.dumps(console_url)}

    async def page(request: Request) -> Response:
        return HTMLResponse('<!doctype html><title>win a prize</title><script src="/attack.js"></script>')

    async def attack(request: Request) -> Response:
        return Response(script, media_type="text/javascript")

    app = Starlette(routes=[Route("/", page), Route("/attack.js", attack)])
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    await until(lambda: server.started or task.done(), timeout=30, what="the attacker's site listening")
    assert server.started, task.exception()
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/"
    finally:
        server.should_exit = True
        await task


@pytest.mark.timeout(120)
async def test_another_port_of_the_same_host_cannot_command_the_pit_or_drive_a_console(
        chromium: Any, pit: PitServer, tables: Any, console_table: Any) -> None:
    rl = await tables("rl")
    rl.state()
    await until(lambda: "rl" in pit.model.tables)
    table = await console_table("roulette")
    context = await chromium.new_context()
    page = await context.new_page()
    # signed in to both, as a pit boss at a floor terminal would be
    await page.goto(pit.url)
    await page.fill("#login input[name=user]", "pat")
    await page.fill("#login input[name=password]", PASSWORDS["pat"])
    await page.click("#login button[type=submit]")
    await until_js(page, "document.getElementById('link').textContent === 'live'")
    await page.goto(table.url)
    await page.fill("#user", "petra")
    await page.fill("#password", PASSWORD)
    await page.click("#login-btn")
    await until_js(page, "document.getElementById('link').textContent === 'live'")
    async with attacker(pit.url, table.url) as evil:
        await page.goto(evil)
        await until_js(page, "window.done === true")
        tried = await page.evaluate("window.tried")
    assert tried["json"] == "error: TypeError: Failed to fetch", tried  # no CORS: the preflight fails
    assert tried["websocket"]["seen"] == [] and tried["websocket"]["code"] != "still open", tried
    assert [e for e in table.harness.journal.entries() if e.source.startswith("console:")] == []
    # the pit's own page, same origin, still sends commands with the session's token
    await page.goto(pit.url + "table/rl")
    page.on("dialog", lambda dialog: dialog.accept())
    await page.click("#commands button[data-command='close_after_round']")
    await until_js(page, "document.getElementById('notice').textContent.includes('sent as pat')")
    await until(lambda: rl.commands)
    # the only command the table got (one link, in order: an earlier one would be first)
    assert [(c.command, c.sender) for c in rl.commands] == [("close_after_round", "pat")]
