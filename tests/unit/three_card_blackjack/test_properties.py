"""Properties of the Three Card Blackjack engine against an independent reading of docs/rules.md §2."""

from __future__ import annotations

import pickle
from itertools import combinations, product

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.cards import DECK
from controller.games.base import ClearBets, CloseBetting, Deal, Decide, PlaceBet, RuleError, VoidRound
from controller.games.three_card_blackjack import ThreeCardBlackjackRound, hand_value, three_card_blackjack_rules

RULES = three_card_blackjack_rules()
POINTS = {**{str(n): n for n in range(2, 10)}, "T": 10, "J": 10, "Q": 10, "K": 10}
ACE_PLUS = {"AAA": 100, "AAT": 25, "AAx": 15, "ATT": 6, "ATx": 3, "Axx": 1}


def oracle_value(ranks: list[str]) -> tuple[bool, int]:
    """(blackjack?, best total of 2 or 3 cards with each ace 1 or 11, never over 21)."""
    best = 0
    for k in (2, 3):
        for sub in combinations(ranks, k):
            for aces in product((1, 11), repeat=sub.count("A")):
                total = sum(POINTS[r] for r in sub if r != "A") + sum(aces)
                if total <= 21:
                    best = max(best, total)
    return ("A" in ranks and any(POINTS.get(r) == 10 for r in ranks)), best


def oracle_net(ante: int, player: list[str], dealer: list[str]) -> int:
    """Net win of a played box (Ante + Bet), read off the rule text."""
    pbj, pv = oracle_value(player)
    dbj, dv = oracle_value(dealer)
    if not dbj and dv < 17:
        return ante if pbj else 0
    if pbj:
        return 2 * ante
    if dbj or dv > pv:
        return -2 * ante
    return 2 * ante if pv > dv else 0


def oracle_ace_plus(stake: int, ranks: list[str]) -> int:
    key = "".join(sorted("T" if POINTS.get(r) == 10 else r if r == "A" else "x" for r in ranks))
    key = "A" * key.count("A") + "T" * key.count("T") + "x" * key.count("x")
    return stake * (ACE_PLUS[key] + 1) if key in ACE_PLUS else 0


@given(st.lists(st.sampled_from(DECK), min_size=3, max_size=3, unique=True))
def test_hand_value_is_best_total_of_two_or_three(cards):
    ranks = [c[0] for c in cards]
    bj, best = oracle_value(ranks)
    assert hand_value(ranks) == (22 if bj else best)


round_plan = st.fixed_dictionaries(
    {
        "deck": st.permutations(DECK),
        "boxes": st.lists(st.integers(1, 5), min_size=1, max_size=5, unique=True),
        "antes": st.lists(st.integers(100, 50_000), min_size=5, max_size=5),
        "ace_plus": st.lists(st.one_of(st.none(), st.integers(100, 5_000)), min_size=5, max_size=5),
        "plays": st.lists(st.booleans(), min_size=5, max_size=5),
    }
)


def run(plan) -> tuple[ThreeCardBlackjackRound, list]:
    rnd = ThreeCardBlackjackRound(RULES)
    actions: list = []
    for i, box in enumerate(plan["boxes"]):
        actions.append(PlaceBet(box, "ante", plan["antes"][i]))
        if plan["ace_plus"][i] is not None:
            actions.append(PlaceBet(box, "ace_plus", plan["ace_plus"][i]))
    actions.append(CloseBetting())
    actions += [Deal(c) for c in plan["deck"][: 3 * (len(plan["boxes"]) + 1)]]
    for i, box in enumerate(sorted(plan["boxes"])):
        actions.append(Decide(box, "play" if plan["plays"][i] else "fold"))
    for a in actions:
        rnd.apply(a)
    return rnd, actions


@settings(max_examples=200)
@given(round_plan)
def test_money_is_conserved_and_matches_the_rule_text(plan):
    rnd, _ = run(plan)
    boxes = sorted(plan["boxes"])
    placed = {}
    for i, box in enumerate(plan["boxes"]):
        placed[box, "ante"] = plan["antes"][i]
        if plan["ace_plus"][i] is not None:
            placed[box, "ace_plus"] = plan["ace_plus"][i]
        if plan["plays"][boxes.index(box)]:
            placed[box, "play"] = plan["antes"][i]
    # every bet placed is settled exactly once, for the stake placed
    assert sorted((s.box, s.kind) for s in rnd.settlements) == sorted(placed)
    assert all(placed[s.box, s.kind] == s.stake for s in rnd.settlements)
    dealer = [c[0] for c in rnd.dealer_cards]
    for box in boxes:
        ranks = [c[0] for c in rnd.cards[box]]
        got = {s.kind: s.payout - s.stake for s in rnd.settlements if s.box == box}
        ante = placed[box, "ante"]
        expected = oracle_net(ante, ranks, dealer) if (box, "play") in placed else -ante
        assert got["ante"] + got.get("play", 0) == expected
        if (box, "ace_plus") in placed:
            stake = placed[box, "ace_plus"]
            assert got["ace_plus"] + stake == oracle_ace_plus(stake, ranks)


@settings(max_examples=100)
@given(round_plan)
def test_replay_is_deterministic(plan):
    first, actions = run(plan)
    again = ThreeCardBlackjackRound(RULES)
    for a in actions:
        again.apply(a)
    assert pickle.dumps(again) == pickle.dumps(first)
    assert again.outcome() == first.outcome()


any_action = st.one_of(
    st.builds(PlaceBet, st.integers(0, 6), st.sampled_from(["ante", "ace_plus", "main", "x"]),
              st.integers(-100, 600_000), st.sampled_from(["", "bob"])),
    st.builds(ClearBets, st.integers(0, 6), st.sampled_from([None, "", "bob"])),
    st.just(CloseBetting()),
    st.builds(Deal, st.sampled_from([*DECK[:20], "XX"])),
    st.builds(Decide, st.integers(0, 6), st.sampled_from(["play", "fold", "hit"]), st.integers(1, 2)),
    st.builds(VoidRound, st.just("test")),
)


@settings(max_examples=300)
@given(st.lists(any_action, max_size=40))
def test_illegal_input_is_refused_without_change(actions):
    rnd = ThreeCardBlackjackRound(RULES)
    for a in actions:
        before = pickle.dumps(rnd)
        try:
            rnd.apply(a)
        except RuleError:
            assert pickle.dumps(rnd) == before
    # whatever happened, no bet is settled twice and no payout is negative
    keys = [(s.box, s.kind) for s in rnd.settlements]
    assert len(keys) == len(set(keys)) and all(s.payout >= 0 for s in rnd.settlements)


@settings(max_examples=200)
@given(st.permutations(DECK), st.lists(any_action, max_size=30))
def test_illegal_input_during_decisions_is_refused_without_change(deck, actions):
    # boxes 1 and 2 dealt (9 cards), then random input: decisions, stray cards, late bets
    rnd = ThreeCardBlackjackRound(RULES)
    rnd.place_bet(1, "ante", 1000)
    rnd.place_bet(2, "ante", 1000)
    rnd.place_bet(2, "ace_plus", 500)
    rnd.close_betting()
    for card in deck[:9]:
        rnd.deal(card)
    for a in actions:
        before = pickle.dumps(rnd)
        try:
            rnd.apply(a)
        except RuleError:
            assert pickle.dumps(rnd) == before
    keys = [(s.box, s.kind) for s in rnd.settlements]
    assert len(keys) == len(set(keys))
