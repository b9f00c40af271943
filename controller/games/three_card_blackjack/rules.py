"""Three Card Blackjack rule set (docs/rules.md §2): the settings and the Ace Plus paytable as data."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Final

from pydantic import Field, field_validator

from controller.games.base import GameRules, Limit, build_rules
from controller.money import Ratio

#: Ace Plus lines in the house sheet's notation (T = ten-value card, x = any other card).
ACE_PLUS_LINES: Final = ("A-A-A", "A-A-T", "A-A-x", "A-T-T", "A-T-x", "A-x-x")


class ThreeCardBlackjackRules(GameRules):
    boxes: int = Field(5, ge=1, le=5)
    #: the dealer's hand qualifies with this total or more (blackjack always qualifies)
    dealer_qualifies: int = Field(17, ge=2, le=21)
    #: what a player blackjack wins on the Ante when the dealer does not qualify (the Bet pushes)
    non_qualifying_blackjack_pays: Ratio = Fraction(1)
    ace_plus: bool = True
    #: **[paytable]** of the house sheet; a line left out loses like a hand with no ace
    ace_plus_pays: dict[str, Ratio] = {
        "A-A-A": Fraction(100),
        "A-A-T": Fraction(25),
        "A-A-x": Fraction(15),
        "A-T-T": Fraction(6),
        "A-T-x": Fraction(3),
        "A-x-x": Fraction(1),
    }
    limits: dict[str, Limit] = {
        "ante": Limit(min=100, max=500_000),
        "ace_plus": Limit(min=100, max=50_000),
    }

    @field_validator("ace_plus_pays")
    @classmethod
    def _known_lines(cls, v: dict[str, Fraction]) -> dict[str, Fraction]:
        unknown = set(v) - set(ACE_PLUS_LINES)
        if unknown:
            raise ValueError(f"unknown Ace Plus lines {sorted(unknown)}; known: {', '.join(ACE_PLUS_LINES)}")
        return v


PRESETS: dict[str, dict[str, Any]] = {"standard": {}}


def three_card_blackjack_rules(
    preset: str | None = "standard", overrides: dict[str, Any] | None = None
) -> ThreeCardBlackjackRules:
    return build_rules(ThreeCardBlackjackRules, PRESETS, preset, overrides or {})
