"""The significance tests the watches share: a correlation's Fisher z test and a chi-square test of
uniform counts, with the tail probabilities computed exactly enough without scipy."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


def normal_upper_tail(z: float) -> float:
    """P(Z > z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


@dataclass(frozen=True, slots=True)
class Correlation:
    """Pearson's r of two paired samples, its one-sided p-value (H0: no positive association) and a
    95 % confidence interval, both from Fisher's z transform."""

    n: int
    r: float
    p_value: float
    low: float
    high: float

    @property
    def defined(self) -> bool:
        return self.n >= 4 and not math.isnan(self.r)


class RunningCorrelation:
    """Pearson's r kept as running sums, so a watch can test after every round in O(1)."""

    __slots__ = ("n", "sx", "sxx", "sxy", "sy", "syy")

    def __init__(self) -> None:
        self.n = 0
        self.sx = self.sy = self.sxx = self.syy = self.sxy = 0.0

    def add(self, x: float, y: float) -> None:
        self.n += 1
        self.sx += x
        self.sy += y
        self.sxx += x * x
        self.syy += y * y
        self.sxy += x * y

    def result(self) -> Correlation:
        """r, p and CI so far; a constant sample has no correlation (p = 1)."""
        n = self.n
        if n < 4:
            return Correlation(n, math.nan, 1.0, -1.0, 1.0)
        vxx = self.sxx - self.sx * self.sx / n
        vyy = self.syy - self.sy * self.sy / n
        if vxx <= 1e-9 * (1.0 + self.sxx) or vyy <= 1e-9 * (1.0 + self.syy):
            return Correlation(n, math.nan, 1.0, -1.0, 1.0)
        r = max(-1.0, min(1.0, (self.sxy - self.sx * self.sy / n) / math.sqrt(vxx * vyy)))
        z, se = math.atanh(max(-0.999999, min(0.999999, r))), 1.0 / math.sqrt(n - 3)
        return Correlation(n, r, normal_upper_tail(z / se), math.tanh(z - 1.96 * se), math.tanh(z + 1.96 * se))


def correlation(xs: Sequence[float], ys: Sequence[float]) -> Correlation:
    """r, p and CI of ``xs`` against ``ys`` (one-sided: a positive association)."""
    if len(xs) != len(ys):
        raise ValueError("paired samples differ in length")
    running = RunningCorrelation()
    for x, y in zip(xs, ys):
        running.add(x, y)
    return running.result()


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
