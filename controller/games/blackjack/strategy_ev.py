"""Player expected values for one initial deal, by recursion over the remaining shoe.

A *deal* is the player's two cards and the dealer's up card; everything below is relative to
the shoe less those three cards (rank level, A=1 .. ten=10). The player's own draws deplete the
shoe exactly (memoised on the multiset drawn); the dealer's outcome distribution is taken once
for the deal's composition (the player's later draws barely move it, and recomputing it per
player state would cost minutes instead of seconds).

Values here are "per hand, given no dealer blackjack" (``cond_*``) or *full* values that fold the
dealer-blackjack risk in according to the rules (``DealerBlackjack``); the strategy module adds
them up over every deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from controller.games.blackjack.strategy_dealer import (
    BUST,
    BUST22,
    DEALER_BJ,
    KEY_WEIGHTS,
    dealer_outcomes,
)


@dataclass(frozen=True, slots=True)
class EvRules:
    """The rule settings that change expected values, in rank-level terms."""

    hits_soft_17: bool
    blackjack_pays: float
    max_hands: int
    split_aces_hittable: bool
    resplit_aces: bool
    double_totals: frozenset[int] | None  # hard totals a first-two-card double allows; None: any
    double_after_split: bool
    multipliers: tuple[int, ...]  # stakes a double may raise the hand to: (2,) or (2, 3, 4)
    surrender_vs: frozenset[int]  # dealer up values against which surrender is offered
    charlie: int  # 0: none
    dealer_22_pushes: bool
    free_bet: bool
    peek_on: frozenset[int]  # up values on which a hole-card dealer peeks
    takes_all: bool  # unpeeked dealer blackjack takes doubles and splits too


#: two-card totals a Free Bet table doubles for free (docs/rules.md 1.2)
FREE_DOUBLE_TOTALS = frozenset((9, 10, 11))


def soft_total(hard: int, ace: bool) -> int:
    return hard + 10 if ace and hard <= 11 else hard


class DealerBlackjack:
    """How a dealer blackjack against the up card folds into a hand's value.

    ``full(cond, stake)`` turns a value given no dealer blackjack into the full expectation for
    a hand carrying ``stake`` initial bets; ``box`` is what the dealer blackjack costs once per
    box whatever the player does (peeked or 'original bet only').
    """

    __slots__ = ("box", "p", "per_stake", "surrender")

    def __init__(self, p: float, peeked: bool, takes_all: bool) -> None:
        self.p = p
        per_hand = not peeked and takes_all
        self.per_stake = -p if per_hand else 0.0
        self.box = 0.0 if per_hand else -p
        # with no peek, surrender is settled before the hole card: it is early surrender
        self.surrender = -p + (1 - p) * -0.5 if peeked else -0.5

    def full(self, cond: float, stake: float = 1.0) -> float:
        return (1 - self.p) * cond + self.per_stake * stake


class Deal:
    """Expected values of the decisions open to a hand against ``up``, for one shoe state."""

    def __init__(self, rules: EvRules, counts: Sequence[int], seen: Sequence[int], up: int) -> None:
        """``seen``: the player's cards already out of the shoe (both, or none for a generic
        total); ``up``: the dealer's up card."""
        self.rules = rules
        self.up = up
        c = list(counts)
        for v in (*seen, up):
            c[v] -= 1
        self.c = c
        self.left = sum(c[1:])
        dist = dealer_outcomes(up, c, rules.hits_soft_17)
        p_bj = dist[DEALER_BJ]
        self.bj = DealerBlackjack(p_bj, up in rules.peek_on, rules.takes_all)
        norm = 1.0 - p_bj
        cond = [x / norm for x in dist[:DEALER_BJ]]
        bust = cond[BUST] + (0.0 if rules.dealer_22_pushes else cond[BUST22])
        # stand value of each player total given no dealer blackjack; totals below 17 share 16
        self.stand = [0.0] * 22
        self.win = [0.0] * 22  # probability that standing on the total wins
        for t in range(4, 22):
            ev = win = bust
            for d in range(17, 22):
                if t > d:
                    ev += cond[d - 17]
                    win += cond[d - 17]
                elif t < d:
                    ev -= cond[d - 17]
            self.stand[t], self.win[t] = ev, win
        self._memo: dict[tuple[int, int, bool, int], float] = {}
        self._free_memo: dict[tuple[int, int, bool, int], float] = {}

    # ---------------------------------------------------------------- shoe bookkeeping
    def _take(self, v: int) -> float:
        p = self.c[v] / self.left
        self.c[v] -= 1
        self.left -= 1
        return p

    def _put(self, v: int) -> None:
        self.c[v] += 1
        self.left += 1

    # ---------------------------------------------------------------- hit / stand / double
    def best(self, hard: int, ace: bool, ncards: int, key: int) -> float:
        """Value (given no dealer blackjack) of a live hand played on by hit/stand."""
        charlie = self.rules.charlie
        if charlie and ncards >= charlie:
            return 1.0
        total = soft_total(hard, ace)
        if total == 21:
            return self.stand[21]
        return max(self.stand[total], self.hit(hard, ace, ncards, key))

    def hit(self, hard: int, ace: bool, ncards: int, key: int) -> float:
        memo_key = (key, hard, ace, ncards)
        got = self._memo.get(memo_key)
        if got is not None:
            return got
        ev = 0.0
        for v in range(1, 11):
            if not self.c[v]:
                continue
            h = hard + v
            p = self.c[v] / self.left
            if h > 21:
                ev -= p
                continue
            self._take(v)
            ev += p * self.best(h, ace or v == 1, ncards + 1, key + KEY_WEIGHTS[v])
            self._put(v)
        self._memo[memo_key] = ev
        return ev

    def double(self, hard: int, ace: bool) -> float:
        """Per-stake value (given no dealer blackjack) of taking exactly one more card."""
        ev = 0.0
        for v in range(1, 11):
            if not self.c[v]:
                continue
            h = hard + v
            p = self.c[v] / self.left
            ev += p * (-1.0 if h > 21 else self.stand[soft_total(h, ace or v == 1)])
        return ev

    def free_double(self, hard: int, ace: bool) -> float:
        """Free Bet: the house stakes the double; it pays when won and costs nothing lost."""
        ev = 0.0
        for v in range(1, 11):
            if not self.c[v]:
                continue
            h = hard + v
            p = self.c[v] / self.left
            if h <= 21:
                t = soft_total(h, ace or v == 1)
                ev += p * (self.stand[t] + self.win[t])
            else:
                ev -= p
        return ev

    def may_double(self, hard: int, ace: bool) -> bool:
        """Whether a two-card hand may double (totals count soft, as the table counts them)."""
        totals = self.rules.double_totals
        total = soft_total(hard, ace)
        return totals is None or total in totals or (self.rules.free_bet and total in FREE_DOUBLE_TOTALS)

    def hand_actions(self, hard: int, ace: bool, ncards: int, key: int, doubling: bool) -> dict[str, float]:
        """Full value of each action on a two-card hand (stand, hit, double...)."""
        bj = self.bj
        total = soft_total(hard, ace)
        out = {"stand": bj.full(self.stand[total])}
        if total < 21:
            out["hit"] = bj.full(self.hit(hard, ace, ncards, key))
            if doubling and self.may_double(hard, ace):
                if self.rules.free_bet and total in FREE_DOUBLE_TOTALS:
                    out["double"] = bj.full(self.free_double(hard, ace))
                else:
                    d = self.double(hard, ace)
                    for m, name in zip(self.rules.multipliers, ("double", "triple", "quadruple")):
                        out[name] = bj.full(m * d, m)
        return out

    # ---------------------------------------------------------------- split
    def _split_hand(self, x: int, v: int) -> float:
        """Full value of one split hand holding ``x`` then ``v`` (``v`` already taken)."""
        r = self.rules
        hard, ace = x + v, x == 1 or v == 1
        if x == 1 and not r.split_aces_hittable:
            return self.bj.full(self.stand[soft_total(hard, ace)])
        acts = self.hand_actions(hard, ace, 2, KEY_WEIGHTS[v], r.double_after_split)
        return max(acts.values())

    def split(self, x: int) -> float:
        """Full value of splitting the pair, resplitting optimally up to ``max_hands``.

        Each hand's second card comes from the deal's shoe; only the pair cards drawn on the
        way are tracked between hands (the other hands' draws are averaged out).
        """
        r = self.rules
        n_x, n = self.c[x], self.left
        # hand value when the second card is not x, and when it is x but is kept
        e_other = 0.0
        for v in range(1, 11):
            if v == x or not self.c[v]:
                continue
            p = self._take(v)
            e_other += p * self._split_hand(x, v)
            self._put(v)
        e_other /= (n - n_x) / n if n > n_x else 1.0
        e_pair = 0.0
        if n_x:
            self._take(x)
            e_pair = self._split_hand(x, x)
            self._put(x)
        can_resplit = x != 1 or r.resplit_aces
        memo: dict[tuple[int, int, int], float] = {}

        def hands_value(hands: int, pending: int, extra_x: int) -> float:
            if pending == 0:
                return 0.0
            k = (hands, pending, extra_x)
            if k in memo:
                return memo[k]
            q = max(n_x - extra_x, 0) / (n - extra_x)
            ev = (1 - q) * (e_other + hands_value(hands, pending - 1, extra_x))
            if q:
                keep = e_pair + hands_value(hands, pending - 1, extra_x + 1)
                if can_resplit and hands < r.max_hands:
                    keep = max(keep, hands_value(hands + 1, pending + 1, extra_x + 1))
                ev += q * keep
            memo[k] = ev
            return ev

        return hands_value(2, 2, 0)

    # ---------------------------------------------------------------- the first decision
    def natural(self) -> float:
        return (1 - self.bj.p) * self.rules.blackjack_pays

    def first_actions(self, p1: int, p2: int, splittable: bool) -> dict[str, float]:
        """Full value (box-level dealer-blackjack cost included) of each legal first action
        on the two cards ``p1, p2`` this deal was built with."""
        hard, ace = p1 + p2, p1 == 1 or p2 == 1
        acts = self.hand_actions(hard, ace, 2, 0, True)
        if splittable and p1 == p2 and self.rules.max_hands >= 2:
            if self.rules.free_bet and p1 != 10:
                acts["split"] = self.free_split(p1)
            else:
                acts["split"] = self.split(p1)
        box = self.bj.box
        acts = {a: v + box for a, v in acts.items()}
        if self.up in self.rules.surrender_vs:
            acts["surrender"] = self.bj.surrender
        return acts

    def free_split(self, x: int) -> float:
        """Free Bet split: the player's own hand plus the winnings of the house-staked hand.

        Both hands are played by the own-money choice (as the strategy table plays them); the
        house-staked hand returns only what it wins. Resplits are not modelled.
        """
        ev = 0.0
        for v in range(1, 11):
            if not self.c[v]:
                continue
            p = self._take(v)
            ev += p * (self._split_hand(x, v) + self._free_hand(x, v))
            self._put(v)
        return ev

    def _free_hand(self, x: int, v: int) -> float:
        """Full value of a split hand staked by the house, holding ``x`` then ``v``."""
        r = self.rules
        hard, ace = x + v, x == 1 or v == 1
        total = soft_total(hard, ace)
        if x == 1 and not r.split_aces_hittable:
            return (1 - self.bj.p) * self.win[total]
        acts = self.hand_actions(hard, ace, 2, KEY_WEIGHTS[v], r.double_after_split)
        choice = max(acts, key=acts.__getitem__)
        if choice == "stand":
            return (1 - self.bj.p) * self.win[total]
        if choice == "hit":
            return (1 - self.bj.p) * self._free_hit(hard, ace, 2, KEY_WEIGHTS[v])
        one_card = self._one_card_win(hard, ace)
        if total in FREE_DOUBLE_TOTALS:  # the house stakes the double too
            return (1 - self.bj.p) * 2 * one_card
        # a paid raise: own money at risk beside the house's stake
        m = dict(zip(("double", "triple", "quadruple"), r.multipliers))[choice] - 1
        return self.bj.full(m * self.double(hard, ace) + one_card, m)

    def _free_hit(self, hard: int, ace: bool, ncards: int, key: int) -> float:
        """Expected winnings (given no dealer blackjack) of hitting a house-staked hand."""
        memo_key = (key, hard, ace, ncards)
        got = self._free_memo.get(memo_key)
        if got is not None:
            return got
        win = 0.0
        charlie = self.rules.charlie
        for v in range(1, 11):
            if not self.c[v] or hard + v > 21:
                continue
            h, a, k = hard + v, ace or v == 1, key + KEY_WEIGHTS[v]
            p = self._take(v)
            total = soft_total(h, a)
            if charlie and ncards + 1 >= charlie:
                win += p
            elif total == 21 or self.stand[total] >= self.hit(h, a, ncards + 1, k):
                win += p * self.win[total]
            else:
                win += p * self._free_hit(h, a, ncards + 1, k)
            self._put(v)
        self._free_memo[memo_key] = win
        return win

    def _one_card_win(self, hard: int, ace: bool) -> float:
        """Probability (given no dealer blackjack) that one more card and standing wins."""
        win = 0.0
        for v in range(1, 11):
            if self.c[v] and hard + v <= 21:
                win += self.c[v] / self.left * self.win[soft_total(hard + v, ace or v == 1)]
        return win
