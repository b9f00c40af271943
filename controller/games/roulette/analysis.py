"""Roulette house edges, settled through the table's own engine.

``exact`` (default): every bet of every type at the table is placed and settled for every pocket
(every ordered pocket pair with two balls; with a multiplier feature, each pocket both with and
without a multiplier, weighted by the draw model), summed as exact Fractions. Only the winning
pocket's multiplier can change a payout, so that enumeration is exact.
``monte-carlo``: random spins (random.Random(seed)) of one bet per type, reported beside the
exact figures so the two can be compared.
"""

from __future__ import annotations

import random
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator
from fractions import Fraction
from typing import Any

from controller.analysis import HouseEdgeOptions
from controller.analysis.montecarlo import run_monte_carlo
from controller.games.roulette.bets import EVEN_MONEY, parse_bet
from controller.games.roulette.engine import RouletteRound
from controller.games.roulette.layout import OUTSIDE, WheelKind, sort_key, wheel
from controller.games.roulette.racetrack import MAX_NEIGHBOURS, SECTORS
from controller.games.roulette.rules import RouletteRules, roulette_rules

UNIT = 100
DEFAULT_MC_ROUNDS = 1_000_000
Outcome = tuple[tuple[str, ...], dict[str, int], Fraction]  # balls, multipliers, weight


def catalogue(rules: RouletteRules) -> dict[str, list[str]]:
    """The bets settled for each type name (the ``bets`` keys): every layout spot of each type."""
    w = wheel(rules.wheel)
    pockets = sorted(w.pockets, key=sort_key)
    out: dict[str, list[str]] = {"straight": [f"straight:{p}" for p in pockets]}
    for name in ("split", "street", "corner", "six_line"):
        out[name] = sorted(f"{name}:{'-'.join(sorted(s, key=sort_key))}" for s in w.shapes[name])
    if rules.first_four:
        out["first_four"] = ["first_four"]
    if "five" in w.shapes:
        out["five"] = ["five"]
    out["column"] = [k for k in OUTSIDE if k.startswith("column")]
    out["dozen"] = [k for k in OUTSIDE if k.startswith("dozen")]
    out |= {name: [name] for name in EVEN_MONEY}
    if rules.balls == 2:
        out["both_any"] = ["both_any"]
        out["both_on"] = [f"both_on:{p}" for p in pockets]
    if rules.racetrack:
        # every centre once, the spans cycling through 1..9 (so every span is settled too)
        out["neighbours"] = [f"neighbours:{p}:{1 + i % MAX_NEIGHBOURS}" for i, p in enumerate(pockets)]
        if rules.wheel is WheelKind.EUROPEAN:
            out |= {name: [name] for name in SECTORS}
    return out


def outcomes(rules: RouletteRules) -> Iterator[Outcome]:
    """Every equally likely spin (weighted when a multiplier draw is in play)."""
    order = wheel(rules.wheel).order
    if rules.balls == 2:
        for a in order:
            for b in order:
                yield (a, b), {}, Fraction(1)
        return
    feature = rules.multipliers
    if feature is None:
        for p in order:
            yield (p,), {}, Fraction(1)
        return
    lo, hi = feature.numbers
    lucky = Fraction(lo + hi, 2) / len(order)  # P(a given pocket is drawn): E[count] / pockets
    total = sum(feature.values.values())
    for i, p in enumerate(order):
        others = [order[(i + k) % len(order)] for k in range(1, lo + 1)]
        for value, weight in feature.values.items():
            yield (p,), {p: value, **{q: value for q in others[: lo - 1]}}, lucky * Fraction(weight, total)
        yield (p,), {q: min(feature.values) for q in others[:lo]}, 1 - lucky


def _amounts(rules: RouletteRules, kinds: Iterable[str]) -> dict[str, int]:
    """A unit chip of ``UNIT`` on every spot of each bet (so every pay comes out in whole cents)."""
    return {kind: UNIT * parse_bet(kind, rules).units for kind in kinds}


def _spin(
    rules: RouletteRules, amounts: dict[str, int], balls: tuple[str, ...], multipliers: dict[str, int]
) -> RouletteRound:
    """One engine round with one bet of each kind (box 1, one player per kind)."""
    rnd = RouletteRound(rules)
    for kind, amount in amounts.items():
        rnd.place_bet(1, kind, amount, player=kind)
    rnd.close_betting()
    if rules.multipliers is not None:
        rnd.set_multipliers(multipliers)
    rnd.wheel_result(balls)
    return rnd


def _unlimited(rules: RouletteRules) -> RouletteRules:
    """The same rules without table limits: limits shape bets, not edges."""
    return rules.model_copy(update={"limits": {}})


def exact_edges(rules: RouletteRules) -> tuple[dict[str, Fraction], int]:
    """Exact house edge of each bet type, and the number of spins enumerated."""
    rules = _unlimited(rules)
    by_kind = {kind: name for name, kinds in catalogue(rules).items() for kind in kinds}
    staked: dict[str, Fraction] = defaultdict(Fraction)
    returned: dict[str, Fraction] = defaultdict(Fraction)
    amounts = _amounts(rules, by_kind)
    spins = 0
    for balls, multipliers, weight in outcomes(rules):
        spins += 1
        stake: dict[str, int] = defaultdict(int)
        back: dict[str, int] = defaultdict(int)
        for s in _spin(rules, amounts, balls, multipliers).settlements:
            stake[by_kind[s.kind]] += s.stake
            back[by_kind[s.kind]] += s.payout
        for name in stake:
            staked[name] += weight * stake[name]
            returned[name] += weight * back[name]
    return {name: 1 - returned[name] / staked[name] for name in staked}, spins


def theoretical_straight_edge(rules: RouletteRules) -> Fraction:
    """The straight-up edge from the paytable alone (closed form, no engine)."""
    n = len(wheel(rules.wheel).order)
    r = rules.paytable["straight"]
    if rules.balls == 2:  # one ball in: 2(n-1) of n*n pairs; both balls in: 1 pair, twice the winnings
        return 1 - (2 * (n - 1) * (1 + r) + (1 + 2 * r)) / Fraction(n * n)
    feature = rules.multipliers
    if feature is None:
        return 1 - (1 + r) / n
    p = Fraction(sum(feature.numbers), 2) / n
    mean = Fraction(sum(v * w for v, w in feature.values.items()), sum(feature.values.values()))
    return 1 - (p * (1 + mean) + (1 - p) * (1 + r)) / n


def representatives(rules: RouletteRules) -> dict[str, str]:
    """One bet per type for Monte Carlo (all bets of a type have the same edge on a fair wheel)."""
    return {name: kinds[len(kinds) // 2] for name, kinds in catalogue(rules).items()}


def monte_carlo(rules: RouletteRules, rounds: int, seed: int, progress: bool) -> tuple[dict[str, Any], float]:
    rules = _unlimited(rules)
    reps = representatives(rules)
    names = list(reps)
    amounts = _amounts(rules, reps.values())
    order = wheel(rules.wheel).order
    rng = random.Random(seed)
    feature = rules.multipliers
    values = list(feature.values) if feature else []
    weights = list(feature.values.values()) if feature else []

    def play() -> list[float]:
        draw: dict[str, int] = {}
        if feature is not None:
            count = rng.randint(*feature.numbers)
            draw = dict(zip(rng.sample(order, count), rng.choices(values, weights, k=count), strict=True))
        balls = tuple(rng.choice(order) for _ in range(rules.balls))
        settled = {s.kind: s for s in _spin(rules, amounts, balls, draw).settlements}
        return [(settled[reps[n]].payout - settled[reps[n]].stake) / settled[reps[n]].stake for n in names]

    result = run_monte_carlo(play, names, rounds, progress, label="spins")
    est = {n: {"edge": e.edge, "std_error": e.std_error} for n, e in result.bets.items()}
    return est, result.rounds_per_s


def house_edge(options: HouseEdgeOptions) -> dict[str, Any]:
    rules = roulette_rules(options.preset or "european", options.overrides)
    started = time.perf_counter()
    exact, spins = exact_edges(rules)
    seconds = time.perf_counter() - started
    theory = theoretical_straight_edge(rules)
    out: dict[str, Any] = {
        "preset": options.preset or "european",
        "wheel": rules.wheel.value,
        "balls": rules.balls,
    }
    if (options.method or "exact") == "exact":
        return out | {
            "method": "exact",
            "house_edge": float(exact["straight"]),
            "std_error": 0.0,
            "theoretical_edge": float(theory),
            "rounds": spins,
            "rounds_per_s": spins / seconds if seconds > 0 else float("inf"),
            "bets": {n: float(e) for n, e in exact.items()},
            "bets_exact": {n: f"{e.numerator}/{e.denominator}" for n, e in exact.items()},
        }
    rounds = options.rounds or DEFAULT_MC_ROUNDS
    est, per_s = monte_carlo(rules, rounds, options.seed, options.progress)
    z = {n: abs(v["edge"] - float(exact[n])) / v["std_error"] for n, v in est.items() if v["std_error"] > 0}
    return out | {
        "method": "monte-carlo",
        "house_edge": est["straight"]["edge"],
        "std_error": est["straight"]["std_error"],
        "theoretical_edge": float(theory),
        "rounds": rounds,
        "rounds_per_s": per_s,
        "seed": options.seed,
        "bets": {n: v["edge"] for n, v in est.items()},
        "std_errors": {n: v["std_error"] for n, v in est.items()},
        "exact_bets": {n: float(exact[n]) for n in est},
        "max_z": max(z.values()) if z else 0.0,
    }
