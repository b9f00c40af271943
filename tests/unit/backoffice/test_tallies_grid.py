"""Which periods the tallies answer: those on their quarter-hour grid, in any time zone."""

from __future__ import annotations

from datetime import date, time
from zoneinfo import ZoneInfo

import pytest

from controller.backoffice.tallies import ROUNDS, TALLIES, source
from controller.floor.gaming_day import gaming_day, shifts


@pytest.mark.parametrize(("zone", "starts"), [("Europe/Riga", time(6)), ("Asia/Kathmandu", time(6)),
                                              ("Asia/Kolkata", time(10, 30)), ("America/St_Johns", time(4, 45))])
def test_gaming_days_on_the_quarter_hour_read_the_tallies_in_any_zone(zone: str, starts: time) -> None:
    for day in (date(2026, 3, 29), date(2026, 10, 25), date(2026, 12, 1)):  # two of them change the clocks
        period = gaming_day(day, starts, ZoneInfo(zone))
        assert source(False, period.start, period.end) is TALLIES
        assert source(True, period.start, period.end) is ROUNDS


def test_a_shift_off_the_grid_reads_the_rounds() -> None:
    periods = shifts(date(2026, 12, 1), time(6), ZoneInfo("Europe/Riga"), {"A": time(6), "B": time(14, 10)})
    assert [source(False, p.start, p.end) for p in periods] == [ROUNDS, ROUNDS]
    assert source(False, gaming_day(date(2026, 12, 1), time(6, 5), ZoneInfo("UTC")).start) is ROUNDS
