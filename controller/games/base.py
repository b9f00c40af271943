"""Conventions every game engine follows (docs/architecture.md, "Layers").

An engine round is a pure, synchronous, deterministic object:

* ``apply(action)`` takes one input (a bet, a card out of the shoe, a decision, a wheel result)
  and either changes the state or raises a ``RuleError`` naming the rule *without changing
  anything* (validate first, mutate after);
* ``expects()`` says what the engine needs next; the dealer prompt is a rendering of it;
* ``settlements`` lists every bet settled so far (some settle early: surrender, even money,
  a Catch a Wave six-call win), ``outcome()`` the game-specific round outcome.

Boxes are numbered 1..N as the dealer sees them, hands 1.. within a box; box-level bets
(side bets, insurance, ante) carry hand 1. Money is integer minor units; a ``Settlement``'s
``stake`` is the player's own money on that bet and ``payout`` all that is returned for it
(0 for a loss, the stake for a push or refund).
"""

from __future__ import annotations

import difflib
import inspect
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from functools import lru_cache, partial
from operator import attrgetter
from typing import Any, ClassVar, Self, TypeVar, cast

from pydantic import BaseModel, ConfigDict, StrictInt, ValidationError, field_validator, model_validator

from controller.money import Rounding, Worded, format_money, limits_said, worded


# --------------------------------------------------------------------------- errors
class RuleError(Exception):
    """Input the rules forbid. ``rule`` is a stable code naming the rule (for alerts).

    ``message`` may be words with money in them (``Worded``): the engine knows no currency, so
    ``message`` has the amounts as minor units and ``text(currency, digits)`` as money."""

    def __init__(self, rule: str, message: str | Worded) -> None:
        self.said: Worded | None = None if isinstance(message, str) else message
        self.message = message if isinstance(message, str) else message(str)
        super().__init__(f"[{rule}] {self.message}")
        self.rule = rule

    def text(self, currency: str, digits: int = 2) -> str:
        return worded(self.message, self.said, currency, digits)


class BetRefused(RuleError):
    """A bet of the wrong kind, size or time (limits, betting closed, unknown box)."""


class IllegalDecision(RuleError):
    """A decision that is not legal now: out of turn, wrong box, or not allowed by the rules."""


class UnexpectedCard(RuleError):
    """A card nobody should have drawn (dealer drawing on 17, a card while bets are open)."""


class PhaseError(RuleError):
    """An input that has no meaning in the round's current phase."""


def is_minor_units(amount: object) -> bool:
    """``amount`` is a whole number of minor units: an ``int``, not a bool, float, Fraction or
    Decimal (each compares equal to an int and would slip past a range check)."""
    return type(amount) is int


def check_minor_units(amount: object, rule: str, what: str) -> None:
    """Refuse money that is not a positive whole number of minor units with ``BetRefused(rule)``."""
    if type(amount) is not int:
        raise BetRefused(rule, f"{what} is a whole number of minor units, not {amount!r}")
    if amount <= 0:
        raise BetRefused(rule, f"{what} must be positive, not {amount}")


# --------------------------------------------------------------------------- actions
@dataclass(frozen=True, slots=True)
class PlaceBet:
    box: int
    kind: str
    amount: int
    player: str = ""


@dataclass(frozen=True, slots=True)
class ClearBets:
    box: int
    player: str | None = None


@dataclass(frozen=True, slots=True)
class CloseBetting:
    pass


@dataclass(frozen=True, slots=True)
class Deal:
    """The next card out of the shoe; the engine knows where it must go."""

    card: str


@dataclass(frozen=True, slots=True)
class Decide:
    box: int
    action: str
    hand: int = 1
    player: str = ""
    amount: int | None = None


@dataclass(frozen=True, slots=True)
class WheelResult:
    numbers: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class VoidRound:
    reason: str


Action = PlaceBet | ClearBets | CloseBetting | Deal | Decide | WheelResult | VoidRound


# actions are frozen values: the table takes one per distinct bet and decision (it places and
# decides the same few round after round) rather than building one each time; ``typed`` keeps
# apart arguments Python holds equal (``1`` and ``True``)
@lru_cache(maxsize=4096, typed=True)
def place_bet(box: int, kind: str, amount: int, player: str = "") -> PlaceBet:
    return PlaceBet(box, kind, amount, player)


@lru_cache(maxsize=4096, typed=True)
def decide(box: int, action: str, hand: int = 1, player: str = "", amount: int | None = None) -> Decide:
    return Decide(box, action, hand, player, amount)


class EngineRound:
    """Base of every game round: ``apply`` routes an action to the round's method of the same
    meaning, passing the action's fields by name, so the table, journal replay and analysis all
    enter an engine the same way. A game adds its own actions by extending ``ACTIONS``."""

    RULE_PREFIX: ClassVar[str] = "game"
    ACTIONS: ClassVar[dict[type, str]] = {
        PlaceBet: "place_bet",
        ClearBets: "clear_bets",
        CloseBetting: "close_betting",
        Deal: "deal",
        Decide: "decide",
        WheelResult: "wheel_result",
        VoidRound: "void_round",
    }

    def outcome_record(self) -> dict[str, Any]:
        """The outcome as the round record's ``outcome`` JSON: ``outcome().record()`` (a game
        may make it without building the model and dumping it, the same JSON checked alike)."""
        record: dict[str, Any] = cast(Any, self).outcome().record()
        return record

    def apply(self, action: Any) -> None:
        key = (type(self), type(action))
        call = _CALLS.get(key)
        if call is None:
            call = _CALLS[key] = _caller(*key)
        call(self, action)


Caller = Callable[[Any, Any], None]
#: (round class, action class) -> how ``apply`` calls the round's method with the action's fields,
#: worked out once per pair (every card, bet and decision of a table goes through ``apply``)
_CALLS: dict[tuple[type, type], Caller] = {}


def _caller(round_cls: type[EngineRound], action_cls: type) -> Caller:
    """The method of ``round_cls`` named for ``action_cls`` in its ``ACTIONS``, called with the
    action's fields by name; positionally (an ``attrgetter``, no dict built) where it is a plain
    method whose first parameters are exactly those fields, which is what calling them by name does."""
    name = round_cls.ACTIONS.get(action_cls)
    fields: tuple[str, ...] = tuple(getattr(action_cls, "__slots__", ()))
    method = inspect.getattr_static(round_cls, name, None) if name else None
    if not inspect.isfunction(method):  # none, or not a plain method: looked up on the round each time
        return partial(_by_name, name, fields)
    params = list(inspect.signature(method).parameters.values())[1:1 + len(fields)]
    if {p.name for p in params} != set(fields) or any(p.kind is not p.POSITIONAL_OR_KEYWORD for p in params):
        return partial(_by_name, name, fields)
    if not fields:
        return lambda engine, action: method(engine)
    if len(fields) == 1:
        one = attrgetter(fields[0])
        return lambda engine, action: method(engine, one(action))
    every = attrgetter(*(p.name for p in params))
    return lambda engine, action: method(engine, *every(action))


def _by_name(name: str | None, fields: tuple[str, ...], engine: EngineRound, action: Any) -> None:
    """The round's method ``name`` called with the action's ``fields`` by name (PhaseError: none)."""
    method = getattr(engine, name, None) if name else None
    if method is None:
        raise PhaseError(f"{engine.RULE_PREFIX}.action", f"{type(engine).__name__} takes no {type(action).__name__}")
    method(**{f: getattr(action, f) for f in fields})


# --------------------------------------------------------------------------- outputs
class ExpectKind(str, Enum):
    BETS = "bets"  # betting open
    CARD = "card"  # next card to a box/hand
    DEALER_CARD = "dealer_card"  # next card to the dealer (forced draw, or part of the deal)
    DECISION = "decision"  # a box/hand (or listed players) must choose among ``options``
    RESULT = "result"  # a wheel result
    DONE = "done"  # round settled or void


@dataclass(frozen=True, slots=True)
class Expect:
    kind: ExpectKind
    box: int | None = None
    hand: int | None = None
    options: tuple[str, ...] = ()
    players: tuple[str, ...] = ()
    face_down: bool = False
    note: str = ""


@dataclass(frozen=True, slots=True)
class Settlement:
    box: int
    hand: int
    kind: str
    player: str
    stake: int
    payout: int


@dataclass(frozen=True, slots=True)
class VoidResult:
    """What a void did to a round's money (docs/rules.md: a void returns only what still rides).

    ``stands``: every row settled before the void, kept exactly as it was settled (a bust's
    loss, a surrender's half, a blackjack or even money paid at once, a side bet settled on
    the deal, a Catch a Wave call, an exchange fee); ``returned``: every bet that still rode,
    refunded (payout = stake). ``settlements`` is the round's rows in order: stands, then returned.
    """

    reason: str
    stands: tuple[Settlement, ...]
    returned: tuple[Settlement, ...]

    @property
    def settlements(self) -> list[Settlement]:
        return [*self.stands, *self.returned]

    @property
    def returned_total(self) -> int:
        """Money handed back by the void."""
        return sum(s.payout for s in self.returned)

    @property
    def stands_stake(self) -> int:
        return sum(s.stake for s in self.stands)

    @property
    def stands_payout(self) -> int:
        """What the rows that stand paid (0 for a lost bet, the kept half of a surrender, ...)."""
        return sum(s.payout for s in self.stands)

    def text(self, currency: str, digits: int = 2) -> str:
        """One line for the dealer and the pit: what is returned and what stands, in money."""
        def money(minor: int) -> str:
            return format_money(minor, currency, digits)

        def bets(n: int) -> str:
            return f"{n} bet{'' if n == 1 else 's'}"

        returned = f"returned {bets(len(self.returned))} ({money(self.returned_total)})"
        if not self.stands:
            return f"{returned}; nothing settled before stands"
        return (f"{returned}; {bets(len(self.stands))} settled before stand "
                f"(staked {money(self.stands_stake)}, paid {money(self.stands_payout)})")

    def view(self) -> dict[str, Any]:
        """JSON-able, for the dealer's console and the pit: the rows and totals of each side."""

        def rows(settlements: tuple[Settlement, ...]) -> list[dict[str, Any]]:
            return [{"box": s.box, "hand": s.hand, "kind": s.kind, "player": s.player, "stake": s.stake,
                     "payout": s.payout} for s in settlements]

        return {
            "reason": self.reason,
            "returned": rows(self.returned),
            "returned_total": self.returned_total,
            "stands": rows(self.stands),
            "stands_stake": self.stands_stake,
            "stands_payout": self.stands_payout,
        }


def void_result(reason: str, settled_before: int, settlements: list[Settlement]) -> VoidResult:
    """The result of a void that appended its refunds to ``settlements`` after the first
    ``settled_before`` rows (the ones that stand)."""
    return VoidResult(reason, tuple(settlements[:settled_before]), tuple(settlements[settled_before:]))


# --------------------------------------------------------------------------- rules
class Limit(BaseModel):
    """A bet kind's table limits in minor units: strict integers, so ``"5.00"``, ``5.5``, ``True``
    or a Decimal is refused instead of read as some other amount."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    min: StrictInt
    max: StrictInt

    @field_validator("min", "max", mode="before")
    @classmethod
    def _minor_units(cls, value: Any) -> Any:
        if type(value) is not int:
            raise ValueError(f"a limit is a whole number of minor units (500 for 5.00), not {value!r}")
        return value

    @model_validator(mode="after")
    def _ordered(self) -> Self:
        if not 0 < self.min <= self.max:
            raise ValueError(f"limit needs 0 < min <= max, got min={self.min} max={self.max}")
        return self


#: chip denominations, in units of the smallest table minimum
CHIP_STEPS = (1, 5, 10, 25, 100, 500)


def chip_tray(limits: Mapping[str, Limit]) -> list[int]:
    """The chips a page offers at a table (minor units): steps of its smallest minimum, none over
    its largest maximum (a table without limits: from 1.00)."""
    base = max(min((lim.min for lim in limits.values()), default=100), 1)
    top = max((lim.max for lim in limits.values()), default=None)
    return [base * step for step in CHIP_STEPS if top is None or base * step <= top]


class GameRules(BaseModel):
    """Base of every game's rule set: data, loaded from presets + config, validated by key."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    #: limit keys a table may set besides those of the default ``limits`` (``check_names``)
    LIMIT_KINDS: ClassVar[frozenset[str]] = frozenset()
    #: paytable field -> its line names, where they are not simply its default's keys
    PAYTABLE_LINES: ClassVar[dict[str, frozenset[str]]] = {}
    rounding: Rounding = Rounding.DOWN
    limits: dict[str, Limit] = {}

    def check_limit(self, kind: str, amount: int, rule_prefix: str) -> None:
        """Refuse a bet outside the table's limit for its kind (no limit given: any >0), and
        money that is not a whole number of minor units."""
        check_minor_units(amount, f"{rule_prefix}.amount", f"a {kind} bet")
        lim = self.limits.get(kind)
        if lim is not None and not lim.min <= amount <= lim.max:
            raise BetRefused(f"{rule_prefix}.limits", limits_said(kind, amount, lim.min, lim.max))


R = TypeVar("R", bound=GameRules)


class RulesConfigError(ValueError):
    """A preset name or setting that does not exist or does not validate; names the key."""


def build_rules(
    model: type[R], presets: Mapping[str, Mapping[str, Any]], preset: str | None, overrides: Mapping[str, Any]
) -> R:
    """Preset values overlaid with config/``--set`` overrides, validated as one rule set."""
    if preset is None:
        base: Mapping[str, Any] = {}
    elif preset in presets:
        base = presets[preset]
    else:
        raise RulesConfigError(f"unknown preset {preset!r}; known: {', '.join(sorted(presets))}")
    unknown = set(overrides) - set(model.model_fields)
    if unknown:
        raise RulesConfigError(
            f"unknown setting(s) {', '.join(sorted(unknown))}{did_you_mean(unknown, model.model_fields)}; "
            f"known: {', '.join(sorted(model.model_fields))}"
        )
    check_names(model, overrides)
    try:
        return model.model_validate({**base, **overrides})
    except ValidationError as exc:
        msgs = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise RulesConfigError(msgs) from exc


def did_you_mean(unknown: Collection[str], known: Collection[str]) -> str:
    """`` (did you mean main?)`` for the first unknown name close to a known one, else ``""``."""
    for name in sorted(unknown):
        close = difflib.get_close_matches(str(name), [str(k) for k in known], n=1)
        if close:
            return f" (did you mean {close[0]!r} for {name!r}?)"
    return ""


def check_names(model: type[GameRules], overrides: Mapping[str, Any]) -> None:
    """Limit keys and paytable line names the game knows, so a misspelt one fails at start
    instead of leaving that limit at its default or paying that line at 0.

    A game's limit kinds are the keys of its default ``limits`` plus its ``LIMIT_KINDS``; a
    paytable's lines (a ``dict`` field of ratios) are its ``PAYTABLE_LINES`` entry, else the keys of
    its default. A paytable field with a validator of its own is left to that validator."""
    limits = overrides.get("limits")
    if isinstance(limits, Mapping):
        known = set(model.model_fields["limits"].default or {}) | set(model.LIMIT_KINDS)
        _refuse_unknown("limits", set(limits) - known, known)
    own = {f for d in model.__pydantic_decorators__.field_validators.values() for f in d.info.fields}
    for name, value in overrides.items():
        if name == "limits" or name in own or not isinstance(value, Mapping):
            continue
        lines = model.PAYTABLE_LINES.get(name)
        if lines is None:
            default = model.model_fields[name].default
            if not isinstance(default, Mapping) or not all(isinstance(v, Fraction) for v in default.values()):
                continue
            lines = frozenset(default)
        _refuse_unknown(name, set(value) - set(lines), lines)


def _refuse_unknown(section: str, unknown: set[Any], known: Collection[str]) -> None:
    if unknown:
        raise RulesConfigError(
            f"{section}: unknown {', '.join(repr(u) for u in sorted(map(str, unknown)))}"
            f"{did_you_mean(unknown, known)}; known: {', '.join(sorted(known))}"
        )


@dataclass(slots=True)
class RoundLedger:
    """Running money of a round: player stakes in, payouts out (for conservation checks)."""

    settlements: list[Settlement] = field(default_factory=list)

    @property
    def stake_total(self) -> int:
        return sum(s.stake for s in self.settlements)

    @property
    def payout_total(self) -> int:
        return sum(s.payout for s in self.settlements)
