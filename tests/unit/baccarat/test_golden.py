"""Hand-worked baccarat coups (docs/rules.md §6), every settlement in cents.

Seat 1 bets 1000 on each of Player, Banker and Tie unless noted. Cards are listed in the order
they leave the shoe: Player, Banker, Player, Banker, then the third cards the rules call for
(``P3`` then ``B3``). Payouts: Player 1000 + 1000 = 2000; Banker 1000 + 950 (1:1 less 5 %) =
1950; Tie 1000 + 8000 = 9000; on a tie Player and Banker push (1000 back).
"""

import pickle

import pytest

from controller.games.baccarat import BaccaratRound, baccarat_rules
from controller.games.base import BetRefused, ExpectKind, PhaseError, UnexpectedCard

RULES = baccarat_rules()
PLAYER_WINS = {"player": 2000, "banker": 0, "tie": 0}
BANKER_WINS = {"player": 0, "banker": 1950, "tie": 0}
TIE = {"player": 1000, "banker": 1000, "tie": 9000}


def coup(cards: str, hands: str, rules=RULES, stake: int = 1000) -> BaccaratRound:
    """Deal ``cards``, checking before each that the engine asks for it on the hand in ``hands``."""
    game = BaccaratRound(rules)
    for kind in ("player", "banker", "tie"):
        game.place_bet(1, kind, stake, "ann")
    game.close_betting()
    for card, hand in zip(cards.split(), hands.split(), strict=True):
        assert game.expects().note == {"P": "player", "B": "banker"}[hand]
        game.deal(card)
    assert game.expects().kind is ExpectKind.DONE
    return game


def payouts(game: BaccaratRound) -> dict[str, int]:
    return {s.kind: s.payout for s in game.settlements}


def no_more(game: BaccaratRound, rule: str) -> None:
    before = pickle.dumps(game)
    with pytest.raises(UnexpectedCard) as err:
        game.deal("5S")
    assert err.value.rule == rule
    assert pickle.dumps(game) == before


@pytest.mark.parametrize(
    ("cards", "hands", "totals", "paid", "stop"),
    [
        # naturals: nobody draws
        ("4S 7D 5H KC", "P B P B", (9, 7), PLAYER_WINS, "baccarat.natural"),  # P 4+5=9, B 7+0=7
        ("7S 3D TH 5C", "P B P B", (7, 8), BANKER_WINS, "baccarat.natural"),  # B 3+5=8 natural; P 7 no draw
        ("8S 4D KH 4C", "P B P B", (8, 8), TIE, "baccarat.natural"),  # natural tie
        ("8S 9D QH KC", "P B P B", (8, 9), BANKER_WINS, "baccarat.natural"),  # 9 beats 8
        # Player stands on 6-7; Banker then draws on 0-5, stands on 6-7
        ("6S 2D KH 3C 2H", "P B P B B", (6, 7), BANKER_WINS, "baccarat.third_cards_dealt"),  # B 5 draws 2 -> 7
        ("7S 6D QH KC", "P B P B", (7, 6), PLAYER_WINS, "baccarat.both_stand"),
        ("6S 6D KH QC", "P B P B", (6, 6), TIE, "baccarat.both_stand"),
        # Player draws on 0-5; Banker by the tableau
        ("KS 7D QH 7C 9C", "P B P B P", (9, 4), PLAYER_WINS, "baccarat.tableau"),  # P 0 draws 9; B 4 stands on 9
        ("2S KD 3H 2C 8D 5S", "P B P B P B", (3, 7), BANKER_WINS, "baccarat.third_cards_dealt"),  # B 2 draws even on 8
        ("AS TD 3H 3C 8C", "P B P B P", (2, 3), BANKER_WINS, "baccarat.tableau"),  # B 3 stands on an 8
        ("AS TD 3H 3C 9C 4D", "P B P B P B", (3, 7), BANKER_WINS, "baccarat.third_cards_dealt"),  # B 3 draws on 9
        ("KS 4D 5H KC 2C 3S", "P B P B P B", (7, 7), TIE, "baccarat.third_cards_dealt"),  # B 4 draws on 2; tie 7-7
        ("KS 4D 5H KC AC", "P B P B P", (6, 4), PLAYER_WINS, "baccarat.tableau"),  # B 4 stands on an ace (1)
        ("2S 5D 2H KC 4C 4S", "P B P B P B", (8, 9), BANKER_WINS, "baccarat.third_cards_dealt"),  # B 5 draws on 4
        ("2S 5D 2H KC 3C", "P B P B P", (7, 5), PLAYER_WINS, "baccarat.tableau"),  # B 5 stands on 3
        ("3S 6D 2H KC 7C AS", "P B P B P B", (2, 7), BANKER_WINS, "baccarat.third_cards_dealt"),  # B 6 draws on 7
        ("3S 6D 2H KC 5C", "P B P B P", (0, 6), BANKER_WINS, "baccarat.tableau"),  # B 6 stands on 5
        ("3S 7D 2H KC 9C", "P B P B P", (4, 7), BANKER_WINS, "baccarat.tableau"),  # B 7 stands
        ("KS TD QH JC 9C 9D", "P B P B P B", (9, 9), TIE, "baccarat.third_cards_dealt"),  # B 0 draws
    ],
)
def test_coups(cards, hands, totals, paid, stop):
    game = coup(cards, hands)
    assert (game.player_total, game.banker_total) == totals
    assert payouts(game) == paid
    assert all(s.stake == 1000 and s.box == 1 and s.player == "ann" for s in game.settlements)
    no_more(game, stop)


@pytest.mark.parametrize(("rounding", "banker"), [("down", 1969), ("half_up", 1970)])
def test_banker_commission_rounding(rounding, banker):
    # Banker 1010 wins: 1010 + 1010 * 19/20 = 1010 + 959.5 -> 1969 (down) or 1970 (half up)
    game = coup("7S 3D TH 5C", "P B P B", baccarat_rules(overrides={"rounding": rounding}), stake=1010)
    assert payouts(game) == {"player": 0, "banker": banker, "tie": 0}


def test_tie_paytable_is_configurable():
    game = coup("6S 6D KH QC", "P B P B", baccarat_rules(overrides={"tie_pays": "9:1"}))
    assert payouts(game) == {"player": 1000, "banker": 1000, "tie": 10000}


def test_many_seats_settle_in_seat_order():
    game = BaccaratRound(RULES)
    game.place_bet(3, "banker", 2000, "bob")
    game.place_bet(1, "player", 500, "ann")
    game.place_bet(1, "player", 500, "ann")  # adds up to 1000
    game.close_betting()
    for card in ["4S", "7D", "5H", "KC"]:
        game.deal(card)
    assert [(s.box, s.kind, s.stake, s.payout) for s in game.settlements] == [
        (1, "player", 1000, 2000),
        (3, "banker", 2000, 0),
    ]


def test_void_round_returns_every_bet():
    game = BaccaratRound(RULES)
    game.place_bet(2, "tie", 500)
    game.close_betting()
    game.deal("4S")
    game.void_round("card dropped face up")
    assert [(s.stake, s.payout) for s in game.settlements] == [(500, 500)]
    assert game.outcome()["winner"] is None


def _refused(game, fn, error, rule):
    before = pickle.dumps(game)
    with pytest.raises(error) as err:
        fn()
    assert err.value.rule == rule
    assert pickle.dumps(game) == before


def test_illegal_inputs_are_refused_unchanged():
    game = BaccaratRound(RULES)
    _refused(game, lambda: game.deal("AS"), UnexpectedCard, "baccarat.betting_open")
    _refused(game, lambda: game.place_bet(1, "dragon", 1000), BetRefused, "baccarat.kind")
    _refused(game, lambda: game.place_bet(8, "tie", 1000), BetRefused, "baccarat.box")
    _refused(game, lambda: game.place_bet(1, "tie", 100_001), BetRefused, "baccarat.limits")
    _refused(game, lambda: game.place_bet(1, "tie", 0), BetRefused, "baccarat.amount")
    game.place_bet(1, "tie", 1000, "ann")
    _refused(game, lambda: game.place_bet(1, "player", 1000, "bob"), BetRefused, "baccarat.box.owner")
    _refused(game, lambda: game.clear_bets(2), BetRefused, "baccarat.clear.empty")
    game.close_betting()
    _refused(game, lambda: game.close_betting(), PhaseError, "baccarat.phase")
    _refused(game, lambda: game.place_bet(1, "tie", 1000, "ann"), BetRefused, "baccarat.betting_closed")
    _refused(game, lambda: game.deal("1S"), UnexpectedCard, "baccarat.card")
    for card in ["4S", "7D", "5H", "KC"]:
        game.deal(card)
    _refused(game, lambda: game.void_round("late"), PhaseError, "baccarat.phase")
