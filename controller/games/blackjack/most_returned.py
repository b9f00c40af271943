"""The most one blackjack bet can return at a table, for the bound of a corrected payout.

Read from the table's own rules: a main or Bet Behind hand wins at most ``blackjack_pays``
(or 1:1, a Charlie, when that pays more), on its stake plus, at a Free Bet table, the free
money the house may put beside it (at most the main bet's table maximum); insurance pays
``insurance_pays``; a side bet its paytable's top line. The owner's share of a Bet Behind
(stake 0) and any other row have no bound of their own here (None).
"""

from __future__ import annotations

from fractions import Fraction

from controller.games.blackjack.paytables import SIDE_KINDS
from controller.games.blackjack.rules import BlackjackRules
from controller.money import scale

HAND_KINDS = frozenset(("main", "behind", "behind_stay"))


def most_returned(rules: BlackjackRules, kind: str, stake: int) -> int | None:
    """The most a ``kind`` bet of ``stake`` (minor units, doubles included) returns, stake included."""
    if kind in HAND_KINDS:
        main = rules.limits.get("main")
        free = main.max if rules.free_bet and main is not None else 0
        return stake + scale(stake + free, max(rules.blackjack_pays, Fraction(1)), rules.rounding)
    if kind == "insurance":
        return stake + scale(stake, rules.insurance_pays, rules.rounding)
    if kind in SIDE_KINDS:
        top = max(rules.paytable(kind).values(), default=Fraction(0))
        return stake + scale(stake, top, rules.rounding)
    return None
