"""Punto Banco baccarat at the table (docs/rules.md, baccarat): nothing to decide, every card predicted.

The engine names the hand each card goes to; the prompt says so, and after the first four cards
it says why a third card is due or that both hands stand. A card the tableau does not call for
is refused by the engine with the rule that says stand (``baccarat.natural``,
``baccarat.tableau``...), which the table turns into a hold.
"""

from __future__ import annotations

from typing import Any, cast

from controller.analysis.edges import Edges
from controller.games.baccarat import (
    PLAYER,
    BaccaratRound,
    BaccaratRules,
    baccarat_rules,
    most_returned,
)
from controller.games.baccarat.analysis import house_edge
from controller.games.baccarat.view import BaccaratView
from controller.games.base import Expect, GameRules
from controller.table.games.base import exact_edges
from controller.table.games.shoe_game import ShoeGameAdapter

NAMES = {"player": "Player", "banker": "Banker"}


class BaccaratAdapter(ShoeGameAdapter):
    game = "baccarat"
    pace_target = 70
    bet_kind = "banker"
    rules_model = BaccaratRules
    rules_builder = baccarat_rules
    round_class = BaccaratRound
    view = BaccaratView()

    def most_returned(self, rules: GameRules, kind: str, stake: int) -> int | None:
        return most_returned(cast(BaccaratRules, rules), kind, stake)

    def play_prompt(self, engine: Any, expect: Expect) -> str:
        coup: BaccaratRound = engine
        hand = "Player" if expect.hand == PLAYER else "Banker"
        if len(coup.player_cards) + len(coup.banker_cards) < 4:
            return f"Card to {hand}"
        if hand == "Banker" and len(coup.player_cards) == 2:
            return f"Player stands on {coup.player_total} — Baccarat: third card to Banker"
        return f"Baccarat: third card to {hand}"

    def house_edges(self, preset: str) -> Edges:
        """Every bet's edge by exact enumeration (about 0.1 s)."""
        return exact_edges(house_edge, preset)

    def done_prompt(self, engine: Any) -> str:
        coup: BaccaratRound = engine
        p, b = len(coup.player_cards), len(coup.banker_cards)
        if coup.outcome().natural:
            why = "Natural"
        elif p == 2 and b == 2:
            why = "Player and Banker stand"
        elif b == 2:
            why = "Banker stands"
        else:
            why = "Banker has drawn"
        won = coup.winner
        result = "Tie" if won == "tie" else f"{NAMES.get(won or '', won)} wins"
        return f"{why} — Player {coup.player_total}, Banker {coup.banker_total}: {result} — settle"

    def simulated_bets(self, rules: GameRules, box: int, stake: int, round_no: int) -> list[tuple[str, int]]:
        """Banker and Player by turns (seat and round), and from seat 5 up a Tie of the Tie minimum."""
        bets = [(("banker", "player")[(box + round_no) % 2], stake)]
        if box >= 5:
            tie = rules.limits.get("tie")
            bets.append(("tie", tie.min if tie else stake))
        return bets
