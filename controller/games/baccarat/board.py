"""Baccarat's result boards for one shoe: bead plate, big road and the three derived roads.

Built from the shoe's coups in the order dealt (``from_records``, ``from_outcomes`` or
``from_coups``); a void coup, or one with no winner, is no result and is left out.

Conventions followed (the common casino ones):

* **Bead plate**: one cell per coup, six rows, filled down each column then left to right.
  Each cell tells the winner, a natural and the pairs (a pair is the hand's first two cards of
  one rank).
* **Big road**: one cell per Banker or Player win; a new column on each change of winner; the
  columns are laid on six rows with the dragon tail (``controller.boards.grid``). A tie is no
  cell: it adds one to the ``ties`` of the last cell, so ties stacked on a cell keep their count.
  Ties before any Banker or Player win are the road's ``leading_ties``; once the first cell is
  drawn they are counted on it as well (its ``ties`` include them), as casinos draw them.
* **Derived roads** (big eye boy, small road, cockroach pig: ``k`` = 1, 2, 3) add one entry per
  big-road cell from the one where the compared column first exists. For a cell on row ``r`` of
  big-road column ``c`` (rows and columns as the road runs, before any tail):

  - ``r = 0`` (a new column; needs ``c >= k + 1``): red if columns ``c - 1`` and ``c - 1 - k``
    have the same length, else blue;
  - ``r > 0`` (needs ``c >= k``): blue if column ``c - k`` has exactly ``r`` cells (it has the
    row above but not this one), else red (it has this row, or lacks the row above as well).

  So big eye boy starts at column 2's second cell or column 3's first, whichever comes first.
  Each derived road is a road of its own: a new column on each change of colour, the same six
  rows and dragon tail.
* ``ask``: the colour each derived road would add if the next coup were a Banker or a Player
  win (a road that would add nothing yet is left out).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import groupby
from typing import Any, Final, Literal

from controller.boards.grid import ROWS, place, width
from controller.boards.model import Board
from controller.games.baccarat import BaccaratOutcome

Winner = Literal["banker", "player", "tie"]
Side = Literal["banker", "player"]
Colour = Literal["red", "blue"]
#: derived road name -> how many columns back it compares
DERIVED: Final = (("big_eye_boy", 1), ("small_road", 2), ("cockroach_pig", 3))


class Coup(Board):
    """One coup's result as the boards read it."""

    winner: Winner
    natural: bool = False
    player_pair: bool = False
    banker_pair: bool = False

    @classmethod
    def of(cls, outcome: BaccaratOutcome) -> Coup | None:
        """The result of a finished coup; None for a void coup or one still being dealt."""
        if outcome.winner not in ("banker", "player", "tie") or outcome.void:
            return None
        return cls(winner=outcome.winner, natural=outcome.natural,
                   player_pair=_pair(outcome.player.cards), banker_pair=_pair(outcome.banker.cards))


def _pair(cards: Sequence[str]) -> bool:
    return len(cards) >= 2 and cards[0][0] == cards[1][0]


class BeadCell(Coup):
    col: int
    row: int


class BeadPlate(Board):
    rows: int = ROWS
    width: int
    cells: tuple[BeadCell, ...]


class RoadCell(Board):
    """A Banker or Player win on the big road, with the ties marked on it."""

    col: int
    row: int
    winner: Side
    ties: int
    natural: bool
    player_pair: bool
    banker_pair: bool


class BigRoad(Board):
    rows: int = ROWS
    width: int
    #: ties before the first Banker or Player win (also counted on the first cell once drawn)
    leading_ties: int
    #: how many cells each column holds, as the road runs (a dragon tail included)
    columns: tuple[int, ...]
    cells: tuple[RoadCell, ...]


class DerivedCell(Board):
    col: int
    row: int
    colour: Colour


class DerivedRoad(Board):
    name: str
    #: how many big-road columns back it compares
    offset: int
    rows: int = ROWS
    width: int
    cells: tuple[DerivedCell, ...]


class Counts(Board):
    hands: int
    banker: int
    player: int
    tie: int
    player_pairs: int
    banker_pairs: int
    naturals: int


class BaccaratBoards(Board):
    game: Literal["baccarat"] = "baccarat"
    counts: Counts
    bead_plate: BeadPlate
    big_road: BigRoad
    big_eye_boy: DerivedRoad
    small_road: DerivedRoad
    cockroach_pig: DerivedRoad
    #: next winner (banker / player) -> derived road name -> the colour it would add
    ask: dict[Side, dict[str, Colour]]


# ----------------------------------------------------------------------- building
def from_records(records: Iterable[Mapping[str, Any]]) -> BaccaratBoards:
    """The boards of a shoe's round records (``croupier recall --json``, the feed's ``round``),
    oldest first; void records and outcomes that are not a finished coup are skipped."""
    outcomes = []
    for record in records:
        if record.get("status") == "void":
            continue
        outcome = BaccaratOutcome.from_record(record.get("outcome"))
        if outcome is not None:
            outcomes.append(outcome)
    return from_outcomes(outcomes)


def from_outcomes(outcomes: Iterable[BaccaratOutcome]) -> BaccaratBoards:
    return from_coups(c for c in map(Coup.of, outcomes) if c is not None)


def from_coups(coups: Iterable[Coup]) -> BaccaratBoards:
    results = list(coups)
    beads = tuple(BeadCell(col=i // ROWS, row=i % ROWS, **c.model_dump()) for i, c in enumerate(results))
    road = big_road(results)
    return BaccaratBoards(
        counts=_counts(results),
        bead_plate=BeadPlate(width=width([(b.col, b.row) for b in beads]), cells=beads),
        big_road=road,
        **{name: derived_road(road.columns, name, k) for name, k in DERIVED},
        ask=_ask(road),
    )


def _counts(results: Sequence[Coup]) -> Counts:
    def n(flag: str) -> int:
        return sum(bool(getattr(c, flag)) for c in results)

    winners = [c.winner for c in results]
    return Counts(hands=len(results), banker=winners.count("banker"), player=winners.count("player"),
                  tie=winners.count("tie"), player_pairs=n("player_pair"), banker_pairs=n("banker_pair"),
                  naturals=n("natural"))


def big_road(results: Sequence[Coup]) -> BigRoad:
    wins: list[Coup] = []
    ties: list[int] = []  # per win, the ties marked on its cell
    leading = 0
    for coup in results:
        if coup.winner != "tie":
            wins.append(coup)
            ties.append(leading if len(wins) == 1 else 0)
        elif wins:
            ties[-1] += 1
        else:
            leading += 1
    columns = tuple(len(list(run)) for _, run in groupby(c.winner for c in wins))
    spots = place(columns)
    cells = tuple(
        RoadCell(col=col, row=row, winner="banker" if c.winner == "banker" else "player", ties=t,
                 natural=c.natural, player_pair=c.player_pair, banker_pair=c.banker_pair)
        for (col, row), c, t in zip(spots, wins, ties, strict=True)
    )
    return BigRoad(width=width(spots), leading_ties=leading, columns=columns, cells=cells)


def derived_colour(columns: Sequence[int], col: int, row: int, k: int) -> Colour | None:
    """The colour a derived road comparing ``k`` columns back gives the big-road cell on ``row``
    of column ``col`` (``columns`` holds the lengths of the columns before ``col``); None where
    the road has no entry for that cell yet."""
    if row == 0:
        if col < k + 1:
            return None
        return "red" if columns[col - 1] == columns[col - 1 - k] else "blue"
    if col < k:
        return None
    return "blue" if columns[col - k] == row else "red"


def derived_colours(columns: Sequence[int], k: int) -> list[Colour]:
    """Every entry of the derived road comparing ``k`` columns back, in order."""
    found = (derived_colour(columns, c, r, k) for c, length in enumerate(columns) for r in range(length))
    return [colour for colour in found if colour is not None]


def derived_road(columns: Sequence[int], name: str, k: int) -> DerivedRoad:
    colours = derived_colours(columns, k)
    runs = [(colour, len(list(run))) for colour, run in groupby(colours)]
    spots = place([n for _, n in runs])
    cells = tuple(DerivedCell(col=col, row=row, colour=colour)
                  for (col, row), colour in zip(spots, colours, strict=True))
    return DerivedRoad(name=name, offset=k, width=width(spots), cells=cells)


def _ask(road: BigRoad) -> dict[Side, dict[str, Colour]]:
    """The colour each derived road would add for a Banker or a Player win next."""
    columns, last = road.columns, (road.cells[-1].winner if road.cells else None)
    asks: dict[Side, dict[str, Colour]] = {}
    side: Side
    for side in ("banker", "player"):
        if last is None:
            col, row = 0, 0
        elif side == last:
            col, row = len(columns) - 1, columns[-1]
        else:
            col, row = len(columns), 0
        colours = {name: derived_colour(columns, col, row, k) for name, k in DERIVED}
        asks[side] = {name: colour for name, colour in colours.items() if colour is not None}
    return asks
