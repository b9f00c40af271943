"""Roulette's views of its outcome (``views.GameView``): the winning numbers, the last numbers of
the table and the spin under way."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from controller.games.outcome import Outcome
from controller.games.roulette.outcome import RouletteOutcome
from controller.table.games.views import GameView

HISTORY = 20
#: wheel void verdicts as the dealer says them
VOID_WORDS = {"miss_spin": "miss-spin", "launch_failed": "launch failed", "ball_not_sensed": "ball not sensed"}


class RouletteView(GameView):
    outcome_model: ClassVar[type[Outcome]] = RouletteOutcome

    def history(self, records: Sequence[Mapping[str, Any]], shoe_id: str | None) -> dict[str, Any]:
        """The last numbers, newest first."""
        numbers: list[str] = []
        for r in records:
            spin = self.parse(r["outcome"]) if r["status"] == "settled" else None
            if isinstance(spin, RouletteOutcome):
                numbers += spin.numbers
        return {"last_numbers": numbers[-HISTORY:][::-1]}

    def spin(self, engine: Any) -> dict[str, Any] | None:
        return {"phase": str(getattr(engine.phase, "value", engine.phase)), "balls": [n for n, _ in engine.balls],
                "voids": list(engine.voids), "multipliers": dict(engine.multipliers)}

    def lines(self, outcome: Outcome) -> list[str]:
        assert isinstance(outcome, RouletteOutcome)
        named = [f"{n} {c}" + (f" ({outcome.multipliers[n]}x)" if n in outcome.multipliers else "")
                 for n, c in zip(outcome.numbers, outcome.colours, strict=True)]
        lines = [f"numbers {', '.join(named) or '-'}"]
        if outcome.voids:
            lines.append(f"void spins: {', '.join(VOID_WORDS.get(v, v) for v in outcome.voids)}")
        return lines
