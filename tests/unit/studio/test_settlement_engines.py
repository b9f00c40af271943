"""A remote bet settles exactly as the same bet placed at the felt: the studio plays the table's
round record into the game's own engine, for random results."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from controller.cards import CARDS
from controller.games.base import CloseBetting, Deal, Decide, ExpectKind, PlaceBet, WheelResult
from controller.studio.config import TableSection
from controller.studio.rules import TableRules
from controller.studio.sides import felt_kind

ROULETTE = TableRules(TableSection(game="roulette", preset="european"))
BACCARAT = TableRules(TableSection(game="baccarat"))
ROULETTE_KINDS = ["red", "black", "even", "odd", "low", "high", "dozen:1", "dozen:3", "column:2", "straight:0",
                  "straight:17", "split:17-20", "street:16-17-18", "corner:17-18-20-21"]
POCKETS = [str(n) for n in range(37)]


@given(kind=st.sampled_from(ROULETTE_KINDS), units=st.integers(5, 50), number=st.sampled_from(POCKETS),
       others=st.lists(st.tuples(st.sampled_from(ROULETTE_KINDS), st.integers(5, 50)), max_size=5))
def test_a_remote_roulette_bet_pays_what_the_felt_pays(kind: str, units: int, number: str,
                                                       others: list[tuple[str, int]]) -> None:
    amount = units * 100
    felt = ROULETTE.adapter.new_round(ROULETTE.rules)
    for n, (other, other_units) in enumerate(others, start=2):  # other players at the felt, other boxes
        felt.apply(PlaceBet(1 + n % 3, other, other_units * 100, f"felt{n}"))
    felt.apply(PlaceBet(4, kind, amount, "remote"))
    felt.apply(CloseBetting())
    felt.apply(WheelResult((number,)))
    record_outcome = felt.outcome().model_dump(mode="json")
    mine = [s for s in felt.settlements if s.player == "remote"]
    assert ROULETTE.payout(kind, amount, record_outcome) == mine[0].payout


@given(kind=st.sampled_from(["player", "banker", "tie"]), units=st.integers(1, 100), seed=st.integers(0, 2**32))
def test_a_remote_baccarat_bet_pays_what_the_felt_pays(kind: str, units: int, seed: int) -> None:
    amount = units * 100
    shoe = random.Random(seed).sample(sorted(CARDS), 6)
    felt = BACCARAT.adapter.new_round(BACCARAT.rules)
    felt.apply(PlaceBet(2, kind, amount, "remote"))
    felt.apply(PlaceBet(1, "player", 1000, "felt"))
    felt.apply(CloseBetting())
    while felt.expects().kind is ExpectKind.CARD:
        felt.apply(Deal(shoe.pop(0)))
    record_outcome = felt.outcome().model_dump(mode="json")
    mine = [s for s in felt.settlements if s.box == 2]
    assert BACCARAT.payout(kind, amount, record_outcome) == mine[0].payout


BLACKJACK = TableRules(TableSection(game="blackjack", preset="ru6", rules={"side_bets": ["perfect_pairs", "21+3"]}))


def blackjack_felt(side: str, box: int, amount: int, seed: int) -> tuple[dict[str, object], int]:
    """The felt plays boxes 1..3 to the end (pairs split when the rules let them, else stand), ``side``
    on ``box``; the round's outcome and what the side bet paid."""
    rng = random.Random(seed)
    shoe = [c for c in sorted(CARDS) for _ in range(6)]
    rng.shuffle(shoe)
    felt = BLACKJACK.adapter.new_round(BLACKJACK.rules)
    for b in (1, 2, 3):
        felt.apply(PlaceBet(b, "main", 1000, f"felt{b}"))
    felt.apply(PlaceBet(box, side, amount, f"felt{box}"))
    felt.apply(CloseBetting())
    while felt.expects().kind is not ExpectKind.DONE:
        expect = felt.expects()
        if expect.kind is ExpectKind.DECISION:
            options = expect.options
            choice = next(o for o in ("split", "stand", "no_insurance", "no", "decline") if o in options) \
                if any(o in options for o in ("split", "stand", "no_insurance", "no", "decline")) else options[0]
            felt.apply(Decide(expect.box or 1, choice, expect.hand or 1, felt_player(felt, expect.box)))
        else:
            felt.apply(Deal(shoe.pop()))
    (mine,) = [s for s in felt.settlements if s.kind == side]
    return felt.outcome().model_dump(mode="json"), mine.payout


@given(side=st.sampled_from(["perfect_pairs", "21+3"]), box=st.integers(1, 3), units=st.integers(1, 20),
       seed=st.integers(0, 2**32))
def test_a_remote_side_bet_pays_what_the_same_side_bet_pays_at_the_felt(side: str, box: int, units: int,
                                                                          seed: int) -> None:
    """A round record of the felt settles a remote side bet on one box as the felt's own side bet there."""
    amount = units * 100
    record_outcome, paid = blackjack_felt(side, box, amount, seed)
    hands = next(b["hands"] for b in record_outcome["boxes"] if b["box"] == box)  # type: ignore[attr-defined]
    remote = BLACKJACK.payout(f"{side}@{box}", amount, record_outcome)
    if len({h["cards"][0] for h in hands[1:]}) > 1:  # a re-split hides which card came second
        assert remote in (paid, amount)
    else:
        assert remote == paid


def felt_player(felt: object, box: int | None) -> str:
    return f"felt{box}" if box else ""


def test_a_side_bet_on_a_box_nobody_played_is_returned_and_others_are_refused() -> None:
    felt = BLACKJACK.adapter.new_round(BLACKJACK.rules)
    felt.apply(PlaceBet(1, "main", 1000, "felt"))
    felt.apply(CloseBetting())
    shoe = ["TS", "9H", "KD", "8C", "2S", "3S", "4S", "5S", "6S"]
    while felt.expects().kind in (ExpectKind.CARD, ExpectKind.DEALER_CARD):
        felt.apply(Deal(shoe.pop(0)))
    outcome = felt.outcome().model_dump(mode="json")
    assert BLACKJACK.payout("21+3@5", 500, outcome) == 500
    assert BLACKJACK.check([("main", 1000)], "p") is not None
    assert BLACKJACK.check([("21+3@9", 500)], "p") is not None
    assert BLACKJACK.check([("21+3@2", 500), ("perfect_pairs@2", 500)], "p") is None


THREE_CARD = TableRules(TableSection(game="three-card-blackjack"))
RUSSIAN = TableRules(TableSection(game="russian-poker", preset="exchange", rules={"bonus": True}))


def felt_round(rules: TableRules, side: str, box: int, amount: int, seed: int) -> tuple[dict[str, object], int]:
    """Boxes 1..3 played to the end at the felt with random decisions (Russian poker's exchanges
    too), ``side`` on ``box`` beside its Ante; the round's outcome and what the side bet paid."""
    from controller.games.russian_poker.round import Exchange

    rng = random.Random(seed)
    deck = sorted(CARDS)
    rng.shuffle(deck)
    felt = rules.adapter.new_round(rules.rules)
    for b in (1, 2, 3):
        felt.apply(PlaceBet(b, "ante", 1000, f"felt{b}"))
    felt.apply(PlaceBet(box, side, amount, f"felt{box}"))
    felt.apply(CloseBetting())
    while felt.expects().kind is not ExpectKind.DONE:
        expect = felt.expects()
        if expect.kind is not ExpectKind.DECISION:
            felt.apply(Deal(deck.pop()))
            continue
        choice = rng.choice(expect.options)
        if choice == "exchange":
            felt.apply(Exchange(expect.box, rng.choice(felt.box_cards(expect.box)), f"felt{expect.box}"))
        else:
            felt.apply(Decide(expect.box or 1, choice, 1, f"felt{expect.box}"))
    (mine,) = [s for s in felt.settlements if s.kind == side]
    return felt.outcome().model_dump(mode="json"), mine.payout


@given(box=st.integers(1, 3), units=st.integers(1, 100), seed=st.integers(0, 2**32))
def test_a_remote_ace_plus_pays_what_the_felts_ace_plus_pays(box: int, units: int, seed: int) -> None:
    outcome, paid = felt_round(THREE_CARD, "ace_plus", box, units * 100, seed)
    assert THREE_CARD.payout(f"ace_plus@{box}", units * 100, outcome) == paid


@given(box=st.integers(1, 3), units=st.integers(1, 5), seed=st.integers(0, 2**32))
def test_a_remote_bonus_pays_what_the_felts_bonus_pays_raised_folded_or_exchanged(box: int, units: int,
                                                                                   seed: int) -> None:
    outcome, paid = felt_round(RUSSIAN, "bonus", box, units * 100, seed)
    assert RUSSIAN.payout(f"bonus@{box}", units * 100, outcome) == paid


def test_remote_side_bets_of_the_other_card_games_are_checked_by_their_engines() -> None:
    assert THREE_CARD.check([("ace_plus@4", 500)], "p") is None
    assert THREE_CARD.check([("ante", 500)], "p") is not None  # a seat's bet: not without the seat
    assert RUSSIAN.check([("bonus@2", 50_000)], "p") is None  # within half the largest Ante
    assert RUSSIAN.check([("bonus@2", 60_000)], "p") is not None
    assert RUSSIAN.check([("bonus@9", 500)], "p") is not None  # no such box
    catch = TableRules(TableSection(game="catch-a-wave"))
    # Catch a Wave's only bet is a seated box's, played on the felt (seats.py refuses it without the seat)
    assert felt_kind("catch-a-wave", "main@1") == ("main", 1) and not catch.settles
