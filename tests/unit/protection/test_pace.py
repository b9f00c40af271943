"""The pace: rounds closed over the last window of the table's clock, scaled to an hour."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from controller.table.pace import CloseTimes, rounds_per_hour, seconds


def ts(second: int) -> str:
    return f"2026-12-02T{second // 3600:02d}:{second // 60 % 60:02d}:{second % 60:02d}.000Z"


def closed_at(*closed: int, kept: int = 1000) -> CloseTimes:
    rounds = CloseTimes(kept)
    for second in closed:
        rounds.closed(ts(second))
    return rounds


def pace(rounds: CloseTimes, now: str, target: int, window_s: int) -> dict[str, object]:
    return rounds.pace(now, target, window_s)


def test_not_known_until_the_rounds_reach_back_a_whole_window() -> None:
    assert pace(closed_at(), ts(100), 60, 1800) == {"rounds_per_hour": None, "target": 60, "window_s": 1800}
    assert pace(closed_at(100, 200), ts(1000), 60, 1800)["rounds_per_hour"] is None
    assert pace(closed_at(100, 500), ts(1000), 60, 600)["rounds_per_hour"] == 6.0  # 1 round in 10 minutes


def test_only_the_window_counts() -> None:
    closed = [60 * m for m in range(0, 61)]  # one a minute for an hour
    assert pace(closed_at(*closed), ts(3600), 60, 1800)["rounds_per_hour"] == 62.0  # 31 in the half hour, ends included
    assert pace(closed_at(*closed), ts(7200), 60, 1800)["rounds_per_hour"] == 0.0


@given(st.lists(st.integers(0, 7200), min_size=1, max_size=60), st.integers(1, 3600))
def test_the_rate_is_the_count_in_the_window(closed: list[int], window: int) -> None:
    closed.sort()
    now = closed[-1]
    rate = rounds_per_hour(reversed([seconds(ts(s)) for s in closed]), seconds(ts(closed[0])), seconds(ts(now)), window)
    if closed[0] > now - window:
        assert rate is None
    else:
        assert rate == round(sum(1 for s in closed if s >= now - window) * 3600 / window, 1)


def test_only_the_last_kept_rounds_are_counted_as_the_records_in_memory_were() -> None:
    rounds = closed_at(*range(0, 600, 100), kept=3)  # closed at 0 ... 500; 300, 400, 500 kept
    assert list(rounds.times) == [seconds(ts(s)) for s in (300, 400, 500)]
    assert pace(rounds, ts(500), 60, 300)["rounds_per_hour"] is None  # the oldest kept is inside the window
    assert pace(rounds, ts(600), 60, 300)["rounds_per_hour"] == 36.0  # 3 in 5 minutes, ends included


def test_every_game_has_a_default_target() -> None:
    from controller.table.registry import GAMES

    assert all(game.adapter.pace_target > 0 for game in GAMES.values())
