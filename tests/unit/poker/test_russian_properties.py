"""Russian poker properties: showdowns against pokerkit, money conserved, refusals leave no trace,
replays are deterministic."""

import pickle
from fractions import Fraction

from hypothesis import event, given, settings
from hypothesis import strategies as st
from pokerkit import StandardHighHand
from pokerkit.lookups import Label

from controller.cards import DECK
from controller.games.base import ClearBets, CloseBetting, Deal, Decide, ExpectKind, PlaceBet, RuleError, VoidRound
from controller.games.russian_poker import DeclareMisdeal, Exchange, RussianPokerRound, russian_poker_rules

PLAIN = russian_poker_rules()
WITH_EXCHANGE = russian_poker_rules("exchange")
LABEL = {
    Label.HIGH_CARD: "high_card",
    Label.ONE_PAIR: "pair",
    Label.TWO_PAIR: "two_pair",
    Label.THREE_OF_A_KIND: "trips",
    Label.STRAIGHT: "straight",
    Label.FLUSH: "flush",
    Label.FULL_HOUSE: "full_house",
    Label.FOUR_OF_A_KIND: "quads",
    Label.STRAIGHT_FLUSH: "straight_flush",
}


def pk(cards) -> StandardHighHand:
    return StandardHighHand("".join(c[0] + c[1].lower() for c in cards))


def label(cards) -> str:
    name = LABEL[pk(cards).entry.label]
    if name == "straight_flush" and {c[0] for c in cards} == set("TJQKA"):
        return "royal_flush"
    return name


def qualifies(cards) -> bool:
    return label(cards) != "high_card" or {"A", "K"} <= {c[0] for c in cards}


@st.composite
def tables(draw):
    rules = draw(st.sampled_from([PLAIN, WITH_EXCHANGE]))
    boxes = sorted(draw(st.sets(st.integers(1, 6), min_size=1, max_size=5)))
    bets = {}
    for box in boxes:
        ante = draw(st.integers(100, 100_000))
        bonus = draw(st.one_of(st.just(0), st.integers(100, 50_000))) if ante >= 200 else 0
        bets[box] = (ante, min(bonus, ante // 2) if bonus >= 100 and ante // 2 >= 100 else 0)
    plays = {
        b: (draw(st.sampled_from(["fold", "raise", "exchange"])), draw(st.integers(0, 4)), draw(st.booleans()))
        for b in boxes
    }
    return rules, bets, plays, draw(st.permutations(DECK))


@settings(max_examples=300, deadline=None)
@given(tables())
def test_showdown_matches_pokerkit_and_money_is_conserved(table):
    rules, bets, plays, deck = table
    game = RussianPokerRound(rules)
    for box, (ante, bonus) in bets.items():
        game.place_bet(box, "ante", ante)
        if bonus:
            game.place_bet(box, "bonus", bonus)
    game.close_betting()
    cards = iter(deck)
    dealt, exchanged = {}, set()
    while (e := game.expects()).kind is not ExpectKind.DONE:
        if e.kind is ExpectKind.DECISION:
            dealt.setdefault(e.box, game.box_cards(e.box))
            first, discard, then_raise = plays[e.box]
            if first == "exchange" and "exchange" in e.options:
                exchanged.add(e.box)
                game.exchange(e.box, game.box_cards(e.box)[discard])
            elif first == "exchange":
                game.decide(e.box, "raise" if then_raise else "fold")
            else:
                game.decide(e.box, first)
        else:
            game.deal(next(cards))
    dealer = game.outcome()["dealer"]["cards"]
    assert len(dealer) == 5 and game.dealer_up_card == dealer[4]
    settled = {}
    for s in game.settlements:
        assert (s.box, s.kind) not in settled
        settled[(s.box, s.kind)] = (s.stake, s.payout)
    for box, (ante, bonus) in bets.items():
        status = game.outcome()["boxes"][str(box)]["status"]
        final = game.box_cards(box)
        assert settled[(box, "ante")][0] == ante
        if box in exchanged:
            assert settled[(box, "exchange")] == (ante, 0)
        if bonus:
            want = 0
            if box not in exchanged:  # the five as dealt pay, raised or folded
                ratio = rules.bonus_pays.get(label(dealt[box]))
                want = 0 if ratio is None else bonus + int(bonus * ratio)
            assert settled[(box, "bonus")] == (bonus, want)
        if status == "folded":
            assert settled[(box, "ante")] == (ante, 0) and (box, "raise") not in settled
            continue
        raised = 2 * ante
        if not qualifies(dealer):
            want_ante, want_raise = 2 * ante, raised
        elif pk(final) < pk(dealer):
            want_ante, want_raise = 0, 0
        elif pk(final) == pk(dealer):
            want_ante, want_raise = ante, raised
        else:
            want_ante = 2 * ante
            want_raise = raised + int(raised * Fraction(rules.raise_pays[label(final)]))
        assert settled[(box, "ante")] == (ante, want_ante)
        assert settled[(box, "raise")] == (raised, want_raise)
    extra = sum(s.stake for s in game.settlements if s.kind in ("raise", "exchange"))
    assert sum(s.stake for s in game.settlements) == sum(a + b for a, b in bets.values()) + extra


def _action(draw, game: RussianPokerRound, deck_iter):
    """Mostly what the round expects next, sometimes anything at all."""
    e = game.expects()
    pick = draw(st.integers(0, 9))
    box = e.box if e.box is not None and pick < 7 else draw(st.integers(0, 7))
    if pick == 9:
        return draw(
            st.sampled_from(
                [
                    VoidRound("test"),
                    ClearBets(box),
                    CloseBetting(),
                    DeclareMisdeal(
                        draw(st.sampled_from([box, "dealer"])),
                        draw(st.integers(3, 6)),
                        tuple(draw(st.permutations(DECK))[:4]),
                    ),
                    Deal(draw(st.sampled_from(DECK + ("ZZ",)))),
                ]
            )
        )
    if e.kind is ExpectKind.BETS:
        kind = draw(st.sampled_from(["ante", "ante", "bonus", "side"]))
        return PlaceBet(box, kind, draw(st.integers(-5, 60_000)), draw(st.sampled_from(["", "ann"])))
    if e.kind in (ExpectKind.CARD, ExpectKind.DEALER_CARD):
        return Deal(next(deck_iter)) if pick < 8 else CloseBetting()
    if e.kind is ExpectKind.DECISION:
        act = draw(st.sampled_from(["fold", "raise", "exchange", "hit"]))
        if act == "exchange":
            return Exchange(box, draw(st.sampled_from(DECK)))
        return Decide(box, act, amount=draw(st.sampled_from([None, None, 5])))
    return Deal(next(deck_iter))


@settings(max_examples=80, deadline=None)
@given(st.sampled_from([PLAIN, WITH_EXCHANGE]), st.permutations(DECK), st.data())
def test_refusals_leave_no_trace_and_replays_are_identical(rules, deck, data):
    game = RussianPokerRound(rules)
    deck_iter = iter(deck * 2)
    accepted = []
    for _ in range(60):
        action = _action(data.draw, game, deck_iter)
        before = pickle.dumps(game)
        try:
            game.apply(action)
        except RuleError:
            assert pickle.dumps(game) == before, action
        else:
            accepted.append(action)
    event(f"ended in {game.phase.value}")
    replay = RussianPokerRound(rules)
    for action in accepted:
        replay.apply(action)
    assert pickle.dumps(replay) == pickle.dumps(game)
    assert replay.settlements == game.settlements and replay.outcome() == game.outcome()
    assert all(s.payout >= 0 for s in game.settlements)
