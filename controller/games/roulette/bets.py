"""Bet kinds in wire form, parsed and validated against the table's layout.

Wire forms: inside bets name the numbers they cover (``straight:17``, ``split:17-20``,
``street:13-14-15``, ``street:0-2-3``, ``corner:17-18-20-21``, ``six_line:13-14-15-16-17-18``),
``first_four``, ``five``, ``column:1..3``, ``dozen:1..3``, ``red black odd even low high``;
double ball adds ``both_any`` and ``both_on:<number>``; the race track adds
``neighbours:<number>:<n>``, ``voisins``, ``tiers``, ``orphelins``, ``jeu_zero``.
Numbers may be given in any order; the canonical kind lists them in layout order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final

from controller.games.base import BetRefused
from controller.games.roulette.layout import OUTSIDE, Wheel, WheelKind, sort_key, wheel
from controller.games.roulette.racetrack import called_chips, is_called
from controller.games.roulette.rules import RouletteRules

INSIDE: Final = ("straight", "split", "street", "corner", "six_line", "first_four", "five")
EVEN_MONEY: Final = ("red", "black", "odd", "even", "low", "high")
OUTSIDE_TYPES: Final = ("column", "dozen", *EVEN_MONEY)
EXTRA: Final = ("both_any", "both_on")
_SINGLE: Final = frozenset(INSIDE + OUTSIDE_TYPES + EXTRA)
_SIZES: Final = {"straight": 1, "split": 2, "street": 3, "corner": 4, "six_line": 6}
_FIXED: Final = {"first_four": "0-1-2-3", "five": "0-00-1-2-3"}


@dataclass(frozen=True, slots=True)
class Chip:
    """One spot on the layout: its bet type (the paytable and limit key) and the numbers it holds."""

    type: str
    numbers: frozenset[str]
    kind: str
    paytable_key: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "paytable_key", "even_money" if self.type in EVEN_MONEY else self.type)


@dataclass(frozen=True, slots=True)
class BetSpec:
    """A parsed bet: one chip, or a called bet's chips as (chip, units of its unit chip)."""

    kind: str
    name: str
    chips: tuple[tuple[Chip, int], ...]
    units: int  # unit chips in all: the bet's amount must be a multiple of it

    @property
    def called(self) -> bool:
        return self.name not in _SINGLE


def parse_bet(kind: str, rules: RouletteRules) -> BetSpec:
    """The bet ``kind`` names at this table, or ``BetRefused`` naming why it is not one."""
    if not isinstance(kind, str):
        raise BetRefused("roulette.kind", f"a bet kind is text, not {kind!r}")
    return _parse(kind.strip().lower(), rules.wheel, rules.balls, rules.first_four, rules.racetrack)


@lru_cache(maxsize=4096)
def _parse(kind: str, kind_of_wheel: WheelKind, balls: int, first_four: bool, racetrack: bool) -> BetSpec:
    w = wheel(kind_of_wheel)
    if is_called(kind):
        if not racetrack:
            raise BetRefused("roulette.offered", f"no race track at this table: {kind!r}")
        canonical, components = called_chips(kind, w)
        chips = tuple((_chip(c, w, balls, first_four), units) for c, units in components)
        return BetSpec(canonical, canonical.split(":")[0], chips, sum(u for _, u in components))
    chip = _chip(kind, w, balls, first_four)
    return BetSpec(chip.kind, chip.type, ((chip, 1),), 1)


def _chip(kind: str, w: Wheel, balls: int, first_four: bool) -> Chip:
    head, _, tail = kind.partition(":")
    if kind in OUTSIDE:
        return Chip(head, OUTSIDE[kind], kind)
    if head in _FIXED and not tail:
        if head not in w.shapes or (head == "first_four" and not first_four):
            raise BetRefused("roulette.offered", f"{head} is not offered at this table")
        return Chip(head, frozenset(_FIXED[head].split("-")), head)
    if head in ("both_any", "both_on"):
        chip = _double_ball_chip(kind, head, tail, w, balls)
        if chip is not None:
            return chip
    if head in _SIZES and tail:
        return _inside_chip(head, tail, w)
    raise BetRefused("roulette.kind", f"not a roulette bet: {kind!r}")


def _double_ball_chip(kind: str, head: str, tail: str, w: Wheel, balls: int) -> Chip | None:
    """Double Ball's own bets: both balls anywhere (``both_any``) or both on one number (``both_on:17``)."""
    if balls != 2:
        raise BetRefused("roulette.offered", f"{head} is a double-ball bet")
    if head == "both_any" and not tail:
        return Chip(head, w.pockets, head)
    if head == "both_on" and tail in w.pockets:
        return Chip(head, frozenset({tail}), kind)
    return None


def _inside_chip(head: str, tail: str, w: Wheel) -> Chip:
    """An inside bet (``split:17-20``): its numbers are pockets of this wheel and a shape of its layout."""
    numbers = tail.split("-")
    unknown = [p for p in numbers if p not in w.pockets]
    if unknown:
        raise BetRefused("roulette.pocket", f"{', '.join(unknown)} is not a pocket of the {w.kind.value} wheel")
    covered = frozenset(numbers)
    if len(covered) != len(numbers) or len(covered) != _SIZES[head]:
        raise BetRefused("roulette.shape", f"a {head} covers {_SIZES[head]} different numbers, not {tail!r}")
    if head != "straight" and covered not in w.shapes[head]:
        raise BetRefused("roulette.shape", f"{tail} is not a {head} on the {w.kind.value} layout")
    return Chip(head, covered, f"{head}:{'-'.join(sorted(covered, key=sort_key))}")
