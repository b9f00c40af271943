"""A rule set turned into the plain lookups the round consults on every card and decision.

``BlackjackRules`` is validated pydantic data; reading its fields in the inner loop would cost
more than the game logic itself, so each rule set is compiled once into a slotted object of
plain values (cached per rules object) and rounds share it.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from controller.cards import DECK
from controller.games.base import Limit
from controller.games.blackjack.paytables import SIDE_BETS
from controller.games.blackjack.rules import (
    BlackjackRules,
    DealerBlackjackTakes,
    DoubleOn,
    Insurance,
    SplitBy,
    Surrender,
)
from controller.money import Rounding

#: Decision names of a raise to 2, 3 or 4 times the stake (Power Blackjack offers all three).
MULTIPLIER_NAMES: dict[int, str] = {2: "double", 3: "triple", 4: "quadruple"}
DOUBLE_TOTALS: dict[DoubleOn, frozenset[int] | None] = {
    DoubleOn.ANY_TWO: None,
    DoubleOn.NINE_TEN_ELEVEN: frozenset((9, 10, 11)),
    DoubleOn.TEN_ELEVEN: frozenset((10, 11)),
}
FREE_DOUBLE_TOTALS = frozenset((9, 10, 11))
DARK_TOTALS = frozenset((9, 10, 11))
ONE_TO_ONE = Fraction(1)
HALF = Fraction(1, 2)


class RoundOptions:
    """Everything a round needs from its rule set, as plain attributes."""

    __slots__ = (
        "bet_behind",
        "blackjack_pays",
        "boxes",
        "boxes_per_player",
        "charlie",
        "dealer_22_pushes",
        "double_after_split",
        "double_in_dark",
        "double_on_totals",
        "double_totals",
        "even_money",
        "free_bet",
        "hit_split_aces",
        "hits_soft_17",
        "hole_card",
        "insurance",
        "insurance_exact",
        "insurance_min",
        "insurance_pays",
        "limits",
        "main_max",
        "max_hands",
        "multiplier_names",
        "multipliers",
        "owner_share",
        "paytables",
        "peek_on",
        "players_per_box",
        "removed_ranks",
        "rounding",
        "rules",
        "shoe_cards",
        "side_bets",
        "split_aces_one_card",
        "split_by_rank",
        "surrender",
        "surrender_vs_ace",
        "takes_original",
        "two_card_options",
    )  # fmt: skip

    def __init__(self, rules: BlackjackRules) -> None:
        self.rules = rules
        self.rounding: Rounding = rules.rounding
        self.boxes = rules.boxes
        self.players_per_box = rules.players_per_box
        self.boxes_per_player = rules.boxes_per_player
        self.bet_behind = rules.bet_behind
        self.limits: dict[str, Limit] = dict(rules.limits)
        main = self.limits.get("main")
        self.main_max = main.max if main else None
        self.insurance_min = main.min // 2 if main else 1  # "at least half the table minimum"
        self.side_bets = frozenset(rules.side_bets)
        self.paytables = {kind: dict(rules.paytable(kind)) for kind in SIDE_BETS}
        self.owner_share = rules.bet_behind_owner_share
        self.hole_card = rules.hole_card
        self.peek_on = frozenset(rules.peek_on.upper()) if rules.hole_card else frozenset()
        self.hits_soft_17 = rules.dealer_hits_soft_17
        self.blackjack_pays = rules.blackjack_pays
        self.split_by_rank = rules.split_by is SplitBy.RANK
        self.max_hands = rules.max_splits + 1
        self.split_aces_one_card = rules.split_aces_one_card
        self.hit_split_aces = rules.hit_split_aces and not rules.split_aces_one_card
        self.double_totals = DOUBLE_TOTALS[rules.double_on]
        self.double_after_split = rules.double_after_split
        self.multipliers: tuple[tuple[str, int], ...] = tuple(
            (MULTIPLIER_NAMES[m], m) for m in sorted(set(rules.double_multipliers)) if m in MULTIPLIER_NAMES
        )
        self.multiplier_names = tuple(name for name, _ in self.multipliers)
        self.two_card_options = two_card_options(self.multiplier_names)
        self.double_in_dark = rules.double_in_dark
        self.surrender = rules.surrender is not Surrender.NONE
        self.surrender_vs_ace = rules.surrender is Surrender.ANY
        self.insurance = rules.insurance is not Insurance.NONE
        self.insurance_exact = rules.insurance is Insurance.EXACTLY_HALF
        self.insurance_pays = rules.insurance_pays
        self.even_money = rules.even_money
        self.charlie = rules.charlie or 99
        self.takes_original = rules.dealer_blackjack_takes is DealerBlackjackTakes.ORIGINAL
        self.removed_ranks = frozenset(rules.removed_ranks)
        self.shoe_cards = frozenset(c for c in DECK if c[0] not in self.removed_ranks)
        self.free_bet = rules.free_bet
        #: two-card totals a hand may double on (None: any), a Free Bet table's free doubles included
        self.double_on_totals = self.double_totals
        if self.double_totals is not None and self.free_bet:
            self.double_on_totals = self.double_totals | FREE_DOUBLE_TOTALS
        self.dealer_22_pushes = rules.dealer_22_pushes


def two_card_options(
    multiplier_names: tuple[str, ...],
) -> dict[tuple[bool, bool, bool, bool], tuple[str, ...]]:
    """The options offered on a two-card hand, by (may draw, may double, may split, may
    surrender): hit, stand, the raises, split, surrender, in that order."""
    table = {}
    for draw, double, split, surrender in product((False, True), repeat=4):
        options: tuple[str, ...] = ("hit", "stand") if draw else ("stand",)
        if double:
            options += multiplier_names
        if split:
            options += ("split",)
        if surrender:
            options += ("surrender",)
        table[draw, double, split, surrender] = options
    return table


_CACHE: dict[int, RoundOptions] = {}


def round_options(rules: BlackjackRules) -> RoundOptions:
    """The compiled options of ``rules`` (rules objects are frozen, so one compile each)."""
    opts = _CACHE.get(id(rules))
    if opts is None or opts.rules is not rules:
        if len(_CACHE) > 256:
            _CACHE.clear()
        opts = _CACHE[id(rules)] = RoundOptions(rules)
    return opts
