"""Blackjack rule set (RULES.md §1): every row of the rule table is a setting.

Field names are the config keys of RULES.md §1 (used in table files and ``--set key=value``).
Presets ``ru6`` and ``am8`` are the two house rule sets; the variants are presets built on
``am8`` (the house that offers them), each only a different choice of the same settings.
"""

from __future__ import annotations

from enum import Enum
from fractions import Fraction
from typing import Any

from pydantic import Field, field_validator

from controller.games.base import GameRules, Limit, build_rules
from controller.money import Ratio


class Surrender(str, Enum):
    NONE = "none"
    NOT_VS_ACE = "not_vs_ace"
    ANY = "any"


class SplitBy(str, Enum):
    POINTS = "points"
    RANK = "rank"


class DealerBlackjackTakes(str, Enum):
    ALL = "all"
    ORIGINAL = "original"


class Insurance(str, Enum):
    NONE = "none"
    UP_TO_HALF = "up_to_half"  # at least half the table minimum, at most half the box bet
    EXACTLY_HALF = "exactly_half"


class DoubleOn(str, Enum):
    ANY_TWO = "any_two"
    NINE_TEN_ELEVEN = "9_10_11"
    TEN_ELEVEN = "10_11"


class BlackjackRules(GameRules):
    decks: int = Field(6, ge=1, le=8)
    #: decks dealt before the cut card comes out, drawn uniformly in [min, max]
    cut_card: tuple[float, float] = (2.0, 4.0)
    hole_card: bool = False
    #: up-card ranks on which a hole-card dealer peeks for blackjack
    peek_on: str = "TJQKA"
    dealer_hits_soft_17: bool = False
    blackjack_pays: Ratio = Fraction(3, 2)
    boxes: int = Field(7, ge=1, le=9)
    players_per_box: int = Field(3, ge=1, le=3)
    boxes_per_player: int = Field(3, ge=1, le=3)
    bet_behind: bool = False
    split_by: SplitBy = SplitBy.POINTS
    max_splits: int = Field(3, ge=0, le=3)
    split_aces_one_card: bool = True
    hit_split_aces: bool = False
    double_on: DoubleOn = DoubleOn.ANY_TWO
    double_after_split: bool = True
    #: stakes a "double" may raise the hand to (Power Blackjack: double, triple, quadruple)
    double_multipliers: tuple[int, ...] = (2,)
    double_in_dark: bool = False
    surrender: Surrender = Surrender.NOT_VS_ACE
    insurance: Insurance = Insurance.UP_TO_HALF
    insurance_pays: Ratio = Fraction(2, 1)
    even_money: bool = True
    charlie: int = 0
    dealer_blackjack_takes: DealerBlackjackTakes = DealerBlackjackTakes.ALL
    #: ranks taken out of every deck (Power Blackjack: "9T")
    removed_ranks: str = ""
    free_bet: bool = False
    dealer_22_pushes: bool = False
    side_bets: tuple[str, ...] = ()
    perfect_pairs: dict[str, Ratio] = {
        "perfect": Fraction(25),
        "coloured": Fraction(12),
        "mixed": Fraction(6),
    }
    twenty_one_plus_three: dict[str, Ratio] = {
        "suited_trips": Fraction(100),
        "straight_flush": Fraction(40),
        "three_of_a_kind": Fraction(30),
        "straight": Fraction(10),
        "flush": Fraction(5),
    }
    limits: dict[str, Limit] = {
        "main": Limit(min=100, max=500_000),
        "perfect_pairs": Limit(min=100, max=50_000),
        "21+3": Limit(min=100, max=50_000),
        "behind": Limit(min=100, max=500_000),
    }

    @field_validator("charlie")
    @classmethod
    def _charlie(cls, v: int) -> int:
        if v not in (0, 6, 7):
            raise ValueError("charlie is 0 (off), 6 or 7 cards")
        return v

    @field_validator("side_bets")
    @classmethod
    def _side_bets(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        unknown = set(v) - {"perfect_pairs", "21+3"}
        if unknown:
            raise ValueError(f"unknown side bets {sorted(unknown)}; known: perfect_pairs, 21+3")
        return v

    @field_validator("removed_ranks")
    @classmethod
    def _removed(cls, v: str) -> str:
        v = v.upper()
        if set(v) - set("23456789TJQKA"):
            raise ValueError(f"removed_ranks must be ranks of 23456789TJQKA, got {v!r}")
        return v


PRESETS: dict[str, dict[str, Any]] = {
    "ru6": {"double_in_dark": True},
    "am8": {
        "decks": 8,
        "cut_card": (16 / 3, 16 / 3),
        "players_per_box": 1,
        "boxes_per_player": 3,
        "bet_behind": True,
        "split_by": "rank",
        "split_aces_one_card": False,
        "hit_split_aces": True,
        "double_in_dark": False,
        "surrender": "any",
        "insurance": "exactly_half",
        "charlie": 7,
        "side_bets": ("perfect_pairs", "21+3"),
    },
}
_AM8 = PRESETS["am8"]
PRESETS |= {
    "free-bet": {**_AM8, "free_bet": True, "dealer_22_pushes": True, "charlie": 0},
    "infinite-free-bet": {**_AM8, "free_bet": True, "dealer_22_pushes": True, "charlie": 6},
    "power": {
        **_AM8,
        "removed_ranks": "9T",
        "double_multipliers": (2, 3, 4),
        "hole_card": True,
        "peek_on": "JQKA",
    },
    "one-blackjack": {**_AM8, "hit_split_aces": False, "charlie": 6},
}


def blackjack_rules(preset: str | None = "ru6", overrides: dict[str, Any] | None = None) -> BlackjackRules:
    return build_rules(BlackjackRules, PRESETS, preset, overrides or {})
