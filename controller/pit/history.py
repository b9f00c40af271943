"""The dashboard's history from the back office (docs/backoffice.md), when one is configured
(``[pit] backoffice = "postgresql://..."``): rounds beyond the dashboard's memory, searched by
table, gaming day, dealer and player; a day's (or shift's) report; and its CSV export. All of it
survives a dashboard restart, since it is read from PostgreSQL each time. Without a back office
these routes are not there and the dashboard works as before.

Every route needs a signed-in session (any role may look). Queries are parameterised; answers
are JSON (or CSV), never HTML built from data.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from datetime import date
from typing import Any

import psycopg
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from controller.backoffice.config import BackofficeConfig

SessionCheck = Callable[[Request], bool]
MAX_ROUNDS = 500

ROUNDS = """
SELECT table_id, round_id, version, status, game, dealer, opened, closed, stake_total, payout_total, shoe, shoe_round
FROM rounds r
WHERE NOT superseded AND closed >= %(start)s AND closed < %(end)s
  AND (%(table)s::text IS NULL OR table_id = %(table)s) AND (%(dealer)s::text IS NULL OR dealer = %(dealer)s)
  AND (%(player)s::text IS NULL OR EXISTS (SELECT 1 FROM bets b WHERE b.table_id = r.table_id
       AND b.round_id = r.round_id AND b.version = r.version AND b.player = %(player)s))
ORDER BY closed DESC LIMIT %(limit)s"""


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


class History:
    def __init__(self, database: str, signed_in: SessionCheck, config: BackofficeConfig | None = None) -> None:
        self.database = database
        self.signed_in = signed_in
        self.config = config or BackofficeConfig()

    def routes(self) -> list[Route]:
        return [Route("/api/history/rounds", self.rounds), Route("/api/history/report", self.report),
                Route("/api/history/report.csv", self.report_csv)]

    def _section(self) -> Any:
        """The back office's own gaming day, shifts and pits, as its consumer last wrote them in the
        database (controller/backoffice/settings.py); this dashboard's ``config`` (UTC from 06:00 by
        default) only while no back office has ever run on it."""
        from controller.backoffice import settings

        with psycopg.connect(self.database, connect_timeout=5) as conn:
            try:
                found = settings.read(conn)
            except psycopg.errors.UndefinedTable:
                found = None  # a schema from before floor_settings
        return found or self.config.backoffice

    def _spec(self, request: Request, b: Any) -> Any:
        from zoneinfo import ZoneInfo

        from controller.backoffice.config import clock_time
        from controller.backoffice.report import ReportSpec

        text = request.query_params.get("day", "")
        day = date.fromisoformat(text)  # ValueError: 400
        table = request.query_params.get("table")
        return ReportSpec(day, clock_time(b.gaming_day_starts, "gaming_day_starts"), ZoneInfo(b.timezone),
                          {k: clock_time(v, k) for k, v in b.shifts.items()}, request.query_params.get("shift"),
                          (table,) if table else None, b.pits, b.z_flag)

    async def rounds(self, request: Request) -> Response:
        if not self.signed_in(request):
            return _error(401, "sign in")
        section = await asyncio.to_thread(self._section)
        try:
            spec = self._spec(request, section)
            window = spec.window()
            limit = min(int(request.query_params.get("limit", "200")), MAX_ROUNDS)
        except ValueError as exc:
            return _error(400, f"day=YYYY-MM-DD (and table, dealer, player, shift, limit): {exc}")
        q = request.query_params
        params = {"start": window.start, "end": window.end, "table": q.get("table"), "dealer": q.get("dealer"),
                  "player": q.get("player"), "limit": limit}
        rows = await asyncio.to_thread(self._query, ROUNDS, params)
        keys = ("table", "round", "version", "status", "game", "dealer", "opened", "closed", "stake_total",
                "payout_total", "shoe", "shoe_round")
        out = [{k: (v.isoformat() if hasattr(v, "isoformat") else v) for k, v in zip(keys, row)} for row in rows]
        return JSONResponse({"day": spec.day.isoformat(), "rounds": out})

    async def _day_report(self, request: Request) -> tuple[date, dict[str, Any]] | Response:
        """The asked day's report, or the error response to send instead."""
        if not self.signed_in(request):
            return _error(401, "sign in")
        section = await asyncio.to_thread(self._section)
        try:
            spec = self._spec(request, section)
            return spec.day, await asyncio.to_thread(self._report, spec)
        except ValueError as exc:
            return _error(400, str(exc))

    async def report(self, request: Request) -> Response:
        found = await self._day_report(request)
        if isinstance(found, Response):
            return found
        return Response(json.dumps(found[1]), media_type="application/json")

    async def report_csv(self, request: Request) -> Response:
        from controller.floor.report_csv import report_csv

        found = await self._day_report(request)
        if isinstance(found, Response):
            return found
        day, result = found
        return Response(report_csv(result), media_type="text/csv", headers={
            "Content-Disposition": f'attachment; filename="gaming-day-{day.isoformat()}.csv"'})

    def _query(self, sql: str, params: dict[str, Any]) -> list[tuple[Any, ...]]:
        with psycopg.connect(self.database, connect_timeout=5) as conn:
            return conn.execute(sql, params).fetchall()

    def _report(self, spec: Any) -> dict[str, Any]:
        from controller.backoffice.report import Reporter

        with psycopg.connect(self.database, connect_timeout=5) as conn:
            return Reporter(conn).report(spec)
