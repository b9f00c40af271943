"""Roulette's result boards: the last spins, hot and cold numbers, and counts by bet.

Built from the winning numbers in the order spun (``from_records``, ``from_outcomes`` or
``from_spins``); a void round or a spin with no number is no result and is left out. On a
double-ball wheel a spin has both balls' numbers, and every count below counts balls (a spin
with both balls on red adds two to ``red``).

* ``last``: the last ``last`` spins (default 20), newest first; the newest has ``newest`` true.
* ``hot`` / ``cold``: over the last ``window`` spins (default 100), the ``top`` (default 5)
  numbers hit most / least. Ties are broken the same way every time: a hot number hit more
  recently ranks first, a cold number hit longer ago ranks first, then layout order (0, 00,
  1..36). Both list only numbers hit in the window: a board shows what was seen. Cold is empty
  until the window holds ``cold_after`` spins (as many as the wheel has pockets): before that,
  "hit least" says nothing but which numbers have not come up yet.
* ``counts`` over the same window: colours, dozens, columns, odd/even, low/high and zeros
  (0 and 00; a zero is neither odd nor even, low nor high, in no dozen or column).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final, Literal

from controller.boards.model import Board
from controller.games.roulette.layout import WheelKind, colour, number, sort_key, wheel
from controller.games.roulette.outcome import RouletteOutcome

LAST: Final = 20
WINDOW: Final = 100
TOP: Final = 5


class Ball(Board):
    number: str
    colour: Literal["red", "black", "green"]


class Spin(Board):
    balls: tuple[Ball, ...]
    newest: bool


class NumberHits(Board):
    number: str
    colour: Literal["red", "black", "green"]
    hits: int


class Counts(Board):
    #: spins and balls counted (the window, or fewer when fewer were spun)
    spins: int
    balls: int
    red: int
    black: int
    zero: int
    odd: int
    even: int
    low: int
    high: int
    #: balls in dozen 1, 2, 3 and in column 1, 2, 3
    dozen: tuple[int, int, int]
    column: tuple[int, int, int]


class RouletteBoards(Board):
    game: Literal["roulette"] = "roulette"
    #: the wheel of the newest spin (european while ``spins`` is 0: nothing is known yet)
    wheel: WheelKind
    #: balls per spin (2 on a double-ball wheel; 0 before the first spin)
    balls: int
    #: every spin read, and how many the hot, cold and counts are taken over
    spins: int
    window: int
    #: spins the window holds before cold numbers are told (the wheel's pockets)
    cold_after: int
    last: tuple[Spin, ...]
    hot: tuple[NumberHits, ...]
    cold: tuple[NumberHits, ...]
    counts: Counts


def from_records(records: Iterable[Mapping[str, Any]], *, last: int = LAST, window: int = WINDOW,
                 top: int = TOP) -> RouletteBoards:
    """The boards of a table's round records, oldest first; void records and outcomes that are
    not a spin of a known wheel are skipped."""
    outcomes = []
    for record in records:
        if record.get("status") == "void":
            continue
        outcome = RouletteOutcome.from_record(record.get("outcome"))
        if outcome is not None and _fits(outcome):
            outcomes.append(outcome)
    return from_outcomes(outcomes, last=last, window=window, top=top)


def _fits(outcome: RouletteOutcome) -> bool:
    if outcome.wheel not in {w.value for w in WheelKind} or not outcome.numbers:
        return False
    return set(outcome.numbers) <= wheel(WheelKind(outcome.wheel)).pockets


def from_outcomes(outcomes: Iterable[RouletteOutcome], *, last: int = LAST, window: int = WINDOW,
                  top: int = TOP) -> RouletteBoards:
    spun = [o for o in outcomes if o.numbers]
    kind = WheelKind(spun[-1].wheel) if spun else WheelKind.EUROPEAN
    return from_spins([o.numbers for o in spun], kind, last=last, window=window, top=top)


def from_spins(spins: Iterable[Sequence[str]], kind: WheelKind = WheelKind.EUROPEAN, *, last: int = LAST,
               window: int = WINDOW, top: int = TOP) -> RouletteBoards:
    """The boards of ``spins`` (each the numbers of its balls) on a ``kind`` wheel; a number not
    on that wheel raises ``ValueError`` naming it."""
    if min(last, window, top) < 1:
        raise ValueError(f"last, window and top must be at least 1 (got {last}, {window}, {top})")
    pockets = wheel(kind).pockets
    spun = [tuple(s) for s in spins]
    for i, balls in enumerate(spun, 1):
        off = [n for n in balls if n not in pockets]
        if off or not balls:
            raise ValueError(f"spin {i}: {list(balls)} is not a spin of the {kind.value} wheel")
    recent = spun[-window:]
    return RouletteBoards(
        wheel=kind,
        balls=len(spun[-1]) if spun else 0,
        spins=len(spun),
        window=len(recent),
        cold_after=len(pockets),
        last=tuple(Spin(balls=tuple(Ball(number=n, colour=colour(n)) for n in balls), newest=i == 0)
                   for i, balls in enumerate(reversed(spun[-last:]))),
        **_hot_and_cold(recent, pockets, top),
        counts=_counts(recent),
    )


def _hot_and_cold(recent: Sequence[tuple[str, ...]], pockets: Iterable[str], top: int) -> dict[str, tuple[NumberHits, ...]]:
    hits = Counter(n for balls in recent for n in balls)
    #: pocket -> spins since it was last hit (len(recent) for never in the window)
    ago = {n: len(recent) for n in pockets}
    for i, balls in enumerate(reversed(recent)):
        for n in balls:
            ago[n] = min(ago[n], i)
    ordered = sorted(ago, key=lambda n: (-hits[n], ago[n], sort_key(n)))
    hot = [n for n in ordered if hits[n]][:top]
    seen = [n for n in ago if hits[n]]
    cold = sorted(seen, key=lambda n: (hits[n], -ago[n], sort_key(n)))[:top] if len(recent) >= len(ago) else []

    def rows(numbers: list[str]) -> tuple[NumberHits, ...]:
        return tuple(NumberHits(number=n, colour=colour(n), hits=hits[n]) for n in numbers)

    return {"hot": rows(hot), "cold": rows(cold)}


def _counts(recent: Sequence[tuple[str, ...]]) -> Counts:
    values = [number(n) for balls in recent for n in balls]
    seen = [v for v in values if v is not None]
    return Counts(
        spins=len(recent), balls=len(values),
        red=sum(colour(str(v)) == "red" for v in seen), black=sum(colour(str(v)) == "black" for v in seen),
        zero=len(values) - len(seen),
        odd=sum(v % 2 for v in seen), even=sum(1 - v % 2 for v in seen),
        low=sum(v <= 18 for v in seen), high=sum(v > 18 for v in seen),
        dozen=(sum(v <= 12 for v in seen), sum(12 < v <= 24 for v in seen), sum(v > 24 for v in seen)),
        column=tuple(sum((v - 1) % 3 == c for v in seen) for c in range(3)),
    )
