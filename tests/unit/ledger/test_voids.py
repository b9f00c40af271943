"""A void returns only what still rides (docs/rules.md; RULES): every bet an engine settled before
the void stands exactly as it was settled, and ``voided`` / ``GameAdapter.void_round`` say what
was returned and what stands. Hand-worked rounds per game, in cents, then a property over random
rounds of every shoe game voided at a random point."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.cards import CARDS
from controller.games.baccarat import BaccaratRound, baccarat_rules
from controller.games.base import ExpectKind, RuleError, Settlement, VoidRound
from controller.games.blackjack.engine import BlackjackRound
from controller.games.blackjack.rules import blackjack_rules
from controller.games.catch_a_wave import CatchAWaveRound, catch_a_wave_rules
from controller.games.russian_poker import RussianPokerRound, russian_poker_rules
from controller.games.russian_poker.round import Exchange
from controller.games.three_card_blackjack import ThreeCardBlackjackRound, three_card_blackjack_rules
from controller.table.registry import adapter_for
from tests.unit.blackjack.helpers import run, start

Row = tuple[int, int, str, str, int, int]


def rows(settlements: Any) -> list[Row]:
    return [(s.box, s.hand, s.kind, s.player, s.stake, s.payout) for s in settlements]


def void(game: str, engine: Any, reason: str = "misdeal") -> tuple[list[Row], list[Row]]:
    """Void through the table's hook: (rows that stand, rows returned)."""
    result = adapter_for(game).void_round(engine, reason)
    assert result.reason == reason and engine.voided == result
    assert rows(engine.settlements) == rows(result.settlements)
    assert engine.expects().kind is ExpectKind.DONE
    return rows(result.stands), rows(result.returned)


# --------------------------------------------------------------------------- blackjack
def test_the_issue_round_bust_surrender_and_blackjack_stand_only_box_4_is_returned():
    # ru6, dealer 6 up (no hole card: a blackjack is paid at once). Box 1 16 hits T: bust, lost;
    # box 2 16 surrenders: half back; box 3 A K blackjack 3:2 -> 2500; box 4 9 9 to decide: void.
    bets = [(b, "main", 1000, p) for b, p in ((1, "ann"), (2, "bob"), (3, "cat"), (4, "dan"))]
    rnd = run(start(blackjack_rules("ru6"), bets), "TS TH AS 9S 6D 6C 6H KD 9H hit TC surrender")
    assert rnd.expects().box == 4
    stands, returned = void("blackjack", rnd)
    assert sorted(stands) == [
        (1, 1, "main", "ann", 1000, 0),
        (2, 1, "main", "bob", 1000, 500),
        (3, 1, "main", "cat", 1000, 2500),
    ]
    assert returned == [(4, 1, "main", "dan", 1000, 1000)]
    assert rnd.voided is not None
    assert (rnd.voided.returned_total, rnd.voided.stands_stake, rnd.voided.stands_payout) == (1000, 3000, 3000)


def test_even_money_stands_and_a_riding_insurance_is_returned():
    # ru6, dealer ace: box 1 A K takes even money (1000 -> 2000 at once); box 2 9 8 insures 500;
    # the void comes before the dealer's second card: the insurance still rides, it is returned
    bets = [(1, "main", 1000, "ann"), (2, "main", 1000, "bob")]
    rnd = run(start(blackjack_rules("ru6"), bets), "AS 9S AH KD 8S even_money insurance=500")
    stands, returned = void("blackjack", rnd)
    assert stands == [(1, 1, "main", "ann", 1000, 2000)]
    assert sorted(returned) == [(2, 1, "insurance", "bob", 500, 500), (2, 1, "main", "bob", 1000, 1000)]


def test_perfect_pairs_settled_on_the_deal_stands():
    # box 1 8S 8S: a perfect pair 25:1 -> 100 + 2500; box 2 9H 2C: its Perfect Pairs lost (0)
    table = blackjack_rules("ru6", {"side_bets": ["perfect_pairs"]})
    bets = [(1, "main", 1000, "ann"), (1, "perfect_pairs", 100, "ann"),
            (2, "main", 1000, "bob"), (2, "perfect_pairs", 100, "bob")]
    rnd = run(start(table, bets), "8S 9H 6D 8S 2C")
    stands, returned = void("blackjack", rnd)
    assert sorted(stands) == [(1, 1, "perfect_pairs", "ann", 100, 2600), (2, 1, "perfect_pairs", "bob", 100, 0)]
    assert sorted(returned) == [(1, 1, "main", "ann", 1000, 1000), (2, 1, "main", "bob", 1000, 1000)]


def test_a_bet_behind_share_of_a_blackjack_paid_at_once_stands():
    # am8, share 1:10: box 1 A K against a 6 is paid at once (bob's Bet Behind 500 wins 750, gives
    # 75); box 2 still to play when the round is voided
    table = blackjack_rules("am8", {"bet_behind_owner_share": "1:10"})
    bets = [(1, "main", 1000, "ann"), (1, "behind", 500, "bob"), (2, "main", 1000, "cat")]
    rnd = run(start(table, bets), "AS 9S 6D KD 9H")
    stands, returned = void("blackjack", rnd)
    assert sorted(stands) == [
        (1, 1, "behind", "bob", 500, 1175),
        (1, 1, "behind_share", "ann", 0, 75),
        (1, 1, "main", "ann", 1000, 2500),
    ]
    assert returned == [(2, 1, "main", "cat", 1000, 1000)]


# --------------------------------------------------------------------------- the other shoe games
def _tcb() -> ThreeCardBlackjackRound:
    r = ThreeCardBlackjackRound(three_card_blackjack_rules())
    r.place_bet(1, "ante", 500, "ann")
    r.place_bet(1, "ace_plus", 100, "ann")
    r.place_bet(2, "ante", 500, "bob")
    r.close_betting()
    # box 1 AS 5C 7D (A-x-x 1:1), box 2 2S 3S 4S, dealer 9H 9D 9C
    for card in ("AS", "2S", "9H", "5C", "3S", "9D", "7D", "4S", "9C"):
        r.deal(card)
    return r


def test_three_card_blackjack_ace_plus_and_a_fold_stand():
    r = _tcb()  # box 1 turned: its Ace Plus 100 -> 200 at once
    r.decide(1, "fold")
    stands, returned = void("three-card-blackjack", r)
    assert stands == [(1, 1, "ace_plus", "ann", 100, 200), (1, 1, "ante", "ann", 500, 0)]
    assert returned == [(2, 1, "ante", "bob", 500, 500)]


def test_three_card_blackjack_a_play_still_riding_is_returned():
    r = _tcb()
    r.decide(1, "play")
    stands, returned = void("three-card-blackjack", r)
    assert stands == [(1, 1, "ace_plus", "ann", 100, 200)]
    assert returned == [(1, 1, "ante", "ann", 500, 500), (1, 1, "play", "ann", 500, 500),
                        (2, 1, "ante", "bob", 500, 500)]


def test_catch_a_wave_calls_settled_at_once_stand():
    # wave after 2 right calls (6:1). Box 1 5 calls lower, gets 9: lost. Box 2 7 higher 9, higher
    # K: the wave, 1000 -> 7000. Box 3 8 stands; void before the dealer's first call's card.
    r = CatchAWaveRound(catch_a_wave_rules(overrides={"wave_calls": 2}))
    for box, player in ((1, "ann"), (2, "bob"), (3, "cat")):
        r.place_bet(box, "main", 1000, player)
    r.close_betting()
    for card in ("5S", "7S", "8C", "6D"):
        r.deal(card)
    r.decide(1, "lower")
    r.deal("9H")
    r.decide(2, "higher")
    r.deal("9D")
    r.decide(2, "higher")
    r.deal("KD")
    r.decide(3, "stand")
    assert r.expects().kind is ExpectKind.DEALER_CARD
    stands, returned = void("catch-a-wave", r)
    assert stands == [(1, 1, "main", "ann", 1000, 0), (2, 1, "main", "bob", 1000, 7000)]
    assert returned == [(3, 1, "main", "cat", 1000, 1000)]


def test_russian_poker_exchange_fee_stands():
    r = RussianPokerRound(russian_poker_rules("exchange"))
    for box, player in ((1, "ann"), (2, "bob")):
        r.place_bet(box, "ante", 1000, player)
        r.place_bet(box, "bonus", 500, player)
    r.close_betting()
    for card in "2H 2S 7H 3D 9H 4C JH 6H KS 7S AH KC 8D 6S 2C".split():
        r.deal(card)
    r.apply(Exchange(1, "3D"))  # box 1 2H 3D JH 7S 8D: fee 1000 kept by the house at once
    r.deal("3H")
    r.decide(1, "raise")
    stands, returned = void("russian-poker", r)
    assert stands == [(1, 1, "exchange", "ann", 1000, 0)]
    # no penalty on a void; the Raise and the Bonus the exchange lost are still open: returned
    assert returned == [(1, 1, "ante", "ann", 1000, 1000), (1, 1, "raise", "ann", 2000, 2000),
                        (1, 1, "bonus", "ann", 500, 500), (2, 1, "ante", "bob", 1000, 1000),
                        (2, 1, "bonus", "bob", 500, 500)]


def test_baccarat_returns_every_bet_of_a_coup_under_way():
    r = BaccaratRound(baccarat_rules())
    r.place_bet(1, "banker", 1000, "ann")
    r.place_bet(2, "tie", 100, "bob")
    r.close_betting()
    r.deal("2S")
    stands, returned = void("baccarat", r)
    assert stands == []
    assert returned == [(1, 1, "banker", "ann", 1000, 1000), (2, 1, "tie", "bob", 100, 100)]


def test_roulette_table_void_returns_every_bet_and_ends_the_round():
    adapter = adapter_for("roulette")
    r = adapter.new_round(adapter.rules("european", {}, {}))
    r.place_bet(1, "red", 1000, "ann")
    r.place_bet(2, "straight:17", 100, "bob")
    r.close_betting()
    stands, returned = void("roulette", r, "wheel fault")
    assert stands == [] and returned == [(1, 1, "red", "ann", 1000, 1000), (2, 1, "straight:17", "bob", 100, 100)]
    assert r.outcome()["voids"] == []  # the round's void, not a spin's: no void spin recorded


def test_a_round_already_settled_returns_nothing_and_everything_stands():
    r = BaccaratRound(baccarat_rules())
    r.place_bet(1, "player", 1000, "ann")
    r.close_betting()
    for card in ("9S", "2D", "KS", "3C"):  # Player natural 9
        r.deal(card)
    settled = rows(r.settlements)
    result = adapter_for("baccarat").void_round(r, "late")
    assert rows(result.stands) == settled == [(1, 1, "player", "ann", 1000, 2000)] and result.returned == ()
    assert result.view()["returned"] == [] and result.view()["stands_payout"] == 2000


def test_the_view_lists_both_sides_as_rows_and_totals():
    r = _tcb()
    r.decide(1, "fold")
    view = adapter_for("three-card-blackjack").void_round(r, "shuffler fault").view()
    assert view == {
        "reason": "shuffler fault",
        "returned": [{"box": 2, "hand": 1, "kind": "ante", "player": "bob", "stake": 500, "payout": 500}],
        "returned_total": 500,
        "stands": [{"box": 1, "hand": 1, "kind": "ace_plus", "player": "ann", "stake": 100, "payout": 200},
                   {"box": 1, "hand": 1, "kind": "ante", "player": "ann", "stake": 500, "payout": 0}],
        "stands_stake": 600,
        "stands_payout": 200,
    }


# --------------------------------------------------------------------------- property over random rounds
#: game -> (fresh round, bets a box places, one deck per round)
GAMES: dict[str, tuple[Callable[[], Any], tuple[tuple[str, int], ...], bool]] = {
    "blackjack": (lambda: BlackjackRound(blackjack_rules(
        "am8", {"side_bets": ["perfect_pairs", "21+3"], "bet_behind": True, "bet_behind_owner_share": "1:4"})),
        (("main", 1000), ("perfect_pairs", 100), ("21+3", 100)), False),
    "three-card-blackjack": (lambda: ThreeCardBlackjackRound(three_card_blackjack_rules()),
                             (("ante", 500), ("ace_plus", 100)), True),
    "catch-a-wave": (lambda: CatchAWaveRound(catch_a_wave_rules(overrides={"wave_calls": 2})),
                     (("main", 1000),), False),
    "russian-poker": (lambda: RussianPokerRound(russian_poker_rules("exchange")),
                      (("ante", 1000), ("bonus", 500)), True),
    "baccarat": (lambda: BaccaratRound(baccarat_rules()), (("player", 1000), ("tie", 100)), False),
}


def _step(engine: Any, rng: random.Random, deck: list[str]) -> None:
    """One legal-looking random input (a refused one changes nothing and is skipped)."""
    e = engine.expects()
    try:
        if e.kind in (ExpectKind.CARD, ExpectKind.DEALER_CARD):
            engine.deal(deck.pop())
        elif e.kind is ExpectKind.DECISION:
            action = rng.choice(e.options)
            if action == "exchange":
                engine.apply(Exchange(e.box, rng.choice(engine.box_cards(e.box))))
            else:
                engine.decide(box=e.box, hand=e.hand, action=action)
    except RuleError:
        pass


@pytest.mark.parametrize("game", sorted(GAMES))
@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 40), boxes=st.integers(1, 4))
def test_a_void_at_any_point_keeps_what_was_settled_and_returns_what_rode(
    game: str, seed: int, steps: int, boxes: int
) -> None:
    make, bets, one_deck = GAMES[game]
    rng = random.Random(seed)
    engine = make()
    for box in range(1, boxes + 1):
        for kind, amount in bets:
            engine.place_bet(box, kind, amount, f"p{box}")
        if game == "blackjack" and rng.random() < 0.5:
            engine.place_bet(box, rng.choice(("behind", "behind_stay")), 500, f"q{box}")
    engine.close_betting()
    deck = list(CARDS) * (1 if one_deck else 8)
    rng.shuffle(deck)
    for _ in range(steps):
        if engine.expects().kind is ExpectKind.DONE:
            break
        _step(engine, rng, deck)
    if engine.expects().kind is ExpectKind.DONE:
        return  # settled before the void: covered by the worked example above
    settled: list[Settlement] = list(engine.settlements)
    riding = rows(engine.open_bets())
    engine.apply(VoidRound("random void"))
    result = engine.voided
    assert result is not None
    kept = [s for s in settled if s.kind != "behind"]
    if game == "blackjack":  # a Bet Behind's winning row may give the owner his share now
        assert [s for s in result.stands if s.kind not in ("behind", "behind_share")] == kept
        assert sum(s.payout for s in result.stands) == sum(s.payout for s in settled)
    else:
        assert list(result.stands) == settled
    assert sorted(rows(result.returned)) == sorted(riding)
    assert all(s.payout == s.stake for s in result.returned)
    assert engine.open_bets() == []
    staked = {(s.box, s.hand, s.kind, s.player) for s in result.settlements if s.kind != "behind_share"}
    assert len(staked) == len([s for s in result.settlements if s.kind != "behind_share"]), "a bet settled twice"


def test_the_void_in_one_line_with_the_table_currency():
    r = _tcb()
    r.decide(1, "fold")
    result = adapter_for("three-card-blackjack").void_round(r, "shuffler fault")
    assert result.text("GBP") == "returned 1 bet (5.00 GBP); 2 bets settled before stand (staked 6.00 GBP, paid 2.00 GBP)"
    early = BaccaratRound(baccarat_rules())
    early.place_bet(1, "banker", 150_000, "ann")
    assert adapter_for("baccarat").void_round(early, "x").text("JPY", 0) == (
        "returned 1 bet (150,000 JPY); nothing settled before stands")
