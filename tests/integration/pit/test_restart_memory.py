"""A restarted dashboard shows the gaming day it showed before: the rounds, statistics, shifts
and alerts of today come from the floor's store (the back office's, on a real PostgreSQL),
and what the feed brings after is folded in without doubles. Without a store the floor says
that its history starts at the dashboard's start."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from controller.backoffice.floor_store import BackofficeFloorStore
from controller.backoffice.migrate import migrate
from controller.pit.server import PitServer
from tests.fixtures.mosquitto import MosquittoBroker
from tests.fixtures.postgres import database, postgres, postgres_cluster  # noqa: F401
from tests.integration.backoffice.feed import round_record
from tests.integration.backoffice.seed import seed
from tests.integration.backoffice.test_history import pit_accounts, signed_in
from tests.support.waiting import until_awaited


def alert(table: str, seq: int, code: str, at: datetime, severity: str = "warning", **extra: object) -> dict[str, object]:
    return {"v": 1, "table": table, "seq": seq, "ts": at.isoformat(), "severity": severity, "code": code,
            "message": f"{code} at {table}", "round": None, "hold": False, **extra}


async def test_a_restarted_dashboard_shows_the_same_gaming_day(mosquitto: MosquittoBroker, database: str) -> None:  # noqa: F811
    migrate(database)
    now = datetime.now(UTC)
    day_start = now.replace(hour=6, minute=0, second=0, microsecond=0)  # the default gaming day: from 06:00 UTC
    if day_start > now:
        day_start -= timedelta(days=1)
    start = max(day_start, now - timedelta(minutes=30))
    rounds = [round_record("bj1", n, seq=10 + n, at=start, dealer="maria" if n < 5 else "olga")
              for n in range(1, 9)]
    seed(database, [("croupier/bj1/round", r) for r in rounds])
    seed(database, [("croupier/bj1/alert", alert("bj1", 100, "shoe.noread", start)),
                    ("croupier/bj1/alert", alert("bj1", 101, "pit.alert_acknowledged", start, severity="info", alert=99,
                                                 by="pat"))])
    store = BackofficeFloorStore(database)
    try:
        async with PitServer(mosquitto.tcp_url(mosquitto.pit), pit_accounts(), history=store) as pit:
            client = await signed_in(pit)
            try:
                async def shown() -> bool:
                    response = await client.get("/api/table/bj1")
                    return response.status_code == 200 and response.json()["stats"]["rounds"] == 8

                await until_awaited(shown, "the day's rounds of bj1 on the restarted dashboard")
                view = (await client.get("/api/table/bj1")).json()
                assert [s["dealer"] for s in view["shifts"]] == ["olga", "maria"]
                assert view["stats"]["drop"] == 8000 and len(view["rounds"]) == 8
                assert [a["code"] for a in view["alerts_recent"]] == ["pit.alert_acknowledged", "shoe.noread"]
                floor = (await client.get("/api/floor")).json()
                assert floor["memory"]["from"] == "store" and [t["table"] for t in floor["tables"]] == ["bj1"]
            finally:
                await client.aclose()
    finally:
        store.close()


async def test_without_a_store_the_floor_says_since_when_it_remembers(mosquitto: MosquittoBroker) -> None:
    async with PitServer(mosquitto.tcp_url(mosquitto.pit), pit_accounts()) as pit:
        client = await signed_in(pit)
        try:
            memory = (await client.get("/api/floor")).json()["memory"]
            assert memory["from"] == "start" and datetime.fromisoformat(memory["since"]) <= datetime.now(UTC)
        finally:
            await client.aclose()
