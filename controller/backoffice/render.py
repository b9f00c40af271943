"""A report as CSV (the floor's one CSV writer: formula-safe text, one header a file) or as a
printable HTML page. The page is a jinja2 template with autoescape on: every value from the
database reaches it as text, never as markup. Money is shown in its
table's currency (``[table] currency`` from the feed's state), or as minor units when the
table never said."""

from __future__ import annotations

import math
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from jinja2 import Environment, PackageLoader, select_autoescape

from controller.cards import card_text, cards_text
from controller.floor.csv_sheet import sheet
from controller.floor.report_csv import LEVELS, report_csv

__all__ = ["LEVELS", "advantage_csv", "advantage_html", "money", "ratings_csv", "ratings_html", "report_csv", "report_html"]

PLAYER_COLUMNS = ("rounds", "bets", "seconds_played", "average_bet", "drop", "paid", "win", "theo_win", "theo_unknown_drop")
SKILL_COLUMNS = ("decisions", "deviations", "deviation_pct", "ev_cost", "ev_cost_pct", "insurance_taken")


def ratings_csv(ratings: dict[str, dict[str, Any]]) -> str:
    rows = []
    for player, r in ratings.items():
        played = r.get("blackjack") or {}
        rows.append([player, *(r.get(c) for c in PLAYER_COLUMNS), " ".join(r["tables"]),
                     *(played.get(c) for c in SKILL_COLUMNS)])
    return sheet(["player", *PLAYER_COLUMNS, "tables", *(f"blackjack_{c}" for c in SKILL_COLUMNS)], rows)


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


def _num(value: object) -> str:
    """A count with thousands separators, a float with two decimals; "" for anything else."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return ""
    if isinstance(value, float):
        return f"{value:,.2f}" if math.isfinite(value) else ""
    return f"{value:,}"


def local_time(iso: str | None, zone: str, with_day: bool = True) -> str:
    """An instant as the floor reads it, in its time zone: ``Tue 1 Dec 2026 06:00`` (24 h)."""
    if not iso:
        return ""
    at = datetime.fromisoformat(iso).astimezone(ZoneInfo(zone))
    return f"{at:%a} {at.day} {at:%b %Y %H:%M}" if with_day else f"{at:%H:%M}"


def day_text(iso_day: str) -> str:
    """A gaming day as people write it: ``2026-12-01`` -> ``Tue 1 Dec 2026``."""
    day = date.fromisoformat(iso_day)
    return f"{day:%a} {day.day} {day:%b %Y}"


def period_text(period: dict[str, Any]) -> str:
    """``Tue 1 Dec 2026 06:00 to Wed 2 Dec 2026 06:00, Europe/Riga time``."""
    zone = period["timezone"]
    return f"{local_time(period['start'], zone)} to {local_time(period['end'], zone)}, {zone} time"


def _environment() -> Environment:
    env = Environment(loader=PackageLoader("controller.backoffice", "templates"),
                      autoescape=select_autoescape(default=True, default_for_string=True))
    env.filters["money"] = money
    env.filters["pct"] = lambda v: "" if v is None else f"{v:.2f}\u00a0%"  # the sign stays with its figure
    env.filters["num"] = _num
    env.filters["hours"] = lambda s: f"{s / 3600:.2f} h"
    env.filters["card"] = card_text
    env.filters["cards"] = cards_text
    env.filters["local_time"] = local_time
    env.filters["period"] = period_text
    env.filters["day"] = day_text
    return env


def report_html(report: dict[str, Any], ratings: dict[str, dict[str, Any]] | None = None) -> str:
    return _environment().get_template("report.html").render(report=report, ratings=ratings or {})


def ratings_html(ratings: dict[str, dict[str, Any]], title: str,
                 anonymous: dict[str, dict[str, Any]] | None = None) -> str:
    return _environment().get_template("ratings.html").render(ratings=ratings, title=title, anonymous=anonymous or {})


ADVANTAGE_COLUMNS = ("ts", "table", "test", "statistic", "p_value", "rounds", "average_bet", "edge_per_hour")
#: the watch's tests in words (docs/protection.md)
ADVANTAGE_TESTS = {"bet_ramp": "bets follow the count", "wonging": "plays at high counts, sits out at low ones"}


def advantage_csv(players: dict[str, dict[str, Any]]) -> str:
    """One row per flag: the player, its evidence and index plays."""
    rows = []
    for player, p in players.items():
        for f in p["flags"]:
            plays = f["index_plays"]
            rows.append([player, *(f.get(c) for c in ADVANTAGE_COLUMNS), f["ci"][0], f["ci"][1],
                         plays.get("with_count"), plays.get("against_count"), plays.get("missed")])
    return sheet(["player", *ADVANTAGE_COLUMNS, "ci_low", "ci_high", "index_with_count", "index_against_count",
                  "index_missed"], rows)


def advantage_html(players: dict[str, dict[str, Any]], ratings: dict[str, dict[str, Any]], title: str,
                   zone: str = "UTC") -> str:
    """The page, each flag's time in the floor's time zone ``zone``."""
    from controller.backoffice.advantage import chart

    charts = {pid: chart(p["flags"]) for pid, p in players.items()}
    return _environment().get_template("advantage.html").render(players=players, ratings=ratings, charts=charts,
                                                                title=title, tests=ADVANTAGE_TESTS, zone=zone)
