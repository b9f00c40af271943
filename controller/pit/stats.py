"""Pit statistics from closed round records (docs/pit.md): per table and per dealer shift.

Pure functions over the ``round`` records of the pit feed. Definitions, as a pit boss reads
them: **drop** is the stakes of settled rounds and of the bets that stood in a void round (what
a void returned counts in neither drop nor win: controller/round_money.py); **win** is drop less
what was paid back; **hold** is win / drop.
Rounds per hour count settled and void rounds over the time from the first round's opening to
the last round's close.

Roulette adds the floor's chi-square test of the winning numbers against a fair wheel
(``controller/floor/wheel_bias.py``, the one the back office and protection use too).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from controller.floor.wheel_bias import BIAS_ALPHA, MIN_EXPECTED, POCKETS, chi_square_critical, wheel_bias
from controller.floor.wheel_bias import chi_square_upper_tail as chi_square_p
from controller.round_money import amount, counted

__all__ = ["BIAS_ALPHA", "MIN_EXPECTED", "POCKETS", "chi_square_critical", "chi_square_p", "expected_hold", "parse_ts",
           "shifts", "summary", "wheel_bias"]

#: rounds a rate per hour needs: one round over its own seconds is no pace (an empty void round
#: of 12 s would read 300 rounds an hour)
PACE_MIN_ROUNDS = 2
SHIFT_GAP_S = 30 * 60.0  # a break longer than this ends a dealer's shift


def parse_ts(value: object) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        return None



def summary(records: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Rounds, drop, win, hold and rounds per hour of these records."""
    rounds = settled = void = drop = paid = 0
    first: datetime | None = None
    last: datetime | None = None
    for record in records:
        rounds += 1
        if record.get("status") == "settled":
            settled += 1
        else:
            void += 1
        stake, payout = counted(record)
        drop += stake
        paid += payout
        opened, closed = parse_ts(record.get("opened")), parse_ts(record.get("closed"))
        if opened is not None and (first is None or opened < first):
            first = opened
        if closed is not None and (last is None or closed > last):
            last = closed
    span = (last - first).total_seconds() if first is not None and last is not None else 0.0
    win = drop - paid
    return {
        "rounds": rounds,
        "settled": settled,
        "void": void,
        "drop": drop,
        "win": win,
        "hold": win / drop if drop else None,
        "rounds_per_hour": rounds * 3600.0 / span if span > 0 and rounds >= PACE_MIN_ROUNDS else None,
        "first": first.isoformat() if first else None,
        "last": last.isoformat() if last else None,
    }


def shifts(records: Iterable[Mapping[str, Any]], gap_s: float = SHIFT_GAP_S) -> list[dict[str, Any]]:
    """The records split into dealer shifts: consecutive rounds by the same dealer with no
    break longer than ``gap_s``; each shift with its ``summary``. Rounds without a dealer
    (nobody signed in at the console) form shifts of dealer ``None``."""
    out: list[dict[str, Any]] = []
    current: list[Mapping[str, Any]] = []
    dealer: object = object()
    last_close: datetime | None = None
    for record in records:
        opened = parse_ts(record.get("opened"))
        broke = (last_close is not None and opened is not None and (opened - last_close).total_seconds() > gap_s)
        if current and (record.get("dealer") != dealer or broke):
            out.append({"dealer": dealer, **summary(current)})
            current = []
        dealer = record.get("dealer")
        current.append(record)
        last_close = parse_ts(record.get("closed")) or last_close
    if current:
        out.append({"dealer": dealer, **summary(current)})
    return out


def expected_hold(records: Iterable[Mapping[str, Any]], edges: Mapping[str, float]) -> float | None:
    """The hold the rule set predicts for the bets actually placed: each settled stake times
    the edge of its bet type (``kind`` up to a ``:``), over the stakes whose edge is known."""
    weighted = staked = 0.0
    for record in records:
        if record.get("status") != "settled":
            continue
        bets = record.get("bets")
        for bet in bets if isinstance(bets, list) else []:
            if not isinstance(bet, dict):
                continue
            edge = edges.get(str(bet.get("kind", "")).split(":", 1)[0])
            stake = amount(bet.get("stake"))
            if edge is not None and stake:
                weighted += stake * edge
                staked += stake
    return weighted / staked if staked else None
