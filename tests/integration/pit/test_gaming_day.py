"""The pit boss's dashboard through a gaming day (issue 26): three real tables (blackjack,
roulette, baccarat: the demo's configs, simulated people and devices, no pacing) play a shift of
at least 60 rounds each on the real mosquitto, the back office stores it in a throwaway
PostgreSQL, the pit boss closes each table after its shift, the closed blackjack table's
gate lets a card out (a hold), the dealer asks for a correction, the pit voids a spin. Then the floor and a
table view are checked at 1280x800 and 1024x600 as a pit boss reads them (no page scroll on the
floor, alerts above the fold, nothing cut off, every control named, no code or raw card or bare
amount on screen), the README's pictures are taken, and a restarted dashboard, reading the back
office, shows the same day: rounds, statistics and shifts."""

from __future__ import annotations

import asyncio
import contextlib
import os
import tomllib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from controller.backoffice.consumer import Consumer
from controller.backoffice.floor_store import BackofficeFloorStore
from controller.backoffice.migrate import migrate
from controller.config import SHIPPED_CONFIGS as CONFIG_DIR
from controller.config import TableConfig
from controller.demo import CONFIGS
from controller.pit.server import PitServer
from controller.process import run_table
from controller.runtime.loop import TableLoop
from controller.table import inputs
from tests.fixtures.mosquitto import MosquittoBroker
from tests.fixtures.postgres import database, postgres, postgres_cluster  # noqa: F401
from tests.integration.browser.conftest import readme_shot, shot, until_js
from tests.integration.pit.conftest import accounts
from tests.integration.pit.page_text import assert_clean
from tests.integration.pit.test_browser import open_pit
from tests.support.configs import relocated_example
from tests.support.waiting import until, until_awaited

ROUNDS = 60
#: the simulated wheel's protocol time this many times faster (a spin in a few tenths of a second)
WHEEL_SPEED = 60.0
SHIFT_S = 150.0
PAGE_SIZES = ("1280x800", "1024x600")
LAYOUT = """() => {
  const root = document.documentElement;
  const first = document.querySelector('#alerts li, #table-alerts li');
  return { scroll: root.scrollHeight - root.clientHeight, wide: root.scrollWidth - root.clientWidth,
    cut: [...document.querySelectorAll('.tile, .tile dd, #alerts li, #table-head, .figure, #commands button')]
      .filter((e) => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1).map((e) => e.className || e.id),
    alerts: first ? first.getBoundingClientRect().top : -1, height: innerHeight };
}"""


def shift_config(name: str, directory: Path, broker: str) -> TableConfig:
    """A demo table's config on the test's broker and journal directory, its wheel fast."""
    raw = relocated_example(tomllib.loads((CONFIG_DIR / name).read_text()), directory)
    raw["mqtt"] = {"broker": broker, "insecure": True}
    wheel = raw.get("devices", {}).get("wheel", {})
    if "simulated" in wheel:
        wheel["simulated"]["speed"] = WHEEL_SPEED
    return TableConfig.model_validate({**raw, "base": CONFIG_DIR})


class Floor:
    """The three tables, each run as ``croupier demo`` runs it, with its loop and devices."""

    def __init__(self) -> None:
        self.loops: dict[str, TableLoop] = {}
        self.devices: dict[str, Any] = {}
        self.tasks: list[asyncio.Task[int]] = []

    def start(self, config: TableConfig) -> None:
        async def ready(loop: TableLoop, devices: Any) -> None:
            self.loops[config.table.id] = loop
            self.devices[config.table.id] = devices

        sink = open(os.devnull, "w")  # noqa: SIM115  # closed with the run
        self.tasks.append(asyncio.create_task(run_table(config, 10**9, pace=0.0, out=sink, prompts=False, on_ready=ready,
                                                        keyboard=False, stop_when_closed=False)))

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


def pit_order(loop: TableLoop, command: str, **fields: Any) -> None:
    body = {"v": 1, "id": f"{command}-{loop.journal.last_seq()}", "sender": "pat", "command": command, **fields}
    loop.submit(inputs.PIT_COMMAND, body, "pit:pat")


@pytest.fixture
async def office(mosquitto: MosquittoBroker, database: str) -> AsyncIterator[str]:  # noqa: F811
    migrate(database)
    consumer = Consumer(mosquitto.tcp_url(mosquitto.pit), database, client_id="gaming-day-office", backoff_max=0.5)
    stop = asyncio.Event()
    task = asyncio.create_task(consumer.run(stop))
    await until(lambda: consumer.connections >= 1, "the back office's session on the broker")
    yield database
    stop.set()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(task, 10)


async def view(client: httpx.AsyncClient, table: str) -> dict[str, Any]:
    response = await client.get(f"/api/table/{table}")
    assert response.status_code == 200, response.text
    return dict(response.json())


async def signed(pit: PitServer) -> httpx.AsyncClient:
    client = httpx.AsyncClient(base_url=pit.url.rstrip("/"))
    assert (await client.post("/api/login", json={"user": "pat", "password": "pit-pass-1"})).status_code == 200
    return client


def day_of_view(v: dict[str, Any]) -> dict[str, Any]:
    """What must read the same after a restart: the statistics and the dealer shifts."""
    stats = {k: v["stats"][k] for k in ("rounds", "settled", "void", "drop", "win", "first", "last")}
    shifts = [{k: s[k] for k in ("dealer", "rounds", "drop", "win", "first", "last")} for s in v["shifts"]]
    return {"stats": stats, "shifts": shifts, "rounds": v["rounds_page"]["total"]}


async def check_page(page: Any, floor: bool) -> None:
    layout = await page.evaluate(LAYOUT)
    assert layout["wide"] <= 0 and layout["cut"] == [], layout
    if floor:
        assert layout["scroll"] <= 0, layout  # the floor fits the screen
        assert 0 <= layout["alerts"] < layout["height"] - 40, layout  # the first alert above the fold
    await assert_clean(page)


async def test_a_gaming_day_on_the_pit_and_a_restart(chromium: Any, mosquitto: MosquittoBroker, office: str,
                                                      hashes: dict[str, str], tmp_path: Path) -> None:
    floor = Floor()
    try:
        await shift_and_restart(chromium, mosquitto, office, hashes, tmp_path, floor)
    finally:
        await floor.stop()


async def shift_and_restart(chromium: Any, mosquitto: MosquittoBroker, office: str, hashes: dict[str, str],
                            tmp_path: Path, floor: Floor) -> None:
    ids: list[str] = []
    pit = PitServer(mosquitto.tcp_url(mosquitto.pit), accounts(hashes), client_id="pit-shift-first", tick=0.05)
    await pit.start()
    try:
        for name in CONFIGS:
            config = shift_config(name, tmp_path, mosquitto.tcp_url(mosquitto.controller))
            ids.append(config.table.id)
            floor.start(config)
        await until(lambda: len(floor.loops) == 3, "three tables taking inputs", within=60)
        bj, rl, _ = ids
        voided: list[str] = []
        closed: set[str] = set()

        def shift_done() -> bool:
            counts = {t: len(pit.model.tables[t].rounds) if t in pit.model.tables else 0 for t in ids}
            for table, count in counts.items():
                loop = floor.loops[table]
                # closed once it opened its shift's rounds (its own count: the pit's lags, and a table
                # dealing at full speed meanwhile leaves its feed a backlog the hold below waits behind)
                if loop.core.round.rounds >= ROUNDS and table not in closed:
                    closed.add(table)
                    pit_order(loop, "close_after_round")  # the end of this table's shift
                if table == rl and count >= 20 and not voided and loop.core.round_open and loop.core.round_id:
                    voided.append(loop.core.round_id)
                    pit_order(loop, "void_round", round=loop.core.round_id, reason="ball left the wheel")
            return all(c >= ROUNDS for c in counts.values()) and all(
                floor.loops[t].core.closing and not floor.loops[t].core.round_open for t in ids)

        def where() -> str:
            return "; ".join(f"{t}: {len(pit.model.tables[t].rounds) if t in pit.model.tables else 0} rounds, "
                             f"closing {floor.loops[t].core.closing}, hold {floor.loops[t].core.hold}, "
                             f"open {floor.loops[t].core.round_open}, prompt {floor.loops[t].core.prompt()!r}" for t in ids)

        await until(shift_done, f"{ROUNDS} rounds on each table, then each closed", within=SHIFT_S, poll=0.1,
                    describe=where)
        # the closed blackjack table's gate lets a card out: the table holds (the simulated dealer burns it)
        firmware = floor.devices[bj].firmware
        firmware.locked = False
        assert firmware.draw() is not None
        await until(lambda: any(a.get("hold") for a in pit.model.tables[bj].alerts), "the blackjack table's hold on the pit",
                    describe=lambda: f"{firmware.state}, {firmware.pending} unsent; "
                                     f"{[a.get('code') for a in list(pit.model.tables[bj].alerts)[-5:]]}, {where()}")
        await until(lambda: floor.loops[bj].core.hold is None, "the simulated dealer burns the card")
        # the dealer asks for a correction of the last round the blackjack table closed
        last = next(r for r in reversed(list(pit.model.tables[bj].rounds.values()))
                    if r.get("status") == "settled")  # a void round is not corrected
        bet = last["bets"][0]
        floor.loops[bj].command("correct", "console:dana", round=last["round"], reason="paid the wrong hand",
                                changes=[{"box": bet["box"], "hand": bet["hand"], "kind": bet["kind"],
                                          "player": bet["player"],  # a payout its bet can always return:
                                          "payout": bet["stake"] if bet["payout"] != bet["stake"] else 0}])
        await until(lambda: bool(pit.model.tables[bj].state.get("corrections_pending")), "the correction on the pit",
                    describe=lambda: f"table: {floor.loops[bj].core.book.pending()}; "
                                     f"{[a.get('message') for a in list(pit.model.tables[bj].alerts)[-3:]]}")

        for size in PAGE_SIZES:
            page = await open_pit(chromium, pit.url, "pat", size)
            await until_js(page, "document.querySelectorAll('.tile').length === 3 && document.querySelector('#alerts li.error')")
            await check_page(page, floor=True)
            if size == "1280x800":
                await readme_shot(page, "pit-floor")
            else:
                await shot(page, f"pit-gaming-day-floor-{size}")
            await page.goto(pit.url + f"table/{bj}")
            await until_js(page, "document.querySelector('#corrections li[data-correction]') && "
                                 "document.querySelector('#rounds tbody tr[data-round]')")
            await check_page(page, floor=False)
            corrections = await page.locator("#corrections").inner_text()
            assert "asked by dana at the console" in corrections
            await shot(page, f"pit-gaming-day-{bj}-{size}")
            await page.context.close()

        # the roulette table's view: a spin recalled where the pit boss looks, its bets in words
        page = await open_pit(chromium, pit.url + f"table/{rl}", "pat", "1280x800")
        await until_js(page, "document.querySelector('#rounds tbody tr.settled') && document.querySelector('#stats .edge')")
        await readme_shot(page, "pit-table")  # the README's: a table's shift, its boards and statistics
        await page.locator("#rounds tbody tr.settled").first.click()
        await until_js(page, "document.getElementById('recall-head') !== null")
        recall = await page.locator("#round-detail").inner_text()
        assert "wheel rl-eu" in recall and "shoe rl-eu" not in recall and "\thand\t" not in recall
        top = await page.evaluate("document.getElementById('recall-head').getBoundingClientRect().top")
        assert 0 <= top < 800
        await check_page(page, floor=False)
        await shot(page, "pit-gaming-day-recall-1280x800")
        await page.context.close()

        first = await signed(pit)
        seen = {t: day_of_view(await view(first, t)) for t in ids}
        await first.aclose()
        total = sum(v["rounds"] for v in seen.values())
    finally:
        await pit.stop()

    # the back office has the whole day; a restarted dashboard reads it
    def stored() -> int:
        with psycopg.connect(office) as conn:
            row = conn.execute("SELECT count(*) FROM rounds WHERE NOT superseded").fetchone()
        return int(row[0]) if row else 0

    await until(lambda: stored() >= total, f"the day's {total} rounds in the back office", within=60)
    store = BackofficeFloorStore(office)
    again = PitServer(mosquitto.tcp_url(mosquitto.pit), accounts(hashes), client_id="pit-shift-restarted", history=store)
    await again.start()
    try:
        client = await signed(again)

        async def restored() -> bool:
            for t in ids:
                if (await view(client, t))["stats"]["rounds"] < seen[t]["rounds"]:
                    return False
            return True

        await until_awaited(restored, "the day's rounds on the restarted dashboard", poll=0.2)
        shown = {t: day_of_view(await view(client, t)) for t in ids}
        assert shown == seen
        page = await open_pit(chromium, again.url + f"table/{bj}", "pat", "1280x800")
        await until_js(page, "document.querySelector('#shifts table')")
        await check_page(page, floor=False)
        await page.goto(again.url + "history")
        await until_js(page, "document.querySelectorAll('#history-rounds tbody tr').length > 1")
        await until_js(page, "document.getElementById('history-memory').textContent.includes('gaming day')")
        await check_page(page, floor=False)
        await shot(page, "pit-gaming-day-history-1280x800")
        await page.context.close()
        await client.aclose()
    finally:
        await again.stop()
        store.close()
