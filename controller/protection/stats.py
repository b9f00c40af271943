"""The significance tests of the watches: a correlation's Fisher z test, its tail probability
computed without scipy. The chi-square test of a wheel is the floor's one
(``controller/floor/wheel_bias.py``), named here for the watches' own callers."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from controller.floor.wheel_bias import Uniformity, chi_square_upper_tail, uniformity

__all__ = ["Correlation", "RunningCorrelation", "Uniformity", "chi_square_upper_tail", "correlation",
           "normal_upper_tail", "uniformity"]


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
