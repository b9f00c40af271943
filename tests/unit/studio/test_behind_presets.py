"""Bet Behind presets in the blackjack engine (the house sheet §1.2; docs/studio.md, "Bet Behind"):
whatever the owner decides and whatever the cards, a Bet Behind follows a double or a split only
when its preset says so, takes insurance (half of it) only with the owner and its preset, gives
the owner their share of a net win, and is returned when the box does not play."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.games.base import CloseBetting, Deal, Decide, ExpectKind, PlaceBet
from controller.games.blackjack.betting import behind_kind, behind_presets
from controller.table.registry import adapter_for

ADAPTER = adapter_for("blackjack")
DECK = [r + s for r in "23456789TJQKA" for s in "SHDC"] * 2
OWNER, BEHIND, AMOUNT = "owner", "home", 1000


def play(cards: list[str], choices: list[int], presets: tuple[bool, bool, bool], share: str = "0",
         behind_amount: int = AMOUNT) -> Any:
    """One round: the owner's 1000 on box 1 and a Bet Behind with ``presets``; the owner picks
    among the offered decisions by ``choices``; the dealer draws as the engine asks."""
    rules = ADAPTER.rules("am8", {"bet_behind_owner_share": share, "insurance": "exactly_half"}, {})
    engine = ADAPTER.new_round(rules)
    engine.apply(PlaceBet(1, "main", AMOUNT, OWNER))
    engine.apply(PlaceBet(1, behind_kind(presets), behind_amount, BEHIND))
    engine.apply(CloseBetting())
    deck, picks = iter(cards), iter(choices)
    while (expect := engine.expects()).kind is not ExpectKind.DONE:
        if expect.kind is ExpectKind.DECISION:
            options = expect.options
            engine.apply(Decide(expect.box or 1, options[next(picks, 0) % len(options)], expect.hand or 1))
        else:
            engine.apply(Deal(next(deck)))
    return engine


def rows(engine: Any, player: str, kind: str) -> list[Any]:
    return [s for s in engine.settlements if s.player == player and s.kind == kind]


PRESETS = st.tuples(st.booleans(), st.booleans(), st.booleans())
SHOE = st.permutations(DECK)
CHOICES = st.lists(st.integers(0, 5), min_size=12, max_size=12)


@settings(max_examples=300, deadline=None)
@given(presets=PRESETS, cards=SHOE, choices=CHOICES)
def test_a_bet_behind_follows_exactly_what_its_presets_say(presets: tuple[bool, bool, bool], cards: list[str],
                                                            choices: list[int]) -> None:
    follows_double, follows_split, insures = presets
    engine = play(cards, choices, presets)
    owner, behind = rows(engine, OWNER, "main"), rows(engine, BEHIND, "behind")
    if follows_double and follows_split:  # the same money on the same hands as the owner's
        assert [(s.hand, s.stake, s.payout) for s in behind] == [(s.hand, s.stake, s.payout) for s in owner]
    if not follows_split:
        assert [s.hand for s in behind] == [1]  # stays on the first hand
    doubled = {s.hand for s in owner if s.stake > AMOUNT}
    for s in behind:
        assert s.stake == (2 * AMOUNT if follows_double and s.hand in doubled else AMOUNT)
    owner_ins, behind_ins = rows(engine, OWNER, "insurance"), rows(engine, BEHIND, "insurance")
    if insures and owner_ins:
        assert [(s.stake, s.payout) for s in behind_ins] == [(AMOUNT // 2, s.payout * AMOUNT // 2 // s.stake)
                                                             for s in owner_ins]
    else:
        assert behind_ins == []


@settings(max_examples=200, deadline=None)
@given(cards=SHOE, choices=CHOICES, presets=PRESETS)
def test_the_owner_gets_the_share_of_the_bet_behinds_net_win_only(cards: list[str], choices: list[int],
                                                                  presets: tuple[bool, bool, bool]) -> None:
    plain = play(cards, choices, presets)
    shared = play(cards, choices, presets, share="1/4")
    net = sum(s.payout - s.stake for s in plain.settlements if s.player == BEHIND and s.kind == "behind")
    share = rows(shared, OWNER, "behind_share")
    cut = int(net * Fraction(1, 4)) if net > 0 else 0
    assert sum(s.payout for s in share) == cut
    home = sum(s.payout for s in shared.settlements if s.player == BEHIND)
    assert home == sum(s.payout for s in plain.settlements if s.player == BEHIND) - cut


def test_a_bet_behind_on_a_box_nobody_plays_is_returned() -> None:
    rules = ADAPTER.rules("am8", {}, {})
    engine = ADAPTER.new_round(rules)
    engine.apply(PlaceBet(2, "behind+double+insurance", 500, BEHIND))
    engine.apply(PlaceBet(1, "main", AMOUNT, OWNER))
    engine.apply(CloseBetting())
    assert [(s.box, s.kind, s.stake, s.payout) for s in rows(engine, BEHIND, "behind")] == [(2, "behind", 500, 500)]


@pytest.mark.parametrize(("kind", "presets"), [("behind", (True, True, False)), ("behind_stay", (False, False, False)),
                                               ("behind+split", (False, True, False)),
                                               ("behind+double+split+insurance", (True, True, True)),
                                               ("behind+split+double", None), ("behind+", None), ("behind+x", None),
                                               ("behind+double+double", None), ("main", None)])
def test_the_kinds_name_their_presets(kind: str, presets: tuple[bool, bool, bool] | None) -> None:
    assert behind_presets(kind) == presets
    if presets is not None:
        assert behind_presets(behind_kind(presets)) == presets
