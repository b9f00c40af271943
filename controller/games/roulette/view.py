"""Roulette's views of its outcome (``views.GameView``): the winning numbers, the last numbers of
the table (with hot and cold numbers), the spin under way and the layout the console draws.

The layout is the rules' offer, never a list in the page: every cell is a bet kind that
``parse_bet`` takes at this table (so the Five Bet only on 38 pockets, first four only where the
rules allow it, the double-ball bets only with two balls, the race track's sectors only on a
European wheel with a race track), with its accessible name ("17", "split 17-20", "corner
17-21") and where it sits on a 28 x 10 grid of the layout as the dealer faces it: 0 (and 00) at
the left, the numbers in three rows of twelve (3 on top), lines and corners on the borders,
streets and six-lines on the bottom edge, then the dozens and the even-money bets.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from controller.games.base import BetRefused, ExpectKind, chip_tray
from controller.games.outcome import Outcome
from controller.games.roulette.bets import parse_bet
from controller.games.roulette.layout import colour, sort_key, wheel
from controller.games.roulette.outcome import RouletteOutcome
from controller.games.roulette.racetrack import MAX_NEIGHBOURS, SECTORS
from controller.games.roulette.rules import RouletteRules
from controller.journal import Entry, utc_now
from controller.table.games.views import GameView

if TYPE_CHECKING:
    from controller.table.core import TableCore


class SteppedTable(Protocol):
    """What the betting window needs of the running table: its core, and a hook per applied step."""

    core: TableCore
    applied_hooks: list[Callable[[TableCore, Entry], None]]

HISTORY = 20
SECTOR_NAMES = {"voisins": "voisins", "tiers": "tiers", "orphelins": "orphelins", "jeu_zero": "jeu zéro"}
#: wheel void verdicts as the dealer says them
VOID_WORDS = {"miss_spin": "miss-spin", "launch_failed": "launch failed", "ball_not_sensed": "ball not sensed"}


class RouletteView(GameView):

    settle_label = "Confirm result — settle"

    def bet_kinds(self, rules: Any, first: str) -> list[str]:
        """None in a form: bets are keyed on the layout, which offers exactly the table's bets."""
        return []

    def result_keys(self, engine: Any) -> dict[str, Any] | None:
        if not engine.balls:
            return None  # the wheel gives the first ball; the dealer keys the others
        numbers = sorted(wheel(engine.rules.wheel).pockets, key=sort_key)
        return {"label": f"Key in ball {len(engine.balls) + 1}", "numbers": numbers}
    outcome_model: ClassVar[type[Outcome]] = RouletteOutcome

    def history(self, records: Sequence[Mapping[str, Any]], shoe_id: str | None) -> dict[str, Any]:
        """The last numbers, newest first (hot and cold are the result boards', controller/boards)."""
        numbers: list[str] = []
        for r in records:
            spin = self.parse(r["outcome"]) if r["status"] == "settled" else None
            if isinstance(spin, RouletteOutcome):
                numbers += spin.numbers
        return {"last_numbers": numbers[-HISTORY:][::-1]}

    def spin(self, engine: Any) -> dict[str, Any] | None:
        return {"phase": str(getattr(engine.phase, "value", engine.phase)), "balls": [n for n, _ in engine.balls],
                "voids": list(engine.voids), "multipliers": dict(engine.multipliers),
                "layout": layout_offer(engine.rules)}

    def console_extras(self, loop: SteppedTable) -> dict[str, Callable[[], Any]]:
        """The betting window's countdown, kept by a watch of the table's steps."""
        return {"betting": BettingWindow(loop).view}

    def lines(self, outcome: Outcome) -> list[str]:
        assert isinstance(outcome, RouletteOutcome)
        named = [f"{n} {c}" + (f" ({outcome.multipliers[n]}x)" if n in outcome.multipliers else "")
                 for n, c in zip(outcome.numbers, outcome.colours, strict=True)]
        lines = [f"numbers {', '.join(named) or '-'}"]
        if outcome.voids:
            lines.append(f"void spins: {', '.join(VOID_WORDS.get(v, v) for v in outcome.voids)}")
        return lines


def _betting(core: TableCore) -> bool:
    engine = core.engine
    return engine is not None and core.hold is None and engine.expects().kind is ExpectKind.BETS


def _time(ts: str) -> datetime:
    return datetime.fromisoformat(ts.replace("Z", "+00:00"))


def _ts(when: datetime) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%S.") + f"{when.microsecond // 1000:03d}Z"


class BettingWindow:
    """When betting opened and when it will close, in the table's clock (journal ``ts``). A table
    with a betting time (``[table] betting_s``) shows its journaled deadline, the one the studio's
    ``betting`` leaf carries; otherwise the window is measured, as follows.

    The wheel closes betting by itself after a time set on the wheel, which the table is never
    told; so the window is measured: from the step that opened betting (a round opened, a void
    spin reopened it) to the step that closed it (the wheel's no more bets). The next window is
    expected to last as long as the last one; until one has closed, only its start is known."""

    def __init__(self, loop: SteppedTable) -> None:
        self.core = loop.core
        self.opened: str | None = None
        self.last_s: float | None = None
        loop.applied_hooks.append(self.applied)

    def applied(self, core: TableCore, entry: Entry) -> None:
        betting = _betting(core)
        if betting and self.opened is None:
            self.opened = entry.ts
        elif not betting and self.opened is not None:
            if core.engine is not None and core.hold is None:  # closed by the wheel, not voided or held
                self.last_s = max((_time(entry.ts) - _time(self.opened)).total_seconds(), 0.0)
            self.opened = None

    def view(self) -> dict[str, Any] | None:
        """``opened``/``ends`` (``ends`` None until a window was measured) and the table's ``now``,
        so the page counts down in the table's clock whatever its own clock says; None when
        betting is not open."""
        if not _betting(self.core) or self.opened is None:
            return None
        desk = self.core.betting  # the table's own betting time: the deadline the studio is shown too
        if desk.deadline is not None and desk.opened is not None and desk.round_id == self.core.round_id:
            window = (_time(desk.deadline) - _time(desk.opened)).total_seconds()
            return {"opened": desk.opened, "ends": desk.deadline, "window_s": window, "now": utc_now()}
        ends = None if self.last_s is None else _ts(_time(self.opened) + timedelta(seconds=self.last_s))
        return {"opened": self.opened, "ends": ends, "window_s": self.last_s, "now": utc_now()}




def _offered(kind: str, rules: RouletteRules) -> bool:
    try:
        parse_bet(kind, rules)
    except BetRefused:
        return False
    return True


def _spot(n: int) -> tuple[int, int]:
    """The centre of number ``n`` on the grid: (x, y) in half-cells."""
    row, column = divmod(n - 1, 3)
    return 3 + 2 * row, 2 * (3 - (column + 1)) + 1


def _cell(kind: str, name: str, **where: Any) -> dict[str, Any]:
    return {"kind": kind, "name": name, "type": kind.split(":")[0], **where}


def _numbers(kind: str) -> list[str]:
    return kind.split(":")[1].split("-")


def _grid_cells(rules: RouletteRules) -> list[dict[str, Any]]:
    """Numbers and zeros (areas), then every inside bet on a line, edge or corner (points)."""
    american = rules.wheel.value == "american"
    cells = [_cell("straight:0", "0", box=[0, 3, 2, 6] if american else [0, 0, 2, 6], colour="green")]
    if american:
        cells.append(_cell("straight:00", "00", box=[0, 0, 2, 3], colour="green"))
    for n in range(1, 37):
        x, y = _spot(n)
        cells.append(_cell(f"straight:{n}", str(n), box=[x - 1, y - 1, x + 1, y + 1], colour=colour(str(n))))
    points: list[dict[str, Any]] = []
    for n in range(1, 37):
        x, y = _spot(n)
        if n % 3:
            points.append(_cell(f"split:{n}-{n + 1}", f"split {n}-{n + 1}", at=[x, y - 1]))
        if n <= 33:
            points.append(_cell(f"split:{n}-{n + 3}", f"split {n}-{n + 3}", at=[x + 1, y]))
        if n % 3 and n <= 32:
            points.append(_cell(f"corner:{n}-{n + 1}-{n + 3}-{n + 4}", f"corner {n}-{n + 4}", at=[x + 1, y - 1]))
        if n % 3 == 1:
            points.append(_cell(f"street:{n}-{n + 1}-{n + 2}", f"street {n}-{n + 2}", at=[x, 6]))
            if n <= 31:
                points.append(_cell(f"six_line:{'-'.join(str(k) for k in range(n, n + 6))}", f"line {n}-{n + 5}",
                                    at=[x + 1, 6]))
    zero_points: list[tuple[str, float]] = (
        [("split:0-1", 5), ("split:0-2", 3.6), ("split:00-2", 2.4), ("split:00-3", 1), ("street:0-1-2", 4.3),
         ("street:0-00-2", 3), ("street:00-2-3", 1.7)] if american else
        [("split:0-1", 5), ("split:0-2", 3), ("split:0-3", 1), ("street:0-1-2", 4), ("street:0-2-3", 2)])
    for kind, height in zero_points:
        points.append(_cell(kind, f"{kind.split(':')[0]} {'-'.join(_numbers(kind))}", at=[2, height]))
    if american:
        points.append(_cell("split:0-00", "split 0-00", at=[1, 3]))
    points.append(_cell("first_four", "first four 0-1-2-3", at=[2, 6]))
    points.append(_cell("five", "five 0-00-1-2-3", at=[2, 6]))
    return cells + points


def _outside_cells() -> list[dict[str, Any]]:
    cells = [_cell(f"column:{c}", f"column {c}", box=[26, 2 * (3 - c), 28, 2 * (3 - c) + 2]) for c in (1, 2, 3)]
    cells += [_cell(f"dozen:{d}", f"dozen {d}", box=[2 + 8 * (d - 1), 6.4, 2 + 8 * d, 8.2]) for d in (1, 2, 3)]
    even = [("low", "low 1-18"), ("even", "even"), ("red", "red"), ("black", "black"), ("odd", "odd"),
            ("high", "high 19-36")]
    cells += [_cell(k, name, box=[2 + 4 * i, 8.2, 6 + 4 * i, 10], colour=k if k in ("red", "black") else None)
              for i, (k, name) in enumerate(even)]
    return cells


def _strip_cells(rules: RouletteRules) -> list[dict[str, Any]]:
    """The race track (sectors, then each pocket in wheel order for its neighbours) and the
    double-ball bets."""
    w = wheel(rules.wheel)
    cells = [_cell(k, SECTOR_NAMES[k], strip="racetrack") for k in SECTORS]
    cells += [_cell(f"neighbours:{p}", f"neighbours {p}", strip="racetrack", spread=True, colour=colour(p))
              for p in w.order]
    cells.append(_cell("both_any", "both balls on one number", strip="double_ball"))
    cells += [_cell(f"both_on:{p}", f"both on {p}", strip="double_ball", colour=colour(p))
              for p in sorted(w.pockets, key=sort_key)]
    return cells


def _takes(cell: dict[str, Any], rules: RouletteRules) -> bool:
    kind = str(cell["kind"])
    return _offered(f"{kind}:1" if cell.get("spread") else kind, rules)


def _units(cell: dict[str, Any], rules: RouletteRules) -> int:
    return 1 if cell.get("spread") else parse_bet(str(cell["kind"]), rules).units


_last_offer: list[tuple[RouletteRules, dict[str, Any]]] = []


def layout_offer(rules: RouletteRules) -> dict[str, Any]:
    """What the console's layout shows at this table: every cell the rules take, the chips
    (from the table's limits) and how far a neighbours bet may spread (the same rules: the
    same offer, built once)."""
    for known, offer in _last_offer:
        if known is rules:
            return offer
    offer = _layout_offer(rules)
    _last_offer[:] = [*_last_offer[-3:], (rules, offer)]
    return offer


def _layout_offer(rules: RouletteRules) -> dict[str, Any]:
    cells = [c for c in (*_grid_cells(rules), *_outside_cells(), *_strip_cells(rules)) if _takes(c, rules)]
    for c in cells:
        c["units"] = _units(c, rules)
    chips = chip_tray(rules.limits)
    offer: dict[str, Any] = {"wheel": rules.wheel.value, "cells": cells, "chips": chips, "boxes": rules.boxes,
                             "neighbours": {"min": 1, "max": MAX_NEIGHBOURS, "default": 2}, "size": [28, 10]}
    # what the offer holds, so a page that has it is sent it again only when it changes
    offer["id"] = hashlib.sha256(json.dumps(offer, sort_keys=True).encode()).hexdigest()[:16]
    return offer
