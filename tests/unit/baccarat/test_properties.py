"""Baccarat properties: the engine draws exactly as docs/rules.md §6 reads (an independent oracle
below), money is conserved, refusals leave no trace, replays are deterministic."""

import pickle

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.cards import DECK
from controller.games.baccarat import BaccaratRound, baccarat_rules
from controller.games.base import ClearBets, CloseBetting, Deal, ExpectKind, PlaceBet, RuleError, VoidRound

RULES = baccarat_rules()
VALUE = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 0, "J": 0, "Q": 0, "K": 0}


def oracle(cards: list[str]) -> tuple[list[str], list[str]]:
    """Player and Banker hands dealt from ``cards`` by the rule book's words."""
    v = [VALUE[c[0]] for c in cards]
    player, banker = [cards[0], cards[2]], [cards[1], cards[3]]
    p, b = (v[0] + v[2]) % 10, (v[1] + v[3]) % 10
    if p in (8, 9) or b in (8, 9):
        return player, banker
    if p in (6, 7):  # Player stands; Banker draws on 0-5
        if b <= 5:
            banker.append(cards[4])
        return player, banker
    player.append(cards[4])
    third = v[4]
    if b in (0, 1, 2):
        draws = True
    elif b == 3:
        draws = third != 8
    elif b == 4:
        draws = 2 <= third <= 7
    elif b == 5:
        draws = 4 <= third <= 7
    elif b == 6:
        draws = third in (6, 7)
    else:
        draws = False
    if draws:
        banker.append(cards[5])
    return player, banker


def total(hand: list[str]) -> int:
    return sum(VALUE[c[0]] for c in hand) % 10


bets = st.dictionaries(
    st.tuples(st.integers(1, 7), st.sampled_from(["player", "banker", "tie"])), st.integers(100, 100_000), max_size=8
)


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=6, max_size=6), bets)
def test_draws_and_settlements_follow_the_rule_book(cards, stakes):
    game = BaccaratRound(RULES)
    for (seat, kind), amount in stakes.items():
        game.place_bet(seat, kind, amount)
    game.close_betting()
    shoe = iter(cards)
    while game.expects().kind is ExpectKind.CARD:
        game.deal(next(shoe))
    player, banker = oracle(cards)
    assert (game.player_cards, game.banker_cards) == (player, banker)
    p, b = total(player), total(banker)
    assert len(game.settlements) == len(stakes)
    for s in game.settlements:
        assert s.stake == stakes[(s.box, s.kind)]
        if p == b:
            want = s.stake * 9 if s.kind == "tie" else s.stake
        elif s.kind == "player":
            want = 2 * s.stake if p > b else 0
        elif s.kind == "banker":
            want = s.stake + (s.stake * 95) // 100 if b > p else 0
        else:
            want = 0
        assert s.payout == want


def _action(draw, game: BaccaratRound):
    pick = draw(st.integers(0, 9))
    if pick == 9:
        return draw(st.sampled_from([VoidRound("test"), ClearBets(draw(st.integers(0, 8))), CloseBetting()]))
    if game.expects().kind is ExpectKind.BETS and pick < 7:
        return PlaceBet(
            draw(st.integers(0, 8)),
            draw(st.sampled_from(["player", "banker", "tie", "dragon"])),
            draw(st.integers(-5, 200_000)),
            draw(st.sampled_from(["", "ann"])),
        )
    return Deal(draw(st.sampled_from(DECK + ("ZZ",))))


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_refusals_leave_no_trace_and_replays_are_identical(data):
    game = BaccaratRound(RULES)
    accepted = []
    for _ in range(30):
        action = _action(data.draw, game)
        before = pickle.dumps(game)
        try:
            game.apply(action)
        except RuleError:
            assert pickle.dumps(game) == before, action
        else:
            accepted.append(action)
    replay = BaccaratRound(RULES)
    for action in accepted:
        replay.apply(action)
    assert pickle.dumps(replay) == pickle.dumps(game)
    assert replay.outcome() == game.outcome()
    if game.expects().kind is ExpectKind.DONE:  # every bet settled once, each for its own stake
        placed = {}
        for a in accepted:
            if isinstance(a, PlaceBet):
                placed[(a.box, a.kind)] = placed.get((a.box, a.kind), 0) + a.amount
            elif isinstance(a, ClearBets):
                placed = {k: v for k, v in placed.items() if k[0] != a.box}
        assert {(s.box, s.kind): s.stake for s in game.settlements} == placed
