"""Basic strategy computed from the rules: expected values over the finite shoe, then a table.

``BasicStrategy.for_rules(rules)`` runs the expected-value recursion (``strategy_ev``) over every
initial deal of the configured shoe once, keeps the house edge of optimal first decisions, and
folds the action values into lookup tables keyed by hand shape and dealer up card, so that a
decision at the table or in a simulation is a dictionary lookup.

Table keys: a two-card pair ``("P", value)``, other two-card hands ``("H2"|"S2", total)``
(values averaged over every two-card composition of that total, weighted by its probability),
hands of three or more cards ``("H"|"S", total, cards)`` computed from the shoe less the up card
(``cards`` counts only under a Charlie rule, else 0).

Modelled: finite-shoe probabilities at rank level for the initial deal and the player's own draws;
dealer blackjack after the player (no hole card) taking all or the original bet, or a peek;
S17/H17; double (triple, quadruple) on the allowed totals and after splits; splits to
``max_splits`` with optimal resplits, one-card or hittable split aces; early/late surrender;
Charlie; a dealer 22 that pushes; Free Bet's free doubles.
Approximated: the dealer's distribution is taken from the shoe less the initial three cards (not
less the player's later draws; with a peek, the player's draws are not conditioned on the hole
card either); split hands see each other's draws only through the pair cards; a Free Bet free
split is the own hand plus the house-staked hand's winnings, without resplits. For ru6 these
leave the computed edge 0.002 % from the reference; Monte Carlo runs of am8, power and free-bet
agree within 2 standard errors. Three-card-and-more decisions depend on the total only.

``theoretical_edge`` is the edge of the best action on every hand. The tables the table and the
simulations play make the same first decision on every initial deal; their hit/stand by total
after it costs ru6 without surrender 0.0032 % (0.5217 % against 0.5185 %), below what Monte
Carlo runs resolve (docs/rules.md §1, house edge of the main bet).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from controller.cards import BJ_POINTS, RANKS, TEN_VALUES
from controller.games.blackjack.rules import BlackjackRules, DealerBlackjackTakes, DoubleOn, SplitBy, Surrender
from controller.games.blackjack.strategy_ev import Deal, EvRules, soft_total

VALUE: Final = {r: BJ_POINTS[r] for r in RANKS}
DECLINES: Final = ("no_insurance", "no_even_money")
TableKey = tuple[object, ...]
#: strategies by the settings that shape them (limits, boxes and paytables do not)
_CACHE: dict[tuple[object, ...], BasicStrategy] = {}


def ev_rules(rules: BlackjackRules) -> EvRules:
    """The rank-level view of the settings that matter to expected values."""
    totals = {DoubleOn.ANY_TWO: None, DoubleOn.NINE_TEN_ELEVEN: {9, 10, 11}, DoubleOn.TEN_ELEVEN: {10, 11}}
    surrender = {
        Surrender.NONE: frozenset(),
        Surrender.NOT_VS_ACE: frozenset(range(2, 11)),
        Surrender.ANY: frozenset(range(1, 11)),
    }[rules.surrender]
    double_totals = totals[rules.double_on]
    return EvRules(
        hits_soft_17=rules.dealer_hits_soft_17,
        blackjack_pays=float(rules.blackjack_pays),
        max_hands=rules.max_splits + 1,
        split_aces_hittable=rules.hit_split_aces and not rules.split_aces_one_card,
        resplit_aces=not rules.split_aces_one_card,
        double_totals=None if double_totals is None else frozenset(double_totals),
        double_after_split=rules.double_after_split,
        multipliers=tuple(sorted(rules.double_multipliers)),
        surrender_vs=surrender,
        charlie=rules.charlie,
        dealer_22_pushes=rules.dealer_22_pushes,
        free_bet=rules.free_bet,
        peek_on=frozenset(VALUE[r] for r in rules.peek_on) if rules.hole_card else frozenset(),
        takes_all=rules.dealer_blackjack_takes is DealerBlackjackTakes.ALL,
    )


def shoe_counts(rules: BlackjackRules) -> tuple[list[int], list[int]]:
    """Cards per value (index 1..10) in a full shoe, and per ten-value rank (for rank splits)."""
    counts = [0] * 11
    tens = []
    for r in RANKS:
        if r in rules.removed_ranks:
            continue
        counts[VALUE[r]] += 4 * rules.decks
        if r in TEN_VALUES:
            tens.append(4 * rules.decks)
    return counts, tens


class BasicStrategy:
    """Optimal decisions for a rule set, and the house edge they leave."""

    def __init__(self, rules: BlackjackRules) -> None:
        self.rules = rules
        self._ev_rules = ev_rules(rules)
        self._counts, self._tens = shoe_counts(rules)
        self._sums: dict[tuple[TableKey, int], dict[str, list[float]]] = {}
        #: expected value of each action, by (table key, up value): for reports and tests
        self.values: dict[tuple[TableKey, int], dict[str, float]] = {}
        self._table: dict[tuple[TableKey, int], tuple[str, ...]] = {}
        self.theoretical_edge = -self._first_two_cards()
        self._fold()
        self._more_cards()

    @classmethod
    def for_rules(cls, rules: BlackjackRules) -> BasicStrategy:
        """The strategy for these rules, computed once per distinct rule set."""
        key = cls.cache_key(rules)
        found = _CACHE.get(key)
        if found is None:
            if len(_CACHE) >= 32:
                _CACHE.clear()
            found = _CACHE[key] = cls(rules)
        return found

    @staticmethod
    def cache_key(rules: BlackjackRules) -> tuple[object, ...]:
        """What the strategy depends on: equal keys, equal strategies."""
        return (ev_rules(rules), rules.decks, rules.removed_ranks, rules.split_by)

    @classmethod
    def remember(cls, rules: BlackjackRules, strategy: BasicStrategy) -> None:
        """Put a strategy (``from_table``) where ``for_rules`` finds it."""
        _CACHE[cls.cache_key(rules)] = strategy

    def decision_table(self) -> list[list[object]]:
        """The decisions as plain data (``[key, up, ranking]`` rows), for a cache kept outside."""
        return [[list(key), up, list(ranking)] for (key, up), ranking in self._table.items()]

    @classmethod
    def from_table(cls, rules: BlackjackRules, rows: Sequence[Sequence[object]]) -> BasicStrategy:
        """A strategy that decides from ``decision_table`` rows (no EVs: ``values`` is empty)."""
        strategy = cls.__new__(cls)
        strategy.rules = rules
        strategy._ev_rules = ev_rules(rules)
        strategy._counts, strategy._tens = shoe_counts(rules)
        strategy._sums = {}
        strategy.values = {}
        strategy.theoretical_edge = float("nan")
        strategy._table = {}
        for key, up, ranking in rows:
            assert isinstance(key, list) and isinstance(up, int) and isinstance(ranking, list)
            strategy._table[(tuple(key), up)] = tuple(str(a) for a in ranking)
        return strategy

    # ---------------------------------------------------------------- building
    def _first_two_cards(self) -> float:
        """Probability-weighted value of the best first decision over every initial deal."""
        c = self._counts
        n = sum(c)
        r = self._ev_rules
        total = 0.0
        for up in range(1, 11):
            if not c[up]:
                continue
            for p1 in range(1, 11):
                for p2 in range(p1, 11):
                    prob = _deal_probability(c, n, p1, p2, up)
                    if prob == 0.0:
                        continue
                    deal = Deal(r, c, (p1, p2), up)
                    if {p1, p2} == {1, 10}:
                        total += prob * deal.natural()
                        continue
                    splittable = self._splittable_share(p1, p2)
                    acts = deal.first_actions(p1, p2, splittable > 0)
                    best = max(acts.values())
                    if 0 < splittable < 1:
                        no_split = max(v for a, v in acts.items() if a != "split")
                        best = splittable * best + (1 - splittable) * no_split
                    total += prob * best
                    self._add(_two_card_key(p1, p2), up, prob, acts)
        return total

    def _splittable_share(self, p1: int, p2: int) -> float:
        """Share of the two-card hands of these values that the rules let split."""
        if p1 != p2:
            return 0.0
        if p1 != 10 or self.rules.split_by is SplitBy.POINTS:
            return 1.0
        same = sum(k * (k - 1) for k in self._tens)
        n = sum(self._tens)
        return same / (n * (n - 1)) if n > 1 else 0.0

    def _add(self, key: TableKey, up: int, weight: float, acts: dict[str, float]) -> None:
        slot = self._sums.setdefault((key, up), {})
        for action, ev in acts.items():
            acc = slot.setdefault(action, [0.0, 0.0])
            acc[0] += weight * ev
            acc[1] += weight

    def _fold(self) -> None:
        for where, slot in self._sums.items():
            self.values[where] = {a: s / w for a, (s, w) in slot.items()}
        self._sums.clear()
        for where, vals in self.values.items():
            self._table[where] = tuple(sorted(vals, key=vals.__getitem__, reverse=True))

    def _more_cards(self) -> None:
        """Hit or stand for hands of three or more cards, from the shoe less the up card."""
        r = self._ev_rules
        c = self._counts
        sizes = range(3, r.charlie) if r.charlie else (3,)
        for up in range(1, 11):
            if not c[up]:
                continue
            deal = Deal(r, c, (), up)
            for ncards in sizes:
                shown = ncards if r.charlie else 0
                for hard in range(3, 22):  # 3: A-A-A, a soft 13
                    for ace in (False, True):
                        if ace and hard > 11:
                            continue
                        total = soft_total(hard, ace)
                        vals = {"stand": deal.stand[total]}
                        if total < 21:
                            vals["hit"] = deal.hit(hard, ace, ncards, 0)
                        key: TableKey = ("S" if ace else "H", total, shown)
                        self.values[(key, up)] = vals
                        self._table[(key, up)] = tuple(sorted(vals, key=vals.__getitem__, reverse=True))

    # ---------------------------------------------------------------- deciding
    def decide(self, cards: Sequence[str], dealer_up: str, options: Sequence[str]) -> str:
        """The best of ``options`` for a hand of ``cards`` against ``dealer_up``.

        Insurance and even money are always declined when offered.
        """
        for decline in DECLINES:
            if decline in options:
                return decline
        ranking = self._table.get((self.key(cards), VALUE[dealer_up[0]]))
        if ranking is None:  # a hand shape the tables do not hold (e.g. a 21): keep it
            ranking = ("stand", "hit")
        for action in ranking:
            if action in options:
                return action
        return "stand" if "stand" in options else options[0]

    def key(self, cards: Sequence[str]) -> TableKey:
        """The table key of a hand (see the module docstring)."""
        values = [VALUE[c[0]] for c in cards]
        hard = sum(values)
        ace = 1 in values
        total = soft_total(hard, ace)
        soft = total != hard
        if len(values) == 2:
            if values[0] == values[1]:
                return ("P", values[0])
            return ("S2" if soft else "H2", total)
        charlie = self.rules.charlie
        return ("S" if soft else "H", total, min(len(values), charlie - 1) if charlie else 0)


def _two_card_key(p1: int, p2: int) -> TableKey:
    if p1 == p2:
        return ("P", p1)
    total = soft_total(p1 + p2, 1 in (p1, p2))
    return ("S2" if total != p1 + p2 else "H2", total)


def _deal_probability(c: Sequence[int], n: int, p1: int, p2: int, up: int) -> float:
    """Probability that the player's two cards are ``{p1, p2}`` and the up card ``up``."""
    left = list(c)
    prob = 1.0
    for i, v in enumerate((p1, p2, up)):
        if left[v] <= 0:
            return 0.0
        prob *= left[v] / (n - i)
        left[v] -= 1
    return prob * (2 if p1 != p2 else 1)

