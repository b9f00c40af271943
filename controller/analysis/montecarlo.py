"""Monte Carlo estimation of house edges: one loop, one progress bar, one set of statistics.

A game supplies ``play_round() -> per-bet results``, each the player's net result of one round
divided by that bet's initial wager (-1 lost, 0 push, 1.5 blackjack...). The runner accumulates
sums and sums of squares, so the house edge and its standard error come out together.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

CHUNK = 2_000


@dataclass(frozen=True)
class Estimate:
    edge: float  # house edge, fraction of the initial wager
    std_error: float


@dataclass(frozen=True)
class MonteCarloResult:
    bets: dict[str, Estimate]
    rounds: int
    seconds: float

    @property
    def rounds_per_s(self) -> float:
        return self.rounds / self.seconds if self.seconds > 0 else float("inf")


def run_monte_carlo(
    play_round: Callable[[], Sequence[float | None]],
    bet_names: Sequence[str],
    rounds: int,
    progress: bool = True,
    label: str = "rounds",
) -> MonteCarloResult:
    k = len(bet_names)
    sums = [0.0] * k
    squares = [0.0] * k
    counts = [0] * k
    started = time.perf_counter()
    with Progress(
        TextColumn(f"[bold]{label}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
        disable=not progress,
    ) as bar:
        task = bar.add_task(label, total=rounds)
        done = 0
        while done < rounds:
            n = min(CHUNK, rounds - done)
            for _ in range(n):
                results = play_round()
                for i in range(k):
                    x = results[i]
                    if x is not None:  # None: the bet was not played this round
                        sums[i] += x
                        squares[i] += x * x
                        counts[i] += 1
            done += n
            bar.update(task, completed=done)
    seconds = time.perf_counter() - started
    bets = {}
    for i, name in enumerate(bet_names):
        n = counts[i]
        mean = sums[i] / n if n else 0.0
        var = (squares[i] / n - mean * mean) if n > 1 else 0.0
        bets[name] = Estimate(edge=-mean, std_error=math.sqrt(max(var, 0.0) / n) if n else float("nan"))
    return MonteCarloResult(bets=bets, rounds=rounds, seconds=seconds)
