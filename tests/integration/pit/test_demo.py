"""``croupier demo`` end to end: every page served, the pit page names every table while a
console updates without a reload (Chromium), and the demo is up well within 60 s."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx

from controller.demo import CONFIGS, Demo
from tests.integration.browser.conftest import shot, until_js

TABLES = ("bj-ru6", "rl-eu", "baccarat")


async def test_the_demo_serves_the_pit_and_live_consoles(chromium: Any, tmp_path: Path) -> None:
    assert len(CONFIGS) == 3
    started = time.monotonic()
    demo = Demo(tmp_path)
    ready = asyncio.Event()
    task = asyncio.create_task(demo.run(lambda _: ready.set()))
    try:
        await asyncio.wait_for(ready.wait(), 60)
        async with httpx.AsyncClient() as client:
            for url in [demo.pit_url, *demo.consoles.values()]:
                assert (await client.get(url)).status_code == 200
        up = time.monotonic() - started
        print(f"demo: every page served {up:.1f} s after start")
        assert up < 60
        assert set(demo.consoles) == set(TABLES)
        passwords = {a.user: a.password for a in demo.accounts_shown}

        context = await chromium.new_context(viewport={"width": 1280, "height": 800})
        pit = await context.new_page()
        await pit.goto(demo.pit_url)
        await pit.fill("#login input[name=user]", "pit")
        await pit.fill("#login input[name=password]", passwords["pit"])
        await pit.click("#login button[type=submit]")
        for table in TABLES:
            await pit.locator(f".tile[data-table='{table}']").wait_for(timeout=30_000)

        console = await context.new_page()
        await console.goto(demo.consoles["rl-eu"])
        await console.fill("#user", "dealer")
        await console.fill("#password", passwords["dealer"])
        await console.click("#login-btn")
        await until_js(console, "document.getElementById('prompt').textContent.length > 0")
        first = await console.locator("#prompt").inner_text()
        # rounds run by themselves: the prompt changes with no reload
        await until_js(console, f"document.getElementById('prompt').textContent !== {first!r}", timeout=30_000)
        # and the pit keeps counting rounds as they settle
        await until_js(pit, "document.querySelectorAll('.tile').length === 3")
        await shot(pit, "demo-pit-1280x800")
        await shot(console, "demo-console-rl-eu-1280x800")
        # the roulette table's view: rounds settled by now, statistics against the house edge
        await pit.goto(demo.pit_url + "table/rl-eu")
        # a settled round's row (the empty table's "No rounds yet." is a row too)
        await pit.locator("#rounds tbody tr", has_text="rl-eu-0").first.wait_for(timeout=30_000)
        assert "2.70 %" in await pit.locator("#stats .edge").inner_text()
        await shot(pit, "demo-pit-table-1280x800")  # the README's pit pictures come from test_gaming_day.py
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
