"""Hand-worked Russian poker rounds (docs/rules.md §5), every settlement in cents.

Unless noted: Ante 1000 (10.00), Raise 2000 (2 x Ante), Bonus 500 (50 % of the Ante).
Deal order: five passes of one card to each box (box order) then one to the dealer; the
dealer's fifth card is his up card. ``deal`` below lists each hand's cards in that order.
"""

import pickle

import pytest

from controller.games.base import BetRefused, ExpectKind, IllegalDecision, PhaseError, UnexpectedCard
from controller.games.russian_poker import RussianPokerRound, russian_poker_rules

RULES = russian_poker_rules()
EXCHANGE = russian_poker_rules("exchange")
AK_DEALER = "AH KC 8D 6S 2C"  # Ace-King high: the weakest qualifying hand but one


def deal(hands: dict[int, str], dealer: str, rules=RULES, ante: int = 1000, bonus: int = 0) -> RussianPokerRound:
    game = RussianPokerRound(rules)
    for box in hands:
        game.place_bet(box, "ante", ante, f"p{box}")
        if bonus:
            game.place_bet(box, "bonus", bonus, f"p{box}")
    game.close_betting()
    cards = {b: hands[b].split() for b in sorted(hands)}
    d = dealer.split()
    for i in range(5):
        for box in sorted(hands):
            game.deal(cards[box][i])
        game.deal(d[i])
    return game


def paid(game: RussianPokerRound) -> dict[tuple[int, str], tuple[int, int]]:
    out = {}
    for s in game.settlements:
        assert (s.box, s.kind) not in out, "a bet settled twice"
        out[(s.box, s.kind)] = (s.stake, s.payout)
    return out


def raise_one(hand: str, dealer: str, bonus: int = 500) -> dict:
    game = deal({1: hand}, dealer, bonus=bonus)
    game.decide(1, "raise")
    assert game.expects().kind is ExpectKind.DONE
    return paid(game)


# Player beats a qualifying dealer: Ante 1:1 -> 2000; Raise 2000 * (1 + a:b).
@pytest.mark.parametrize(
    ("hand", "dealer", "raise_payout", "bonus_payout"),
    [
        ("AS KD 9C 7H 3S", AK_DEALER, 4000, 0),  # AK 1:1: 2000 + 2000; A K beat A K, 9 beats 8
        ("5S 5D KD 9H 2S", AK_DEALER, 4000, 0),  # pair 1:1
        ("5S 5D KS KH 2S", AK_DEALER, 6000, 0),  # two pair 2:1: 2000 + 4000
        ("5S 5D 5C KH 2S", AK_DEALER, 8000, 0),  # trips 3:1: 2000 + 6000
        ("AS 2D 3C 4H 5S", AK_DEALER, 10000, 0),  # wheel straight 4:1: 2000 + 8000
        ("2H 7H 9H JH KH", AK_DEALER, 12000, 25500),  # flush 5:1; bonus 50:1: 500 + 25000
        ("5S 5D 5C KH KS", AK_DEALER, 16000, 35500),  # full house 7:1; bonus 70:1: 500 + 35000
        ("5S 5D 5C 5H KS", AK_DEALER, 42000, 100500),  # quads 20:1; bonus 200:1
        ("9D TD JD QD KD", AK_DEALER, 102000, 250500),  # straight flush 50:1; bonus 500:1
        ("TS JS QS KS AS", "AH KC 8D 6D 2C", 202000, 500500),  # royal 100:1; bonus 1000:1
    ],
)
def test_every_paytable_line(hand, dealer, raise_payout, bonus_payout):
    p = raise_one(hand, dealer)
    assert p[(1, "ante")] == (1000, 2000)
    assert p[(1, "raise")] == (2000, raise_payout)
    assert p[(1, "bonus")] == (500, bonus_payout)


def test_dealer_without_ace_king_does_not_qualify():
    # dealer A Q J 9 8: no King, no pair -> Ante 1:1 = 2000, Raise returned 2000
    p = raise_one("3S 3D 7C 8H 9S", "AD QC JD 9C 8D", bonus=0)
    assert p == {(1, "ante"): (1000, 2000), (1, "raise"): (2000, 2000)}


def test_non_qualifying_dealer_pays_ante_even_to_a_weaker_hand():
    # player 7-high (raised anyway) against dealer K-high: dealer out, Ante 1:1, Raise back
    p = raise_one("2S 3D 4C 6H 7S", "KD QC JD 9C 8D", bonus=0)
    assert p == {(1, "ante"): (1000, 2000), (1, "raise"): (2000, 2000)}


def test_kickers_decide_between_equal_pairs():
    # both pair of kings with an Ace kicker; the player's next kicker 7 beats the dealer's 6
    p = raise_one("KS KD AC 7H 2S", "KH KC AD 6C 2D", bonus=0)
    assert p == {(1, "ante"): (1000, 2000), (1, "raise"): (2000, 4000)}


def test_lower_kicker_loses_ante_and_raise():
    # both K K 4 4; player kicker 3 against dealer 5 -> both bets lost
    p = raise_one("KS KD 4C 4H 3S", "KH KC 4D 4S 5D", bonus=0)
    assert p == {(1, "ante"): (1000, 0), (1, "raise"): (2000, 0)}


def test_exact_tie_returns_ante_and_raise():
    p = raise_one("AS KD 9C 7H 3S", "AD KC 9H 7S 3C", bonus=0)
    assert p == {(1, "ante"): (1000, 1000), (1, "raise"): (2000, 2000)}


def test_bonus_pays_whatever_the_dealer_holds():
    # player flush loses to the dealer's full house: Ante 0, Raise 0, Bonus 50:1 = 25500
    p = raise_one("2H 7H 9H JH KH", "QS QD QC 3S 3D")
    assert p == {(1, "ante"): (1000, 0), (1, "raise"): (2000, 0), (1, "bonus"): (500, 25500)}


def test_fold_loses_the_ante_when_the_dealer_shows():
    game = deal({1: "2S 3D 4C 6H 7S", 2: "AS AD 5C 8H 9S"}, AK_DEALER, bonus=500)
    game.decide(1, "fold")
    assert paid(game) == {}  # a misdeal may still return it until the dealer's hand is shown
    assert game.expects().options == ("fold", "raise") and game.expects().box == 2
    game.decide(2, "raise")
    p = paid(game)  # box 1: Ante lost, no flush: Bonus lost. Pair of aces beats A K: 2000 / 4000
    assert p[(1, "ante")] == (1000, 0) and p[(1, "bonus")] == (500, 0)
    assert p[(2, "ante")] == (1000, 2000) and p[(2, "raise")] == (2000, 4000) and p[(2, "bonus")] == (500, 0)
    assert [s.box for s in game.settlements][:2] == [1, 1]  # folded boxes settle first


def test_the_bonus_pays_on_the_dealt_five_though_the_box_folds():
    # box 1 folds a flush (Bonus 50:1: 500 + 25000 = 25500) and loses its Ante; box 2 folds a
    # full house (70:1: 35500). Nobody raised: the dealer's hand needs no qualifying.
    game = deal({1: "2H 7H 9H JH KH", 2: "QS QD QC 3S 3D"}, AK_DEALER, bonus=500)
    game.decide(1, "fold")
    game.decide(2, "fold")
    assert game.expects().kind is ExpectKind.DONE
    assert paid(game) == {
        (1, "ante"): (1000, 0),
        (1, "bonus"): (500, 25500),
        (2, "ante"): (1000, 0),
        (2, "bonus"): (500, 35500),
    }


def test_box_misdeal_returns_bets_and_pays_half_the_ante():
    game = deal({1: "AS AD 5C 8H 9S", 2: "2S 3D 4C 6H 7S"}, AK_DEALER, ante=1005, bonus=500)
    game.declare_misdeal(2, 4)
    # box 2: Ante 1005 back + 50 % = 502.5 rounded down -> 1507; Bonus 500 back
    assert paid(game) == {(2, "ante"): (1005, 1507), (2, "bonus"): (500, 500)}
    game.decide(1, "raise")  # box 1 plays on: aces beat A K, Raise 2010 pays 1:1
    assert paid(game)[(1, "raise")] == (2010, 4020)
    half_up = deal({1: "2S 3D 4C 6H 7S"}, AK_DEALER, russian_poker_rules(overrides={"rounding": "half_up"}), 1005)
    half_up.declare_misdeal(1, 6)
    assert paid(half_up) == {(1, "ante"): (1005, 1508)}
    assert half_up.expects().kind is ExpectKind.DONE  # nobody left: no showdown


def test_dealer_with_four_cards_adds_a_fifth():
    # dealer finds he holds 4 cards: the engine had given him 8S, which went elsewhere
    game = deal({1: "KS KD 5C 7H 2S"}, "AH KC 8S 6S 2C")
    game.declare_misdeal("dealer", 4, ("AH", "KC", "6S", "2C"))
    assert game.expects().kind is ExpectKind.DEALER_CARD
    with pytest.raises(PhaseError):
        game.decide(1, "raise")  # the dealer's hand is completed first
    game.deal("AD")  # dealer now A A K 6 2: pair of aces beats the player's kings
    game.decide(1, "raise")
    assert paid(game) == {(1, "ante"): (1000, 0), (1, "raise"): (2000, 0)}
    assert game.outcome()["dealer"]["cards"] == ["AH", "KC", "6S", "2C", "AD"]


def test_other_dealer_misdeal_voids_every_live_hand():
    game = deal({1: "2S 3D 4C 6H 7S", 2: "AS AD 5C 8H 9S", 3: "QS QD 5D 8C 9C"}, AK_DEALER, bonus=500)
    game.decide(1, "fold")  # not settled before the dealer's hand is shown
    game.decide(2, "raise")
    game.declare_misdeal("dealer", 6)
    p = paid(game)
    # box 1 folded: its bets come back too, Ante 1000 + 500 penalty, Bonus 500
    assert p[(1, "ante")] == (1000, 1500) and p[(1, "bonus")] == (500, 500)
    # box 2 raised: Ante 1000 + 500 penalty, Raise 2000 back, Bonus 500 back
    assert p[(2, "ante")] == (1000, 1500) and p[(2, "raise")] == (2000, 2000) and p[(2, "bonus")] == (500, 500)
    # box 3 undecided: Ante 1000 + 500, Bonus back
    assert p[(3, "ante")] == (1000, 1500) and p[(3, "bonus")] == (500, 500)
    assert game.expects().kind is ExpectKind.DONE and game.outcome()["void"] == "dealer misdeal: 6 cards"


def test_exchange_pays_an_ante_and_loses_the_bonus():
    game = deal({1: "2H 7H 9H JH KS"}, AK_DEALER, EXCHANGE, bonus=500)
    assert game.expects().options == ("fold", "raise", "exchange")
    game.exchange(1, "KS")
    # fee 1000 kept by the house at once; the Bonus 500 is lost, settled with the showdown
    assert paid(game) == {(1, "exchange"): (1000, 0)}
    assert game.expects().kind is ExpectKind.CARD and game.expects().box == 1
    game.deal("3H")  # 2 3 7 9 J of hearts: a flush
    assert game.expects().options == ("fold", "raise")  # one exchange only
    game.decide(1, "raise")
    p = paid(game)
    assert p[(1, "ante")] == (1000, 2000) and p[(1, "raise")] == (2000, 12000)  # flush 5:1
    assert p[(1, "bonus")] == (500, 0)  # a flush after the exchange: the Bonus was lost


def test_dealer_misdeal_after_an_exchange_returns_the_bonus_not_the_fee():
    # box 1 exchanges (fee 1000 kept), draws 3H, raises; box 2 folds; then the dealer finds 6 cards:
    # box 1 Ante 1000 + 500, Raise 2000, Bonus 500 back; box 2 Ante 1000 + 500, Bonus 500 back
    game = deal({1: "2H 7H 9H JH KS", 2: "2S 3D 4C 6H 7S"}, AK_DEALER, EXCHANGE, bonus=500)
    game.exchange(1, "KS")
    game.deal("3H")
    game.decide(1, "raise")
    game.decide(2, "fold")
    assert game.expects().kind is ExpectKind.DONE  # the last decision shows the dealer's hand
    with pytest.raises(PhaseError):
        game.declare_misdeal("dealer", 6)  # too late: the hand is shown and settled
    game = deal({1: "2H 7H 9H JH KS", 2: "2S 3D 4C 6H 7S"}, AK_DEALER, EXCHANGE, bonus=500)
    game.exchange(1, "KS")
    game.deal("3H")
    game.decide(1, "raise")
    game.declare_misdeal("dealer", 6)  # box 2 still to decide: the hand is not shown yet
    assert paid(game) == {
        (1, "exchange"): (1000, 0),
        (1, "ante"): (1000, 1500),
        (1, "raise"): (2000, 2000),
        (1, "bonus"): (500, 500),
        (2, "ante"): (1000, 1500),
        (2, "bonus"): (500, 500),
    }


def test_dealer_misdeal_returns_a_folded_box_when_every_box_but_one_decided():
    # box 1 folds, box 2 folds a flush; box 3 undecided: the dealer's hand is not shown, a misdeal
    # returns everything: Antes + 500 each, Bonuses back (box 2's flush Bonus is not paid)
    game = deal({1: "2S 3D 4C 6H 7S", 2: "2H 7H 9H JH KH", 3: "QS QD QC 3S 3H"}, AK_DEALER, bonus=500)
    game.decide(1, "fold")
    game.decide(2, "fold")
    game.declare_misdeal("dealer", 3)
    assert paid(game) == {(b, k): (s, s + 500 if k == "ante" else s) for b in (1, 2, 3) for k, s in
                          (("ante", 1000), ("bonus", 500))}
    assert game.expects().kind is ExpectKind.DONE


def test_two_boxes_follow_the_deal_order():
    game = RussianPokerRound(RULES)
    game.place_bet(3, "ante", 1000)
    game.place_bet(1, "ante", 1000)
    game.close_betting()
    seen = []
    for i in range(15):
        e = game.expects()
        seen.append((e.kind.value, e.box, e.face_down))
        game.deal(["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS", "2D", "3D"][i])
    assert seen[:3] == [("card", 1, True), ("card", 3, True), ("dealer_card", None, True)]
    assert seen[14] == ("dealer_card", None, False)  # the last card is the dealer's up card
    assert game.dealer_up_card == "3D"
    assert game.box_cards(1) == ("2S", "5S", "8S", "JS", "AS")


def _refused(game, fn, error):
    before = pickle.dumps(game)
    with pytest.raises(error):
        fn()
    assert pickle.dumps(game) == before


def test_illegal_inputs_are_refused_unchanged():
    game = RussianPokerRound(RULES)
    _refused(game, lambda: game.place_bet(1, "bonus", 500), BetRefused)  # no ante yet
    game.place_bet(1, "ante", 1000, "ann")
    _refused(game, lambda: game.place_bet(1, "bonus", 501, "ann"), BetRefused)  # over 50 %
    _refused(game, lambda: game.place_bet(1, "ante", 1000, "bob"), BetRefused)  # not his box
    _refused(game, lambda: game.place_bet(7, "ante", 1000), BetRefused)  # 6 boxes
    _refused(game, lambda: game.place_bet(2, "ante", 99), BetRefused)  # under the limit
    _refused(game, lambda: game.deal("AS"), UnexpectedCard)  # betting open
    game.close_betting()
    _refused(game, lambda: game.place_bet(1, "ante", 1000, "ann"), BetRefused)
    _refused(game, lambda: game.deal("XX"), UnexpectedCard)
    game.deal("AS")
    _refused(game, lambda: game.deal("AS"), UnexpectedCard)  # one deck: no second AS
    _refused(game, lambda: game.decide(1, "raise"), PhaseError)  # still dealing
    _refused(game, lambda: game.declare_misdeal(1, 4), PhaseError)
    for c in ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS"]:
        game.deal(c)
    _refused(game, lambda: game.decide(1, "exchange"), IllegalDecision)
    _refused(game, lambda: game.exchange(1, "AS"), IllegalDecision)  # table without exchange
    _refused(game, lambda: game.decide(1, "raise", amount=1000), IllegalDecision)
    _refused(game, lambda: game.decide(2, "raise"), IllegalDecision)
    _refused(game, lambda: game.declare_misdeal(1, 5), IllegalDecision)
    _refused(game, lambda: game.declare_misdeal("dealer", 4, ("AS", "2S")), IllegalDecision)
    game.decide(1, "fold")
    _refused(game, lambda: game.deal("JS"), UnexpectedCard)
    _refused(game, lambda: game.void_round("x"), PhaseError)


def test_void_round_returns_every_bet_without_penalty():
    game = deal({1: "2S 3D 4C 6H 7S"}, AK_DEALER, bonus=500)
    game.void_round("shuffler fault")
    assert paid(game) == {(1, "ante"): (1000, 1000), (1, "bonus"): (500, 500)}


# --------------------------------------------------------------------------- the misdeal window
# RULES §5: "A misdeal may be declared until the dealer's hand is shown", for a box too, whatever
# it did with its cards. Three boxes, Ante 1000, Bonus 500; box 3 still to decide keeps the
# dealer's hand hidden.
THREE = {1: "2S 3D 4C 6H 7S", 2: "AS AD 5C 8H 9S", 3: "QS QD 5D 8C 9C"}


def test_a_folded_box_found_misdealt_gets_its_bets_back_with_the_penalty():
    game = deal(THREE, AK_DEALER, bonus=500)
    game.decide(1, "fold")
    game.declare_misdeal(1, 6)  # box 1 folded, then found holding six cards
    assert paid(game) == {(1, "ante"): (1000, 1500), (1, "bonus"): (500, 500)}
    assert game.outcome()["boxes"]["1"]["status"] == "void"
    game.decide(2, "raise")
    game.decide(3, "raise")  # the last decision shows the dealer's hand: A K qualifies
    p = paid(game)
    assert p[(2, "ante")] == (1000, 2000) and p[(2, "raise")] == (2000, 4000)  # aces beat A K
    assert p[(3, "ante")] == (1000, 2000) and p[(3, "raise")] == (2000, 4000)  # queens beat A K
    assert p[(1, "ante")] == (1000, 1500)  # settled once: the showdown leaves the void box alone


def test_a_raised_box_found_misdealt_gets_its_raise_back_too():
    game = deal(THREE, AK_DEALER, bonus=500)
    game.decide(1, "fold")
    game.decide(2, "raise")
    game.declare_misdeal(2, 4)
    # box 2: Ante 1000 + 500 penalty, Raise 2000 back, Bonus 500 back; box 1's fold is not settled yet
    assert paid(game) == {(2, "ante"): (1000, 1500), (2, "raise"): (2000, 2000), (2, "bonus"): (500, 500)}
    game.decide(3, "fold")
    p = paid(game)
    assert p[(1, "ante")] == (1000, 0) and p[(3, "ante")] == (1000, 0)
    assert p[(2, "ante")] == (1000, 1500)


def test_an_exchanged_box_found_misdealt_keeps_the_fee_with_the_house():
    game = deal({1: "2H 7H 9H JH KS", 2: "2S 3D 4C 6H 7S"}, AK_DEALER, EXCHANGE, bonus=500)
    game.exchange(1, "KS")  # fee 1000 kept; box 1 now waits for its card
    game.declare_misdeal(1, 4)
    # the fee stays with the house; Ante 1000 + 500, the Bonus the exchange had lost 500 back
    assert paid(game) == {(1, "exchange"): (1000, 0), (1, "ante"): (1000, 1500), (1, "bonus"): (500, 500)}
    e = game.expects()
    assert (e.kind, e.box) == (ExpectKind.DECISION, 2)  # no card for a void hand: box 2 decides
    with pytest.raises(UnexpectedCard):
        game.deal("3H")
    game.decide(2, "fold")
    assert game.expects().kind is ExpectKind.DONE


def test_a_box_misdeal_is_refused_once_the_dealer_hand_is_shown_or_the_box_is_void():
    game = deal(THREE, AK_DEALER)
    game.decide(1, "fold")
    game.declare_misdeal(1, 4)
    _refused(game, lambda: game.declare_misdeal(1, 4), IllegalDecision)  # already void
    game.decide(2, "raise")
    game.decide(3, "raise")  # the dealer's hand is shown
    _refused(game, lambda: game.declare_misdeal(2, 4), PhaseError)
