"""``croupier backoffice report`` and ``ratings``: a gaming day (or one shift of it) as JSON,
CSV or a printable HTML page (docs/backoffice.md, "Reports")."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Annotated
from zoneinfo import ZoneInfo

import typer

from controller.backoffice.config import BackofficeConfig, clock_time
from controller.floor.gaming_day import Period

ConfigLoader = Callable[[Path | None], BackofficeConfig]
DatabasePicker = Callable[[BackofficeConfig, str | None], str]


def _day(text: str, cfg: BackofficeConfig) -> date:
    """``YYYY-MM-DD``, or ``today``: the gaming day open now."""
    if text == "today":
        from datetime import UTC, datetime

        from controller.floor.gaming_day import day_of

        b = cfg.backoffice
        return day_of(datetime.now(UTC), clock_time(b.gaming_day_starts, "gaming_day_starts"), ZoneInfo(b.timezone))
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise typer.BadParameter(f"a gaming day as YYYY-MM-DD (or today), not {text!r}", param_hint="--day") from None


def _days(cfg: BackofficeConfig, day: str, days: int) -> tuple[date, Period]:
    """The first gaming day, and the period from its start to the end of ``day`` (named by ``day``)."""
    from datetime import timedelta

    from controller.floor.gaming_day import gaming_day

    b = cfg.backoffice
    starts, zone, last = clock_time(b.gaming_day_starts, "gaming_day_starts"), ZoneInfo(b.timezone), _day(day, cfg)
    first = last - timedelta(days=days - 1)
    return first, Period(last.isoformat(), gaming_day(first, starts, zone).start, gaming_day(last, starts, zone).end)


def _days_title(what: str, first: date, last: str) -> str:
    """``Player ratings, gaming day Tue 1 Dec 2026`` or ``..., gaming days Sun 1 Nov 2026 to Tue 1 Dec 2026``."""
    from controller.backoffice.render import day_text

    if first.isoformat() == last:
        return f"{what}, gaming day {day_text(last)}"
    return f"{what}, gaming days {day_text(first.isoformat())} to {day_text(last)}"


def _format(as_json: bool, as_csv: bool, as_html: bool) -> str:
    if sum((as_json, as_csv, as_html)) > 1:
        raise typer.BadParameter("give one of --json, --csv, --html")
    return "csv" if as_csv else "html" if as_html else "json"


def register(office: typer.Typer, load_config: ConfigLoader, pick_database: DatabasePicker) -> None:
    @office.command("report")
    def report_cmd(
        day: Annotated[str, typer.Option(help="the gaming day, YYYY-MM-DD, or today")],
        config: Annotated[Path | None, typer.Option(help="TOML with \\[backoffice] (gaming day, shifts, pits)")] = None,
        database: Annotated[str | None, typer.Option(help="postgresql://user@host/db")] = None,
        shift: Annotated[str | None, typer.Option(help="one named shift of the day")] = None,
        table: Annotated[list[str] | None, typer.Option(help="only this table (repeatable)")] = None,
        pit: Annotated[str | None, typer.Option(help="only the tables of this pit (\\[backoffice.pits])")] = None,
        players: Annotated[bool, typer.Option("--players", help="add the player ratings")] = False,
        recompute: Annotated[bool, typer.Option("--recompute", help="from the stored rounds, not the tallies")] = False,
        as_json: Annotated[bool, typer.Option("--json", help="one JSON object (the default)")] = False,
        as_csv: Annotated[bool, typer.Option("--csv", help="CSV of one --level (one header a file)")] = False,
        as_html: Annotated[bool, typer.Option("--html", help="a printable HTML page")] = False,
        level: Annotated[str, typer.Option(
            help="with --csv: tables (a row per table, pit and the floor) or dealers (a row per dealer and shift)")
        ] = "tables",
    ) -> None:
        """A gaming day per table, pit and floor: drop, win, hold, theo, rounds/h, occupancy, dealers, baselines."""
        import psycopg

        from controller.backoffice import ratings as player_ratings
        from controller.backoffice import render
        from controller.backoffice.report import Reporter, ReportSpec
        from controller.backoffice.snapshot import snapshot

        fmt = _format(as_json, as_csv, as_html)
        if level not in render.LEVELS:
            raise typer.BadParameter(f"one of {', '.join(render.LEVELS)}, not {level!r}", param_hint="--level")
        cfg = load_config(config)
        url = pick_database(cfg, database)
        b = cfg.backoffice
        tables: list[str] | None = list(table) if table else None
        if pit is not None:
            if pit not in b.pits:
                typer.echo(f"error: no pit {pit!r} in [backoffice.pits] (known: {', '.join(b.pits) or 'none'})", err=True)
                raise typer.Exit(2)
            tables = [t for t in b.pits[pit] if tables is None or t in tables]
        spec = ReportSpec(_day(day, cfg), clock_time(b.gaming_day_starts, "gaming_day_starts"), ZoneInfo(b.timezone),
                          {k: clock_time(v, k) for k, v in b.shifts.items()}, shift,
                          tuple(tables) if tables is not None else None, b.pits, b.z_flag, recompute)
        try:
            window = spec.window()
            with psycopg.connect(url, connect_timeout=10) as conn, snapshot(conn):  # the report and its ratings
                result = Reporter(conn).report(spec)
                rated = player_ratings.ratings(conn, window, tables=tables) if players or fmt == "html" else None
        except ValueError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        except psycopg.Error as exc:
            typer.echo(f"error: database: {str(exc).strip()}", err=True)
            raise typer.Exit(2) from None
        if rated is not None and players:
            result["players"] = rated
        if fmt == "json":
            typer.echo(json.dumps(result))
        elif fmt == "csv":
            typer.echo(render.report_csv(result, level), nl=False)
        else:
            typer.echo(render.report_html(result, rated))

    @office.command("ratings")
    def ratings_cmd(
        day: Annotated[str, typer.Option(help="the gaming day, YYYY-MM-DD, or today")],
        config: Annotated[Path | None, typer.Option(help="TOML with \\[backoffice]")] = None,
        database: Annotated[str | None, typer.Option(help="postgresql://user@host/db")] = None,
        player: Annotated[str | None, typer.Option(help="only this player id")] = None,
        days: Annotated[int, typer.Option(min=1, max=366, help="this many gaming days ending with --day")] = 1,
        as_json: Annotated[bool, typer.Option("--json", help="one JSON object (the default)")] = False,
        as_csv: Annotated[bool, typer.Option("--csv")] = False,
        as_html: Annotated[bool, typer.Option("--html")] = False,
    ) -> None:
        """Player ratings from the rounds actually dealt: time played, rounds, average bet, drop, win, theo."""
        import psycopg

        from controller.backoffice import render
        from controller.backoffice.ratings import anonymous_play, ratings
        from controller.backoffice.snapshot import snapshot

        fmt = _format(as_json, as_csv, as_html)
        cfg = load_config(config)
        url = pick_database(cfg, database)
        first, period = _days(cfg, day, days)
        last = period.name
        try:
            with psycopg.connect(url, connect_timeout=10) as conn, snapshot(conn):
                rated = ratings(conn, period, player=player)
                anonymous = anonymous_play(conn, period) if player is None else {}
        except psycopg.Error as exc:
            typer.echo(f"error: database: {str(exc).strip()}", err=True)
            raise typer.Exit(2) from None
        if fmt == "json":
            typer.echo(json.dumps({"from": first.isoformat(), "to": last, "players": rated, "anonymous": anonymous}))
        elif fmt == "csv":
            typer.echo(render.ratings_csv(rated), nl=False)
        else:
            typer.echo(render.ratings_html(rated, _days_title("Player ratings", first, last), anonymous))

    @office.command("advantage")
    def advantage_cmd(
        day: Annotated[str, typer.Option(help="the last gaming day, YYYY-MM-DD, or today")],
        config: Annotated[Path | None, typer.Option(help="TOML with \\[backoffice]")] = None,
        database: Annotated[str | None, typer.Option(help="postgresql://user@host/db")] = None,
        player: Annotated[str | None, typer.Option(help="only this player id")] = None,
        days: Annotated[int, typer.Option(min=1, max=366, help="this many gaming days ending with --day")] = 30,
        as_json: Annotated[bool, typer.Option("--json", help="one JSON object (the default)")] = False,
        as_csv: Annotated[bool, typer.Option("--csv")] = False,
        as_html: Annotated[bool, typer.Option("--html", help="a printable page with a chart per player")] = False,
    ) -> None:
        """Players the advantage-play watch flagged: each flag's evidence, index plays and edge per hour."""
        import psycopg

        from controller.backoffice import render
        from controller.backoffice.advantage import flagged_players
        from controller.backoffice.ratings import ratings
        from controller.backoffice.snapshot import snapshot

        fmt = _format(as_json, as_csv, as_html)
        cfg = load_config(config)
        url = pick_database(cfg, database)
        first, period = _days(cfg, day, days)
        try:
            with psycopg.connect(url, connect_timeout=10) as conn, snapshot(conn):
                players = flagged_players(conn, period, player=player)
                rated = {pid: r for pid, r in ratings(conn, period, player=player).items() if pid in players}
        except psycopg.Error as exc:
            typer.echo(f"error: database: {str(exc).strip()}", err=True)
            raise typer.Exit(2) from None
        if fmt == "json":
            typer.echo(json.dumps({"from": first.isoformat(), "to": period.name, "players": players,
                                   "ratings": rated}))
        elif fmt == "csv":
            typer.echo(render.advantage_csv(players), nl=False)
        else:
            typer.echo(render.advantage_html(players, rated, _days_title("Advantage play", first, period.name),
                                             cfg.backoffice.timezone))
