"""Blackjack rule set (docs/rules.md, blackjack): every row of the rule table is a setting.

Field names are the config keys of the rule book (used in table files and ``--set key=value``).
Presets ``ru6`` and ``am8`` are the two house rule sets; the variants are presets built on
``am8`` (the house that offers them), each only a different choice of the same settings.
"""

from __future__ import annotations

from enum import Enum
from fractions import Fraction
from typing import Any

from pydantic import Field, ValidationInfo, field_validator

from controller.games.base import GameRules, Limit, build_rules
from controller.games.blackjack.paytables import (
    PAYTABLE_KEYS,
    SIDE_BETS,
    check_paytable,
    default_paytable,
    unknown_names,
)
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


def _default_limits() -> dict[str, Limit]:
    """Main bet and Bet Behind 1.00 to 5,000.00, every side bet 1.00 to 500.00 (minor units)."""
    return {
        "main": Limit(min=100, max=500_000),
        "behind": Limit(min=100, max=500_000),
        **{kind: Limit(min=100, max=50_000) for kind in SIDE_BETS},
    }


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
    #: bet_behind_owner_share: the fraction of a winning Bet Behind's net win paid to the box owner
    bet_behind_owner_share: Ratio = Fraction(0)
    #: the side bets the table offers (bet kinds of ``paytables.SIDE_BETS``)
    side_bets: tuple[str, ...] = ()
    # one paytable per side bet (line -> ratio), named as in docs/rules.md §1.2
    perfect_pairs: dict[str, Ratio] = Field(default_factory=lambda: default_paytable("perfect_pairs"))
    twenty_one_plus_three: dict[str, Ratio] = Field(default_factory=lambda: default_paytable("21+3"))
    suit_em_up: dict[str, Ratio] = Field(default_factory=lambda: default_paytable("suit_em_up"))
    lucky_lucky: dict[str, Ratio] = Field(default_factory=lambda: default_paytable("lucky_lucky"))
    hot_3: dict[str, Ratio] = Field(default_factory=lambda: default_paytable("hot_3"))
    bust_it: dict[str, Ratio] = Field(default_factory=lambda: default_paytable("bust_it"))
    crazy_7: dict[str, Ratio] = Field(default_factory=lambda: default_paytable("crazy_7"))
    limits: dict[str, Limit] = _default_limits()

    def paytable(self, kind: str) -> dict[str, Fraction]:
        """The paytable of side bet ``kind`` (a key of ``paytables.SIDE_BETS``)."""
        table: dict[str, Fraction] = getattr(self, SIDE_BETS[kind][0])
        return table

    @field_validator("perfect_pairs", "twenty_one_plus_three", "suit_em_up", "lucky_lucky", "hot_3", "bust_it", "crazy_7")
    @classmethod
    def _paytable(cls, v: dict[str, Fraction], info: ValidationInfo) -> dict[str, Fraction]:
        check_paytable(PAYTABLE_KEYS[str(info.field_name)], v)
        return v

    @field_validator("limits")
    @classmethod
    def _limit_kinds(cls, v: dict[str, Limit]) -> dict[str, Limit]:
        error = unknown_names(v, ("main", "behind", *SIDE_BETS), "[limits] bet kind(s)")
        if error:
            raise ValueError(error)
        return v

    @field_validator("bet_behind_owner_share")
    @classmethod
    def _owner_share(cls, v: Fraction) -> Fraction:
        if not 0 <= v <= 1:
            raise ValueError(f"bet_behind_owner_share is a fraction from 0 to 1, not {v}")
        return v

    @field_validator("charlie")
    @classmethod
    def _charlie(cls, v: int) -> int:
        if v not in (0, 6, 7):
            raise ValueError("charlie is 0 (off), 6 or 7 cards")
        return v

    @field_validator("side_bets")
    @classmethod
    def _side_bets(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        error = unknown_names(v, SIDE_BETS, "side bet(s)")
        if error:
            raise ValueError(error)
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
