"""``croupier backoffice report`` and ``ratings`` over rounds stored in a real PostgreSQL."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest
from typer.testing import CliRunner

from controller.backoffice.migrate import migrate, migrations
from controller.cli import app
from tests.integration.backoffice.feed import correction, event, round_record, ts
from tests.integration.backoffice.feed import state as feed_state
from tests.integration.backoffice.seed import seed

# 2026-12-01 in Riga (UTC+2), gaming day from 06:00 local = 04:00 UTC
DAY_START = datetime(2026, 12, 1, 4, 0, tzinfo=UTC)
runner = CliRunner()


def state(table: str, game: str, preset: str) -> tuple[str, dict[str, Any]]:
    return f"croupier/{table}/state", feed_state(table, DAY_START - timedelta(days=40), game=game, preset=preset)


def config(tmp_path: Path, **extra: str) -> Path:
    path = tmp_path / "backoffice.toml"
    lines = ["[backoffice]", 'gaming_day_starts = "06:00"', 'timezone = "Europe/Riga"', *extra.values(),
             "[backoffice.shifts]", 'A = "06:00"', 'B = "14:00"', 'C = "22:00"',
             "[backoffice.pits]", 'north = ["bj1", "rl1"]']
    path.write_text("\n".join(lines) + "\n")
    return path


def report(database: str, tmp_path: Path, *args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["backoffice", "report", "--database", database, "--config", str(config(tmp_path)),
                                 "--day", "2026-12-01", "--json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_migrations_are_recorded_and_applied_once(database: str) -> None:
    assert migrate(database) == [f"applied {m.version:04d}_{m.name}" for m in migrations()]
    assert migrate(database) == []
    with psycopg.connect(database) as conn:
        assert conn.execute("SELECT max(version) FROM schema_migrations").fetchone() == (len(migrations()),)
        conn.execute("INSERT INTO schema_migrations (version, name) VALUES (999, 'future')")
    result = runner.invoke(app, ["backoffice", "migrate", "--database", database])
    assert result.exit_code == 2 and "newer than this program" in result.output


def test_drop_win_and_hold_count_settled_rounds_in_their_latest_version(migrated: str, tmp_path: Path) -> None:
    at = DAY_START + timedelta(hours=1)
    corrected = {**round_record("bj1", 2, seq=30, stake=2000, payout=4000, at=at),
                 "corrections": [correction(29)]}
    seed(migrated, [
        state("bj1", "blackjack", "ru6"),
        ("croupier/bj1/round", round_record("bj1", 1, seq=10, stake=1000, payout=0, at=at)),
        ("croupier/bj1/round", round_record("bj1", 2, seq=20, stake=2000, payout=0, at=at)),
        ("croupier/bj1/round", corrected),
        ("croupier/bj1/round", round_record("bj1", 3, seq=40, stake=500, payout=500, status="void", at=at)),
        # closed 05:59:40 local (the day before) and after 06:00 the next day: not this day
        ("croupier/bj1/round", round_record("bj1", 4, seq=50, stake=7777, at=DAY_START - timedelta(minutes=5))),
        ("croupier/bj1/round", round_record("bj1", 5, seq=60, stake=8888, at=DAY_START + timedelta(days=1))),
    ])
    out = report(migrated, tmp_path)
    assert out["day"] == "2026-12-01"
    t = out["tables"]["bj1"]
    assert (t["rounds"], t["settled"], t["void"], t["corrected"]) == (3, 2, 1, 1)
    assert (t["drop"], t["paid"], t["win"]) == (3000, 4000, -1000)
    assert t["hold_pct"] == pytest.approx(-1000 / 3000 * 100, abs=1e-3)
    assert isinstance(t["hold_pct"], float) and isinstance(t["theo_win"], int)
    assert t["theo_win"] == round(3000 * 0.002695830932473239)
    assert t["pit"] == "north" and t["currency"] == "EUR"
    assert out["floor"]["drop"] == 3000 and out["pits"]["north"]["win"] == -1000


def test_theo_uses_each_bets_own_edge_and_names_the_stake_without_one(migrated: str, tmp_path: Path) -> None:
    at = DAY_START + timedelta(hours=2)
    seed(migrated, [
        state("rl1", "roulette", "european"),
        ("croupier/rl1/round", round_record("rl1", 1, seq=1, stake=3700, game="roulette", kind="straight:17", at=at)),
        ("croupier/rl1/round", round_record("rl1", 2, seq=2, stake=1000, game="roulette", kind="mystery", at=at)),
    ])
    t = report(migrated, tmp_path)["tables"]["rl1"]
    assert t["theo_win"] == 100  # 3700 at 1/37
    assert t["theo_unknown_drop"] == 1000
    assert t["win_vs_theo"] == t["win"] - 100


def test_dealers_by_shift_count_rounds_holds_corrections_and_voids(migrated: str, tmp_path: Path) -> None:
    a, b = DAY_START + timedelta(hours=1), DAY_START + timedelta(hours=9)  # 07:00 (A) and 15:00 (B) local
    hold = {"v": 1, "table": "bj1", "round": None, "ts": ts(b + timedelta(minutes=5)), "seq": 99, "severity": "error",
            "code": "shoe.lost_card", "message": "lost card", "hold": True}
    seed(migrated, [
        ("croupier/bj1/event", event("bj1", 1, "command", {"command": "sign_in", "dealer": "olga"}, at=b)),
        ("croupier/bj1/round", round_record("bj1", 1, seq=10, dealer="maria", at=a)),
        ("croupier/bj1/round", round_record("bj1", 2, seq=11, dealer="maria", at=a, status="void")),
        ("croupier/bj1/round", round_record("bj1", 3, seq=12, dealer="olga", at=b)),
        ("croupier/bj1/round", {**round_record("bj1", 3, seq=13, dealer="olga", at=b), "corrections": [correction(1)]}),
        ("croupier/bj1/alert", hold),
    ])
    dealers = {(d["shift"], d["dealer"]): d for d in report(migrated, tmp_path)["dealers"]}
    assert set(dealers) == {("A", "maria"), ("B", "olga")}
    assert (dealers["A", "maria"]["rounds"], dealers["A", "maria"]["voids"]) == (2, 1)
    assert (dealers["B", "olga"]["holds"], dealers["B", "olga"]["corrections"]) == (1, 1)
    shift_b = report(migrated, tmp_path, "--shift", "B")
    assert shift_b["shift"] == "B" and shift_b["tables"]["bj1"]["rounds"] == 1


def test_a_day_out_of_line_with_its_baseline_is_flagged(migrated: str, tmp_path: Path) -> None:
    messages: list[tuple[str, dict[str, Any]]] = [state("bj1", "blackjack", "ru6")]
    for back in range(1, 31):  # 30 days holding 10 %, 12 %, 8 %, ... then a day paying out double
        day = DAY_START - timedelta(days=back) + timedelta(hours=3)
        messages.append(("croupier/bj1/round", round_record("bj1", back, seq=back, stake=10_000,
                                                            payout=9_000 + (back % 3) * 200 - 200, at=day)))
    messages.append(("croupier/bj1/round", round_record("bj1", 99, seq=99, stake=10_000, payout=20_000,
                                                        at=DAY_START + timedelta(hours=3))))
    seed(migrated, messages)
    base = report(migrated, tmp_path)["tables"]["bj1"]["baseline"]
    assert base["30"]["days"] == 30 and base["7"]["days"] == 7
    assert base["30"]["hold_pct_mean"] == pytest.approx(10.0, abs=0.1)
    assert base["30"]["flag"] and base["30"]["z"] < -3


def test_csv_and_html_carry_the_same_figures_and_html_escapes_data(migrated: str, tmp_path: Path) -> None:
    at = DAY_START + timedelta(hours=1)
    seed(migrated, [state("bj1", "blackjack", "ru6"),
                    ("croupier/bj1/round", round_record("bj1", 1, seq=1, stake=123456, dealer="<script>x</script>",
                                                        player="<b>p</b>", at=at))])
    base = ["backoffice", "report", "--database", migrated, "--config", str(config(tmp_path)), "--day", "2026-12-01"]
    rows = list(csv.DictReader(io.StringIO(runner.invoke(app, [*base, "--csv"]).stdout.split("\n\n")[0])))
    assert [(r["level"], r["id"], r["drop"]) for r in rows] == [("table", "bj1", "123456"), ("pit", "north", "123456"),
                                                               ("floor", "", "123456")]
    page = runner.invoke(app, [*base, "--html"]).stdout
    assert "1,234.56 EUR" in page and "@media print" in page
    assert "Tue 1 Dec 2026 06:00 to Wed 2 Dec 2026 06:00, Europe/Riga time" in page and "T04:00:00" not in page
    assert "<script>x" not in page and "&lt;script&gt;x&lt;/script&gt;" in page
    assert "<b>p</b>" not in page and "&lt;b&gt;p&lt;/b&gt;" in page


def test_player_ratings_from_the_rounds_they_played(migrated: str, tmp_path: Path) -> None:
    at = DAY_START + timedelta(hours=1)
    seed(migrated, [
        state("bj1", "blackjack", "ru6"),
        *[("croupier/bj1/round", round_record("bj1", n, seq=n, stake=1000, payout=1000 * (n % 2) * 2, player="p7", at=at))
          for n in range(1, 5)],  # four rounds a minute apart: one session from 07:01 to 07:04:40
        ("croupier/bj1/round", round_record("bj1", 9, seq=9, stake=500, player="p8", at=at)),
    ])
    result = runner.invoke(app, ["backoffice", "ratings", "--database", migrated, "--config", str(config(tmp_path)),
                                 "--day", "2026-12-01", "--json"])
    players = json.loads(result.stdout)["players"]
    p7 = players["p7"]
    assert (p7["rounds"], p7["drop"], p7["paid"], p7["win"], p7["average_bet"]) == (4, 4000, 4000, 0, 1000)
    assert p7["seconds_played"] == 3 * 60 + 40
    assert p7["theo_win"] == round(4000 * 0.002695830932473239)
    assert players["p8"]["win"] == 500


def test_the_latest_version_wins_whatever_order_the_versions_arrive_in(migrated: str, tmp_path: Path) -> None:
    at = DAY_START + timedelta(hours=1)
    first = round_record("bj1", 1, seq=10, stake=1000, payout=0, at=at)
    second = {**round_record("bj1", 1, seq=20, stake=1000, payout=2000, at=at), "corrections": [correction(15)]}
    third = {**round_record("bj1", 1, seq=30, stake=1000, payout=1500, at=at), "corrections": [correction(15), correction(25)]}
    seed(migrated, [("croupier/bj1/round", third), ("croupier/bj1/round", first), ("croupier/bj1/round", second)])
    t = report(migrated, tmp_path)["tables"]["bj1"]
    assert (t["rounds"], t["paid"], t["corrected"]) == (1, 1500, 1)
    with psycopg.connect(migrated) as conn:
        assert conn.execute("SELECT version, superseded FROM rounds ORDER BY version").fetchall() == [
            (0, True), (1, True), (2, False)]


def test_the_consumer_refuses_a_database_without_its_schema(database: str) -> None:
    result = runner.invoke(app, ["backoffice", "run", "--database", database, "--broker", "mqtt://u:p@127.0.0.1:1",
                                 "--insecure"])
    assert result.exit_code == 2 and "run croupier backoffice migrate" in result.output
    refused = runner.invoke(app, ["backoffice", "run", "--database", database, "--broker", "mqtt://127.0.0.1:1"])
    assert refused.exit_code == 2 and "plaintext" in refused.output


def csv_rows(database: str, tmp_path: Path, command: str, *args: str) -> list[dict[str, str]]:
    result = runner.invoke(app, ["backoffice", command, "--database", database, "--config", str(config(tmp_path)),
                                 "--day", "2026-12-01", "--csv", *args])
    assert result.exit_code == 0, result.output
    return list(csv.DictReader(io.StringIO(result.stdout, newline="")))


def test_csv_cells_a_spreadsheet_would_run_are_written_as_text(migrated: str, tmp_path: Path) -> None:
    """Issue 27: a player id keyed at the console, a dealer's name or a table id beginning with
    = + - @ (or a tab or CR) reached the CSV as a formula; negative amounts stay numbers."""
    at = DAY_START + timedelta(hours=1)
    seed(migrated, [state("-bj", "blackjack", "ru6"),
                    ("croupier/-bj/round", round_record("-bj", 1, seq=1, stake=1000, payout=3000, at=at,
                                                        dealer="=HYPERLINK(\"http://x\")", player="@SUM(1+1)")),
                    ("croupier/-bj/round", round_record("-bj", 2, seq=2, stake=1000, at=at, player="+p\r2", dealer=None))])
    tables = csv_rows(migrated, tmp_path, "report")
    assert [(r["level"], r["id"], r["win"]) for r in tables] == [("table", "'-bj", "-1000"), ("pit", "(no pit)", "-1000"),
                                                                ("floor", "", "-1000")]
    dealers = csv_rows(migrated, tmp_path, "report", "--level", "dealers")
    assert sorted(d["dealer"] for d in dealers) == ["", "'=HYPERLINK(\"http://x\")"]
    players = csv_rows(migrated, tmp_path, "ratings")
    assert sorted(p["player"] for p in players) == ["'+p\r2", "'@SUM(1+1)"]
    assert {p["tables"] for p in players} == {"'-bj"} and "-2000" in {p["win"] for p in players}


def test_each_csv_level_is_one_table_with_one_header(migrated: str, tmp_path: Path) -> None:
    """Issue 27: tables and dealers were two tables with different headers in one file."""
    at = DAY_START + timedelta(hours=1)
    seed(migrated, [state("bj1", "blackjack", "ru6"), ("croupier/bj1/round", round_record("bj1", 1, seq=1, at=at))])
    base = ["backoffice", "report", "--database", migrated, "--config", str(config(tmp_path)), "--day", "2026-12-01"]
    for level, header in (("tables", "day,shift,level,id,"), ("dealers", "day,shift,dealer,")):
        out = runner.invoke(app, [*base, "--csv", "--level", level]).stdout
        lines = out.splitlines()
        assert lines[0].startswith(header) and all(line for line in lines)  # no blank line, no second header
        assert len({len(row) for row in csv.reader(io.StringIO(out, newline=""))}) == 1
    refused = runner.invoke(app, [*base, "--csv", "--level", "players"])
    assert refused.exit_code == 2 and "tables, dealers" in refused.output


def test_an_anonymous_box_is_not_rated_as_a_player(migrated: str, tmp_path: Path) -> None:
    """Issue: "seat 1" of two tables was rated as one person. A box with no player id keyed (the
    console's ``seat N``, a spot's ``spot-N``, none at all) is counted apart, per table."""
    at = DAY_START + timedelta(hours=1)
    seed(migrated, [
        state("bj1", "blackjack", "ru6"), state("bj2", "blackjack", "ru6"),
        ("croupier/bj1/round", round_record("bj1", 1, seq=1, stake=1000, player="seat 1", at=at)),
        ("croupier/bj2/round", round_record("bj2", 1, seq=1, stake=2000, player="seat 1", at=at)),
        ("croupier/bj2/round", round_record("bj2", 2, seq=2, stake=500, player="spot-3", at=at)),
        ("croupier/bj2/round", round_record("bj2", 3, seq=3, stake=700, player=None, at=at)),
        ("croupier/bj1/round", round_record("bj1", 2, seq=2, stake=300, player="seat 12b", at=at)),
    ])
    base = ["backoffice", "ratings", "--database", migrated, "--config", str(config(tmp_path)), "--day", "2026-12-01"]
    out = json.loads(runner.invoke(app, [*base, "--json"]).stdout)
    assert list(out["players"]) == ["seat 12b"]  # a card id that only looks like a seat is a player
    assert {t: (a["rounds"], a["drop"]) for t, a in out["anonymous"].items()} == {"bj1": (1, 1000), "bj2": (3, 3200)}
    page = runner.invoke(app, [*base, "--html"]).stdout
    assert "Anonymous boxes" in page and "32.00 EUR" in page
    assert "seat 1<" not in page


def test_every_part_of_a_report_reads_one_snapshot(migrated: str) -> None:
    """Taken during play, the floor said 969 rounds while its dealers said 971: rounds committed
    between the report's queries. Here two rounds commit (another connection, as the consumer)
    after the tables were read and before the dealers are."""
    from zoneinfo import ZoneInfo

    from controller.backoffice.report import Reporter, ReportSpec

    at = DAY_START + timedelta(hours=1)
    seed(migrated, [state("bj1", "blackjack", "ru6"),
                    *[("croupier/bj1/round", round_record("bj1", n, seq=n, at=at)) for n in range(1, 4)]])
    spec = ReportSpec(datetime(2026, 12, 1).date(), datetime.strptime("06:00", "%H:%M").time(), ZoneInfo("Europe/Riga"))

    class DuringPlay(Reporter):
        def _dealers(self, spec: ReportSpec, period: Any) -> list[dict[str, Any]]:
            seed(migrated, [("croupier/bj1/round", round_record("bj1", n, seq=n, at=at)) for n in (4, 5)])
            return super()._dealers(spec, period)

    with psycopg.connect(migrated) as conn:
        out = DuringPlay(conn).report(spec)
    assert out["floor"]["rounds"] == 3 == sum(d["rounds"] for d in out["dealers"])
    with psycopg.connect(migrated) as conn:
        assert Reporter(conn).report(spec)["floor"]["rounds"] == 5
