"""The shared box-and-bet ledger of the shoe games: properties over random betting (stakes
conserved, limits enforced, clear then place equals place) and worked examples of its refusals,
listing orders and settlement rows."""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.games.base import BetRefused, GameRules, Limit, Settlement
from controller.games.ledger import BetLedger, Listing

BOXES = 4


class _Rules(GameRules):
    limits: dict[str, Limit] = {"ante": Limit(min=10, max=100), "side": Limit(min=5, max=30)}


RULES = _Rules()


def ledger(listing: Listing = "box_number", **kw: Any) -> BetLedger:
    return BetLedger(
        RULES, prefix="g", boxes=BOXES, game="Game", kinds={"ante": "ante", "main": "ante", "side": "side"},
        order=("ante", "play", "side"), listing=listing, **kw,
    )


def state(book: BetLedger) -> tuple[list[tuple[int, str, int]], dict[int, str | None], bool]:
    return list(book.rows()), {b: book.owner(b) for b in book.boxes()}, book.closed


# --------------------------------------------------------------------------- properties
players = st.sampled_from(["", "ann", "bob"])
places = st.tuples(
    st.just("place"), st.integers(0, BOXES + 1), st.sampled_from(["ante", "main", "side", "tie"]),
    st.integers(-5, 60), players,
)
clears = st.tuples(st.just("clear"), st.integers(0, BOXES + 1), st.none(), st.none(), st.none() | players)
ops = st.lists(st.one_of(places, clears), max_size=30)


def run(book: BetLedger, script: list[tuple[Any, ...]]) -> dict[tuple[int, str], int]:
    """Apply ``script``; a refusal must leave the ledger as it was. Returns the stakes a plain
    model of the same inputs holds (accepted chips added, cleared boxes emptied)."""
    model: dict[tuple[int, str], int] = {}
    for op, box, kind, amount, player in script:
        before = state(book)
        try:
            if op == "place":
                booked = book.place(box, kind, amount, player)
                model[(box, booked)] = model.get((box, booked), 0) + amount
            else:
                book.clear(box, player)
                model = {k: v for k, v in model.items() if k[0] != box}
        except BetRefused as exc:
            assert exc.rule.startswith("g.")
            assert state(book) == before
    return model


@settings(max_examples=200, deadline=None)
@given(ops)
def test_stakes_are_conserved_from_placing_to_settling_or_refunding(script: list[tuple[Any, ...]]) -> None:
    book = ledger()
    model = run(book, script)
    assert {(b, k): s for b, k, s in book.rows()} == model
    boxes = book.close()
    settled = [book.settle(b, "ante", 0) for b in boxes[::2] if book.stake(b, "ante")]
    refunds = book.open_bets()
    assert sum(s.stake for s in settled + refunds) == sum(model.values())
    assert all(r.payout == r.stake for r in refunds)
    assert {(s.box, s.kind) for s in settled}.isdisjoint({(r.box, r.kind) for r in refunds})


@settings(max_examples=200, deadline=None)
@given(ops)
def test_every_stake_is_within_its_limit_and_every_box_in_range(script: list[tuple[Any, ...]]) -> None:
    book = ledger()
    run(book, script)
    for box, kind, stake in book.rows():
        assert 1 <= box <= BOXES
        lim = RULES.limits[kind]
        assert lim.min <= stake <= lim.max


@settings(max_examples=200, deadline=None)
@given(ops, st.integers(1, BOXES), st.integers(10, 100), players)
def test_clear_then_place_equals_place_on_an_empty_box(
    script: list[tuple[Any, ...]], box: int, amount: int, player: str
) -> None:
    book, fresh = ledger(), ledger()
    run(book, script)
    others = [row for row in book.rows() if row[0] != box]
    if book.owner(box) is not None:
        book.clear(box)
    book.place(box, "ante", amount, player)
    fresh.place(box, "ante", amount, player)
    assert [row for row in book.rows() if row[0] == box] == list(fresh.rows())
    assert book.owner(box) == fresh.owner(box) == player
    assert [row for row in book.rows() if row[0] != box] == others


# --------------------------------------------------------------------------- worked examples
@pytest.mark.parametrize(
    ("args", "rule", "message"),
    [
        ((0, "ante", 10, ""), "g.box", "no box 0 at this table (1..4)"),
        ((1, "tie", 10, "bob"), "g.kind", "no 'tie' bet in Game (ante, side)"),
        ((1, "main", 0, "ann"), "g.amount", "a main bet must be positive, not 0"),
        ((1, "ante", 91, "ann"), "g.limits", "ante bet 101 outside table limits 10..100"),
        ((1, "ante", 10, "bob"), "g.box.owner", "box 1 is played by 'ann'"),
    ],
)
def test_refusals_name_the_rule(args: tuple[Any, ...], rule: str, message: str) -> None:
    book = ledger()
    book.place(1, "ante", 10, "ann")
    with pytest.raises(BetRefused) as exc:
        book.place(*args)
    assert (exc.value.rule, exc.value.message) == (rule, message)


def test_limits_apply_to_the_total_on_the_box() -> None:
    book = ledger()
    book.place(2, "ante", 60, "")
    with pytest.raises(BetRefused, match=r"ante bet 110 outside"):
        book.place(2, "main", 50, "")
    book.place(2, "main", 40, "")
    assert list(book.rows()) == [(2, "ante", 100)]


def test_seat_noun_single_kind_clear_and_closed() -> None:
    book = BetLedger(RULES, prefix="b", boxes=2, game="b", kinds={"ante": "ante"}, order=("ante",), seat="seat")
    with pytest.raises(BetRefused) as exc:
        book.clear(1)
    assert (exc.value.rule, exc.value.message) == ("b.clear.empty", "seat 1 has no bet")
    with pytest.raises(BetRefused, match="no seat 3 at this table"):
        book.place(3, "ante", 10, "")
    book.place(1, "ante", 10, "ann")
    with pytest.raises(BetRefused, match="seat 1 is played by 'ann'"):
        book.clear(1, "bob")
    assert book.close() == [1]
    with pytest.raises(BetRefused) as exc:
        book.place(2, "ante", 10, "")
    assert exc.value.rule == "b.betting_closed"
    with pytest.raises(BetRefused, match="bets are closed"):
        book.clear(1)


def test_the_game_check_runs_before_the_limit_and_refuses_without_a_change() -> None:
    seen: list[tuple[int, str]] = []

    def needs_ante(box: int, kind: str) -> None:
        seen.append((box, kind))
        if kind == "side" and not book.stake(box, "ante"):
            raise BetRefused("g.side.needs_ante", "ante first")

    book = ledger()
    with pytest.raises(BetRefused, match="ante first"):
        book.place(1, "side", 500, "", check=needs_ante)  # over the limit too: the check comes first
    assert list(book.rows()) == []
    book.place(1, "main", 10, "", check=needs_ante)
    book.place(1, "side", 5, "", check=needs_ante)
    assert seen == [(1, "side"), (1, "ante"), (1, "side")]


@pytest.mark.parametrize(
    ("listing", "expected"),
    [
        ("box_number", [(1, "ante", 20), (1, "side", 5), (3, "ante", 20)]),
        ("box_placed", [(3, "ante", 20), (1, "ante", 20), (1, "side", 5)]),
        ("as_placed", [(3, "ante", 20), (1, "side", 5), (1, "ante", 20)]),
    ],
)
def test_listing_while_open_and_by_number_once_closed(listing: Listing, expected: list[Any]) -> None:
    book = ledger(listing)
    book.place(3, "ante", 20, "")
    book.place(1, "side", 5, "")
    book.place(1, "ante", 10, "")
    book.place(1, "main", 10, "")
    assert list(book.rows()) == expected
    book.close()
    assert list(book.rows()) == [(1, "ante", 20), (1, "side", 5), (3, "ante", 20)]


def test_booked_round_bets_settle_in_the_game_order_and_leave_the_open_list() -> None:
    book = ledger()
    book.place(1, "ante", 10, "ann")
    book.place(1, "side", 5, "ann")
    book.place(2, "ante", 20, "bob")
    book.close()
    book.book(1, "play", 10)
    book.book(2, "play", 0)  # nothing staked: no row
    assert book.settle(1, "side", 0) == Settlement(1, 1, "side", "ann", 5, 0)
    assert book.open_bets() == [
        Settlement(1, 1, "ante", "ann", 10, 10),
        Settlement(1, 1, "play", "ann", 10, 10),
        Settlement(2, 1, "ante", "bob", 20, 20),
    ]
    assert book.settle_box(1, {"ante": 20, "play": 30, "side": 99}) == [
        Settlement(1, 1, "ante", "ann", 10, 20),
        Settlement(1, 1, "play", "ann", 10, 30),
        Settlement(1, 1, "side", "ann", 5, 99),
    ]
    assert book.is_settled(1, "ante") and not book.is_settled(2, "ante")
    assert book.open_bets() == [Settlement(2, 1, "ante", "bob", 20, 20)]


def test_a_ledger_pickles_with_its_state() -> None:
    book = ledger("box_placed")
    book.place(2, "ante", 10, "ann")
    book.close()
    book.settle(2, "ante", 0)
    again = pickle.loads(pickle.dumps(book))
    assert state(again) == state(book)
    assert again.open_bets() == [] and again.is_settled(2, "ante")


def test_void_refunds_what_is_open_once_and_takes_no_more_bets() -> None:
    book = ledger()
    book.place(1, "ante", 10, "ann")
    book.place(1, "side", 5, "ann")
    book.place(2, "ante", 20, "bob")
    book.close()
    early = book.settle(1, "side", 0)
    assert book.void() == [Settlement(1, 1, "ante", "ann", 10, 10), Settlement(2, 1, "ante", "bob", 20, 20)]
    assert early.stake == 5 and book.open_bets() == [] and book.void() == []
    with pytest.raises(BetRefused, match="bets are closed"):
        book.place(3, "ante", 10, "")
