"""Where the entries of a road go on its grid of six rows, with the "dragon tail".

A road is a list of columns (a run of one kind of entry each). Its grid has ``ROWS`` rows and as
many grid columns as it needs. Convention followed (the common casino one):

* a column starts on row 0 of the grid column right of where the previous column started, or
  further right if that cell is already taken (by an earlier tail);
* it goes down while the cell below is free and on the grid; when it reaches the bottom row, or
  the cell below is taken, it turns right and stays on that row (the dragon tail), skipping any
  cell already taken so that no two entries ever share a cell.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

ROWS: Final = 6


def place(lengths: Sequence[int], rows: int = ROWS) -> list[tuple[int, int]]:
    """The (grid column, row) of every entry of a road whose columns hold ``lengths`` entries,
    column after column, top to bottom."""
    taken: set[tuple[int, int]] = set()
    spots: list[tuple[int, int]] = []
    start = -1
    for length in lengths:
        col = start + 1
        while (col, 0) in taken:
            col += 1
        start = col
        row, tailing = 0, False
        for i in range(length):
            if i:
                if not tailing and row + 1 < rows and (col, row + 1) not in taken:
                    row += 1
                else:
                    tailing = True
                    col += 1
                    while (col, row) in taken:
                        col += 1
            taken.add((col, row))
            spots.append((col, row))
    return spots


def width(spots: Sequence[tuple[int, int]]) -> int:
    """How many grid columns a road's entries span (0 for an empty road)."""
    return max((col for col, _ in spots), default=-1) + 1
