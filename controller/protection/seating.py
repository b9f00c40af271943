"""Simulated players in named styles at a table's boxes (``[simulated_players]`` in a table's
config, or ``croupier protection simulate --styles``), each keeping the Hi-Lo count of every card
the table journals, as a counter at the table would."""

from __future__ import annotations

import random
from collections.abc import Mapping

from controller.journal import Entry
from controller.people.players import SeatedPlayer
from controller.protection.hilo import ShoeCount
from controller.protection.styles import Bettor, bettor


class TableCount:
    """A ``TableLoop`` listener keeping the count the players bet by."""

    def __init__(self, decks: int) -> None:
        self.count = ShoeCount(decks)

    def on_entry(self, entry: Entry) -> None:
        self.count.apply(entry.kind, entry.payload)

    def on_prompt(self, prompt: str, core: object) -> None:
        """Prompts are for people; the players here only count."""


def player_id(style: str, box: int) -> str:
    return f"{style}-box{box}"


def seat(styles: Mapping[int, str], unit: int, count: ShoeCount, seed: int | str) -> list[SeatedPlayer]:
    """One player per box in its style, betting whole units of ``unit`` by the count."""
    return [_player(style, box, unit, count, random.Random(f"{seed}-{box}")) for box, style in sorted(styles.items())]


def _player(style: str, box: int, unit: int, count: ShoeCount, rng: random.Random) -> SeatedPlayer:
    chosen: Bettor = bettor(style, rng)

    def stakes() -> int | None:
        units = chosen.units(count.true_count)
        return None if units is None else units * unit

    return SeatedPlayer(player_id(style, box), box, unit, stakes)
