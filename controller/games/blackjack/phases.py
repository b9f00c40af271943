"""Phases of a blackjack round and the decision vocabulary (docs/rules.md §1.1)."""

from __future__ import annotations

from typing import Final

BETTING, DEALING, INSURANCE, PLAY, DEALER, DONE = range(6)
PHASE_NAMES: Final = ("betting", "dealing", "insurance", "play", "dealer", "done")

INSURANCE_OPTIONS: Final = ("insurance", "no_insurance")
EVEN_MONEY_OPTIONS: Final = ("even_money", "no_even_money")
PLAY_ACTIONS: Final = frozenset(("hit", "stand", "double", "triple", "quadruple", "split", "surrender"))
ALL_ACTIONS: Final = PLAY_ACTIONS | frozenset(INSURANCE_OPTIONS + EVEN_MONEY_OPTIONS)
