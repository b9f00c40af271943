"""Result boards: what a table's round records show on its boards (baccarat's roads, roulette's
last numbers, hot and cold), computed by each game's own ``board`` module (the game declares its
``Boards``, controller/table/game.py) and drawn by the pages.

``boards_for(records, boards_of)`` builds the boards of the records' game, found by the caller's
``boards_of`` (the game registry's); this package names no game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from controller.boards.model import Board


class Boards(NamedTuple):
    #: the boards of a game's records, oldest first
    build: Callable[[Iterable[Mapping[str, Any]]], Board]
    #: the boards start afresh with each shoe (they read the newest record's shoe only)
    per_shoe: bool = False



def boards_for(records: Sequence[Mapping[str, Any]], boards_of: Callable[[str], Boards | None]) -> dict[str, Any]:
    """The boards, as plain JSON, of the newest record's game, from the records of that game
    (oldest first), and of its shoe only for a game whose boards start afresh with each shoe
    (baccarat's roads). Empty when there is no record or the game keeps no board."""
    if not records:
        return {}
    newest = records[-1]
    boards = boards_of(str(newest.get("game")))
    if boards is None:
        return {}
    same = [r for r in records if r.get("game") == newest.get("game")]
    if boards.per_shoe:
        same = [r for r in same if r.get("shoe") == newest.get("shoe")]
    return boards.build(same).as_json()
