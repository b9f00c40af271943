"""What the studio asks of the game engines: is a bet one this table takes (its kind, its limits),
and what does it pay on the table's recorded result. The engines decide both; nothing here knows
a rule of a game, only how to feed a game's engine the result its round record carries."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from controller.games.base import BetRefused, CloseBetting, Deal, ExpectKind, PlaceBet, RuleError, WheelResult
from controller.games.blackjack.paytables import DEAL_KINDS
from controller.games.roulette.engine import SetMultipliers
from controller.studio.config import TableSection
from controller.studio.seats import felt_kind
from controller.table.games.base import GameAdapter
from controller.table.registry import adapter_for

#: the box every remote bet is placed on in its engine round
BOX = 1


class UnsettleableRecord(ValueError):
    """A round record whose result the engine cannot take (a game the studio does not settle, or
    an outcome that is not a result of this game)."""


class NotDealt(ValueError):
    """The result leaves a remote bet without its cards (a side bet on a box nobody played)."""


def _roulette(engine: Any, outcome: Mapping[str, Any]) -> None:
    multipliers = outcome.get("multipliers") or {}
    if multipliers:
        engine.apply(SetMultipliers(tuple((str(k), int(v)) for k, v in multipliers.items())))
    engine.apply(WheelResult(tuple(str(n) for n in outcome["numbers"])))


def _baccarat(engine: Any, outcome: Mapping[str, Any]) -> None:
    hands = {1: list(outcome["player"]["cards"]), 2: list(outcome["banker"]["cards"])}
    while engine.expects().kind is ExpectKind.CARD:  # the engine says which hand takes the next card
        hand = hands[engine.expects().hand]
        if not hand:
            raise UnsettleableRecord("the record's cards end before the coup does")
        engine.apply(Deal(hand.pop(0)))


def _blackjack(engine: Any, outcome: Mapping[str, Any]) -> None:
    """The initial deal of the box the side bet rides on: its first two cards and the dealer's up
    card; a side bet settles on them. After a split the second card is the first card of a later
    hand; after a re-split the record does not say which, so each candidate is played into a copy
    of the engine, and when they do not all settle the bet alike it was not decided (returned)."""
    box = engine.expects().box
    hands = next((b["hands"] for b in outcome["boxes"] if b["box"] == box), None)
    if not hands or len(hands[0]["cards"]) < (1 if len(hands) > 1 else 2) or not outcome["dealer"]["cards"]:
        raise NotDealt(f"box {box} was not dealt")
    seconds = sorted({h["cards"][0] for h in hands[1:]}) if len(hands) > 1 else [hands[0]["cards"][1]]
    trials = []
    for second in seconds:
        trial = copy.deepcopy(engine)
        _deal_box(trial, hands[0]["cards"][0], second, outcome["dealer"]["cards"][0])
        trials.append(trial.settlements)
    if any(t != trials[0] for t in trials):
        raise NotDealt(f"the record does not say which card was box {box}'s second (a re-split)")
    _deal_box(engine, hands[0]["cards"][0], seconds[0], outcome["dealer"]["cards"][0])


def _deal_box(engine: Any, first: str, second: str, up: str) -> None:
    cards = {ExpectKind.CARD: [first, second], ExpectKind.DEALER_CARD: [up]}
    while not engine.settlements and cards.get(engine.expects().kind):
        engine.apply(Deal(cards[engine.expects().kind].pop(0)))


def _place_at(engine: Any, kind: str, amount: int, player: str, rules: Any) -> None:
    """Roulette and baccarat: the bet on the engine's one box."""
    engine.apply(PlaceBet(BOX, kind, amount, player))


def _place_side(engine: Any, kind: str, amount: int, player: str, rules: Any) -> None:
    """Blackjack: a side bet that rides on a box's deal, ``perfect_pairs@3``; the engine takes a
    side bet only beside its player's main bet, so a main bet of the table's minimum carries it
    (and is never settled: only the side bet is read)."""
    side, _, box = kind.partition("@")
    if side not in DEAL_KINDS or not box.isdigit():
        raise BetRefused("studio.kind", f"remote blackjack bets are side bets on a box's deal, e.g. 21+3@3 "
                                        f"({', '.join(sorted(DEAL_KINDS))}), not {kind!r}")
    main = rules.limits["main"].min if "main" in rules.limits else 1
    engine.apply(PlaceBet(int(box), "main", main, player))
    engine.apply(PlaceBet(int(box), side, amount, player))


#: how a game's recorded outcome is played into its engine
RESULTS: dict[str, Callable[[Any, Mapping[str, Any]], None]] = {
    "roulette": _roulette, "baccarat": _baccarat, "blackjack": _blackjack}
#: how a remote bet is placed in a game's engine
PLACE: dict[str, Callable[[Any, str, int, str, Any], None]] = {"blackjack": _place_side}


class TableRules:
    """One table's engine and rules, for checking and settling remote bets."""

    def __init__(self, section: TableSection) -> None:
        self.game = section.game
        self.rules = section.game_rules()
        self.adapter: GameAdapter = adapter_for(section.game)

    @property
    def settles(self) -> bool:
        return self.game in RESULTS

    def check(self, bets: list[tuple[str, int]], player: str) -> str | None:
        """None if the engine takes every bet of ``bets`` together; else why not (its words)."""
        place = PLACE.get(self.game)
        try:
            felt = [(k, a) for k, a in bets if felt_kind(self.game, k) is not None]
            for kind, amount in felt:  # a seated box's bet, a Bet Behind: the engine takes it on its box
                table_kind, box = felt_kind(self.game, kind) or (kind, BOX)
                self.adapter.new_round(self.rules).apply(PlaceBet(box, table_kind, amount, player))
            bets = [b for b in bets if b not in felt]
            if place is None:  # all in one round: the engine's limits hold for a kind's total
                engine = self.adapter.new_round(self.rules)
                for kind, amount in bets:
                    _place_at(engine, kind, amount, player, self.rules)
            else:
                for kind, amount in bets:
                    place(self.adapter.new_round(self.rules), kind, amount, player, self.rules)
        except RuleError as exc:
            return exc.message
        return None

    def payout(self, kind: str, amount: int, outcome: Mapping[str, Any]) -> int:
        """What the bet returns on ``outcome`` (the round record's), as the table's engine settles it."""
        play = RESULTS.get(self.game)
        if play is None:
            raise UnsettleableRecord(f"the studio does not settle {self.game} yet")
        engine = self.adapter.new_round(self.rules)
        PLACE.get(self.game, _place_at)(engine, kind, amount, "remote", self.rules)
        engine.apply(CloseBetting())
        try:
            play(engine, outcome)
        except NotDealt:
            return amount  # nothing decided the bet: it is returned
        except (KeyError, TypeError, ValueError, RuleError) as exc:
            raise UnsettleableRecord(f"the round record's outcome is not a {self.game} result: {exc}") from None
        rows = [s for s in engine.settlements if s.player == "remote" and s.kind != "main"]
        if len(rows) != 1:
            raise UnsettleableRecord(f"the engine settled {len(rows)} rows for one bet")
        return int(rows[0].payout)
