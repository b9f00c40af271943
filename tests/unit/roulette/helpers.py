"""Play one spin through the engine and read the settlements back by kind."""

from __future__ import annotations

from typing import Any

from controller.games.roulette import RouletteRound, roulette_rules


def spin(
    preset: str,
    bets: list[tuple[str, int]],
    balls: tuple[str, ...],
    multipliers: dict[str, int] | None = None,
    **overrides: Any,
) -> dict[str, tuple[int, int]]:
    """Each bet on its own box (1, 2, ...); returns kind -> (stake, payout) in cents."""
    rnd = RouletteRound(roulette_rules(preset, overrides))
    for box, (kind, amount) in enumerate(bets, start=1):
        rnd.place_bet(box, kind, amount)
    rnd.close_betting()
    if multipliers is not None:
        rnd.set_multipliers(multipliers)
    rnd.wheel_result(balls)
    return {s.kind: (s.stake, s.payout) for s in rnd.settlements}
