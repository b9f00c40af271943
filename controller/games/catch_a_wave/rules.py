"""Catch a Wave rule set (docs/rules.md §3): shoe, payouts and the dealer's fixed calls as data.

The dealer's calls are three rank thresholds, compiled once per rule set into per-rank tables
(``first_call``, ``next_call``) so the engine's forced-move prediction is a list lookup.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Final, Self

from pydantic import Field, PrivateAttr, field_validator, model_validator

from controller.cards import RANK_INDEX, RANKS
from controller.games.base import GameRules, Limit, build_rules
from controller.money import Ratio

HIGHER: Final = "higher"
LOWER: Final = "lower"
STAND: Final = "stand"


class CatchAWaveRules(GameRules):
    decks: int = Field(8, ge=1, le=8)
    #: **[option]** decks dealt before the cut card comes out, drawn uniformly in [min, max]
    cut_card: tuple[float, float] = (5.0, 6.0)
    boxes: int = Field(7, ge=1, le=7)
    #: right calls that catch the wave (an immediate win) and what it pays
    wave_calls: int = Field(6, ge=1, le=12)
    wave_pays: Ratio = Fraction(6)
    #: what every live bet wins when the dealer calls wrong or draws an equal card
    dealer_wrong_pays: Ratio = Fraction(1)
    #: dealer's first call: up card of this rank or lower calls higher, above it lower
    dealer_first_higher_to: str = "7"
    #: after a right call: this rank or lower calls higher, ``dealer_lower_from`` or higher calls
    #: lower, anything between stands
    dealer_higher_to: str = "4"
    dealer_lower_from: str = "J"
    limits: dict[str, Limit] = {"main": Limit(min=100, max=500_000)}

    _first: tuple[str, ...] = PrivateAttr(())
    _next: tuple[str, ...] = PrivateAttr(())

    @field_validator("dealer_first_higher_to", "dealer_higher_to", "dealer_lower_from")
    @classmethod
    def _rank(cls, v: str) -> str:
        v = "T" if v == "10" else v.upper()
        if v not in RANK_INDEX:
            raise ValueError(f"not a rank of {RANKS}: {v!r}")
        return v

    @model_validator(mode="after")
    def _thresholds(self) -> Self:
        if RANK_INDEX[self.dealer_higher_to] >= RANK_INDEX[self.dealer_lower_from]:
            raise ValueError("dealer_higher_to must rank below dealer_lower_from")
        return self

    def model_post_init(self, context: Any) -> None:
        first = RANK_INDEX[self.dealer_first_higher_to]
        up, down = RANK_INDEX[self.dealer_higher_to], RANK_INDEX[self.dealer_lower_from]
        self._first = tuple(HIGHER if i <= first else LOWER for i in range(13))
        self._next = tuple(HIGHER if i <= up else LOWER if i >= down else STAND for i in range(13))

    def dealer_call(self, last: int, right_calls: int) -> str:
        """The dealer's forced move on his last card (rank index 0 = 2 .. 12 = A)."""
        return self._next[last] if right_calls else self._first[last]


PRESETS: dict[str, dict[str, Any]] = {"standard": {}}


def catch_a_wave_rules(preset: str | None = "standard", overrides: dict[str, Any] | None = None) -> CatchAWaveRules:
    return build_rules(CatchAWaveRules, PRESETS, preset, overrides or {})
