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
