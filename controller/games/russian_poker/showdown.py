"""What a Russian poker box is paid when the dealer's hand is shown (docs/rules.md §5), as pure
functions of the stakes and the hands; the round (``round``) decides when and records it."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from controller.games.poker_hands import AK_HIGH, evaluate, hand_class
from controller.games.russian_poker.rules import RussianPokerRules
from controller.money import win


def raised_payout(rules: RussianPokerRules, hand_key: int, dealer_key: int, ante: int, raised: int) -> tuple[int, int]:
    """(Ante, Raise) returned to a raised box whose hand evaluates to ``hand_key``: even money on
    the Ante and the Raise back when the dealer does not qualify (below AK high), nothing on a
    loss, the stakes back on a tie, else even money on the Ante and the Raise at its hand's odds."""
    rounding = rules.rounding
    if dealer_key < AK_HIGH:
        return win(ante, Fraction(1), rounding), raised
    if hand_key < dealer_key:
        return 0, 0
    if hand_key == dealer_key:
        return ante, raised
    ratio = rules.raise_pays[hand_class(hand_key).label]
    return win(ante, Fraction(1), rounding), win(raised, ratio, rounding)


def bonus_payout(rules: RussianPokerRules, bonus: int, dealt: Sequence[str], exchanged: bool) -> int:
    """The Bonus on the five cards as dealt, raised or folded; lost by an exchange."""
    if not bonus or exchanged:
        return 0
    ratio = rules.bonus_pays.get(hand_class(evaluate(dealt)).label)
    return 0 if ratio is None else win(bonus, ratio, rules.rounding)


def most_returned(rules: RussianPokerRules, kind: str, stake: int) -> int | None:
    """The most a ``kind`` row of ``stake`` returns at this table, stake included: the Ante even
    money (or its misdeal penalty on top), the Raise its paytable's top line, the Bonus its top
    line; an exchange fee is kept by the house (0)."""
    top = {"ante": max(Fraction(1), rules.misdeal_penalty), "raise": max(rules.raise_pays.values()),
           "bonus": max(rules.bonus_pays.values(), default=Fraction(0))}
    if kind == "exchange":
        return 0
    ratio = top.get(kind)
    return None if ratio is None else win(stake, ratio, rules.rounding)
