"""What the studio asks of the game engines: is a bet one this table takes (its kind, its limits),
and what does it pay on the table's recorded result. The engines decide both; nothing here knows
a rule of a game, only how to feed a game's engine the result its round record carries."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from controller.games.base import CloseBetting, Deal, ExpectKind, PlaceBet, RuleError, WheelResult
from controller.games.roulette.engine import SetMultipliers
from controller.studio.config import TableSection
from controller.table.games.base import GameAdapter
from controller.table.registry import adapter_for

#: the box every remote bet is placed on in its engine round
BOX = 1


class UnsettleableRecord(ValueError):
    """A round record whose result the engine cannot take (a game the studio does not settle, or
    an outcome that is not a result of this game)."""


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


#: how a game's recorded outcome is played into its engine
RESULTS: dict[str, Callable[[Any, Mapping[str, Any]], None]] = {"roulette": _roulette, "baccarat": _baccarat}


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
        engine = self.adapter.new_round(self.rules)
        try:
            for kind, amount in bets:
                engine.apply(PlaceBet(BOX, kind, amount, player))
        except RuleError as exc:
            return exc.message
        return None

    def payout(self, kind: str, amount: int, outcome: Mapping[str, Any]) -> int:
        """What the bet returns on ``outcome`` (the round record's), as the table's engine settles it."""
        play = RESULTS.get(self.game)
        if play is None:
            raise UnsettleableRecord(f"the studio does not settle {self.game} yet")
        engine = self.adapter.new_round(self.rules)
        engine.apply(PlaceBet(BOX, kind, amount, "remote"))
        engine.apply(CloseBetting())
        try:
            play(engine, outcome)
        except (KeyError, TypeError, ValueError, RuleError) as exc:
            raise UnsettleableRecord(f"the round record's outcome is not a {self.game} result: {exc}") from None
        rows = [s for s in engine.settlements if s.kind == kind or len(engine.settlements) == 1]
        if len(rows) != 1:
            raise UnsettleableRecord(f"the engine settled {len(rows)} rows for one bet")
        return int(rows[0].payout)
