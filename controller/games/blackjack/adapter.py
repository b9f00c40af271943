"""Blackjack at the table (docs/rules.md, blackjack): the thin layer between the generic core and BlackjackRound."""

from __future__ import annotations

from typing import Any, cast

from controller.analysis.edges import Edges
from controller.cards import cards_text
from controller.games.base import Decide, Expect, ExpectKind, GameRules
from controller.games.blackjack.engine import BlackjackRound
from controller.games.blackjack.most_returned import most_returned
from controller.games.blackjack.rules import BlackjackRules, blackjack_rules
from controller.games.blackjack.strategy import BasicStrategy
from controller.games.blackjack.strategy_player import StrategyPlayer
from controller.games.blackjack.view import BlackjackView
from controller.table.games.shoe_game import ShoeGameAdapter, face

SIDE_KINDS = frozenset(("perfect_pairs", "21+3"))


class BlackjackAdapter(ShoeGameAdapter):
    game = "blackjack"
    default_decisions = ("stand", "no_insurance", "no_even_money")
    rules_model = BlackjackRules
    rules_builder = blackjack_rules
    round_class = BlackjackRound
    view = BlackjackView()

    # ------------------------------------------------------------------ prompts
    def play_prompt(self, engine: Any, expect: Expect) -> str:
        kind = expect.kind
        if kind is ExpectKind.CARD:
            return face(f"Card to box {expect.box}, hand {expect.hand}", expect)
        if kind is ExpectKind.DEALER_CARD:
            if engine.phase == "dealing":
                return face("Card to dealer", expect)
            return "Dealer: draw"
        if kind is ExpectKind.DECISION:
            if "insurance" in expect.options:
                return f"Box {expect.box}: insurance?"
            if "even_money" in expect.options:
                return f"Box {expect.box}: even money?"
            round_ = cast(BlackjackRound, engine)
            cards = round_.hand_cards(expect.box or 1, expect.hand or 1)
            up = round_.dealer_cards()[0]
            return (
                f"Box {expect.box}, hand {expect.hand} ({cards_text(cards)} vs {cards_text([up])}): "
                f"{' / '.join(o.replace('_', ' ') for o in expect.options)}?"
            )
        return self.done_prompt(engine)

    def done_prompt(self, engine: Any) -> str:
        dealer = cast(BlackjackRound, engine).outcome().dealer
        total, cards = dealer.total, dealer.cards
        if dealer.blackjack:
            return "Dealer blackjack — settle"
        if len(cards) < 2:
            return "No live hands — settle"
        if total > 21:
            return f"Dealer busts with {total} — settle"
        return f"Dealer stands on {total} — settle"

    def most_returned(self, rules: GameRules, kind: str, stake: int) -> int | None:
        return most_returned(cast(BlackjackRules, rules), kind, stake)

    def house_edges(self, preset: str) -> Edges:
        """The main bet's edge under basic strategy, by finite-shoe recursion (about 2 s)."""
        edge = float(BasicStrategy.for_rules(blackjack_rules(preset)).theoretical_edge)
        return Edges(edge, {"main": edge}, f"basic strategy, finite-shoe EV, preset {preset}")

    # ------------------------------------------------------------------ simulated players
    def prepare_simulation(self, rules: GameRules) -> None:
        StrategyPlayer.for_rules(cast(BlackjackRules, rules))

    def simulated_decision(self, engine: Any, expect: Expect, rules: GameRules) -> Decide:
        round_ = cast(BlackjackRound, engine)
        owner = round_.box_owner(expect.box or 0)
        return StrategyPlayer.for_rules(cast(BlackjackRules, rules), owner).decision(round_, expect)
