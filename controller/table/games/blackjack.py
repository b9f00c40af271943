"""Blackjack at the table (RULES.md §1): the thin layer between the generic core and BlackjackRound."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from controller.games.base import Decide, Expect, ExpectKind, GameRules, Limit, Settlement
from controller.games.blackjack.engine import BlackjackRound
from controller.games.blackjack.rules import BlackjackRules, blackjack_rules
from controller.games.blackjack.strategy_player import StrategyPlayer

SIDE_KINDS = frozenset(("perfect_pairs", "21+3"))


class BlackjackAdapter:
    game = "blackjack"
    uses_shoe = True

    def rules(self, preset: str | None, overrides: Mapping[str, Any], limits: Mapping[str, Limit]) -> BlackjackRules:
        settings = dict(overrides)
        if limits:
            base = blackjack_rules(preset, {k: v for k, v in overrides.items() if k != "limits"})
            settings["limits"] = {**base.limits, **settings.get("limits", {}), **limits}
        return blackjack_rules(preset, settings)

    def rules_from_dump(self, data: Mapping[str, Any]) -> BlackjackRules:
        return BlackjackRules.model_validate(data)

    def new_round(self, rules: GameRules) -> BlackjackRound:
        return BlackjackRound(cast(BlackjackRules, rules))

    def decks(self, rules: GameRules) -> int:
        return cast(BlackjackRules, rules).decks

    def removed_ranks(self, rules: GameRules) -> str:
        return cast(BlackjackRules, rules).removed_ranks

    # ------------------------------------------------------------------ prompts
    def prompt(self, engine: Any, expect: Expect) -> str:
        kind = expect.kind
        if kind is ExpectKind.BETS:
            return "Place your bets, then close betting"
        if kind is ExpectKind.CARD:
            text = f"Card to box {expect.box}, hand {expect.hand}"
            return text + " (face down)" if expect.face_down else text
        if kind is ExpectKind.DEALER_CARD:
            if engine.phase == "dealing":
                return "Card to dealer" + (" (face down)" if expect.face_down else "")
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
                f"Box {expect.box}, hand {expect.hand} ({' '.join(cards)} vs {up}): "
                f"{' / '.join(expect.options)}?"
            )
        return self.done_prompt(engine)

    def done_prompt(self, engine: Any) -> str:
        dealer = engine.outcome()["dealer"]
        total, cards = dealer["total"], dealer["cards"]
        if dealer["blackjack"]:
            return "Dealer blackjack — settle"
        if len(cards) < 2:
            return "No live hands — settle"
        if total > 21:
            return f"Dealer busts with {total} — settle"
        return f"Dealer stands on {total} — settle"

    # ------------------------------------------------------------------ money
    def open_bets(self, engine: Any) -> list[Settlement]:
        return cast(BlackjackRound, engine).open_bets()

    # ------------------------------------------------------------------ simulated players
    def simulated_decision(self, engine: Any, expect: Expect, rules: GameRules) -> Decide:
        round_ = cast(BlackjackRound, engine)
        owner = next((b["owner"] for b in round_.outcome()["boxes"] if b["box"] == expect.box), "")
        return StrategyPlayer.for_rules(cast(BlackjackRules, rules), owner).decision(round_, expect)
