"""Race-track called bets: each is a set of layout chips of equal units (standard chip layouts).

The named sectors belong to the European wheel; neighbours follow the table's own wheel.
"""

from __future__ import annotations

from typing import Final

from controller.games.base import BetRefused
from controller.games.roulette.layout import Wheel, WheelKind

#: sector -> (layout chip, units of the called bet's unit chip)
SECTORS: Final[dict[str, tuple[tuple[str, int], ...]]] = {
    # voisins du zéro, 9 chips: 0-2-3 trio x2, five splits, 25-26-28-29 corner x2
    "voisins": (
        ("street:0-2-3", 2),
        ("split:4-7", 1),
        ("split:12-15", 1),
        ("split:18-21", 1),
        ("split:19-22", 1),
        ("split:32-35", 1),
        ("corner:25-26-28-29", 2),
    ),
    # tiers du cylindre, 6 splits
    "tiers": (
        ("split:5-8", 1),
        ("split:10-11", 1),
        ("split:13-16", 1),
        ("split:23-24", 1),
        ("split:27-30", 1),
        ("split:33-36", 1),
    ),
    # orphelins, 5 chips
    "orphelins": (
        ("straight:1", 1),
        ("split:6-9", 1),
        ("split:14-17", 1),
        ("split:17-20", 1),
        ("split:31-34", 1),
    ),
    # jeu zéro, 4 chips
    "jeu_zero": (("split:0-3", 1), ("split:12-15", 1), ("straight:26", 1), ("split:32-35", 1)),
}
MAX_NEIGHBOURS: Final = 9


def is_called(kind: str) -> bool:
    return kind in SECTORS or kind.startswith("neighbours:")


def called_chips(kind: str, wheel: Wheel) -> tuple[str, tuple[tuple[str, int], ...]]:
    """The canonical kind and the chips of a called bet (``kind`` passed ``is_called``)."""
    if kind in SECTORS:
        if wheel.kind is not WheelKind.EUROPEAN:
            raise BetRefused("roulette.offered", f"{kind} is a European-wheel sector")
        return kind, SECTORS[kind]
    parts = kind.split(":")
    if len(parts) != 3 or parts[1] not in wheel.pockets or not parts[2].isdigit():
        raise BetRefused("roulette.kind", f"neighbours bet is neighbours:<number>:<1..9>, not {kind!r}")
    n = int(parts[2])
    if not 1 <= n <= MAX_NEIGHBOURS:
        raise BetRefused("roulette.kind", f"neighbours take 1 to {MAX_NEIGHBOURS} each side, not {n}")
    return f"neighbours:{parts[1]}:{n}", tuple((f"straight:{p}", 1) for p in wheel.neighbours(parts[1], n))
