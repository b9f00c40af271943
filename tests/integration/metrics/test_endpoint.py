"""The table's Prometheus endpoint, scraped while a simulated table plays: the figures move."""

from __future__ import annotations

import asyncio
import contextlib
import io
import socket
import urllib.request
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

from controller.config import load
from controller.process import run_table
from tests.support.configs import simulated_shoe, write_table_config
from tests.support.waiting import until


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _scrape(url: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    text = urllib.request.urlopen(url, timeout=5).read().decode()
    out = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


def _total(figures, name: str, **labels: str) -> float:
    want = set(labels.items())
    return sum(v for (n, ls), v in figures.items() if n == name and want <= set(ls))


async def test_endpoint_counts_rounds_appends_and_device_latency(tmp_path: Path):
    port = _free_port()
    path = write_table_config(tmp_path, name="m1.toml", table_id="m1", journal="m1.journal",
                              limits={"main": {"min": 500, "max": 500000}},
                              devices={"shoe": simulated_shoe(gap_timeout=None)},
                              metrics={"enabled": True, "host": "127.0.0.1", "port": port})
    config = load(path)
    url = f"http://127.0.0.1:{port}/metrics"
    # more rounds than the test waits for, at a pace, so a fast machine cannot finish the table
    # between two scrapes; the table is stopped once the figures have moved
    table = asyncio.create_task(run_table(config, 10_000, pace=0.01, out=io.StringIO(), prompts=False))
    seen: list[dict] = []

    def rounds_moved() -> bool:
        """Scrape once (the server answers from its own thread); True once two scrapes show
        rounds moving, or the table has ended."""
        try:
            figures = _scrape(url)
        except OSError:
            return table.done()  # not serving yet
        rounds = _total(figures, "croupier_rounds_total", table="m1", status="settled")
        if rounds and (not seen or rounds > _total(seen[-1], "croupier_rounds_total", table="m1")):
            seen.append(figures)
        return len(seen) >= 2 or table.done()

    try:
        await until(rounds_moved, "two scrapes showing rounds moving", within=60, poll=0.1)
    finally:
        table.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(table, 120)
    assert len(seen) >= 2, "the rounds counter never moved"
    first, later = seen[0], seen[-1]
    assert _total(later, "croupier_rounds_total", table="m1") > _total(first, "croupier_rounds_total", table="m1")
    assert _total(later, "croupier_journal_append_seconds_count", table="m1") > \
        _total(first, "croupier_journal_append_seconds_count", table="m1") > 0
    assert _total(later, "croupier_device_event_seconds_count", table="m1", device="shoe") > 0
    assert _total(later, "croupier_device_online", table="m1", device="shoe") == 1
    assert _total(later, "croupier_journal_head_seq", table="m1") > _total(first, "croupier_journal_head_seq", table="m1")
    # the server is gone with the table
    try:
        await asyncio.to_thread(_scrape, url)
        raise AssertionError("the endpoint outlived the table")
    except OSError:
        pass
