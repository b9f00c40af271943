"""The gaming day and its shifts, in a real time zone across the clock changes."""

from __future__ import annotations

import itertools
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.floor.gaming_day import day_of, gaming_day, shifts

RIGA = ZoneInfo("Europe/Riga")


def test_a_riga_gaming_day_starts_at_six_local_time() -> None:
    day = gaming_day(date(2026, 12, 1), time(6), RIGA)  # winter: UTC+2
    assert day.start == datetime(2026, 12, 1, 4, 0, tzinfo=UTC)
    assert day.end == datetime(2026, 12, 2, 4, 0, tzinfo=UTC)


def test_the_days_the_clocks_change_have_23_and_25_hours() -> None:
    assert gaming_day(date(2026, 3, 27), time(6), RIGA).hours == 24
    assert gaming_day(date(2026, 3, 28), time(6), RIGA).hours == 23  # the clocks go forward on 29 March at 03:00
    assert gaming_day(date(2026, 10, 24), time(6), RIGA).hours == 25  # and back on 25 October at 04:00


def test_shifts_cover_the_day_in_order_and_one_starts_with_it() -> None:
    named = {"C": time(22), "A": time(6), "B": time(14)}
    parts = shifts(date(2026, 12, 1), time(6), RIGA, named)
    assert [p.name for p in parts] == ["A", "B", "C"]
    assert parts[0].start == gaming_day(date(2026, 12, 1), time(6), RIGA).start
    assert parts[-1].end == gaming_day(date(2026, 12, 1), time(6), RIGA).end
    assert all(a.end == b.start for a, b in itertools.pairwise(parts))
    assert parts[2].hours == 8
    with pytest.raises(ValueError, match="start when the gaming day does"):
        shifts(date(2026, 12, 1), time(6), RIGA, {"A": time(7), "B": time(15)})


@given(st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2035, 1, 1), timezones=st.just(UTC)),
       st.integers(0, 23), st.sampled_from(["Europe/Riga", "America/New_York", "Asia/Kolkata", "UTC"]))
def test_every_instant_is_in_exactly_the_day_day_of_names(instant: datetime, hour: int, zone_name: str) -> None:
    zone = ZoneInfo(zone_name)
    day = day_of(instant, time(hour), zone)
    assert instant in gaming_day(day, time(hour), zone)
    assert instant not in gaming_day(day - timedelta(days=1), time(hour), zone)
    assert instant not in gaming_day(day + timedelta(days=1), time(hour), zone)
