"""The wheel and the table layout (docs/rules.md §4): pocket orders, colours, and every legal chip shape.

Pockets are strings ("0", "00", "17") as the wheel and the wire name them, so "00" fits. The
betting grid has 12 rows of three (row r holds 3r+1..3r+3; column c holds the numbers with
(n-1) % 3 == c-1). The zero shapes follow a real layout:

* European: splits 0-1, 0-2, 0-3; trios (streets) 0-1-2 and 0-2-3; first four 0-1-2-3 (option).
* American: 0 sits above 1 and half of 2, 00 above 3 and half of 2, so splits 0-1, 0-2, 00-2,
  00-3 and 0-00; trios 0-1-2, 0-00-2 and 00-2-3; the Five Bet 0-00-1-2-3. No first four.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from functools import cache
from typing import Final

RED: Final = frozenset({1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36})
#: Pocket order clockwise from 0 (docs/rules.md §4).
EUROPEAN_ORDER: Final = tuple(
    "0 32 15 19 4 21 2 25 17 34 6 27 13 36 11 30 8 23 10 5 24 16 33 1 20 14 31 9 22 18 29 7 28 12 35 3 26".split()
)
AMERICAN_ORDER: Final = tuple(
    "0 28 9 26 30 11 7 20 32 17 5 22 34 15 3 24 36 13 1 00 27 10 25 29 12 8 19 31 18 6 21 33 16 4 23 35 14 2".split()
)
ZEROS: Final = frozenset({"0", "00"})


class WheelKind(str, Enum):
    EUROPEAN = "european"
    AMERICAN = "american"


def number(pocket: str) -> int | None:
    """1..36 for a numbered pocket, None for 0 and 00."""
    return None if pocket in ZEROS else int(pocket)


def colour(pocket: str) -> str:
    n = number(pocket)
    if n is None:
        return "green"
    return "red" if n in RED else "black"


def sort_key(pocket: str) -> tuple[int, int]:
    """Layout order: 0, 00, then 1..36 (the canonical order of numbers in a bet's wire name)."""
    return (0, 0) if pocket == "0" else (0, 1) if pocket == "00" else (1, int(pocket))


def _s(*ns: int | str) -> frozenset[str]:
    return frozenset(str(n) for n in ns)


def _grid_shapes() -> dict[str, set[frozenset[str]]]:
    """The shapes of the 1..36 grid, the same on both wheels."""
    splits = {_s(n, n + 1) for n in range(1, 37) if n % 3} | {_s(n, n + 3) for n in range(1, 34)}
    streets = {_s(3 * r + 1, 3 * r + 2, 3 * r + 3) for r in range(12)}
    corners = {_s(n, n + 1, n + 3, n + 4) for n in range(1, 33) if n % 3}
    lines = {_s(*range(3 * r + 1, 3 * r + 7)) for r in range(11)}
    return {"split": splits, "street": streets, "corner": corners, "six_line": lines}


@dataclass(frozen=True)
class Wheel:
    """One wheel: its pockets in spin order and the legal inside shapes of its layout."""

    kind: WheelKind
    order: tuple[str, ...]
    shapes: dict[str, frozenset[frozenset[str]]]
    pockets: frozenset[str] = field(init=False)
    _index: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "pockets", frozenset(self.order))
        object.__setattr__(self, "_index", {p: i for i, p in enumerate(self.order)})

    def neighbours(self, pocket: str, n: int) -> tuple[str, ...]:
        """``pocket`` and its ``n`` neighbours each side, in wheel order (anticlockwise first)."""
        i, size = self._index[pocket], len(self.order)
        return tuple(self.order[(i + k) % size] for k in range(-n, n + 1))


@cache
def wheel(kind: WheelKind) -> Wheel:
    shapes = _grid_shapes()
    if kind is WheelKind.EUROPEAN:
        shapes["split"] |= {_s(0, 1), _s(0, 2), _s(0, 3)}
        shapes["street"] |= {_s(0, 1, 2), _s(0, 2, 3)}
        extra = {"first_four": {_s(0, 1, 2, 3)}}
        order = EUROPEAN_ORDER
    else:
        shapes["split"] |= {_s(0, 1), _s(0, 2), _s("00", 2), _s("00", 3), _s(0, "00")}
        shapes["street"] |= {_s(0, 1, 2), _s(0, "00", 2), _s("00", 2, 3)}
        extra = {"five": {_s(0, "00", 1, 2, 3)}}
        order = AMERICAN_ORDER
    frozen = {k: frozenset(v) for k, v in (shapes | extra).items()}
    return Wheel(kind=kind, order=order, shapes=frozen)


#: Outside bets: name -> the numbers they hold (never a zero).
OUTSIDE: Final[dict[str, frozenset[str]]] = {
    **{f"column:{c}": _s(*(n for n in range(1, 37) if (n - 1) % 3 == c - 1)) for c in (1, 2, 3)},
    **{f"dozen:{d}": _s(*range(12 * d - 11, 12 * d + 1)) for d in (1, 2, 3)},
    "red": _s(*RED),
    "black": _s(*(n for n in range(1, 37) if n not in RED)),
    "odd": _s(*range(1, 37, 2)),
    "even": _s(*range(2, 37, 2)),
    "low": _s(*range(1, 19)),
    "high": _s(*range(19, 37)),
}
