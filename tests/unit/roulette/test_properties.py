"""Properties over random tables, bets and spins (hypothesis)."""

from __future__ import annotations

import pickle
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.games.base import (
    ClearBets,
    CloseBetting,
    ExpectKind,
    PlaceBet,
    RuleError,
    VoidRound,
    WheelResult,
)
from controller.games.roulette import RouletteRound, SetMultipliers, roulette_rules
from controller.games.roulette.analysis import catalogue
from controller.games.roulette.bets import parse_bet
from controller.games.roulette.layout import WheelKind, wheel

TABLES = {
    name: roulette_rules(name) for name in ("european", "american", "la-partage", "double-ball", "lightning")
}
TABLES["first-four"] = roulette_rules("european", {"first_four": True})
UNLIMITED = {name: r.model_copy(update={"limits": {}}) for name, r in TABLES.items()}
KINDS = {name: [k for kinds in catalogue(r).values() for k in kinds] for name, r in TABLES.items()}


# ---------------------------------------------------------------- coverage is a layout shape
def _cell(p: str) -> tuple[int, int]:
    n = int(p)
    return (n - 1) // 3, (n - 1) % 3  # row, column on the grid


def _geometric(size: int, numbers: frozenset[str], kind: WheelKind) -> bool:
    """A shape of ``size`` by coordinates alone (zeros: the hand list of each layout)."""
    zeros = {"0", "00"} & numbers
    if zeros:
        hand = {
            WheelKind.EUROPEAN: ["0 1", "0 2", "0 3", "0 1 2", "0 2 3"],
            WheelKind.AMERICAN: ["0 1", "0 2", "00 2", "00 3", "0 00", "0 1 2", "0 00 2", "00 2 3"],
        }[kind]
        return numbers in [frozenset(s.split()) for s in hand]
    cells = sorted(_cell(p) for p in numbers)
    rows = {r for r, _ in cells}
    cols = {c for _, c in cells}
    if size == 2:
        (r1, c1), (r2, c2) = cells
        return abs(r1 - r2) + abs(c1 - c2) == 1
    if size == 3:
        return len(rows) == 1 and cols == {0, 1, 2}
    if size == 4:
        return len(rows) == 2 and max(rows) - min(rows) == 1 and len(cols) == 2 and max(cols) - min(cols) == 1
    return len(rows) == 2 and max(rows) - min(rows) == 1 and cols == {0, 1, 2} and len(cells) == 6


SHAPE = {2: "split", 3: "street", 4: "corner", 6: "six_line"}


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(["european", "american"]), st.sampled_from([2, 3, 4, 6]), st.data())
def test_inside_bet_accepted_exactly_when_it_is_a_layout_shape(table, size, data):
    rules = TABLES[table]
    pockets = sorted(wheel(rules.wheel).pockets)
    # numbers near each other, so that legal shapes come up often
    start = data.draw(st.integers(-1, 36))
    near = [p for p in pockets if p in ("0", "00") or abs(int(p) - start) <= 7] if start >= 0 else pockets
    numbers = data.draw(st.sets(st.sampled_from(near), min_size=size, max_size=size))
    kind = f"{SHAPE[size]}:{'-'.join(numbers)}"
    try:
        spec = parse_bet(kind, rules)
    except RuleError:
        assert not _geometric(size, frozenset(numbers), rules.wheel)
    else:
        assert _geometric(size, spec.chips[0][0].numbers, rules.wheel)


# ---------------------------------------------------------------- money against the 36/c rule
def _oracle(kind: str, amount: int, ball: str, table: str) -> Fraction:
    """A standard one-ball table pays a winning spot of c numbers stake*36/c in all (Five: 7x)."""
    spec = parse_bet(kind, TABLES[table])
    unit = Fraction(amount, spec.units)
    total = Fraction(0)
    for chip, units in spec.chips:
        if ball in chip.numbers:
            total += unit * units * (7 if chip.type == "five" else Fraction(36, len(chip.numbers)))
    return total


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["european", "american"]), st.data())
def test_payouts_match_the_36_over_c_rule_and_stakes_are_kept(table, data):
    rules = UNLIMITED[table]
    bets = data.draw(
        st.lists(st.tuples(st.sampled_from(KINDS[table]), st.integers(1, 50)), min_size=1, max_size=25)
    )
    ball = data.draw(st.sampled_from(wheel(rules.wheel).order))
    rnd = RouletteRound(rules)
    placed: dict[str, int] = {}
    for kind, chips in bets:
        amount = 100 * chips * parse_bet(kind, rules).units
        rnd.place_bet(1, kind, amount)
        placed[kind] = placed.get(kind, 0) + amount
    rnd.close_betting()
    rnd.wheel_result((ball,))
    assert {s.kind: s.stake for s in rnd.settlements} == placed
    for s in rnd.settlements:
        assert s.payout == _oracle(s.kind, s.stake, ball, table)


# ---------------------------------------------------------------- refusals change nothing; replay
def _actions(table: str) -> st.SearchStrategy:
    """Mostly legal input, with junk mixed in: bad shapes, pockets, amounts, boxes and phases."""
    rules = TABLES[table]
    order = list(wheel(rules.wheel).order)
    pockets = order + ["00", "37", "x"]
    kinds = st.one_of(
        st.sampled_from(KINDS[table]),
        st.sampled_from(KINDS[table]),
        st.sampled_from(
            ["split:1-5", "corner:0-1-2-3", "street:2-3-4", "both_on:5", "five", "voisins", "blue"]
        ),
        st.builds(lambda a, b: f"split:{a}-{b}", st.sampled_from(pockets), st.sampled_from(pockets)),
    )
    amounts = st.sampled_from([-100, 0, 50, 100, 500, 900, 1000, 1800, 5000, 20_000])
    bet = st.builds(PlaceBet, st.integers(0, 13), kinds, amounts, st.sampled_from(["", "a"]))
    good_result = st.lists(st.sampled_from(order), min_size=rules.balls, max_size=rules.balls)
    result = st.builds(
        lambda ns: WheelResult(tuple(ns)),
        st.one_of(good_result, good_result, st.lists(st.sampled_from(pockets), max_size=3)),
    )
    values = sorted(rules.multipliers.values) if rules.multipliers else [100]
    draw = st.builds(
        lambda d: SetMultipliers(tuple(d.items())),
        st.one_of(
            st.dictionaries(st.sampled_from(order), st.sampled_from(values), min_size=1, max_size=5),
            st.dictionaries(st.sampled_from(pockets), st.sampled_from([50, 75, 500]), max_size=6),
        ),
    )
    return st.lists(
        st.one_of(
            bet,
            bet,
            bet,
            bet,
            st.builds(ClearBets, st.integers(0, 3)),
            st.just(CloseBetting()),
            result,
            draw,
            draw,
            st.just(VoidRound("miss-spin")),
        ),
        max_size=40,
    )


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(TABLES)), st.data())
def test_refused_input_changes_nothing_and_replay_is_deterministic(table, data):
    rules = TABLES[table]
    order = sorted(wheel(rules.wheel).order)
    # random input, then an ending that settles the round unless it is already settled
    actions = data.draw(_actions(table)) + [CloseBetting()]
    if rules.multipliers:
        actions.append(SetMultipliers(((data.draw(st.sampled_from(order)), min(rules.multipliers.values)),)))
    actions.append(WheelResult(tuple(data.draw(st.sampled_from(order)) for _ in range(rules.balls))))
    rnd = RouletteRound(rules)
    accepted = []
    for action in actions:
        before = pickle.dumps(rnd)
        try:
            rnd.apply(action)
        except RuleError:
            assert pickle.dumps(rnd) == before
        else:
            accepted.append(action)
    replay = RouletteRound(TABLES[table])
    for action in accepted:
        replay.apply(action)
    assert pickle.dumps(replay) == pickle.dumps(rnd)
    assert replay.settlements == rnd.settlements and replay.outcome() == rnd.outcome()
    # settled: one settlement per bet, every stake accounted, no payout negative
    assert rnd.expects().kind is ExpectKind.DONE
    assert [(s.box, s.player, s.kind, s.stake) for s in rnd.settlements] == [
        (b.box, b.player, b.spec.kind, b.amount) for b in rnd.bets
    ]
    assert all(s.payout >= 0 for s in rnd.settlements)
