"""Catch a Wave at the table (docs/rules.md, Catch a Wave): eight decks with a cut card, cards face up.

A hit is a call first (``decide`` higher / lower), then the card; the dealer's calls are forced,
so the engine predicts each one and the prompt says it ("Dealer calls higher — card"). Once the
dealer's rule says stand the engine settles, and any further card is refused with
``caw.dealer.stands`` (a hold). Simulated players follow the published seed strategy, counting
the shoe's unseen cards as the table knows them.
"""

from __future__ import annotations

from typing import Any, cast

from controller.cards import RANK_INDEX
from controller.games.base import Decide, Expect, ExpectKind, GameRules
from controller.games.catch_a_wave import (
    STAND,
    CatchAWaveRound,
    CatchAWaveRules,
    SeedStrategy,
    catch_a_wave_rules,
)
from controller.games.catch_a_wave.round import most_returned
from controller.games.catch_a_wave.view import CatchAWaveView
from controller.table.games.shoe_game import ShoeGameAdapter, Unseen, decide_command

SEED = SeedStrategy()


class CatchAWaveAdapter(ShoeGameAdapter):
    game = "catch-a-wave"
    default_decisions = ("stand",)
    pace_target = 50
    rules_model = CatchAWaveRules
    rules_builder = catch_a_wave_rules
    round_class = CatchAWaveRound
    view = CatchAWaveView()

    def most_returned(self, rules: GameRules, kind: str, stake: int) -> int | None:
        return most_returned(cast(CatchAWaveRules, rules), kind, stake)

    def play_prompt(self, engine: Any, expect: Expect) -> str:
        round_: CatchAWaveRound = engine
        call = expect.options[0] if expect.options else None
        if expect.kind is ExpectKind.CARD:
            return f"Box {expect.box} calls {call} — card" if call else f"Card to box {expect.box}"
        if expect.kind is ExpectKind.DEALER_CARD:
            return f"Dealer calls {call} — card" if call else "Card to dealer"
        box = expect.box or 0
        return (f"Box {box} ({round_.cards[box][-1]}, {round_.right[box]} right calls, dealer "
                f"{round_.dealer_cards[0]}): stand, higher or lower?")

    def done_prompt(self, engine: Any) -> str:
        round_: CatchAWaveRound = engine
        if round_.dealer_wrong:
            return "Dealer called wrong — live bets win — settle"
        expect = round_.expects()
        if STAND in expect.options:
            return f"Dealer stands on {round_.dealer_right} right calls — settle"
        return "No live bets — settle"

    def simulated_command(self, engine: Any, expect: Expect, rules: GameRules, unseen: Unseen) -> dict[str, Any]:
        round_: CatchAWaveRound = engine
        box = expect.box or 0
        up = RANK_INDEX[round_.dealer_cards[0][0]]
        action = SEED.decide(up, round_.right[box], round_.last[box], unseen)
        return decide_command(Decide(box, action, 1, expect.players[0] if expect.players else ""))
