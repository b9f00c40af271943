"""Catch a Wave's views of its outcome (``views.GameView``)."""

from __future__ import annotations

from typing import ClassVar

from controller.cards import cards_text
from controller.games.catch_a_wave.outcome import CatchAWaveOutcome
from controller.games.outcome import Outcome
from controller.table.games.views import BoxView, GameView, HouseView, masked, one_hand


class CatchAWaveView(GameView):
    outcome_model: ClassVar[type[Outcome]] = CatchAWaveOutcome

    def boxes(self, outcome: Outcome) -> list[BoxView]:
        assert isinstance(outcome, CatchAWaveOutcome)
        return [one_hand(b.box, b.cards, None, b.status) for b in outcome.boxes]

    def house(self, outcome: Outcome) -> list[HouseView]:
        assert isinstance(outcome, CatchAWaveOutcome)
        return [{"name": "dealer", "cards": masked(outcome.dealer.cards), "total": None}]

    def lines(self, outcome: Outcome) -> list[str]:
        assert isinstance(outcome, CatchAWaveOutcome)
        d = outcome.dealer
        wrong = ", called wrong" if d.wrong else ""
        lines = [f"dealer {cards_text(d.cards)} ({d.right_calls} right{wrong})"]
        for b in outcome.boxes:
            calls = f" called {' '.join(b.calls)}" if b.calls else ""
            lines.append(f"box {b.box} {cards_text(b.cards)} ({b.right_calls} right{calls}, {b.status})")
        return lines
