"""Money: integer minor units end to end, payout ratios as exact fractions.

A payout ratio ``a:b`` returns the stake plus ``stake * a / b``; a fractional minor unit is
rounded by the table's option (docs/rules.md: round down by default, or half up).
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from fractions import Fraction
from typing import Annotated, Any

from pydantic import BeforeValidator, PlainSerializer


class Rounding(str, Enum):
    DOWN = "down"
    HALF_UP = "half_up"


def parse_ratio(value: Any) -> Fraction:
    """``"3:2"`` / ``"6:5"`` / ``1.5`` / ``Fraction`` -> exact Fraction (refuses negatives)."""
    if isinstance(value, Fraction):
        ratio = value
    elif isinstance(value, int):
        ratio = Fraction(value)
    elif isinstance(value, str) and ":" in value:
        num, _, den = value.partition(":")
        ratio = Fraction(int(num), int(den))
    elif isinstance(value, (str, float)):
        ratio = Fraction(str(value))
    else:
        raise ValueError(f"not a payout ratio: {value!r}")
    if ratio < 0:
        raise ValueError(f"payout ratio must not be negative: {value!r}")
    return ratio


def format_ratio(ratio: Fraction) -> str:
    return f"{ratio.numerator}:{ratio.denominator}"


#: A payout ratio field for pydantic models: accepts "3:2", serialises back to "3:2".
Ratio = Annotated[Fraction, BeforeValidator(parse_ratio), PlainSerializer(format_ratio, return_type=str)]


def scale(amount: int, ratio: Fraction, rounding: Rounding = Rounding.DOWN) -> int:
    """``amount * ratio`` in whole minor units, rounded per the table option."""
    num = amount * ratio.numerator
    den = ratio.denominator
    if rounding is Rounding.DOWN:
        return num // den
    return (2 * num + den) // (2 * den)


def win(stake: int, ratio: Fraction, rounding: Rounding = Rounding.DOWN) -> int:
    """What a winning bet returns: the stake plus its winnings at ``ratio``."""
    return stake + scale(stake, ratio, rounding)


def format_amount(minor: int, unit: int = 100) -> str:
    """Minor units as a human amount (``12345`` -> ``123.45``), for prompts and logs only."""
    sign = "-" if minor < 0 else ""
    whole, frac = divmod(abs(minor), unit)
    width = len(str(unit - 1))
    return f"{sign}{whole}.{frac:0{width}d}" if unit > 1 else f"{sign}{whole}"


def format_money(minor: int, currency: str, digits: int = 2) -> str:
    """Minor units with their currency, as the pages show money: ``123456, "EUR"`` ->
    ``1,234.56 EUR`` (``digits``: the currency's minor-unit digits, ``[table] currency_digits``)."""
    sign = "-" if minor < 0 else ""
    whole, frac = divmod(abs(minor), 10**digits)
    return f"{sign}{whole:,}{f'.{frac:0{digits}d}' if digits else ''} {currency}"


#: words with money in them, written with the amount formatter they are given: ``str`` for minor
#: units (logs, rule codes' tests), ``format_money`` with the table's currency for people
Worded = Callable[[Callable[[int], str]], str]


def worded(plain: str, said: Worded | None, currency: str, digits: int = 2) -> str:
    """``said`` with the table's money (``1,234.56 EUR``), else the plain message."""
    if said is None:
        return plain
    return said(lambda minor: format_money(minor, currency, digits))


def limits_said(kind: str, amount: int, low: int, high: int) -> Worded:
    """A bet outside the table's limits, in words: "main bet 1.00 EUR outside table limits
    5.00 EUR..5,000.00 EUR" (minor units with ``str``)."""
    return lambda money: f"{kind} bet {money(amount)} outside table limits {money(low)}..{money(high)}"
