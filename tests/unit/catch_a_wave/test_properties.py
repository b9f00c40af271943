"""Properties of the Catch a Wave engine against an independent reading of docs/rules.md §3."""

from __future__ import annotations

import pickle
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.cards import DECK
from controller.games.base import ClearBets, CloseBetting, Deal, Decide, ExpectKind, PlaceBet, RuleError, VoidRound
from controller.games.catch_a_wave import CatchAWaveRound, catch_a_wave_rules
from controller.shoe import Shoe

RULES = catch_a_wave_rules()
ORDER = "23456789TJQKA"


def rule_text_dealer_call(cards: list[str], right: int) -> str:
    """docs/rules.md §3 dealer, written from the text: first call 7- higher / 8+ lower; after a right
    call 4- higher, 5..10 stand, J+ lower."""
    v = ORDER.index(cards[-1][0]) + 2  # 2..14
    if right == 0:
        return "higher" if v <= 7 else "lower"
    return "higher" if v <= 4 else "stand" if v <= 10 else "lower"


def is_right(call: str, old: str, new: str) -> bool:
    a, b = ORDER.index(old[0]), ORDER.index(new[0])
    return b > a if call == "higher" else b < a


plan = st.fixed_dictionaries(
    {
        "seed": st.integers(0, 2**32),
        "boxes": st.lists(st.integers(1, 7), min_size=1, max_size=7, unique=True),
        "stakes": st.lists(st.integers(100, 100_000), min_size=7, max_size=7),
        "moves": st.lists(st.sampled_from(["stand", "higher", "lower", "higher", "lower"]), min_size=60, max_size=60),
    }
)


def run(p) -> tuple[CatchAWaveRound, list, list[str]]:
    """Play a round from a shuffled 8-deck shoe with the planned moves; check every dealer move
    against the rule text on the way. Returns the round, its actions, and the dealer's calls seen."""
    shoe = Shoe(8, random.Random(p["seed"]))
    rnd = CatchAWaveRound(RULES)
    actions: list = [PlaceBet(b, "main", p["stakes"][i]) for i, b in enumerate(p["boxes"])] + [CloseBetting()]
    for a in actions:
        rnd.apply(a)
    moves = iter(p["moves"] + ["stand"] * 200)
    predicted: list[str] = []
    while (e := rnd.expects()).kind is not ExpectKind.DONE:
        if e.kind is ExpectKind.DECISION:
            a = Decide(e.box, next(moves))
        else:
            if e.kind is ExpectKind.DEALER_CARD and e.options:
                expected = rule_text_dealer_call(rnd.dealer_cards, rnd.dealer_right)
                assert e.options == (expected,) and expected != "stand"
                predicted.append(expected)
            a = Deal(shoe.draw())
        actions.append(a)
        rnd.apply(a)
    return rnd, actions, predicted


@settings(max_examples=300)
@given(plan)
def test_dealer_moves_are_the_fixed_rules(p):
    rnd, _, predicted = run(p)
    assert rnd.dealer_calls == predicted
    if rnd.dealer_calls and not rnd.dealer_wrong:
        # the dealer stopped exactly where the text says he stands
        assert rule_text_dealer_call(rnd.dealer_cards, rnd.dealer_right) == "stand"
    cards, calls = rnd.dealer_cards, rnd.dealer_calls
    for i, call in enumerate(calls):
        right = is_right(call, cards[i], cards[i + 1])
        assert right or (i == len(calls) - 1 and rnd.dealer_wrong)


@settings(max_examples=300)
@given(plan)
def test_money_is_conserved_and_settled_by_the_rule_text(p):
    rnd, _, _ = run(p)
    stakes = {b: p["stakes"][i] for i, b in enumerate(p["boxes"])}
    assert sorted(s.box for s in rnd.settlements) == sorted(stakes)
    d = rnd.dealer_right
    for s in rnd.settlements:
        assert s.stake == stakes[s.box] and s.kind == "main"
        cards, calls = rnd.cards[s.box], rnd.calls[s.box]
        rights = [is_right(c, cards[i], cards[i + 1]) for i, c in enumerate(calls)]
        if rights and not rights[-1]:
            expected = 0  # wrong or equal card: lost at once
        elif len(rights) == 6:
            expected = 7 * s.stake  # the wave: 6:1
        elif rnd.dealer_wrong:
            expected = 2 * s.stake
        else:
            n = len(rights)
            expected = s.stake * (1 + n - d) if n > d else s.stake if n == d else 0
        assert s.payout == expected


@settings(max_examples=100)
@given(plan)
def test_replay_is_deterministic(p):
    first, actions, _ = run(p)
    again = CatchAWaveRound(RULES)
    for a in actions:
        again.apply(a)
    assert pickle.dumps(again) == pickle.dumps(first)


any_action = st.one_of(
    st.builds(PlaceBet, st.integers(0, 8), st.sampled_from(["main", "side"]), st.integers(-100, 600_000),
              st.sampled_from(["", "bob"])),
    st.builds(ClearBets, st.integers(0, 8), st.sampled_from([None, "", "bob"])),
    st.just(CloseBetting()),
    st.builds(Deal, st.sampled_from([*DECK[::4], "ZZ"])),
    st.builds(Decide, st.integers(0, 8), st.sampled_from(["stand", "higher", "lower", "hit"]), st.integers(1, 2)),
    st.builds(VoidRound, st.just("test")),
)


@settings(max_examples=300)
@given(st.lists(any_action, max_size=50))
def test_illegal_input_is_refused_without_change(actions):
    rnd = CatchAWaveRound(RULES)
    for a in actions:
        before = pickle.dumps(rnd)
        try:
            rnd.apply(a)
        except RuleError:
            assert pickle.dumps(rnd) == before
    assert len({s.box for s in rnd.settlements}) == len(rnd.settlements)
