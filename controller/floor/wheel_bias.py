"""The floor's one test of a wheel: a chi-square test of the winning pockets against a fair
wheel, for the pit dashboard (``wheel_bias`` over round records), the back office (its 7- and
30-day windows) and protection's wheel watch (``uniformity`` over counts).

scipy is not a dependency: the statistic is exact and so, near enough, is its p-value (the
regularized incomplete gamma function, by its series or Lentz's continued fraction, so a far
tail keeps its digits). A wheel is flagged below ``BIAS_ALPHA`` and only when every pocket
expects at least ``MIN_EXPECTED`` balls.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

BIAS_ALPHA = 0.01
#: a cell's expected count below this makes the chi-square approximation unreliable
MIN_EXPECTED = 5.0
POCKETS = {"european": [str(n) for n in range(37)], "american": ["0", "00", *(str(n) for n in range(1, 37))]}


def _upper_regularized_gamma(a: float, x: float) -> float:
    """Q(a, x) = 1 - P(a, x): by P's series (x < a + 1) or Lentz's continued fraction for Q
    (x >= a + 1), so a far tail keeps its digits."""
    if x <= 0:
        return 1.0
    log_prefix = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        k = a
        while abs(term) > abs(total) * 1e-15:
            k += 1
            term *= x / k
            total += term
        return max(0.0, 1.0 - total * math.exp(log_prefix))
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-15:
            break
    return min(1.0, math.exp(log_prefix) * h)


def chi_square_upper_tail(statistic: float, df: int) -> float:
    """P(X > statistic) for X chi-square with ``df`` degrees of freedom."""
    if df < 1:
        raise ValueError("a chi-square test needs at least one degree of freedom")
    return _upper_regularized_gamma(df / 2.0, statistic / 2.0)


@dataclass(frozen=True, slots=True)
class Uniformity:
    """A chi-square test of counts against equal cells."""

    n: int
    statistic: float
    p_value: float


def uniformity(counts: Sequence[int]) -> Uniformity:
    n = sum(counts)
    if n == 0:
        return Uniformity(0, 0.0, 1.0)
    expected = n / len(counts)
    statistic = math.fsum((c - expected) ** 2 / expected for c in counts)
    return Uniformity(n, statistic, chi_square_upper_tail(statistic, len(counts) - 1))


def chi_square_critical(df: int, alpha: float = BIAS_ALPHA) -> float:
    """The statistic above which a fair wheel is rejected at ``alpha``."""
    lo, hi = 0.0, 10.0 * df + 100.0
    for _ in range(100):  # bisection on the monotone tail probability
        mid = (lo + hi) / 2
        if chi_square_upper_tail(mid, df) > alpha:
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
    test = uniformity(list(counts.values()))
    balls, df, statistic, p_value = test.n, len(counts) - 1, test.statistic, test.p_value
    expected = balls / len(counts)
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
