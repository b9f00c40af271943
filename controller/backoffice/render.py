"""A report as CSV or as a printable HTML page. The page is a jinja2 template with autoescape
on: every value from the database reaches it as text, never as markup. Money is shown in its
table's currency (``[table] currency`` from the feed's state), or as minor units when the
table never said."""

from __future__ import annotations

import csv
import io
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape

TABLE_COLUMNS = ("rounds", "settled", "void", "drop", "paid", "win", "hold_pct", "theo_win", "win_vs_theo",
                 "theo_unknown_drop", "rounds_per_hour", "occupancy", "corrected")
DEALER_COLUMNS = ("shift", "dealer", "rounds", "rounds_per_hour", "pace_target", "pace_pct", "holds", "cards_out_of_turn",
                  "wrong_cards_keyed", "result_mismatches", "procedure_errors", "corrections", "voids", "tables")
PLAYER_COLUMNS = ("rounds", "bets", "seconds_played", "average_bet", "drop", "paid", "win", "theo_win", "theo_unknown_drop")
SKILL_COLUMNS = ("decisions", "deviations", "deviation_pct", "ev_cost", "ev_cost_pct", "insurance_taken")


def report_csv(report: dict[str, Any]) -> str:
    """One row per table, pit and the floor (``level`` says which), then the dealers."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["day", "shift", "level", "id", "game", "pit", "currency", *TABLE_COLUMNS])
    day, shift = report["day"], report["shift"] or ""
    for table_id, t in report["tables"].items():
        w.writerow([day, shift, "table", table_id, t["game"], t["pit"] or "", t.get("currency") or "",
                    *(_cell(t.get(c)) for c in TABLE_COLUMNS)])
    for pit, t in report["pits"].items():
        w.writerow([day, shift, "pit", pit, "", pit, "", *(_cell(t.get(c)) for c in TABLE_COLUMNS)])
    w.writerow([day, shift, "floor", "", "", "", "", *(_cell(report["floor"].get(c)) for c in TABLE_COLUMNS)])
    remote = report.get("remote") or {}
    for table_id, r in (remote.get("tables") or {}).items():  # the remote players' lines (docs/studio.md)
        w.writerow([day, shift, "remote", table_id, "", "", "", r["rounds"], "", "", r["drop"], "", r["win"]])
    w.writerow([])
    w.writerow(["day", *DEALER_COLUMNS])
    for d in report["dealers"]:
        w.writerow([day, *(_cell(d.get(c)) for c in DEALER_COLUMNS)])
    return out.getvalue()


def ratings_csv(ratings: dict[str, dict[str, Any]]) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["player", *PLAYER_COLUMNS, "tables", *(f"blackjack_{c}" for c in SKILL_COLUMNS)])
    for player, r in ratings.items():
        played = r.get("blackjack") or {}
        w.writerow([player, *(_cell(r.get(c)) for c in PLAYER_COLUMNS), " ".join(r["tables"]),
                    *(_cell(played.get(c)) for c in SKILL_COLUMNS)])
    return out.getvalue()


def _cell(value: object) -> object:
    return "" if value is None else value


def money(minor: int | None, currency: str | None = None, digits: int | None = None) -> str:
    """``123456, "EUR", 2`` -> ``1,234.56 EUR``; without a currency, the minor units named."""
    if minor is None:
        return ""
    if currency is None:
        return f"{minor:,} minor units"
    d = 2 if digits is None else digits
    sign = "-" if minor < 0 else ""
    whole, frac = divmod(abs(minor), 10**d) if d else (abs(minor), 0)
    return f"{sign}{whole:,}" + (f".{frac:0{d}d}" if d else "") + f" {currency}"


def _environment() -> Environment:
    env = Environment(loader=PackageLoader("controller.backoffice", "templates"),
                      autoescape=select_autoescape(default=True, default_for_string=True))
    env.filters["money"] = money
    env.filters["pct"] = lambda v: "" if v is None else f"{v:.2f} %"
    env.filters["num"] = lambda v: "" if v is None else (f"{v:,.2f}" if isinstance(v, float) else f"{v:,}")
    env.filters["hours"] = lambda s: f"{s / 3600:.2f} h"
    return env


def report_html(report: dict[str, Any], ratings: dict[str, dict[str, Any]] | None = None) -> str:
    return _environment().get_template("report.html").render(report=report, ratings=ratings or {})


def ratings_html(ratings: dict[str, dict[str, Any]], title: str) -> str:
    return _environment().get_template("ratings.html").render(ratings=ratings, title=title)


ADVANTAGE_COLUMNS = ("ts", "table", "test", "statistic", "p_value", "rounds", "average_bet", "edge_per_hour")
#: the watch's tests in words (docs/protection.md)
ADVANTAGE_TESTS = {"bet_ramp": "bets follow the count", "wonging": "plays at high counts, sits out at low ones"}


def advantage_csv(players: dict[str, dict[str, Any]]) -> str:
    """One row per flag: the player, its evidence and index plays."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["player", *ADVANTAGE_COLUMNS, "ci_low", "ci_high", "index_with_count", "index_against_count",
                "index_missed"])
    for player, p in players.items():
        for f in p["flags"]:
            plays = f["index_plays"]
            w.writerow([player, *(_cell(f.get(c)) for c in ADVANTAGE_COLUMNS), _cell(f["ci"][0]), _cell(f["ci"][1]),
                        _cell(plays.get("with_count")), _cell(plays.get("against_count")), _cell(plays.get("missed"))])
    return out.getvalue()


def advantage_html(players: dict[str, dict[str, Any]], ratings: dict[str, dict[str, Any]], title: str) -> str:
    from controller.backoffice.advantage import chart

    charts = {pid: chart(p["flags"]) for pid, p in players.items()}
    return _environment().get_template("advantage.html").render(players=players, ratings=ratings, charts=charts,
                                                                title=title, tests=ADVANTAGE_TESTS)
