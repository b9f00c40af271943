"""Roulette rule set (docs/rules.md §4): wheel, options and paytables are data, never code branches.

Presets: ``european`` (first four off), ``american`` (00, Five Bet 6:1), ``la-partage``
(even-money bets lose half on 0), ``double-ball`` (two balls, halved inside and raised outside
pays, the two extra bets) and ``lightning`` (multiplier draw, straight up reduced to 29:1).
A ``paytable`` override is laid over the default table for the ball count, so
``--set paytable='{"straight":"29:1"}'`` changes one line only.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, ClassVar, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from controller.games.base import GameRules, Limit, build_rules
from controller.games.roulette.layout import WheelKind
from controller.games.roulette.racetrack import SECTORS
from controller.money import Ratio

#: One ball: the classic pays.
STANDARD_PAYTABLE: dict[str, Fraction] = {
    "straight": Fraction(35),
    "split": Fraction(17),
    "street": Fraction(11),
    "corner": Fraction(8),
    "six_line": Fraction(5),
    "first_four": Fraction(8),
    "five": Fraction(6),
    "column": Fraction(2),
    "dozen": Fraction(2),
    "even_money": Fraction(1),
}
#: Two balls [paytable]: an inside bet pays this per ball in it (both balls: twice the winnings);
#: an outside bet needs both balls and pays this; the two extra bets need both balls on one number.
DOUBLE_BALL_PAYTABLE: dict[str, Fraction] = {
    "straight": Fraction(17),
    "split": Fraction(8),
    "street": Fraction(5),
    "corner": Fraction(7, 2),
    "six_line": Fraction(2),
    "first_four": Fraction(7, 2),
    "five": Fraction(5, 2),
    "column": Fraction(8),
    "dozen": Fraction(8),
    "even_money": Fraction(3),
    "both_any": Fraction(34),
    "both_on": Fraction(1300),
}


class MultiplierFeature(BaseModel):
    """Lightning-style draw after betting closes: ``numbers`` straight-ups get a multiplier each.

    ``values`` maps each multiplier the draw may give to its weight; the engine only checks that a
    draw uses these values, the analysis uses the weights (and a uniform count over ``numbers``).
    The default weights are an example draw model whose mean multiplier, 103x, with 1 to 5 numbers
    and a 29:1 base, keeps the straight up at the single-zero edge of 1/37.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)
    numbers: tuple[int, int] = (1, 5)
    values: dict[int, int] = {50: 53, 100: 23, 150: 10, 200: 6, 250: 3, 300: 2, 400: 2, 500: 1}

    @model_validator(mode="after")
    def _valid(self) -> Self:
        lo, hi = self.numbers
        if not 1 <= lo <= hi <= 20:
            raise ValueError(f"multiplier numbers need 1 <= min <= max <= 20, got {self.numbers}")
        if not self.values or min(self.values) < 50 or min(self.values.values()) <= 0:
            raise ValueError("multiplier values must be 50x and up, each with a positive weight")
        return self


def _limits() -> dict[str, Limit]:
    inside = {"straight": 10_000, "split": 20_000, "street": 30_000, "corner": 40_000, "six_line": 60_000}
    out = {k: Limit(min=100, max=v) for k, v in inside.items()}
    out |= {k: Limit(min=100, max=40_000) for k in ("first_four", "five")}
    out |= {k: Limit(min=500, max=100_000) for k in ("column", "dozen")}
    out |= {k: Limit(min=500, max=200_000) for k in ("red", "black", "odd", "even", "low", "high")}
    out |= {k: Limit(min=100, max=5_000) for k in ("both_any", "both_on")}
    return out


class RouletteRules(GameRules):
    wheel: WheelKind = WheelKind.EUROPEAN
    balls: int = Field(1, ge=1, le=2)
    #: European first four 0-1-2-3 [option]
    first_four: bool = False
    #: even-money bets lose only half on 0 [option]
    la_partage: bool = False
    #: race-track called bets (neighbours, voisins, tiers, orphelins, jeu zéro)
    racetrack: bool = True
    boxes: int = Field(12, ge=1, le=99)
    paytable: dict[str, Ratio] = STANDARD_PAYTABLE
    multipliers: MultiplierFeature | None = None
    #: keyed by bet type (``straight``...``high``, ``both_any``, ``both_on``) and optionally by a
    #: called bet's name (``voisins``, ``neighbours``...) for the called bet's total
    limits: dict[str, Limit] = _limits()
    #: called bets may have a limit on their total (``voisins``...; ``neighbours`` for any of them)
    LIMIT_KINDS: ClassVar[frozenset[str]] = frozenset((*SECTORS, "neighbours"))
    PAYTABLE_LINES: ClassVar[dict[str, frozenset[str]]] = {
        "paytable": frozenset((*STANDARD_PAYTABLE, *DOUBLE_BALL_PAYTABLE))}

    @model_validator(mode="before")
    @classmethod
    def _paytable_over_default(cls, data: Any) -> Any:
        if isinstance(data, dict) and "paytable" in data:
            base = DOUBLE_BALL_PAYTABLE if data.get("balls", 1) == 2 else STANDARD_PAYTABLE
            data = {**data, "paytable": {**base, **data["paytable"]}}
        elif isinstance(data, dict) and data.get("balls", 1) == 2:
            data = {**data, "paytable": DOUBLE_BALL_PAYTABLE}
        return data

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if self.first_four and self.wheel is not WheelKind.EUROPEAN:
            raise ValueError("first_four is a European-layout bet (American tables offer the Five Bet)")
        if self.balls == 2 and (self.la_partage or self.multipliers):
            raise ValueError("double ball is not combined with la_partage or multipliers")
        if self.balls == 2 and not {"both_any", "both_on"} <= set(self.paytable):
            raise ValueError("paytable needs both_any and both_on for double ball")
        return self


PRESETS: dict[str, dict[str, Any]] = {
    "european": {},
    "american": {"wheel": "american"},
    "la-partage": {"la_partage": True},
    "double-ball": {"balls": 2},
    "lightning": {"paytable": {"straight": "29:1"}, "multipliers": {}},
}


def roulette_rules(preset: str | None = "european", overrides: dict[str, Any] | None = None) -> RouletteRules:
    return build_rules(RouletteRules, PRESETS, preset, overrides or {})
