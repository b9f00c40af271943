"""The gaming day and its shifts as periods of UTC time. Pure: no clock, no database.

A gaming day ``D`` runs from ``D`` at ``gaming_day_starts`` (local time in ``timezone``) to the
same clock time the next calendar day, so it has 23 or 25 hours on the days the clocks change.
Shifts are named periods of it, each from its start to the next shift's start (the last to the
day's end); one shift starts when the day does. Without shifts the day is one shift, ``day``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

WHOLE_DAY = "day"


@dataclass(frozen=True, slots=True)
class Period:
    name: str
    start: datetime  # UTC, inclusive
    end: datetime  # UTC, exclusive

    @property
    def hours(self) -> float:
        return (self.end - self.start).total_seconds() / 3600.0

    def __contains__(self, instant: datetime) -> bool:
        return self.start <= instant < self.end


def _local(day: date, at: time, offset: timedelta, zone: ZoneInfo) -> datetime:
    """Wall-clock ``day at + offset`` in ``zone``, as UTC (the earlier of a repeated hour)."""
    wall = datetime.combine(day, at) + offset
    return wall.replace(tzinfo=zone).astimezone(UTC)


def gaming_day(day: date, starts: time, zone: ZoneInfo) -> Period:
    return Period(WHOLE_DAY, _local(day, starts, timedelta(0), zone), _local(day, starts, timedelta(days=1), zone))


def _offset(at: time, starts: time) -> timedelta:
    minutes = (at.hour * 60 + at.minute - starts.hour * 60 - starts.minute) % (24 * 60)
    return timedelta(minutes=minutes)


def shifts(day: date, starts: time, zone: ZoneInfo, named: dict[str, time]) -> list[Period]:
    """The day's shifts in order; ValueError when none starts with the day."""
    if not named:
        return [gaming_day(day, starts, zone)]
    ordered = sorted(named.items(), key=lambda item: _offset(item[1], starts))
    if _offset(ordered[0][1], starts):
        raise ValueError(f"shifts: one shift must start when the gaming day does ({starts:%H:%M})")
    offsets = [_offset(at, starts) for _, at in ordered] + [timedelta(days=1)]
    return [Period(name, _local(day, starts, offsets[i], zone), _local(day, starts, offsets[i + 1], zone))
            for i, (name, _) in enumerate(ordered)]


def day_of(instant: datetime, starts: time, zone: ZoneInfo) -> date:
    """The gaming day an instant belongs to."""
    local = instant.astimezone(zone)
    day = local.date()
    return day if local.time() >= starts else day - timedelta(days=1)
