"""Roulette at the table (docs/rules.md, roulette): the thin layer between the generic core and RouletteRound.

The wheel drives the round: its ``no_more_bets`` (or, by the house rule ``close_bets_on =
"ball_in_rim"``, its ``ball_in_rim``) closes betting, its ``winning_number`` is the result, its
``void`` verdict voids the spin (bets stay, betting reopens), its ``fault`` holds the table.
The Cammegh SS2 reports one ball per game, so at a double-ball table the wheel's number is ball 1
and the dealer keys ball 2 (``key_result``); the round settles once both are in.

The multiplier draw (preset ``lightning``) is made by the table, not here: the adapter says when
one is due, turns 32 bytes from ``secrets`` into a draw (``draw``, deterministic given the seed so
the journaled seed proves the journaled result) and the journaled draw into the engine action.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, cast

from controller.analysis.edges import Edges
from controller.games.base import (
    CloseBetting,
    Decide,
    Expect,
    ExpectKind,
    GameRules,
    Limit,
    PhaseError,
    RuleError,
    Settlement,
    VoidResult,
    VoidRound,
    build_rules,
)
from controller.games.roulette import RouletteRound, RouletteRules, SetMultipliers
from controller.games.roulette.analysis import house_edge
from controller.games.roulette.bets import parse_bet
from controller.games.roulette.engine import Phase
from controller.games.roulette.layout import colour, wheel
from controller.games.roulette.outcome import RouletteOutcome
from controller.games.roulette.payout import most_returned
from controller.games.roulette.rules import PRESETS
from controller.games.roulette.view import VOID_WORDS, RouletteView
from controller.table.games.base import DeviceStep, GameAdapter, exact_edges
from controller.table.holds import ERROR, INFO, WARNING
from drivers.events import DeviceEvent
from drivers.wheel.events import (
    BallInRim,
    Fault,
    NoMoreBets,
    Recovered,
    SelfTestResult,
    TableClosed,
    Void,
    WheelWarning,
    WinningNumberEvent,
)


class RouletteTableRules(RouletteRules):
    """The engine's rules plus the house's choice of which wheel state closes betting."""

    close_bets_on: Literal["no_more_bets", "ball_in_rim"] = "no_more_bets"


# --------------------------------------------------------------------------- balls
@dataclass(frozen=True, slots=True)
class WheelBall:
    """A ball's pocket as the wheel reported it for game ``spin``."""

    number: str
    spin: int | None = None


@dataclass(frozen=True, slots=True)
class KeyedBall:
    """A ball the wheel cannot report (double ball's second), keyed in by the dealer."""

    number: str


class TableRouletteOutcome(RouletteOutcome):
    """The spin's outcome with where each ball came from ("wheel", or "dealer" for a keyed ball)."""

    sources: tuple[str, ...]


class TableRouletteRound(RouletteRound):
    """A spin whose balls arrive one at a time (wheel, then dealer) and settle once all are in."""

    ACTIONS: ClassVar[dict[type, str]] = {**RouletteRound.ACTIONS, WheelBall: "wheel_ball", KeyedBall: "keyed_ball"}

    def __init__(self, rules: RouletteRules) -> None:
        super().__init__(rules)
        self.balls: list[tuple[str, str]] = []  # (number, "wheel" | "dealer") of this spin

    def wheel_ball(self, number: str, spin: int | None = None) -> None:
        if self.balls:
            raise PhaseError("roulette.result.repeated", f"the wheel already gave ball 1 ({self.balls[0][0]})")
        self._ball(str(number), "wheel")

    def keyed_ball(self, number: str) -> None:
        if not self.balls or self.phase is not Phase.CLOSED:
            raise PhaseError("roulette.keyed_result", "the wheel reports the first ball; nothing to key in now")
        self._ball(str(number).strip(), "dealer")

    def _ball(self, number: str, source: str) -> None:
        self._need(Phase.CLOSED, "roulette.phase", "a result counts only after no more bets")
        if self.rules.multipliers is not None and not self.multipliers:
            raise PhaseError("roulette.multipliers_due", "the multiplier draw comes before the result")
        if number not in wheel(self.rules.wheel).pockets:
            raise RuleError("roulette.result", f"{number} is not on the {self.rules.wheel.value} wheel")
        balls = [*self.balls, (number, source)]
        if len(balls) == self.rules.balls:
            self.wheel_result(tuple(n for n, _ in balls))
        self.balls = balls

    def void_round(self, reason: str) -> None:
        super().void_round(reason)
        self.balls = []

    def expects(self) -> Expect:
        if self.phase is Phase.CLOSED and self.balls:
            return Expect(ExpectKind.RESULT, note=f"ball {len(self.balls) + 1}: key it in")
        return super().expects()

    def outcome(self) -> TableRouletteOutcome:
        return TableRouletteOutcome(**dict(super().outcome()), sources=tuple(s for _, s in self.balls))


# --------------------------------------------------------------------------- the draw
class _HashStream:
    """Uniform integers from SHA-256(seed || counter): a draw anyone can recompute from its seed."""

    def __init__(self, seed: bytes) -> None:
        self.seed = seed
        self.counter = 0

    def below(self, n: int) -> int:
        limit = (1 << 64) - (1 << 64) % n  # rejection: no modulo bias
        while True:
            self.counter += 1
            x = int.from_bytes(hashlib.sha256(self.seed + self.counter.to_bytes(8, "big")).digest()[:8], "big")
            if x < limit:
                return x % n


def multiplier_draw(rules: RouletteRules, seed: bytes) -> list[tuple[str, int]]:
    """The draw ``seed`` gives: 1..N distinct straight-up numbers, each a weighted multiplier."""
    feature = rules.multipliers
    assert feature is not None
    stream = _HashStream(seed)
    lo, hi = feature.numbers
    count = lo + stream.below(hi - lo + 1)
    pockets = sorted(wheel(rules.wheel).pockets, key=lambda p: (len(p), p))
    chosen: list[str] = []
    for _ in range(count):
        rest = [p for p in pockets if p not in chosen]
        chosen.append(rest[stream.below(len(rest))])
    values = sorted(feature.values.items())
    total = sum(w for _, w in values)
    out = []
    for number in chosen:
        pick = stream.below(total)
        for value, weight in values:
            if pick < weight:
                out.append((number, value))
                break
            pick -= weight
    return out


# --------------------------------------------------------------------------- adapter
class RouletteAdapter(GameAdapter):
    game = "roulette"
    pace_target = 40
    uses_shoe = False
    device = "wheel"
    view = RouletteView()

    def most_returned(self, rules: GameRules, kind: str, stake: int) -> int | None:
        try:
            spec = parse_bet(kind, cast(RouletteRules, rules))
        except RuleError:  # not a bet of this table's layout
            return None
        return most_returned(spec, stake, cast(RouletteRules, rules))

    def rules(self, preset: str | None, overrides: Mapping[str, Any], limits: Mapping[str, Limit]) -> RouletteTableRules:
        settings = dict(overrides)
        if limits:
            base = build_rules(RouletteTableRules, PRESETS, preset, {k: v for k, v in overrides.items() if k != "limits"})
            settings["limits"] = {**base.limits, **settings.get("limits", {}), **limits}
        return build_rules(RouletteTableRules, PRESETS, preset, settings)

    def rules_from_dump(self, data: Mapping[str, Any]) -> RouletteTableRules:
        return RouletteTableRules.model_validate(data)

    def new_round(self, rules: GameRules) -> TableRouletteRound:
        return TableRouletteRound(cast(RouletteRules, rules))

    def decks(self, rules: GameRules) -> int:
        return 1  # no shoe: the core's nominal composition is never drawn from

    def removed_ranks(self, rules: GameRules) -> str:
        return ""

    # ------------------------------------------------------------------ prompts
    def prompt(self, engine: Any, expect: Expect) -> str:
        round_ = cast(TableRouletteRound, engine)
        if expect.kind is ExpectKind.BETS:
            if round_.voids:
                return f"Spin void ({VOID_WORDS.get(round_.voids[-1], round_.voids[-1])}) — bets stay, re-spin"
            return "Place your bets"
        if self.draw_due(round_):
            return "No more bets — drawing multipliers"
        if round_.balls:
            return f"Ball 1: {_named(round_.balls[0][0])} — key in ball {len(round_.balls) + 1}"
        return "No more bets — wait for the result"

    def house_edges(self, preset: str) -> Edges:
        """Every bet's edge by exact enumeration (about 0.1 s)."""
        return exact_edges(house_edge, preset)

    def done_prompt(self, engine: Any) -> str:
        round_ = cast(TableRouletteRound, engine)
        if not round_.numbers:
            return "Round over — settle"
        label = "Winning number" if len(round_.numbers) == 1 else "Winning numbers"
        named = [_named(n) + (f" ({round_.multipliers[n]}x)" if n in round_.multipliers else "") for n in round_.numbers]
        return f"{label} {', '.join(named)} — settle"

    # ------------------------------------------------------------------ money
    def open_bets(self, engine: Any) -> list[Settlement]:
        return cast(RouletteRound, engine).open_bets()

    def void_round(self, engine: Any, reason: str) -> VoidResult:
        """The table's void of the round: every bet back (the engine's ``void_round`` is the
        wheel's void of one spin, which keeps the bets and reopens betting)."""
        round_ = cast(RouletteRound, engine)
        if round_.phase is Phase.DONE:
            return VoidResult(reason, tuple(round_.settlements), ())
        return round_.call_off(reason)

    def simulated_decision(self, engine: Any, expect: Expect, rules: GameRules) -> Decide:
        raise RuleError("roulette.decision", "roulette asks the players no decisions")


    # ------------------------------------------------------------------ the wheel
    def open_commands(self, rules: GameRules) -> tuple[str, ...]:
        """A round opened: the wheel may start its game (``*u 1``; modes with bit 2 wait for it)."""
        return ("start_game",)

    def recover_commands(self) -> tuple[str, ...]:
        """The wheel's guide: a fault is cleared by re-powering it (docs/devices.md)."""
        return ("repower",)

    def device_step(self, engine: Any, rules: GameRules, event: DeviceEvent) -> DeviceStep:
        """A wheel event (drivers/wheel/events.py) -> what the table does."""
        round_ = cast(TableRouletteRound | None, engine)
        closing = cast(RouletteTableRules, rules).close_bets_on
        betting = round_ is not None and round_.phase is Phase.BETTING
        match event:
            case NoMoreBets() | BallInRim() if event.type == closing:
                return DeviceStep(action=CloseBetting()) if betting else DeviceStep()
            case WinningNumberEvent(number=number, spin=spin):
                if round_ is None:
                    return DeviceStep(alert=(WARNING, "wheel.result.no_round",
                                             f"the wheel gave {number} with no round open"))
                return DeviceStep(action=WheelBall(number, spin))
            case Void(reason=reason, spin=spin):
                words = VOID_WORDS.get(reason, reason)
                alert = (WARNING, f"wheel.void.{reason}", f"spin {spin} void ({words}): bets stay, re-spin")
                # after a miss-spin the wheel re-spins by itself (the driver's *R); after the other
                # verdicts it plays the void game out and waits for the table's start (*u 1)
                commands = () if reason == "miss_spin" else ("start_game",)
                if round_ is not None and round_.phase is Phase.CLOSED:
                    return DeviceStep(action=VoidRound(reason), alert=alert, commands=commands)
                return DeviceStep(alert=alert, commands=commands)
            case Fault(reason=reason, code=code, detail=detail):
                text = f"wheel fault {reason}{f' (code {code})' if code is not None else ''}: {detail}".rstrip(": ")
                return DeviceStep(fault=text, alert=(ERROR, f"wheel.fault.{reason}",
                                                     text + " — re-power (*P 1) before the next game"))
            case TableClosed():
                return DeviceStep(commands=("power_on",))  # state 6: the table re-powers the wheel
            case Recovered():
                return DeviceStep(recovered=True,
                                  alert=(INFO, "wheel.recovered", "the wheel was re-powered and reports healthy"))
            case WheelWarning(code=code, detail=detail):
                return DeviceStep(alert=(WARNING, f"wheel.{code}", str(detail or code)))
            case SelfTestResult(passed=False, busy=False, codes=codes):
                codes_shown = list(codes)
                return DeviceStep(fault=f"self-test failed: codes {codes_shown}",
                                  alert=(ERROR, "wheel.self_test", f"wheel self-test failed: codes {codes_shown}"))
        return DeviceStep()

    def keyed_result(self, number: str) -> KeyedBall:
        return KeyedBall(str(number))

    def device_result(self, engine: Any) -> str | None:
        """The wheel's number of a single-ball spin it settled (the dealer's key then checks it)."""
        round_ = cast(TableRouletteRound | None, engine)
        if round_ is None or round_.phase is not Phase.DONE or len(round_.balls) != 1:
            return None
        number, source = round_.balls[0]
        return number if source == "wheel" else None

    # ------------------------------------------------------------------ the multiplier draw
    def draw_due(self, engine: Any) -> bool:
        round_ = cast(RouletteRound | None, engine)
        return (round_ is not None and round_.rules.multipliers is not None and round_.phase is Phase.CLOSED
                and not round_.multipliers)

    def draw(self, engine: Any, seed: bytes) -> dict[str, Any]:
        """The draw's journal payload: the seed and the multipliers it gives."""
        round_ = cast(RouletteRound, engine)
        return {"draw": "multipliers", "seed": seed.hex(), "multipliers": multiplier_draw(round_.rules, seed)}

    def draw_action(self, payload: Mapping[str, Any]) -> SetMultipliers:
        return SetMultipliers(tuple((str(n), int(v)) for n, v in payload["multipliers"]))

    # ------------------------------------------------------------------ simulated players
    def simulated_bets(self, rules: GameRules, box: int, stake: int, round_no: int) -> list[tuple[str, int]]:
        """Two to four assorted legal bets of about ``stake`` each (batch mode), seeded by round
        and box so a resumed round's player bets as he would have."""
        rng = random.Random(f"roulette-{round_no}-{box}")
        r = cast(RouletteRules, rules)
        w = wheel(r.wheel)
        n = rng.randint(1, 36)
        menu: list[tuple[str, int]] = [
            (f"straight:{rng.choice(sorted(w.pockets))}", 1),
            (f"split:{n}-{n + 3}" if n <= 33 else f"split:{n - 3}-{n}", 1),
            (f"street:{3 * ((n - 1) // 3) + 1}-{3 * ((n - 1) // 3) + 2}-{3 * ((n - 1) // 3) + 3}", 1),
            (rng.choice(("red", "black", "odd", "even", "low", "high")), 5),
            (f"dozen:{rng.randint(1, 3)}", 5),
            (f"column:{rng.randint(1, 3)}", 5),
        ]
        if r.racetrack and r.wheel.value == "european":
            called = rng.choice(("voisins", "tiers", "orphelins", "jeu_zero"))
            menu.append((called, parse_bet(called, r).units))
        if "five" in w.shapes:
            menu.append(("five", 1))
        if r.balls == 2:
            menu.append(("both_any", 1))
        picks = rng.sample(menu, rng.randint(2, 4))
        return [(kind, _legal(r, kind, units * max(stake // 5, 100))) for kind, units in picks]


def _legal(rules: RouletteRules, kind: str, amount: int) -> int:
    """``amount`` brought inside the table limit of the bet's type (called bets: per chip)."""
    head = kind.split(":")[0]
    key = "even_money" if head in ("red", "black", "odd", "even", "low", "high") else head
    lim = rules.limits.get(head) or rules.limits.get(key)
    if lim is None:
        return amount
    return min(max(amount, lim.min), lim.max)


def _named(number: str) -> str:
    return f"{number} {colour(number)}"
