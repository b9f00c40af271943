"""The back office's pages (``report``, ``ratings``, ``advantage`` as ``--html``) on a day of real
rounds: real tables (``croupier run --rounds N``, simulated shoes) on the real mosquitto, the
back office as its own process on a real PostgreSQL, read in Chromium as a floor manager reads
them: no ``null``/``undefined``/``NaN``/``None``, no JSON, no internal codes or card codes, every
amount with its currency, and each page as wide as a 1024 px screen and the printed A4 page."""

from __future__ import annotations

import re
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from controller.backoffice.migrate import migrate
from tests.fixtures.mosquitto import MosquittoBroker
from tests.integration.backoffice import floor
from tests.integration.backoffice.feed import round_record, ts
from tests.integration.backoffice.feed import state as feed_state
from tests.integration.backoffice.seed import seed
from tests.integration.browser.conftest import chromium
from tests.integration.pit import page_text

__all__ = ["chromium"]

ROUNDS = 12
TABLES = {"bj1": (floor.BLACKJACK, 3), "bc1": (floor.BACCARAT, 5)}
ZONE = "Europe/Riga"
WIDTH = 1024
#: what a page must never show a person
SHOWN_NEVER = [
    (page_text.FORBIDDEN, "what no page of the floor shows (null, undefined, NaN, JSON)"),
    (re.compile(r"\b(nan|None|True|False)\b|[{}\[\]]"), "Python's words or brackets"),
    (re.compile(r"\b[a-z_]+\.[a-z_]+(\.[a-z_]+)*\b"), "an internal code"),
    (re.compile(r"\b[2-9TJQKA][SHDC]\b"), "a card code"),
    (re.compile(r"\d{4}-\d\d-\d\d"), "an ISO date"),
]
MONEY_HEADERS = {"Drop", "Paid", "Win", "Theo win", "Win against theo", "Average bet", "House win", "Cost (EV)",
                 "Their cost (EV)", "Edge an hour"}
MONEY = re.compile(r"^(-?\d{1,3}(,\d{3})*\.\d\d EUR\b.*)?$")

TABLES_JS = """() => [...document.querySelectorAll('table')].map(t => ({
  headers: [...t.querySelectorAll('thead th')].map(th => th.innerText.trim()),
  rows: [...t.querySelectorAll('tbody tr')].map(tr => [...tr.children].map(td => td.innerText.trim()))}))"""


def office_config(directory: Path) -> Path:
    """A Riga floor whose gaming day started 12 hours ago: the test's rounds fall in today's."""
    hour = (datetime.now(ZoneInfo(ZONE)).hour + 12) % 24
    path = directory / "backoffice.toml"
    path.write_text(f'[backoffice]\ngaming_day_starts = "{hour:02d}:00"\ntimezone = "{ZONE}"\n'
                    'client_id = "croupier-backoffice-pages"\n[backoffice.pits]\nnorth = ["bj1", "bc1"]\n')
    return path


def play_a_day(mosquitto: MosquittoBroker, database: str, tmp_path: Path) -> Path:
    """The tables play their rounds into the back office; its config returned once all are stored."""
    migrate(database)
    config = office_config(tmp_path)
    journals = {t: tmp_path / f"{t}.journal" for t in TABLES}
    configs = {t: floor.table_config(tmp_path, t, table, mosquitto.tcp_url(mosquitto.controller), seed)
               for t, (table, seed) in TABLES.items()}
    office = floor.start_office(config, database, mosquitto, tmp_path / "office.log")
    tables = []
    try:
        tables = [floor.start_table(configs[t], ROUNDS, tmp_path / f"{t}.log") for t in TABLES]
        for table in tables:
            assert table.wait(timeout=300) == 0
        expected = sum(floor.journal_round_entries(j) for j in journals.values())
        floor.wait_until(lambda: floor.stored(database, "SELECT count(*) FROM rounds") == [(expected,)], 120,
                         f"all {expected} round records in the database")
    finally:
        for table in tables:
            floor.stop(table)
        floor.stop(office)
    return config


def flag(seq: int, player: str, **evidence: Any) -> tuple[str, dict[str, Any]]:
    """An advantage-play alert as protection raises it (one of them with evidence of the wrong shape)."""
    body = {"test": "bet_ramp", "statistic": 0.41, "p_value": 1.2e-9, "ci": [0.3, 0.51], "rounds": 240,
            "average_bet": 4200, "edge_per_hour": 3150, "bets_by_count": [[-1, 100], [2, 500]],
            "index_plays": {"situations": 30, "with_count": 9, "against_count": 1, "missed": 2}, **evidence}
    return "croupier/bj1/alert", {"v": 1, "table": "bj1", "round": None, "seq": seq, "severity": "warning",
                                  "ts": ts(datetime.now(UTC) - timedelta(minutes=seq % 100)), "hold": False,
                                  "code": "protection.advantage_play", "player": player, "evidence": body,
                                  "message": f"player {player} at box 1: bets follow the count"}


def deviation(table: str, player: str) -> list[tuple[str, dict[str, Any]]]:
    """A blackjack round in which ``player`` stood on 16 against a 7 (basic strategy hits), so the
    pages show a costliest decision and its cards."""
    record = round_record(table, 1, seq=1, stake=1000, player=player, at=datetime.now(UTC) - timedelta(hours=1))
    record["outcome"] = {"phase": "settled", "dealer": {"cards": ["7C", "9D"], "face_down": [], "total": 16,
                                                                 "blackjack": False},
                         "boxes": [{"box": 1, "owner": player, "insurance": 0,
                                    "hands": [{"hand": 1, "cards": ["TS", "6H"], "total": 16, "status": "live",
                                               "multiplier": 1, "face_down": []}]}]}
    state = feed_state(table, datetime.now(UTC) - timedelta(hours=2))
    return [(f"croupier/{table}/state", state), (f"croupier/{table}/round", record)]


def page_of(config: Path, database: str, command: str, day: str) -> str:
    result = subprocess.run([*floor.CLI, "backoffice", command, "--config", str(config), "--database", database,
                             "--day", day, "--html"], capture_output=True, check=True, stdin=subprocess.DEVNULL)
    return result.stdout.decode()


ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "browser"


async def read_as_a_person(browser: Any, html: str, name: str) -> None:
    """The page at 1024 px on screen and printed: nothing wider, nothing a person should not read."""
    for media in ("screen", "print"):
        page = await browser.new_page(viewport={"width": WIDTH, "height": 768})
        try:
            await page.emulate_media(media=media)
            await page.set_content(html)
            width = await page.evaluate("document.documentElement.scrollWidth")
            await page.screenshot(path=str(ARTIFACTS / f"backoffice-{name}-{media}-{WIDTH}.png"), full_page=True)
            assert width <= WIDTH, f"{name} ({media}) is {width} px wide"
            text = await page.evaluate("document.body.innerText")
            for pattern, what in SHOWN_NEVER:
                found = pattern.search(text)
                assert found is None, f"{name} shows {what}: {text[max(0, found.start() - 60):found.end() + 60]!r}"
            assert await page.evaluate(page_text.UNNAMED) == []
            for table in await page.evaluate(TABLES_JS):
                for row in table["rows"]:
                    for header, cell in zip(table["headers"], row):
                        if header in MONEY_HEADERS:
                            assert MONEY.match(cell), f"{name}: {header} {cell!r} without its currency"
        finally:
            await page.close()


async def test_the_pages_of_a_real_day_read_as_people_read_them(mosquitto: MosquittoBroker, database: str,
                                                                tmp_path: Path, chromium: Any) -> None:
    config = play_a_day(mosquitto, database, tmp_path)
    seed(database, [*deviation("bj9", "P1"), flag(900_001, "P1"), flag(900_002, "P1", index_plays={"with_count": ""}, ci="wide"),
                    flag(900_003, "P2", statistic="NaN", edge_per_hour=None)])
    day = floor.gaming_day_today(config)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    pages = {command: page_of(config, database, command, day) for command in ("report", "ratings", "advantage")}
    assert "Costliest blackjack decisions" in pages["ratings"] and "10♠ 6♥" in pages["ratings"]
    assert "Player P1" in pages["advantage"] and "bj1" in pages["report"] and "bc1" in pages["report"]
    for command, html in pages.items():
        await read_as_a_person(chromium, html, command)
