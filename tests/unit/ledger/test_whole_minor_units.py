"""Every engine checks money itself, not only the table's edge (docs/rules.md, "money is integer
minor units"): a stake, a decision's amount or a limit that is not a positive ``int`` (a float,
Fraction, Decimal or bool, even one equal to a whole number, or zero or less) is refused with
the engine's ``RuleError`` and a stable rule code, and the round is left as it was."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.games.baccarat import BaccaratRound, baccarat_rules
from controller.games.base import BetRefused, IllegalDecision, RuleError, RulesConfigError
from controller.games.blackjack.engine import BlackjackRound
from controller.games.blackjack.rules import blackjack_rules
from controller.games.catch_a_wave import CatchAWaveRound, catch_a_wave_rules
from controller.games.roulette import RouletteRound, roulette_rules
from controller.games.russian_poker import RussianPokerRound, russian_poker_rules
from controller.games.three_card_blackjack import ThreeCardBlackjackRound, three_card_blackjack_rules

#: game -> (a fresh round, a bet kind it takes, the rule code of a refused amount)
ENGINES: dict[str, tuple[Callable[[], Any], str, str]] = {
    "blackjack": (lambda: BlackjackRound(blackjack_rules("ru6")), "main", "blackjack.bet.amount"),
    "three-card-blackjack": (
        lambda: ThreeCardBlackjackRound(three_card_blackjack_rules()), "ante", "tcb.amount"),
    "catch-a-wave": (lambda: CatchAWaveRound(catch_a_wave_rules()), "main", "caw.amount"),
    "russian-poker": (lambda: RussianPokerRound(russian_poker_rules()), "ante", "russian.amount"),
    "baccarat": (lambda: BaccaratRound(baccarat_rules()), "banker", "baccarat.amount"),
    "roulette": (lambda: RouletteRound(roulette_rules()), "red", "roulette.amount"),
}

#: rule builders and a limit kind of each game
RULES: dict[str, tuple[Callable[..., Any], str | None, str]] = {
    "blackjack": (blackjack_rules, "ru6", "main"),
    "three-card-blackjack": (three_card_blackjack_rules, None, "ante"),
    "catch-a-wave": (catch_a_wave_rules, None, "main"),
    "russian-poker": (russian_poker_rules, None, "ante"),
    "baccarat": (baccarat_rules, None, "banker"),
    "roulette": (roulette_rules, None, "red"),
}

whole = st.integers(min_value=100, max_value=5_000)
#: amounts that are not a positive int: look-alikes of a whole number first
not_minor_units = st.one_of(
    whole.map(float),
    whole.map(Fraction),
    whole.map(Decimal),
    st.booleans(),
    st.floats(min_value=100, max_value=5_000).filter(lambda f: f != int(f)),
    st.fractions(min_value=100, max_value=5_000).filter(lambda f: f.denominator != 1),
    st.decimals(min_value=100, max_value=5_000, places=2).filter(lambda d: d != d.to_integral_value()),
    st.integers(max_value=0),
    whole.map(str),
)


def _shown(engine: Any) -> list[Any]:
    return list(engine.open_bets())


@pytest.mark.parametrize("game", sorted(ENGINES))
@settings(max_examples=60, deadline=None)
@given(amount=not_minor_units)
def test_a_stake_that_is_not_whole_minor_units_is_refused_and_changes_nothing(game: str, amount: Any) -> None:
    make, kind, code = ENGINES[game]
    engine = make()
    engine.place_bet(1, kind, 500, "ann")
    before = _shown(engine)
    with pytest.raises(BetRefused) as refused:
        engine.place_bet(1, kind, amount, "ann")
    assert refused.value.rule == code
    assert _shown(engine) == before
    assert all(type(s.stake) is int for s in _shown(engine))


@pytest.mark.parametrize("game", sorted(ENGINES))
@settings(max_examples=30, deadline=None)
@given(amount=not_minor_units)
def test_a_first_stake_that_is_not_whole_minor_units_books_nothing(game: str, amount: Any) -> None:
    make, kind, code = ENGINES[game]
    engine = make()
    with pytest.raises(BetRefused) as refused:
        engine.place_bet(2, kind, amount, "ann")
    assert refused.value.rule == code
    assert _shown(engine) == []


@pytest.mark.parametrize("game", sorted(ENGINES))
@pytest.mark.parametrize("box", [1.0, True, Fraction(1), Decimal(1)])
def test_a_box_that_is_not_an_int_is_refused(game: str, box: Any) -> None:
    make, kind, _ = ENGINES[game]
    engine = make()
    with pytest.raises(BetRefused):
        engine.place_bet(box, kind, 500, "ann")
    assert _shown(engine) == []


@pytest.mark.parametrize("game", sorted(RULES))
@pytest.mark.parametrize("bad", [5.0, 5.5, True, "500", Decimal(500), Fraction(500)])
def test_a_limit_that_is_not_an_int_stops_the_rule_set(game: str, bad: Any) -> None:
    build, preset, kind = RULES[game]
    with pytest.raises(RulesConfigError, match=r"limits.*whole number of minor units \(500 for 5.00\)"):
        build(preset, {"limits": {kind: {"min": bad, "max": 100_000}}})
    with pytest.raises(RulesConfigError, match="limits"):
        build(preset, {"limits": {kind: {"min": 100, "max": bad}}})


# --------------------------------------------------------------------------- decision amounts
def _tcb_at_decision() -> ThreeCardBlackjackRound:
    r = ThreeCardBlackjackRound(three_card_blackjack_rules())
    r.place_bet(1, "ante", 500, "ann")
    r.close_betting()
    for card in ("2S", "3S", "4S", "5S", "6S", "7S"):
        r.deal(card)
    return r


def _russian_at_decision() -> RussianPokerRound:
    r = RussianPokerRound(russian_poker_rules())
    r.place_bet(1, "ante", 500, "ann")
    r.close_betting()
    for card in ("2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JH"):
        r.deal(card)
    return r


@settings(max_examples=40, deadline=None)
@given(offset=st.sampled_from([float, Fraction, Decimal]))
def test_three_card_blackjack_play_amount_is_whole_minor_units(offset: Callable[[int], Any]) -> None:
    r = _tcb_at_decision()
    with pytest.raises(IllegalDecision) as refused:
        r.decide(1, "play", amount=offset(500))
    assert refused.value.rule == "tcb.play.amount"
    assert r.decisions == {} and r.bets.stake(1, "play") == 0
    r.decide(1, "play", amount=500)
    assert r.bets.stake(1, "play") == 500


@settings(max_examples=40, deadline=None)
@given(offset=st.sampled_from([float, Fraction, Decimal]))
def test_russian_poker_raise_amount_is_whole_minor_units(offset: Callable[[int], Any]) -> None:
    r = _russian_at_decision()
    with pytest.raises(IllegalDecision) as refused:
        r.decide(1, "raise", amount=offset(1000))
    assert refused.value.rule == "russian.raise.amount"
    assert r.bets.stake(1, "raise") == 0
    r.decide(1, "raise", amount=1000)
    assert all(type(s.payout) is int for s in r.settlements)


@settings(max_examples=40, deadline=None)
@given(amount=not_minor_units.filter(lambda a: not isinstance(a, int) or isinstance(a, bool)))
def test_blackjack_insurance_amount_is_whole_minor_units(amount: Any) -> None:
    r = BlackjackRound(blackjack_rules("ru6"))
    r.place_bet(1, "main", 1000, "ann")
    r.close_betting()
    for card in ("9S", "AH", "8S"):
        r.deal(card)
    with pytest.raises(RuleError) as refused:
        r.decide(1, 1, "insurance", amount=amount)
    assert refused.value.rule == "blackjack.insurance.amount"
    r.decide(1, 1, "insurance", amount=500)
    assert next(s for s in r.open_bets() if s.kind == "insurance").stake == 500
