"""The back office as the floor's store (``controller.floor.store.FloorStore``): the pit
dashboard's history and its gaming day after a restart, read from the back office's database
with its own day start, time zone and shifts (``settings``), its report and CSV.

A database that is down or frozen must not hold the dashboard's workers: connections come from
a small pool (``psycopg_pool``) with a short connect timeout and a short wait for a free
connection, and after a failure the store answers ``StoreUnavailable`` at once for
``COOL_DOWN_S`` (a circuit breaker) before it tries the database again.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from datetime import UTC, date, datetime
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

import psycopg
from psycopg_pool import ConnectionPool, PoolTimeout

from controller.backoffice import settings
from controller.backoffice.config import BackofficeConfig, BackofficeSection, clock_time
from controller.backoffice.report import Reporter, ReportSpec, gaming_day_of
from controller.floor.report_csv import report_csv
from controller.floor.store import (
    BadQuery,
    DayAlerts,
    DayReport,
    DayRounds,
    RoundsQuery,
    Shift,
    StoreUnavailable,
    check_day,
)

#: seconds to open a connection, to wait for a free one, and to answer one question (a frozen
#: server answers nothing, not even its own statement timeout: the store stops waiting first)
CONNECT_TIMEOUT_S = 2
POOL_WAIT_S = 1.0
ANSWER_S = 3.0
STATEMENT_TIMEOUT_MS = 10_000
#: seconds the store answers "unavailable" without trying, after the database failed
COOL_DOWN_S = 5.0
POOL_SIZE = 4

ROUNDS = """
SELECT record FROM rounds r
WHERE NOT superseded AND closed >= %(start)s AND closed < %(end)s
  AND (%(table)s::text IS NULL OR table_id = %(table)s) AND (%(dealer)s::text IS NULL OR dealer = %(dealer)s)
  AND (%(player)s::text IS NULL OR EXISTS (SELECT 1 FROM bets b WHERE b.table_id = r.table_id
       AND b.round_id = r.round_id AND b.version = r.version AND b.player = %(player)s))
ORDER BY closed DESC, table_id, round_id LIMIT %(limit)s"""
ALERTS = """
SELECT body FROM alerts WHERE ts >= %(start)s AND ts < %(end)s AND (%(table)s::text IS NULL OR table_id = %(table)s)
ORDER BY table_id, seq"""

T = TypeVar("T")


class Circuit:
    """Open (fail fast) for ``cool_down`` seconds after a failure; then one question may try."""

    def __init__(self, cool_down: float = COOL_DOWN_S, clock: Callable[[], float] = time.monotonic) -> None:
        self.cool_down, self.clock = cool_down, clock
        self._open_until = 0.0
        self._reason = ""
        self._lock = threading.Lock()

    def check(self) -> None:
        with self._lock:
            if self.clock() < self._open_until:
                raise StoreUnavailable(f"the back office's database does not answer ({self._reason}); "
                                       f"trying again in {self._open_until - self.clock():.0f} s")

    def failed(self, reason: str) -> None:
        with self._lock:
            self._open_until, self._reason = self.clock() + self.cool_down, reason


class BackofficeFloorStore:
    """``FloorStore`` over the back office's PostgreSQL. ``close()`` ends its pool."""

    def __init__(self, database: str, config: BackofficeConfig | None = None, *,
                 circuit: Circuit | None = None) -> None:
        self.config = config or BackofficeConfig()
        self.circuit = circuit or Circuit()
        self.pool: ConnectionPool[Any] = ConnectionPool(
            database, min_size=0, max_size=POOL_SIZE, timeout=POOL_WAIT_S, open=False, reconnect_timeout=0,
            kwargs={"connect_timeout": CONNECT_TIMEOUT_S, "options": f"-c statement_timeout={STATEMENT_TIMEOUT_MS}",
                    "autocommit": True})
        self.pool.open(wait=False)
        #: the threads that talk to the database: one stuck on a frozen server holds one of these,
        #: never a worker of the caller's
        self._workers = ThreadPoolExecutor(POOL_SIZE, thread_name_prefix="floor-store")

    def close(self) -> None:
        self._workers.shutdown(wait=False, cancel_futures=True)
        self.pool.close(timeout=1.0)

    # -- the questions --------------------------------------------------------------------------
    def today(self) -> date:
        section = self._use(self._section)
        return gaming_day_of(datetime.now(UTC), self._spec(section, date.today()))

    def rounds(self, query: RoundsQuery) -> DayRounds:
        def read(conn: psycopg.Connection[Any]) -> DayRounds:
            window = self._window(self._spec(self._section(conn), query.day, query.table, query.shift))
            rows = conn.execute(ROUNDS, {**window, "table": query.table, "dealer": query.dealer,
                                         "player": query.player, "limit": query.limit}).fetchall()
            return DayRounds(query.day, tuple(row[0] for row in reversed(rows)))

        return self._use(read)

    def alerts(self, day: date, table: str | None = None) -> DayAlerts:
        def read(conn: psycopg.Connection[Any]) -> DayAlerts:
            window = self._window(self._spec(self._section(conn), day, table))
            return DayAlerts(day, tuple(row[0] for row in conn.execute(ALERTS, {**window, "table": table})))

        return self._use(read)

    def shifts(self, day: date) -> tuple[Shift, ...]:
        spec = self._spec(self._use(self._section), day)
        return tuple(Shift(p.name, p.start.isoformat(), p.end.isoformat()) for p in spec.periods())

    def report(self, day: date, table: str | None = None, shift: str | None = None) -> DayReport:
        def read(conn: psycopg.Connection[Any]) -> DayReport:
            spec = self._spec(self._section(conn), day, table, shift)
            self._window(spec)  # an unknown shift is the question's fault
            body = Reporter(conn).report(spec)
            return DayReport(day, body, report_csv(body))

        return self._use(read)

    # -- the parts ------------------------------------------------------------------------------
    def _use(self, read: Callable[[psycopg.Connection[Any]], T]) -> T:
        """``read`` on a pooled connection within ``ANSWER_S``; a database that fails or does not
        answer opens the circuit."""
        self.circuit.check()
        future = self._workers.submit(self._on_connection, read)
        try:
            return future.result(timeout=ANSWER_S)
        except FutureTimeout:
            self.circuit.failed(f"no answer within {ANSWER_S:.0f} s")
            raise StoreUnavailable(f"the back office's database did not answer within {ANSWER_S:.0f} s") from None

    def _on_connection(self, read: Callable[[psycopg.Connection[Any]], T]) -> T:
        try:
            with self.pool.connection() as conn:
                return read(conn)
        except PoolTimeout:
            self.circuit.failed("no connection within the wait")
            raise StoreUnavailable("the back office's database does not answer: no connection within "
                                   f"{POOL_WAIT_S:.0f} s") from None
        except psycopg.OperationalError as exc:
            reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            self.circuit.failed(reason)
            raise StoreUnavailable(f"the back office's database does not answer: {reason}") from None
        except psycopg.Error as exc:  # a schema not migrated yet, say: not the question's fault
            raise StoreUnavailable(f"the back office's database refused the question ({type(exc).__name__})") from None

    def _section(self, conn: psycopg.Connection[Any]) -> BackofficeSection:
        """The back office's own gaming day, shifts and pits as its consumer last wrote them
        (controller/backoffice/settings.py); this store's ``config`` while none was written."""
        try:
            found = settings.read(conn)
        except psycopg.errors.UndefinedTable:
            found = None  # a schema from before floor_settings
        return found or self.config.backoffice

    @staticmethod
    def _spec(section: BackofficeSection, day: date, table: str | None = None, shift: str | None = None) -> ReportSpec:
        return ReportSpec(check_day(day), clock_time(section.gaming_day_starts, "gaming_day_starts"),
                          ZoneInfo(section.timezone), {k: clock_time(v, k) for k, v in section.shifts.items()},
                          shift, (table,) if table else None, section.pits, section.z_flag)

    @staticmethod
    def _window(spec: ReportSpec) -> dict[str, datetime]:
        try:
            window = spec.window()
        except ValueError as exc:
            raise BadQuery(str(exc)) from None
        return {"start": window.start, "end": window.end}
