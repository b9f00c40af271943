"""Russian five-card poker rule set (docs/rules.md §5): paytables, Bonus, exchange and misdeal
settings as data, with the ``standard`` and ``exchange`` presets."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Final

from pydantic import Field, field_validator

from controller.games.base import GameRules, Limit, build_rules
from controller.games.poker_hands import HandClass
from controller.money import Ratio

CLASS_LABELS: Final = tuple(c.label for c in HandClass)


class RussianPokerRules(GameRules):
    boxes: int = Field(6, ge=1, le=9)
    raise_multiple: int = Field(2, ge=1)
    #: Raise pays by the player's hand when he beats a qualifying dealer **[paytable]**
    raise_pays: dict[str, Ratio] = {
        "high_card": Fraction(1),  # Ace-King: the only high card that can beat a qualifier
        "pair": Fraction(1),
        "two_pair": Fraction(2),
        "trips": Fraction(3),
        "straight": Fraction(4),
        "flush": Fraction(5),
        "full_house": Fraction(7),
        "quads": Fraction(20),
        "straight_flush": Fraction(50),
        "royal_flush": Fraction(100),
    }
    bonus: bool = True
    #: the Bonus may be at most this share of the box's Ante
    bonus_max: Ratio = Fraction(1, 2)
    #: **[paytable]** default: a published house table, flush or better (its straight line dropped)
    bonus_pays: dict[str, Ratio] = {
        "flush": Fraction(50),
        "full_house": Fraction(70),
        "quads": Fraction(200),
        "straight_flush": Fraction(500),
        "royal_flush": Fraction(1000),
    }
    exchange: bool = False
    #: fee for exchanging one card, in Antes (kept by the house)
    exchange_fee: Ratio = Fraction(1)
    #: paid on top of the returned bets of a hand voided by a misdeal, in Antes
    misdeal_penalty: Ratio = Fraction(1, 2)
    limits: dict[str, Limit] = {
        "ante": Limit(min=100, max=100_000),
        "bonus": Limit(min=100, max=50_000),
    }

    @field_validator("raise_pays")
    @classmethod
    def _raise_table(cls, v: dict[str, Fraction]) -> dict[str, Fraction]:
        if set(v) != set(CLASS_LABELS):
            raise ValueError(f"raise_pays needs exactly the classes {', '.join(CLASS_LABELS)}")
        return v

    @field_validator("bonus_pays")
    @classmethod
    def _bonus_table(cls, v: dict[str, Fraction]) -> dict[str, Fraction]:
        unknown = set(v) - set(CLASS_LABELS)
        if unknown:
            raise ValueError(f"unknown bonus_pays classes {sorted(unknown)}; known: {', '.join(CLASS_LABELS)}")
        return v


PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "exchange": {"exchange": True},
}


def russian_poker_rules(preset: str | None = "standard", overrides: dict[str, Any] | None = None) -> RussianPokerRules:
    return build_rules(RussianPokerRules, PRESETS, preset, overrides or {})
