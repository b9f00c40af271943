"""One roulette spin as a pure state machine: bets -> no more bets -> [multiplier draw] -> result.

A void (ball out of the wheel, miss-spin) after betting closed keeps the bets and reopens
betting, so players may change them before the re-spin. Every refusal leaves the round as it
was: each input is validated in full before anything changes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum

from controller.games.base import (
    BetRefused,
    EngineRound,
    Expect,
    ExpectKind,
    PhaseError,
    RuleError,
    Settlement,
    VoidResult,
    void_result,
)
from controller.games.roulette.bets import BetSpec, parse_bet
from controller.games.roulette.layout import colour, wheel
from controller.games.roulette.outcome import RouletteOutcome
from controller.games.roulette.payout import chip_return
from controller.games.roulette.rules import RouletteRules


class ResultRefused(RuleError):
    """A wheel result this table cannot have (a pocket not on its wheel, the wrong ball count)."""


class Phase(str, Enum):
    BETTING = "betting"
    CLOSED = "closed"
    DONE = "done"


@dataclass(frozen=True, slots=True)
class Bet:
    box: int
    player: str
    spec: BetSpec
    amount: int


@dataclass(frozen=True, slots=True)
class SetMultipliers:
    """The multiplier draw (an input: the draw is made and journaled outside the engine)."""

    multipliers: tuple[tuple[str, int], ...]


class RouletteRound(EngineRound):

    RULE_PREFIX = "roulette"
    #: the table's void of the round (``call_off``); None: not voided
    voided: VoidResult | None = None
    ACTIONS = {**EngineRound.ACTIONS, SetMultipliers: "set_multipliers"}
    def __init__(self, rules: RouletteRules) -> None:
        self.rules = rules
        self.phase = Phase.BETTING
        self._bets: dict[tuple[int, str, str], Bet] = {}
        self.multipliers: dict[str, int] = {}
        self.numbers: tuple[str, ...] = ()
        self.voids: list[str] = []
        self.settlements: list[Settlement] = []

    # ------------------------------------------------------------------ inputs
    def place_bet(self, box: int, kind: str, amount: int, player: str = "") -> None:
        """Add ``amount`` to the player's bet of ``kind`` on ``box`` (limits hold for the total)."""
        self._need(Phase.BETTING, "roulette.closed", "no more bets", BetRefused)
        self._check_box(box)
        if type(amount) is not int or amount <= 0:
            raise BetRefused(
                "roulette.amount", f"a bet is a positive whole number of minor units, not {amount!r}"
            )
        spec = parse_bet(kind, self.rules)
        key = (box, player, spec.kind)
        total = amount + (self._bets[key].amount if key in self._bets else 0)
        self._check_limits(spec, total)
        self._bets[key] = Bet(box, player, spec, total)

    def clear_bets(self, box: int, player: str | None = None) -> None:
        self._need(Phase.BETTING, "roulette.closed", "no more bets", BetRefused)
        self._check_box(box)
        gone = [k for k in self._bets if k[0] == box and (player is None or k[1] == player)]
        if not gone:
            raise BetRefused("roulette.clear", f"no bets to clear on box {box}")
        for k in gone:
            del self._bets[k]

    def close_betting(self) -> None:
        self._need(Phase.BETTING, "roulette.phase", "betting is not open")
        self.phase = Phase.CLOSED

    def set_multipliers(self, multipliers: Mapping[str, int] | Iterable[tuple[str, int]]) -> None:
        feature = self.rules.multipliers
        if feature is None:
            raise PhaseError("roulette.multipliers", "this table has no multiplier feature")
        self._need(Phase.CLOSED, "roulette.phase", "the draw comes after no more bets and before the result")
        if self.multipliers:
            raise PhaseError("roulette.multipliers", "this spin's multipliers are already drawn")
        multipliers = {str(k): v for k, v in dict(multipliers).items()}
        lo, hi = feature.numbers
        if not lo <= len(multipliers) <= hi:
            raise RuleError(
                "roulette.multipliers", f"a draw names {lo} to {hi} numbers, not {len(multipliers)}"
            )
        pockets = wheel(self.rules.wheel).pockets
        for number, value in multipliers.items():
            if number not in pockets:
                raise RuleError("roulette.multipliers", f"{number!r} is not a pocket of this wheel")
            if type(value) is not int or value not in feature.values:
                raise RuleError("roulette.multipliers", f"{value!r}x is not a multiplier of this table")
        self.multipliers = dict(multipliers)

    def wheel_result(self, numbers: Iterable[str]) -> None:
        self._need(Phase.CLOSED, "roulette.phase", "a result counts only after no more bets")
        if self.rules.multipliers is not None and not self.multipliers:
            raise PhaseError("roulette.multipliers_due", "the multiplier draw comes before the result")
        balls = tuple(str(n).strip() for n in numbers)
        if len(balls) != self.rules.balls:
            raise ResultRefused(
                "roulette.result", f"this table spins {self.rules.balls} ball(s), got {balls}"
            )
        pockets = wheel(self.rules.wheel).pockets
        bad = [b for b in balls if b not in pockets]
        if bad:
            raise ResultRefused(
                "roulette.result", f"{', '.join(bad)} is not on the {self.rules.wheel.value} wheel"
            )
        self.settlements = [self._settle(bet, balls) for bet in self._bets.values()]
        self.numbers = balls
        self.phase = Phase.DONE

    def void_round(self, reason: str) -> None:
        """Void the spin (ball out, miss-spin): bets stay, betting reopens, the draw is dropped."""
        self._need(Phase.CLOSED, "roulette.void", "only a spin under way can be voided")
        self.voids.append(reason)
        self.multipliers = {}
        self.phase = Phase.BETTING

    def call_off(self, reason: str) -> VoidResult:
        """Void the whole round (the table's void, not a spin's): every bet is returned and the
        round is over. Nothing settles before the result, so nothing stands."""
        if self.phase is Phase.DONE:
            raise PhaseError("roulette.phase", "the round is over; nothing to void")
        settled_before = len(self.settlements)
        self.settlements += self.open_bets()
        self.phase = Phase.DONE
        self.voided = void_result(reason, settled_before, self.settlements)
        return self.voided

    # ------------------------------------------------------------------ outputs
    def expects(self) -> Expect:
        if self.phase is Phase.BETTING:
            return Expect(ExpectKind.BETS)
        if self.phase is Phase.CLOSED:
            if self.rules.multipliers is not None and not self.multipliers:
                return Expect(ExpectKind.RESULT, note="multiplier draw due before the result")
            return Expect(ExpectKind.RESULT, note=f"{self.rules.balls} ball(s)")
        return Expect(ExpectKind.DONE)

    @property
    def bets(self) -> tuple[Bet, ...]:
        return tuple(self._bets.values())

    def open_bets(self) -> list[Settlement]:
        """Every bet still riding, as the refund a void would make (payout = stake)."""
        if self.phase is Phase.DONE:
            return []
        return [Settlement(b.box, 1, b.spec.kind, b.player, b.amount, b.amount) for b in self._bets.values()]

    def outcome(self) -> RouletteOutcome:
        return RouletteOutcome(
            wheel=self.rules.wheel.value,
            numbers=self.numbers,
            colours=tuple(colour(n) for n in self.numbers),
            multipliers=dict(self.multipliers),
            voids=tuple(self.voids),
        )

    # ------------------------------------------------------------------ helpers
    def _need(self, phase: Phase, rule: str, message: str, error: type[RuleError] = PhaseError) -> None:
        if self.phase is not phase:
            raise error(rule, f"{message} ({self.phase.value})")

    def _check_box(self, box: int) -> None:
        if type(box) is not int or not 1 <= box <= self.rules.boxes:
            raise BetRefused("roulette.box", f"box {box!r} is not 1..{self.rules.boxes}")

    def _check_limits(self, spec: BetSpec, total: int) -> None:
        unit, rest = divmod(total, spec.units)
        if rest:
            raise BetRefused(
                "roulette.chips", f"{spec.kind} takes {spec.units} equal chips; {total} does not divide"
            )
        if not spec.called:
            self.rules.check_limit(spec.name, total, "roulette")
            return
        limits = self.rules.limits
        if spec.name in limits:
            self.rules.check_limit(spec.name, total, "roulette")
        for chip, units in spec.chips:
            if chip.type in limits:
                self.rules.check_limit(chip.type, unit * units, "roulette")

    def _settle(self, bet: Bet, balls: tuple[str, ...]) -> Settlement:
        unit = bet.amount // bet.spec.units
        payout = sum(chip_return(c, unit * u, balls, self.rules, self.multipliers) for c, u in bet.spec.chips)
        return Settlement(bet.box, 1, bet.spec.kind, bet.player, bet.amount, payout)
