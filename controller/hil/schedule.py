"""The soak's fault kinds and its seeded schedule: which fault, at which point of the run.

A point is measured in closed rounds (``3.4``: once 3 rounds are closed, a random moment into
the fourth), so the same seed injects the same faults at the same places of the game whatever
the machine's speed. Every selected kind gets ``rate`` faults per round (at least one), spread
uniformly over the run after the first round (a table that never got going is not a soak; its
start-up is still hit by the kills and restarts that land there) (docs/hil.md).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

#: faults of any table
COMMON = ("controller_sigkill", "mosquitto_restart", "mqtt_hostile", "press_out_of_turn", "disk_full")
#: faults of a table dealt from the shoe
SHOE = ("shoe_line_noise", "usb_unplug", "shoe_power_loss")
#: faults of a wheel table
WHEEL = ("wheel_launch_failure", "wheel_miss_spin", "wheel_ball_not_sensed", "wheel_power_down")
ALL = COMMON + SHOE + WHEEL
#: the part of the rig each kind acts on: faults on one part come one at a time, in order (a
#: restart never meets a full disk, a hostile burst never a stopped broker); faults on different
#: parts may overlap, as they do in a studio
LANES = {"controller_sigkill": "table", "disk_full": "table",
         "mosquitto_restart": "broker", "mqtt_hostile": "broker", "press_out_of_turn": "broker",
         **dict.fromkeys(SHOE + WHEEL, "device")}


def kinds_for(selection: str, uses_shoe: bool) -> tuple[str, ...]:
    """``all`` or ``KIND,...`` -> the kinds this game can have; ValueError naming a bad kind."""
    possible = COMMON + (SHOE if uses_shoe else WHEEL)
    if selection.strip() == "all":
        return possible
    chosen = tuple(k.strip() for k in selection.split(",") if k.strip())
    unknown = [k for k in chosen if k not in ALL]
    if unknown:
        raise ValueError(f"unknown fault kind(s) {', '.join(unknown)}; known: all, {', '.join(ALL)}")
    wrong = [k for k in chosen if k not in possible]
    if wrong:
        raise ValueError(f"{', '.join(wrong)} cannot happen at a {'shoe' if uses_shoe else 'wheel'} table")
    return chosen


@dataclass(frozen=True, order=True)
class Planned:
    at: float  # closed rounds
    kind: str


def plan(kinds: tuple[str, ...], rounds: int, rate: float, rng: random.Random) -> list[Planned]:
    """``rate`` faults per round of each kind (at least one of each), in run order, from the end
    of the first round; the last round is left alone so the run ends on a played round."""
    out: list[Planned] = []
    first, span = (1.0, rounds - 1.0) if rounds > 2 else (0.2, max(rounds - 0.8, 0.4))
    for kind in kinds:
        count = max(1, round(rate * rounds))
        out += [Planned(rng.uniform(first, span), kind) for _ in range(count)]
    return sorted(out)


def lanes(schedule: list[Planned]) -> dict[str, list[Planned]]:
    """The schedule split by the part of the rig each fault acts on, each lane in run order."""
    out: dict[str, list[Planned]] = {}
    for planned in schedule:
        out.setdefault(LANES[planned.kind], []).append(planned)
    return out
