"""A stacked-card driver for blackjack rounds: bets, then a script of cards and decisions.

Script tokens are dealt in order: a card (``TS``) must be what the round expects next (a box
or dealer card); any other token is a decision by the box and hand the round expects
(``hit``, ``split``, ``insurance=500``). The driver checks the round asked for that kind of input,
so a script also pins the order of the flow.
"""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from controller.cards import CARDS
from controller.games.base import ExpectKind, RuleError
from controller.games.blackjack.engine import BlackjackRound
from controller.games.blackjack.rules import BlackjackRules, blackjack_rules
from controller.shoe import Composition

Bet = tuple  # (box, kind, amount) or (box, kind, amount, player)


def rules(preset: str, **overrides: Any) -> BlackjackRules:
    return blackjack_rules(preset, overrides)


def start(table: BlackjackRules, bets: list[Bet], composition: Composition | None = None) -> BlackjackRound:
    rnd = BlackjackRound(table, composition)
    for bet in bets:
        rnd.place_bet(*bet)
    rnd.close_betting()
    return rnd


def run(rnd: BlackjackRound, script: str) -> BlackjackRound:
    for token in script.split():
        exp = rnd.expects()
        if token in CARDS:
            assert exp.kind in (ExpectKind.CARD, ExpectKind.DEALER_CARD), f"dealing {token}: round expects {exp}"
            rnd.deal(token)
        else:
            action, _, amount = token.partition("=")
            assert exp.kind is ExpectKind.DECISION, f"deciding {token}: round expects {exp}"
            assert action in exp.options, f"{action} not in {exp.options}"
            rnd.decide(exp.box, exp.hand, action, amount=int(amount) if amount else None)
    return rnd


def play(table: BlackjackRules, bets: list[Bet], script: str) -> BlackjackRound:
    return run(start(table, bets), script)


def money(rnd: BlackjackRound) -> list[tuple[int, int, str, str, int, int]]:
    """Settlements as sorted (box, hand, kind, player, stake, payout) rows."""
    return sorted((s.box, s.hand, s.kind, s.player, s.stake, s.payout) for s in rnd.settlements)


def refused(rnd: BlackjackRound, error: type[RuleError], rule: str, call: Any, *args: Any, **kwargs: Any) -> None:
    """``call`` raises ``error`` naming ``rule`` and leaves the round byte-for-byte unchanged."""
    before = pickle.dumps(rnd)
    with pytest.raises(error) as exc:
        call(*args, **kwargs)
    assert exc.value.rule == rule, exc.value
    assert pickle.dumps(rnd) == before
