"""``bet_behind_owner_share``: a winning Bet Behind gives that fraction of its net win to the box
owner, on a ``behind_share`` row of the owner's (stake 0). Worked by hand, am8 (no hole card)."""

import pytest

from controller.games.base import RulesConfigError
from tests.unit.blackjack.helpers import money, play, rules

BETS = [(1, "main", 1000, "alice"), (1, "behind", 500, "bob")]


def test_a_tenth_of_a_winning_behind_goes_to_the_owner():
    # 19 stands, dealer 6 T 8 = 24: alice 1000 -> 2000; bob 500 wins 500, gives 50 -> 950
    rnd = play(rules("am8", bet_behind_owner_share="1:10"), BETS, "TS 6D 9H stand TC 8S")
    assert money(rnd) == [
        (1, 1, "behind", "bob", 500, 950),
        (1, 1, "behind_share", "alice", 0, 50),
        (1, 1, "main", "alice", 1000, 2000),
    ]
    assert sum(s.payout - s.stake for s in rnd.settlements if s.kind != "main") == 500  # bob + alice


def test_the_share_of_a_blackjack_rounds_down():
    # blackjack 3:2: bob's 500 wins 750; a third is 250 -> 1000; 0.3 of 750 = 225 -> 1025
    rnd = play(rules("am8", bet_behind_owner_share="1:3"), BETS, "AS 6D KH")
    assert ("behind", "bob", 500, 1000) in [r[2:] for r in money(rnd)]
    rnd = play(rules("am8", bet_behind_owner_share=0.3), [(1, "main", 1000, "alice"), (1, "behind", 333, "bob")], "AS 6D KH")
    # 333 wins 499 (3:2 rounded down); 0.3 * 499 = 149.7 -> 149
    assert money(rnd) == [
        (1, 1, "behind", "bob", 333, 683),
        (1, 1, "behind_share", "alice", 0, 149),
        (1, 1, "main", "alice", 1000, 2500),
    ]


def test_no_share_on_a_push_a_loss_or_by_default():
    table = rules("am8", bet_behind_owner_share="1:2")
    assert money(play(table, BETS, "TS 6D 9H stand TC 3S")) == [  # 19 against 19: push
        (1, 1, "behind", "bob", 500, 500),
        (1, 1, "main", "alice", 1000, 1000),
    ]
    assert money(play(table, BETS, "TS 6D 9H stand TC 4S")) == [  # 19 against 20: lost
        (1, 1, "behind", "bob", 500, 0),
        (1, 1, "main", "alice", 1000, 0),
    ]
    assert money(play(rules("am8"), BETS, "TS 6D 9H stand TC 8S"))[0] == (1, 1, "behind", "bob", 500, 1000)


def test_the_share_follows_a_doubled_behind():
    # 11 doubles (bob follows: 1000), draws 9: 20; dealer 6 T 6 = 22 bust. bob wins 1000,
    # gives a quarter (250) -> 1750
    rnd = play(rules("am8", bet_behind_owner_share="1:4"), BETS, "6S 6D 5H double 9C TC 6C")
    assert money(rnd) == [
        (1, 1, "behind", "bob", 1000, 1750),
        (1, 1, "behind_share", "alice", 0, 250),
        (1, 1, "main", "alice", 2000, 4000),
    ]


@pytest.mark.parametrize("share", ["3:2", -0.1])
def test_share_outside_zero_to_one_is_refused(share):
    with pytest.raises(RulesConfigError, match="bet_behind_owner_share"):
        rules("am8", bet_behind_owner_share=share)


# --------------------------------------------------------------------------- the net over the round
# RULES §1.2: the owner's share is of the Bet Behind's *net* win over the round, and a box's Bet
# Behinds give their owner one row. am8, dealer 6 up, no hole card, share 1:10.
SHARE = rules("am8", bet_behind_owner_share="1:10")


def test_a_split_behind_that_wins_one_hand_and_loses_the_other_shares_nothing():
    # 8-8 split (bob follows): hand 1 8 T = 18 stands, hand 2 8 5 K busts; dealer 6 T 6 = 22.
    # bob: hand 1 500 -> 1000 (+500), hand 2 500 -> 0 (-500): net 0 over the round, no share
    rnd = play(SHARE, BETS, "8S 6D 8H split TC stand 5C hit KS TH 6C")
    assert money(rnd) == [
        (1, 1, "behind", "bob", 500, 1000),
        (1, 1, "main", "alice", 1000, 2000),
        (1, 2, "behind", "bob", 500, 0),
        (1, 2, "main", "alice", 1000, 0),
    ]


def test_the_share_is_of_the_net_win_of_a_split_and_doubled_behind():
    # 8-8 split; hand 1 8 3 doubles (bob follows: 1000) and draws T = 21; hand 2 8 T = 18 stands;
    # dealer 6 T 3 = 19. bob: hand 1 1000 -> 2000 (+1000), hand 2 500 -> 0 (-500): net +500,
    # a tenth is 50 (not 100, a tenth of hand 1 alone), taken off the winning row: 1950
    rnd = play(SHARE, BETS, "8S 6D 8H split 3C double TC TD stand TH 3S")
    assert money(rnd) == [
        (1, 1, "behind", "bob", 1000, 1950),
        (1, 1, "behind_share", "alice", 0, 50),
        (1, 1, "main", "alice", 2000, 4000),
        (1, 2, "behind", "bob", 500, 0),
        (1, 2, "main", "alice", 1000, 0),
    ]
    assert sum(s.payout - s.stake for s in rnd.settlements if s.kind != "main") == 500  # bob + alice


def test_several_behinds_on_one_box_pay_the_owner_one_share_row():
    # 19 stands, dealer 6 T 8 = 24: bob 500 wins 500 (gives 50), carol 300 wins 300 (gives 30: 600 -> 570);
    # alice gets one row of 80
    bets = [*BETS, (1, "behind_stay", 300, "carol")]
    rnd = play(SHARE, bets, "TS 6D 9H stand TC 8S")
    assert money(rnd) == [
        (1, 1, "behind", "bob", 500, 950),
        (1, 1, "behind", "carol", 300, 570),
        (1, 1, "behind_share", "alice", 0, 80),
        (1, 1, "main", "alice", 1000, 2000),
    ]
    assert [s.kind for s in rnd.settlements].count("behind_share") == 1


def test_the_share_row_follows_its_box():
    # two boxes, each with a Bet Behind: every box's share row comes after that box's rows
    bets = [*BETS, (2, "main", 1000, "dan"), (2, "behind", 200, "erin")]
    rnd = play(SHARE, bets, "TS 9S 6D 9H TH stand stand TC 8S")
    rows = [(s.box, s.kind, s.player, s.payout) for s in rnd.settlements]
    assert rows.index((1, "behind_share", "alice", 50)) < rows.index((2, "main", "dan", 2000))
    assert rows[-1] == (2, "behind_share", "dan", 20)
