"""The pit dashboard reads history from the back office when one is configured: rounds beyond
its memory searched by table, day, dealer and player, the day's report and its CSV export,
all still there after a dashboard restart; sign-in needed. Without one, the routes are absent."""

from __future__ import annotations

from datetime import UTC, datetime

import httpx
import psycopg

from controller.auth import Account, Accounts, hash_password
from controller.backoffice import settings
from controller.backoffice.config import BackofficeSection
from controller.backoffice.floor_store import BackofficeFloorStore
from controller.backoffice.migrate import migrate
from controller.pit.server import PitServer
from tests.fixtures.mosquitto import MosquittoBroker
from tests.integration.backoffice.feed import round_record
from tests.integration.backoffice.seed import seed

DAY = "2026-12-01"
AT = datetime(2026, 12, 1, 7, 0, tzinfo=UTC)  # 1,000 rounds a minute apart: all in the gaming day from 06:00 UTC


def pit_accounts() -> Accounts:
    return Accounts({"pat": Account("pat", "pit_boss", hash_password("pit-pass-1"))})


async def signed_in(pit: PitServer) -> httpx.AsyncClient:
    client = httpx.AsyncClient(base_url=pit.url.rstrip("/"))
    response = await client.post("/api/login", json={"user": "pat", "password": "pit-pass-1"})
    assert response.status_code == 200, response.text
    return client


async def test_history_search_report_and_export_survive_a_dashboard_restart(mosquitto: MosquittoBroker,
                                                                          database: str) -> None:
    migrate(database)
    seed(database, [("croupier/bj1/round", round_record("bj1", n, seq=n, dealer="maria" if n % 2 else "olga",
                                                        player=f"p{n % 3}", at=AT)) for n in range(1, 1001)])
    seed(database, [("croupier/bj2/round", round_record("bj2", 1, seq=1, at=AT))])
    accounts = pit_accounts()
    for _ in range(2):  # the second dashboard is the first one restarted
        async with PitServer(mosquitto.tcp_url(mosquitto.pit), accounts, history=BackofficeFloorStore(database)) as pit:
            async with httpx.AsyncClient(base_url=pit.url.rstrip("/")) as nobody:
                assert (await nobody.get(f"/api/history/rounds?day={DAY}")).status_code == 401
            client = await signed_in(pit)
            try:
                rounds = (await client.get(f"/api/history/rounds?day={DAY}&table=bj1&dealer=olga&limit=200")).json()
                assert len(rounds["rounds"]) == 200 and {r["dealer"] for r in rounds["rounds"]} == {"olga"}
                by_player = (await client.get(f"/api/history/rounds?day={DAY}&player=p0&table=bj1&limit=500")).json()
                assert all(int(r["round"].rsplit("-", 1)[1]) % 3 == 0 for r in by_player["rounds"])
                report = (await client.get(f"/api/history/report?day={DAY}")).json()
                assert report["tables"]["bj1"]["rounds"] == 1000 and report["tables"]["bj2"]["rounds"] == 1
                export = await client.get(f"/api/history/report.csv?day={DAY}")
                assert export.headers["content-type"].startswith("text/csv") and "table,bj1" in export.text
                assert (await client.get("/api/history/report?day=yesterday")).status_code == 400
            finally:
                await client.aclose()
        accounts = pit_accounts()  # a restart signs everybody out


async def test_without_a_back_office_there_is_no_history(mosquitto: MosquittoBroker) -> None:
    async with PitServer(mosquitto.tcp_url(mosquitto.pit), pit_accounts()) as pit:
        client = await signed_in(pit)
        try:
            response = await client.get(f"/api/history/rounds?day={DAY}")
            assert response.status_code != 200 or "rounds" not in response.text
        finally:
            await client.aclose()


async def test_history_reports_the_back_offices_own_gaming_day_and_shifts(mosquitto: MosquittoBroker,
                                                                          database: str) -> None:
    migrate(database)
    early = datetime(2026, 12, 1, 5, 0, tzinfo=UTC)  # 07:00 in Riga: Riga's 1 December, UTC's 30 November
    seed(database, [("croupier/bj1/round", round_record("bj1", 1, seq=1, at=early))])
    with psycopg.connect(database) as conn:
        settings.publish(conn, BackofficeSection(gaming_day_starts="06:00", timezone="Europe/Riga",
                                                 shifts={"A": "06:00", "B": "14:00"}))
    async with PitServer(mosquitto.tcp_url(mosquitto.pit), pit_accounts(), history=BackofficeFloorStore(database)) as pit:
        client = await signed_in(pit)
        try:
            report = (await client.get(f"/api/history/report?day={DAY}")).json()
            assert report["period"]["timezone"] == "Europe/Riga"
            assert report["period"]["start"] == "2026-12-01T04:00:00+00:00"
            assert report["tables"]["bj1"]["rounds"] == 1
            assert [d["shift"] for d in report["dealers"]] == ["A"]
            shift_b = await client.get(f"/api/history/report?day={DAY}&shift=B")
            assert shift_b.status_code == 200 and shift_b.json()["tables"] == {}
            rounds = (await client.get(f"/api/history/rounds?day={DAY}&shift=A")).json()["rounds"]
            assert [r["round"] for r in rounds] == ["bj1-000001"]
        finally:
            await client.aclose()


async def test_the_dashboards_csv_export_writes_text_a_sheet_would_run_as_text(mosquitto: MosquittoBroker,
                                                                             database: str) -> None:
    migrate(database)
    seed(database, [("croupier/-bj/round", round_record("-bj", 1, seq=1, stake=1000, payout=3000, at=AT))])
    async with PitServer(mosquitto.tcp_url(mosquitto.pit), pit_accounts(), history=BackofficeFloorStore(database)) as pit:
        client = await signed_in(pit)
        try:
            export = (await client.get(f"/api/history/report.csv?day={DAY}")).text
        finally:
            await client.aclose()
    assert "table,'-bj," in export and ",-2000," in export and ",-bj," not in export
