"""Pit statistics from closed round records (docs/pit.md): per table and per dealer shift.

Pure functions over the ``round`` records of the pit feed. Definitions, as a pit boss reads
them: **drop** is the stakes of settled rounds and of the bets that stood in a void round (what
a void returned counts in neither drop nor win: controller/round_money.py); **win** is drop less
what was paid back; **hold** is win / drop.
Rounds per hour count settled and void rounds over the time from the first round's opening to
the last round's close.

Roulette adds a chi-square test of the winning numbers against a fair wheel. scipy is not a
dependency: the statistic is exact, its p-value uses the Wilson-Hilferty normal approximation
of the chi-square distribution (within 0.5 % of the tabled critical values at 36 and 37
degrees of freedom), and a wheel is flagged below ``BIAS_ALPHA``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from controller.round_money import amount, counted

BIAS_ALPHA = 0.01
#: a cell's expected count below this makes the chi-square approximation unreliable
MIN_EXPECTED = 5.0
#: rounds a rate per hour needs: one round over its own seconds is no pace (an empty void round
#: of 12 s would read 300 rounds an hour)
PACE_MIN_ROUNDS = 2
SHIFT_GAP_S = 30 * 60.0  # a break longer than this ends a dealer's shift
POCKETS = {"european": [str(n) for n in range(37)], "american": ["0", "00", *(str(n) for n in range(1, 37))]}


def parse_ts(value: object) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        return None



def summary(records: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Rounds, drop, win, hold and rounds per hour of these records."""
    rounds = settled = void = drop = paid = 0
    first: datetime | None = None
    last: datetime | None = None
    for record in records:
        rounds += 1
        if record.get("status") == "settled":
            settled += 1
        else:
            void += 1
        stake, payout = counted(record)
        drop += stake
        paid += payout
        opened, closed = parse_ts(record.get("opened")), parse_ts(record.get("closed"))
        if opened is not None and (first is None or opened < first):
            first = opened
        if closed is not None and (last is None or closed > last):
            last = closed
    span = (last - first).total_seconds() if first is not None and last is not None else 0.0
    win = drop - paid
    return {
        "rounds": rounds,
        "settled": settled,
        "void": void,
        "drop": drop,
        "win": win,
        "hold": win / drop if drop else None,
        "rounds_per_hour": rounds * 3600.0 / span if span > 0 and rounds >= PACE_MIN_ROUNDS else None,
        "first": first.isoformat() if first else None,
        "last": last.isoformat() if last else None,
    }


def shifts(records: Iterable[Mapping[str, Any]], gap_s: float = SHIFT_GAP_S) -> list[dict[str, Any]]:
    """The records split into dealer shifts: consecutive rounds by the same dealer with no
    break longer than ``gap_s``; each shift with its ``summary``. Rounds without a dealer
    (nobody signed in at the console) form shifts of dealer ``None``."""
    out: list[dict[str, Any]] = []
    current: list[Mapping[str, Any]] = []
    dealer: object = object()
    last_close: datetime | None = None
    for record in records:
        opened = parse_ts(record.get("opened"))
        broke = (last_close is not None and opened is not None and (opened - last_close).total_seconds() > gap_s)
        if current and (record.get("dealer") != dealer or broke):
            out.append({"dealer": dealer, **summary(current)})
            current = []
        dealer = record.get("dealer")
        current.append(record)
        last_close = parse_ts(record.get("closed")) or last_close
    if current:
        out.append({"dealer": dealer, **summary(current)})
    return out


def expected_hold(records: Iterable[Mapping[str, Any]], edges: Mapping[str, float]) -> float | None:
    """The hold the rule set predicts for the bets actually placed: each settled stake times
    the edge of its bet type (``kind`` up to a ``:``), over the stakes whose edge is known."""
    weighted = staked = 0.0
    for record in records:
        if record.get("status") != "settled":
            continue
        bets = record.get("bets")
        for bet in bets if isinstance(bets, list) else []:
            if not isinstance(bet, dict):
                continue
            edge = edges.get(str(bet.get("kind", "")).split(":", 1)[0])
            stake = amount(bet.get("stake"))
            if edge is not None and stake:
                weighted += stake * edge
                staked += stake
    return weighted / staked if staked else None


def chi_square_p(statistic: float, df: int) -> float:
    """Upper-tail probability of a chi-square statistic (Wilson-Hilferty approximation)."""
    if df <= 0:
        raise ValueError("degrees of freedom must be positive")
    if statistic <= 0:
        return 1.0
    scale = 2.0 / (9.0 * df)
    z = ((statistic / df) ** (1.0 / 3.0) - (1.0 - scale)) / math.sqrt(scale)
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def chi_square_critical(df: int, alpha: float = BIAS_ALPHA) -> float:
    """The statistic above which a fair wheel is rejected at ``alpha`` (same approximation)."""
    lo, hi = 0.0, 10.0 * df + 100.0
    for _ in range(100):  # bisection on the monotone tail probability
        mid = (lo + hi) / 2
        if chi_square_p(mid, df) > alpha:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def wheel_bias(records: Iterable[Mapping[str, Any]], alpha: float = BIAS_ALPHA) -> dict[str, Any] | None:
    """Winning-number frequencies of settled roulette rounds and a chi-square test of a fair
    wheel; None when the records carry no wheel. ``biased`` is only ever true when every
    pocket's expected count is at least ``MIN_EXPECTED``."""
    counts: dict[str, int] | None = None
    for record in records:
        outcome = record.get("outcome")
        if record.get("status") != "settled" or not isinstance(outcome, dict):
            continue
        pockets = POCKETS.get(str(outcome.get("wheel")))
        if pockets is None:
            continue
        if counts is None:
            counts = dict.fromkeys(pockets, 0)
        numbers = outcome.get("numbers")
        for number in numbers if isinstance(numbers, list) else []:
            if str(number) in counts:
                counts[str(number)] += 1
    if counts is None:
        return None
    balls = sum(counts.values())
    df = len(counts) - 1
    expected = balls / len(counts)
    statistic = sum((c - expected) ** 2 / expected for c in counts.values()) if balls else 0.0
    p_value = chi_square_p(statistic, df) if balls else 1.0
    enough = expected >= MIN_EXPECTED
    return {
        "counts": counts,
        "balls": balls,
        "expected": expected,
        "chi_square": statistic,
        "df": df,
        "critical": chi_square_critical(df, alpha),
        "alpha": alpha,
        "p_value": p_value,
        "enough": enough,
        "biased": enough and p_value < alpha,
    }
