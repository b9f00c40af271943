"""The read interface of the floor's store (docs/pit.md, "History").

A face asks for a gaming day's rounds, alerts, shifts or report; the store answers with the
frozen results below or raises one of two errors a face can word: ``BadQuery`` (the question
cannot be answered: a day out of range, a limit below 1, an unknown shift) and
``StoreUnavailable`` (the store cannot answer now: its database is down or does not answer).
Round and alert records are the feed's own (``docs/schemas``), newest version of each round.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any, Protocol

#: the most rounds one question may ask for (a restarted dashboard keeps 2,000 a table)
MAX_ROUNDS = 20_000
#: the days a store can be asked about: a gaming day is a real day of the floor
FIRST_DAY = date(2000, 1, 1)
LAST_DAY = date(2999, 12, 31)


class BadQuery(ValueError):
    """The question itself is wrong (its message says how): a 400 for a web face."""


class StoreUnavailable(RuntimeError):
    """The store cannot answer now (database down, frozen or refusing): a 503 for a web face."""


def check_day(day: date) -> date:
    if not FIRST_DAY <= day <= LAST_DAY:
        raise BadQuery(f"day {day.isoformat()} is outside {FIRST_DAY.isoformat()}..{LAST_DAY.isoformat()}")
    return day


@dataclass(frozen=True, slots=True)
class RoundsQuery:
    """Which of a gaming day's rounds: all tables or one, optionally one dealer, player or shift."""

    day: date
    table: str | None = None
    dealer: str | None = None
    player: str | None = None
    shift: str | None = None
    limit: int = 200

    def __post_init__(self) -> None:
        check_day(self.day)
        if not 1 <= self.limit <= MAX_ROUNDS:
            raise BadQuery(f"limit is a whole number from 1 to {MAX_ROUNDS}")


@dataclass(frozen=True, slots=True)
class DayRounds:
    """A gaming day's rounds as the feed published them, newest version, oldest close first."""

    day: date
    records: tuple[Mapping[str, Any], ...]


@dataclass(frozen=True, slots=True)
class DayAlerts:
    """A gaming day's alerts as the feed published them, in each table's journal order."""

    day: date
    records: tuple[Mapping[str, Any], ...]


@dataclass(frozen=True, slots=True)
class Shift:
    """One named shift of a gaming day, as ISO instants (UTC offset included)."""

    name: str
    start: str
    end: str


@dataclass(frozen=True, slots=True)
class DayReport:
    """A gaming day's (or one shift's) report: per table and dealer figures, and its CSV form."""

    day: date
    body: Mapping[str, Any]
    csv: str


class FloorStore(Protocol):
    """What the floor's store answers. Every method may block (call it in a thread) and may
    raise ``BadQuery`` or ``StoreUnavailable``, nothing else."""

    def today(self) -> date:
        """The gaming day now, by the store's own day start and time zone."""
        ...

    def rounds(self, query: RoundsQuery) -> DayRounds: ...

    def alerts(self, day: date, table: str | None = None) -> DayAlerts: ...

    def shifts(self, day: date) -> tuple[Shift, ...]: ...

    def report(self, day: date, table: str | None = None, shift: str | None = None) -> DayReport: ...
