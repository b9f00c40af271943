"""Notation for hand-worked shoes and road grids, shared by the boards tests.

A shoe is a string of ``B`` (Banker wins), ``P`` (Player wins) and ``T`` (tie); spaces are for
reading only. A grid is six lines of whitespace-separated tokens, one per grid column: ``.`` an
empty cell; on the big road ``B``/``P`` and the ties marked on the cell (``P2`` = a Player win
with two ties on it); on a derived road ``R`` red and ``B`` blue.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from controller.games.baccarat.board import Coup

WINNERS = {"B": "banker", "P": "player", "T": "tie"}


def shoe(text: str) -> list[Coup]:
    return [Coup(winner=WINNERS[ch]) for ch in text if not ch.isspace()]


def parse_grid(text: str) -> list[list[str]]:
    rows = [line.split() for line in text.strip().splitlines()]
    assert len(rows) == 6 and len({len(r) for r in rows}) == 1, "a grid is six rows of equal width"
    return rows


def render(cells: Iterable[Any], token: Callable[[Any], str], width: int) -> list[list[str]]:
    grid = [["."] * width for _ in range(6)]
    for cell in cells:
        assert grid[cell.row][cell.col] == ".", f"two entries on ({cell.col}, {cell.row})"
        grid[cell.row][cell.col] = token(cell)
    return grid


def road_token(cell: Any) -> str:
    return cell.winner[0].upper() + (str(cell.ties) if cell.ties else "")


def derived_token(cell: Any) -> str:
    return "R" if cell.colour == "red" else "B"
