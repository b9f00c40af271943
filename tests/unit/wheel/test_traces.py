# ruff: noqa: E501  (the docstring quotes the shell commands that derived the counts, verbatim)
"""Both production traces replayed through codec + core (no port).

Expected counts for the studio trace were derived independently of the driver, from the trace
file alone (run in tests/data/wheel/):

    f=cammegh-ss2-studio-faults.log
    awk '
    function bit(h, b) { return int((index("0123456789ABCDEF", toupper(h)) - 1) / b) % 2 }
    function secs(d, t,  a, b) { split(d, a, "-"); split(t, b, ":"); return ((a[2] * 31 + a[3]) * 24 + b[1]) * 3600 + b[2] * 60 + b[3] }
    { now = secs($1, $2); line = substr($0, 28) }
    $3 == "TX" && line == "*P 0" { off = 1 }
    $3 == "TX" && line == "*P 1" { off = 0 }
    $3 == "RX" && line ~ /^\\*X;/ {
      split(line, a, ";"); st = a[2]; fl = a[5]
      gap = (now - lastrx >= 2)
      if (bit(fl, 4) && !(seen && bit(pfl, 4))) sensor++
      if (st == 6 && seen && !gap && pst >= 2 && pst <= 5 && !off && !bit(pfl, 4)) state6++
      if (st == 6) off = 0
      if (bit(fl, 8) && (st == 2 || st == 3)) { if (!l8) { l8 = 1; s8 = now; v8 = 0 } if (now - s8 >= 3 && !v8) { launch++; v8 = 1 } } else l8 = 0
      if (bit(fl, 1) && st == 4) { if (!l1) { l1 = 1; s1 = now; v1 = 0 } if (now - s1 >= 5 && !v1) { ball++; v1 = 1 } } else l1 = 0
      if (bit(fl, 2) && st == 3) miss++
      pst = st; pfl = fl; seen = 1
    }
    $3 == "RX" { lastrx = now }
    END { printf "sensor_fault=%d state_6=%d launch_failed=%d ball_not_sensed=%d miss_spin=%d\\n", sensor, state6, launch, ball, miss }' $f
    # -> sensor_fault=12 state_6=3 launch_failed=5 ball_not_sensed=0 miss_spin=0

    # flag-1 runs in state 4 (each one status long, all below the 5 s grace):
    awk '$3=="RX" {l=substr($0,28); if (l ~ /^\\*X;/) {split(l,a,";"); k=(a[2]==4 && a[5]==1); if (k && !p) n++; p=k}} END {print n}' $f   # -> 14

    # RX lines of no documented shape (noise):
    grep ' RX ' $f | cut -c28- | grep -cvE '^(\\*X;[1-6];[0-9]{3};( [0-9]|[0-9]{2}|  );[0-9A-F];[0-9]{3};[01]|\\*P (OK|NO)|\\*u OK|\\*R OK|\\*o ([0-9]+|BUSY)|\\*O [1-6] [01] [0-9]+ [0-9]+|\\*F ([0-9]+|BUSY)|\\*T [dhmnrstz] .+|\\*T OK|[ 0-9][0-9])$'   # -> 8

    grep -E ' RX [ 0-9][0-9]$' $f | cut -c28-   # -> 31 32 27

One flag-1 run (07:02:50 on 2025-09-10) falls in a game already void for a failed launch, so it
raises no warning of its own: 13 ``ball_not_sensed`` warnings for 14 runs.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from drivers.wheel.replay import Replay, replay

DATA = Path(__file__).resolve().parents[2] / "data" / "wheel"


@pytest.fixture(scope="module")
def studio() -> Replay:
    with open(DATA / "cammegh-ss2-studio-faults.log", encoding="ascii") as lines:
        return replay(lines)


def test_six_games_yield_exactly_the_six_results() -> None:
    with open(DATA / "cammegh-ss2-six-games.log", "rb") as lines:
        result = replay(lines)
    numbers = [(e.number, e.spin) for e in result.of_type("winning_number")]
    assert numbers == [("27", 11), ("16", 12), ("6", 13), ("3", 14), ("10", 15), ("0", 16)]
    assert not result.of_type("void") and not result.of_type("fault") and not result.of_type("warning")
    assert result.core.noise == 0
    assert [e.type for e in result.of_type("place_bets")] == ["place_bets"] * 7


def test_studio_trace_every_fault_classified(studio: Replay) -> None:
    verdicts = Counter((e.type, e.reason) for _, e in studio.events if e.type in ("void", "fault"))
    assert verdicts == {
        ("fault", "sensor_fault"): 12,
        ("fault", "state_6"): 3,
        ("void", "launch_failed"): 5,
    }
    assert not studio.of_type("void") or all(e.reason != "miss_spin" for e in studio.of_type("void"))
    assert studio.commands == []  # no miss-spin, so the driver would never have sent *R


def test_studio_trace_warnings_noise_and_results(studio: Replay) -> None:
    warnings = Counter(e.code for e in studio.of_type("warning"))
    assert warnings["ball_not_sensed"] == 13
    assert warnings["launch_retry"] == 5
    assert studio.core.noise == 8
    assert [e.number for e in studio.of_type("winning_number")] == ["31", "32", "27"]


def test_studio_trace_no_game_starts_unnoticed_after_a_fault(studio: Replay) -> None:
    """A game starting after a fault without ``recovered`` in between is flagged ``not_repowered``."""
    pending, unrecovered_starts = False, 0
    for _, event in studio.events:
        if event.type == "fault":
            pending = True
        elif event.type == "recovered":
            pending = False
        elif event.type == "place_bets" and pending:
            unrecovered_starts += 1
    warned = Counter(e.code for e in studio.of_type("warning"))["not_repowered"]
    assert unrecovered_starts == warned == 1  # 2025-09-16 06:08, after a five-day gap in the log
