"""The back office agrees with the tables' own journals to the cent: real tables (``croupier run
--rounds N``, simulated shoes on ptys) on the real mosquitto, the back office as its own
process on a real PostgreSQL, killed with ``kill -9`` mid-run and restarted, and the database
stopped and started again mid-run. Every table's ``croupier recall --journal ... --all --json``
summed on its own gives the drop and win that ``croupier backoffice report --json`` prints."""

from __future__ import annotations

from pathlib import Path

import psycopg

from controller.backoffice import tallies
from controller.backoffice.cluster import Cluster
from controller.backoffice.config import load
from controller.backoffice.migrate import migrate
from tests.fixtures.mosquitto import MosquittoBroker
from tests.integration.backoffice import floor

#: rounds per table: enough that the tables are still playing when the database goes down, however
#: far the back office's intake lags behind them on a loaded or an idle machine
ROUNDS = 60
TABLES = {"bj1": (floor.BLACKJACK, 3), "bc1": (floor.BACCARAT, 5)}


def test_report_matches_every_tables_recall_after_a_kill_and_a_database_restart(
        mosquitto: MosquittoBroker, database: str, postgres: Cluster, tmp_path: Path) -> None:
    migrate(database)
    office_cfg = floor.office_config(tmp_path)
    journals = {t: tmp_path / f"{t}.journal" for t in TABLES}
    configs = {t: floor.table_config(tmp_path, t, table, mosquitto.tcp_url(mosquitto.controller), seed)
               for t, (table, seed) in TABLES.items()}
    stored_rounds = "SELECT count(*) FROM rounds"

    def count() -> int:
        found = floor.stored(database, stored_rounds)
        return int(found[0][0]) if found else -1

    office = floor.start_office(office_cfg, database, mosquitto, tmp_path / "office.log")
    tables = []
    try:
        tables = [floor.start_table(configs[t], ROUNDS, tmp_path / f"{t}.log") for t in TABLES]
        floor.wait_until(lambda: count() >= 8, 120, "the first rounds in the database")
        floor.kill_hard(office)  # mid-run, whatever it was doing
        office = floor.start_office(office_cfg, database, mosquitto, tmp_path / "office.log")
        floor.wait_until(lambda: count() >= 12, 120, "rounds after the restart")
        postgres.stop("immediate")  # the database crashes while the tables play on
        played = sum(floor.journal_round_entries(j) for j in journals.values())
        assert played + 6 <= ROUNDS * len(TABLES), f"the tables had played {played} rounds: none left to play"
        floor.wait_until(lambda: sum(floor.journal_round_entries(j) for j in journals.values()) >= played + 6, 120,
                         "rounds played while the database is down")
        postgres.start()
        for table in tables:
            assert table.wait(timeout=300) == 0
        expected = sum(floor.journal_round_entries(j) for j in journals.values())
        try:
            floor.wait_until(lambda: count() == expected, 120, f"all {expected} round records in the database")
        except AssertionError:
            have = {r[0] for r in floor.stored(database, "SELECT round_id FROM rounds")}
            missing = {t: [r["round"] for r in floor.recall_all(j) if r["round"] not in have] for t, j in journals.items()}
            log = (tmp_path / "office.log").read_text()[-2000:]
            raise AssertionError(f"missing {missing}; back office log: {log}") from None
    finally:
        for table in tables:
            floor.stop(table)
        floor.stop(office)
    assert office.returncode == 0, (tmp_path / "office.log").read_text()[-2000:]

    day = floor.gaming_day_today(office_cfg)
    report = floor.office_report(office_cfg, database, day)
    # the tallies kept at insert through the kill and the crash are what the rounds recompute to
    recomputed = floor.office_report(office_cfg, database, day, "--recompute")
    assert (report.pop("source"), recomputed.pop("source")) == ("tallies", "rounds")
    assert report == recomputed
    with psycopg.connect(database) as conn:
        kept = tallies.dump(conn)
        tallies.rebuild(conn)
        assert tallies.dump(conn) == kept
    for table_id, journal in journals.items():
        records = floor.recall_all(journal)
        # a settled round counts whole; a void round its bets that stood (what it returned is a refund)
        refunds = [0 if r["status"] == "settled" else r["outcome"].get("void", {}).get("returned_total", r["stake_total"])
                   for r in records]
        drop = sum(r["stake_total"] - back for r, back in zip(records, refunds))
        paid = sum(r["payout_total"] - back for r, back in zip(records, refunds))
        figures = report["tables"][table_id]
        assert figures["rounds"] == len(records) >= ROUNDS
        assert (figures["drop"], figures["paid"], figures["win"]) == (drop, paid, drop - paid), table_id
    assert floor.stored(database, "SELECT count(*) FROM rejected") == [(0,)]
    configured = load(office_cfg).backoffice  # what the dashboard's history reads from the database
    assert floor.stored(database, "SELECT gaming_day_starts, timezone FROM floor_settings") == [
        (configured.gaming_day_starts, configured.timezone)]
    versions = floor.stored(database, "SELECT count(*) FROM (SELECT DISTINCT table_id, round_id, version FROM rounds) v")
    assert versions == floor.stored(database, stored_rounds)  # nothing counted twice
