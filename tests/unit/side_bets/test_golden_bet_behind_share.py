"""``bet_behind_owner_share``: a winning Bet Behind gives that fraction of its net win to the box
owner, on a ``behind_share`` row of the owner's (stake 0). Worked by hand, am8 (no hole card)."""

from fractions import Fraction
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.cards import CARDS
from controller.games.base import ExpectKind, RulesConfigError, Settlement
from controller.games.blackjack.settlement import settle_owner_shares
from controller.money import Rounding, scale
from tests.unit.blackjack.helpers import money, play, rules, start

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


# --------------------------------------------------------------------------- only winning rows give
def test_the_share_comes_off_the_winning_hand_never_a_push():
    # the independent audit's round, am8, share 1:2: A 1000 on the box, B 300 behind (follows).
    # 8-8 split; hand 1 8 3 doubles (B follows: 600) and draws 6 = 17; hand 2 8 T = 18 stands;
    # dealer 6 A = 17. B: hand 1 pushes (600 back), hand 2 wins (300 -> 600): net +300, half of it
    # (150) to A, off hand 2's win: 450. Hand 1's push keeps its 600.
    rnd = play(rules("am8", bet_behind_owner_share="1:2"), [(1, "main", 1000, "A"), (1, "behind", 300, "B")],
               "8S 6H 8D split 3C double 6C TD stand AS")
    assert money(rnd) == [
        (1, 1, "behind", "B", 600, 600),
        (1, 1, "behind_share", "A", 0, 150),
        (1, 1, "main", "A", 2000, 2000),
        (1, 2, "behind", "B", 300, 450),
        (1, 2, "main", "A", 1000, 2000),
    ]


#: any card, and often one of a few ranks (pairs to split, totals that push)
CARD = st.sampled_from(["8S", "8D", "3C", "6C", "TD", "AS"]) | st.sampled_from(sorted(CARDS))
SHARES = st.sampled_from([Fraction(1, 10), Fraction(1, 4), Fraction(1, 3), Fraction(1, 2), Fraction(3, 10), Fraction(1)])


@settings(max_examples=500, deadline=None)
@given(share=SHARES, stake=st.integers(1, 50).map(lambda n: n * 100), data=st.data())
def test_the_share_never_comes_off_a_push_or_a_lost_row(share: Fraction, stake: int, data: st.DataObject) -> None:
    """Any round (cards and the owner's decisions drawn): played without a share and with one, in
    lockstep, each Bet Behind row pays what it paid without a share less at most its own win (a
    push or a lost row exactly as much), and the Bet Behind's total is its gross less exactly
    ``share`` of its net win (rounded down) when it won overall."""
    bets = [(1, "main", 1000, "A"), (1, "behind", stake, "B")]
    gross = start(rules("am8"), bets)
    shared = start(rules("am8", bet_behind_owner_share=share), bets)
    for _ in range(60):
        exp = gross.expects()
        if exp.kind in (ExpectKind.CARD, ExpectKind.DEALER_CARD):
            card = data.draw(CARD)
            gross.deal(card)
            shared.deal(card)
        elif exp.kind is ExpectKind.DECISION:
            options = [o for o in exp.options if o not in ("insurance", "even_money")]
            preferred = [o for o in ("split", "double") if o in options]  # where the rows differ most
            action = data.draw(st.sampled_from(preferred) | st.sampled_from(options) if preferred
                               else st.sampled_from(options))
            gross.decide(exp.box, exp.hand, action)
            shared.decide(exp.box, exp.hand, action)
        else:
            break
    assert gross.expects().kind is ExpectKind.DONE
    before = {(s.hand, s.player): s for s in gross.settlements if s.kind == "behind"}
    after = {(s.hand, s.player): s for s in shared.settlements if s.kind == "behind"}
    assert before.keys() == after.keys()
    for key, row in after.items():
        was = before[key]
        if was.payout <= was.stake:
            assert row.payout == was.payout  # a push or a loss gives nothing
        else:
            assert was.stake <= row.payout <= was.payout  # a win gives at most its own win
    net = sum(s.payout - s.stake for s in before.values())
    owed = net * share.numerator // share.denominator if net > 0 else 0
    assert sum(s.payout for s in after.values()) == sum(s.payout for s in before.values()) - owed
    assert sum(s.payout for s in shared.settlements if s.kind == "behind_share") == owed


#: a Bet Behind row's result on a stake: lost, pushed, won 1:1, won 3:2 (a blackjack)
RESULTS = st.sampled_from([Fraction(0), Fraction(1), Fraction(2), Fraction(5, 2)])


@settings(max_examples=300, deadline=None)
@given(share=SHARES, rows=st.lists(st.tuples(st.integers(1, 20).map(lambda n: n * 100), RESULTS), min_size=1,
                                   max_size=4))
def test_the_share_is_taken_off_winning_rows_only_whatever_the_rows(share: Fraction,
                                                                    rows: list[tuple[int, Fraction]]) -> None:
    """The settlement step alone, on any Bet Behind rows of one player (a split's hands, doubled
    or not): losing and pushed rows keep their payout, no winning row drops below its stake, and
    the player gets exactly the gross less ``share`` of the net win."""
    settled = [Settlement(1, hand, "behind", "B", stake, int(stake * result))
               for hand, (stake, result) in enumerate(rows, 1)]
    state = SimpleNamespace(_opts=SimpleNamespace(owner_share=share, rounding=Rounding.DOWN),
                            _boxes=[SimpleNamespace(number=1, owner="A")], settlements=list(settled))
    settle_owner_shares(state)  # type: ignore[arg-type]
    after = [s for s in state.settlements if s.kind == "behind"]
    for was, row in zip(settled, after, strict=True):
        assert row.payout == was.payout if was.payout <= was.stake else was.stake <= row.payout <= was.payout
    net = sum(s.payout - s.stake for s in settled)
    owed = scale(net, share) if net > 0 else 0
    assert sum(s.payout for s in after) == sum(s.payout for s in settled) - owed
    assert sum(s.payout for s in state.settlements if s.kind == "behind_share") == owed
