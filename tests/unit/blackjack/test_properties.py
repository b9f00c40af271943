"""Properties over random shoes and random legal decisions.

A seeded driver bets on random boxes, deals from a shuffled shoe whatever the round expects and
picks a random legal option at every decision, remembering what it did. The checks compare the
round with what those facts imply: every bet settled once with the stake the decisions put on
it, each hand paid what its cards against the dealer's are worth, the dealer's draws forced by
his total, every illegal input refused without a trace, and a replay identical.
"""

from __future__ import annotations

import json
import pickle
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.cards import BJ_POINTS
from controller.games.base import ExpectKind, IllegalDecision, PhaseError, RuleError, UnexpectedCard
from controller.games.blackjack.engine import BlackjackRound
from controller.games.blackjack.hand import hand_total
from controller.games.blackjack.phases import ALL_ACTIONS
from controller.games.blackjack.rules import BlackjackRules
from controller.shoe import Composition

from .helpers import rules

TABLES = {
    "ru6": rules("ru6"),
    "ru6-h17": rules("ru6", dealer_hits_soft_17=True, split_by="rank"),
    "am8": rules("am8"),
    "power": rules("power"),
    "one-blackjack": rules("one-blackjack"),
    "free-bet": rules("free-bet"),
    "infinite-free-bet": rules("infinite-free-bet"),
}
FREE = {"free-bet", "infinite-free-bet"}
MULTIPLIERS = {"double": 2, "triple": 3, "quadruple": 4}


@dataclass
class Played:
    rnd: BlackjackRound
    bets: list[tuple[int, str, int, str]]
    mult: dict[tuple[int, int], int] = field(default_factory=dict)
    splits: dict[int, int] = field(default_factory=dict)
    surrendered: set[int] = field(default_factory=set)
    even_money: set[int] = field(default_factory=set)
    insured: dict[int, int] = field(default_factory=dict)
    dealer_draw_totals: list[int] = field(default_factory=list)
    own_extra: int = 0  # the player's own money added by paid doubles, paid splits and insurance
    decisions: list[tuple] = field(default_factory=list)


def random_bets(table: BlackjackRules, rng: random.Random) -> list[tuple[int, str, int, str]]:
    bets = []
    for box in sorted(rng.sample(range(1, 5), rng.randint(1, 3))):
        owner = f"p{box}"
        bets.append((box, "main", rng.randrange(100, 5000), owner))
        if table.players_per_box > 1 and rng.random() < 0.3:
            bets.append((box, "main", rng.randrange(100, 5000), f"co{box}"))
        if table.bet_behind and rng.random() < 0.5:
            bets.append((box, rng.choice(("behind", "behind_stay")), rng.randrange(100, 2000), f"bb{box}"))
        for kind in table.side_bets:
            if rng.random() < 0.5:
                bets.append((box, kind, rng.randrange(100, 500), owner))
    return bets


def assert_refused(rnd: BlackjackRound, error: type[RuleError], call, *args, **kwargs) -> None:
    before = pickle.dumps(rnd)
    try:
        call(*args, **kwargs)
    except error:
        pass
    else:
        raise AssertionError(f"{call.__name__}{args} was accepted")
    assert pickle.dumps(rnd) == before


def drive(name: str, seed: int, probe: bool = False, void_after: int | None = None,
          each: Callable[[BlackjackRound], None] | None = None) -> Played:
    """``each`` is called with the round after every input."""
    table = TABLES[name]
    rng = random.Random(seed)
    shoe = Composition(table.decks, table.removed_ranks).cards()
    rng.shuffle(shoe)
    rnd = BlackjackRound(table)
    played = Played(rnd, random_bets(table, rng))
    for bet in played.bets:
        rnd.place_bet(*bet)
    rnd.close_betting()
    steps = 0
    while True:
        if each is not None:
            each(rnd)
        e = rnd.expects()
        if e.kind is ExpectKind.DONE:
            break
        if steps == void_after:
            rnd.void_round("test")
            break
        steps += 1
        if e.kind is ExpectKind.DECISION:
            if probe:
                for action in sorted(ALL_ACTIONS - set(e.options)):
                    assert_refused(rnd, IllegalDecision, rnd.decide, e.box, e.hand, action)
                assert_refused(rnd, IllegalDecision, rnd.decide, e.box + 1, e.hand, e.options[0])
                assert_refused(rnd, UnexpectedCard, rnd.deal, shoe[-1])
            action = rng.choice(e.options)
            played.decisions.append((e.box, e.hand, action))
            cards = rnd.hand_cards(e.box, e.hand)
            free = name in FREE
            following = sum(b[2] for b in played.bets if b[0] == e.box and b[1] in ("main", "behind"))
            if action in MULTIPLIERS:
                m = played.mult[(e.box, e.hand)] = MULTIPLIERS[action]
                if not (free and m == 2 and hand_total(cards) in (9, 10, 11)):
                    played.own_extra += following * (m - 1)
            elif action == "split":
                played.splits[e.box] = played.splits.get(e.box, 0) + 1
                if not (free and cards[0][0] not in "TJQK"):
                    played.own_extra += following
            elif action == "surrender":
                played.surrendered.add(e.box)
            elif action == "even_money":
                played.even_money.add(e.box)
            elif action == "insurance":
                played.insured[e.box] = sum(b[2] for b in played.bets if b[0] == e.box and b[1] == "main") // 2
                played.own_extra += played.insured[e.box]
            rnd.decide(e.box, e.hand, action)
        else:
            if probe:
                assert_refused(rnd, (IllegalDecision, PhaseError), rnd.decide, e.box or 1, e.hand or 1, "stand")
            if e.kind is ExpectKind.DEALER_CARD and len(rnd.dealer_cards()) >= 2:
                played.dealer_draw_totals.append(hand_total(rnd.dealer_cards()))
            rnd.deal(shoe.pop())
    if probe:
        assert_refused(rnd, UnexpectedCard, rnd.deal, shoe[-1])
    return played


def expected_payout(p: Played, table: BlackjackRules, box: int, hand: int, stake: int) -> int:
    """What a main or behind bet on this hand is worth, from the cards and the decisions."""
    rnd = p.rnd
    cards = rnd.hand_cards(box, hand)
    dealer = rnd.dealer_cards()
    dealer_bj = len(dealer) >= 2 and hand_total(dealer[:2]) == 21
    natural = rnd.hand_count(box) == 1 and len(cards) == 2 and hand_total(cards) == 21
    total, dealer_total = hand_total(cards), hand_total(dealer)
    if box in p.surrendered:
        return stake // 2
    if box in p.even_money:
        return 2 * stake
    if total > 21:
        return 0
    if natural:
        return stake if dealer_bj else stake + stake * 3 // 2
    if dealer_bj:
        return 0
    if table.charlie and len(cards) >= table.charlie:
        return 2 * stake
    if dealer_total > 21 or total > dealer_total:
        return 2 * stake
    return stake if total == dealer_total else 0


def live_hands(p: Played, table: BlackjackRules) -> bool:
    """Some hand stood against the dealer (not bust, surrendered, blackjack, even money, Charlie)."""
    rnd = p.rnd
    for box, _, _, _ in {b for b in p.bets if b[1] == "main"}:
        if box in p.surrendered or box in p.even_money:
            continue
        for hand in range(1, rnd.hand_count(box) + 1):
            cards = rnd.hand_cards(box, hand)
            natural = rnd.hand_count(box) == 1 and len(cards) == 2 and hand_total(cards) == 21
            charlie = table.charlie and len(cards) >= table.charlie
            if hand_total(cards) <= 21 and not natural and not charlie:
                return True
    return False


SEEDS = st.integers(0, 2**32 - 1)
NAMES = st.sampled_from(sorted(TABLES))


@settings(max_examples=300, deadline=None)
@given(NAMES, SEEDS)
def test_every_bet_settled_once_for_the_stake_the_decisions_put_on_it(name, seed):
    p = drive(name, seed)
    rnd = p.rnd
    assert rnd.done
    rows = [(s.box, s.hand, s.kind, s.player) for s in rnd.settlements]
    assert len(rows) == len(set(rows)), "a bet settled twice"
    got = {(s.box, s.hand, s.kind, s.player): s for s in rnd.settlements}
    expected_rows = set()
    for box, kind, amount, player in p.bets:
        if kind in ("perfect_pairs", "21+3"):
            expected_rows.add((box, 1, kind, player))
            assert got[(box, 1, kind, player)].stake == amount
            continue
        kind = "behind" if kind.startswith("behind") else kind
        plays = any(b[0] == box and b[1] == "main" for b in p.bets)
        if not plays:  # Bet Behind on an empty box: returned
            expected_rows.add((box, 1, kind, player))
            assert (got[(box, 1, kind, player)].stake, got[(box, 1, kind, player)].payout) == (amount, amount)
            continue
        follows = not (kind == "behind" and (box, "behind_stay", amount, player) in p.bets)
        hands = range(1, 2 + p.splits.get(box, 0)) if follows else (1,)
        for hand in hands:
            expected_rows.add((box, hand, kind, player))
            s = got[(box, hand, kind, player)]
            if name in FREE:  # own money only: free doubles/splits add nothing
                assert s.stake in (0, amount, 2 * amount)
            else:
                assert s.stake == amount * (p.mult.get((box, hand), 1) if follows else 1)
    for box, amount in p.insured.items():
        expected_rows.add((box, 1, "insurance", f"p{box}"))
        assert got[(box, 1, "insurance", f"p{box}")].stake == amount
    assert set(rows) == expected_rows
    assert all(s.payout >= 0 for s in rnd.settlements)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(set(TABLES) - FREE)), SEEDS)
def test_each_hand_paid_what_its_cards_are_worth(name, seed):
    table = TABLES[name]
    p = drive(name, seed)
    dealer = p.rnd.dealer_cards()
    dealer_bj = len(dealer) >= 2 and hand_total(dealer[:2]) == 21
    for s in p.rnd.settlements:
        if s.kind in ("main", "behind") and p.rnd.hand_count(s.box):
            assert s.payout == expected_payout(p, table, s.box, s.hand, s.stake), s
        elif s.kind == "insurance":
            assert s.payout == (3 * s.stake if dealer_bj else 0)


@settings(max_examples=300, deadline=None)
@given(NAMES, SEEDS)
def test_dealer_draws_follow_the_rule(name, seed):
    table = TABLES[name]
    p = drive(name, seed)
    dealer = p.rnd.dealer_cards()

    def must_draw(cards: tuple[str, ...]) -> bool:
        total = hand_total(cards)
        soft = sum(BJ_POINTS[c[0]] for c in cards) + 10 == total
        return total < 17 or (table.dealer_hits_soft_17 and total == 17 and soft)

    # every draw after the first two cards was made on a total the rule says to draw on
    assert all(t < 17 or (table.dealer_hits_soft_17 and t == 17) for t in p.dealer_draw_totals)
    for k in range(2, len(dealer)):
        assert must_draw(dealer[:k])
    if live_hands(p, table):
        assert len(dealer) >= 2 and not must_draw(dealer)
    else:
        assert len(dealer) <= 2


@settings(max_examples=60, deadline=None)
@given(NAMES, SEEDS)
def test_illegal_inputs_refused_without_changing_anything(name, seed):
    drive(name, seed, probe=True)


@settings(max_examples=100, deadline=None)
@given(NAMES, SEEDS)
def test_same_shoe_and_decisions_replay_to_the_same_round(name, seed):
    a, b = drive(name, seed), drive(name, seed)
    assert a.decisions == b.decisions
    assert a.rnd.settlements == b.rnd.settlements
    assert a.rnd.outcome() == b.rnd.outcome()
    assert pickle.dumps(a.rnd) == pickle.dumps(b.rnd)


@settings(max_examples=300, deadline=None)
@given(NAMES, SEEDS)
def test_money_conserved(name, seed):
    """Every cent the players put on the table (bets, paid doubles and splits, insurance) is the
    stake of exactly one settlement, so stakes in = payouts out + the house's result."""
    p = drive(name, seed)
    assert sum(s.stake for s in p.rnd.settlements) == sum(b[2] for b in p.bets) + p.own_extra


@settings(max_examples=200, deadline=None)
@given(NAMES, SEEDS, st.integers(0, 12))
def test_a_void_returns_everything_still_riding(name, seed, void_after):
    """Voided at any point, every cent put on the table is still the stake of exactly one
    settlement, and nothing rides on."""
    p = drive(name, seed, void_after=void_after)
    rows = [(s.box, s.hand, s.kind, s.player) for s in p.rnd.settlements]
    assert len(rows) == len(set(rows))
    assert sum(s.stake for s in p.rnd.settlements) == sum(b[2] for b in p.bets) + p.own_extra
    assert p.rnd.done and p.rnd.open_bets() == []


def _record_as_dumped(rnd: BlackjackRound) -> None:
    # the record is not validated at the close: the JSON itself (a bool is no int there, a value
    # the model would coerce differs) is the model's dump, keys in the same order
    assert json.dumps(rnd.outcome_record()) == json.dumps(rnd.outcome().record())


@settings(max_examples=100, deadline=None)
@given(NAMES, SEEDS, st.one_of(st.none(), st.integers(0, 12)))
def test_the_record_outcome_is_the_models_dump(name, seed, void_after):
    """The round record's outcome is made without the model's dump: at every point of a round
    (the hole card down, a dark double, a void) it is the JSON the model dumps."""
    p = drive(name, seed, void_after=void_after, each=_record_as_dumped)
    _record_as_dumped(p.rnd)
