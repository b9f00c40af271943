"""The advantage-play watch: does a player's initial bet follow the shoe's true count, and does the
player sit in at high counts and out at low ones (wonging)?

Two tests per player, each a one-sided Fisher z test of a correlation, run after every round on
running sums: the log of the player's initial bet against the true count at the bet
(``bet_ramp``), and whether the player played against the true count, over the rounds the player
was at the table (``wonging``). A flat bettor's bet never varies, so the first test cannot flag
one. A player is flagged once either test's p-value, over at least ``min_rounds`` samples, is
below ``alpha`` / 2 (Bonferroni over the two tests; ``alpha`` is per look, and the watch looks
after every round: docs/protection.md gives the measured false-alarm rate per gaming day).

The money the count was worth to the player is estimated with the usual Hi-Lo rule of thumb,
0.5 % of the stake per true-count unit, summed over the player's bets: a flat bettor's sum is
near zero whatever the count did, a counter's is what the ramp bought.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final

from controller.protection.hilo import ShoeCount
from controller.protection.index_plays import IndexPlays, IndexTally
from controller.protection.stats import Correlation, RunningCorrelation

#: per-look significance level of a flag (before the two-test correction)
ALPHA: Final = 1e-5
MIN_ROUNDS: Final = 50
#: the player's edge per true-count unit (Hi-Lo, six decks): 0.5 % of the stake
EDGE_PER_TRUE_COUNT: Final = 0.005
#: rounds per hour assumed when the player's time at the table is too short to measure
NOMINAL_ROUNDS_PER_HOUR: Final = 60
MEASURED_AFTER_S: Final = 900
#: rounds sat out after which a player has left the table (they no longer count as sitting out)
LEFT_AFTER_ROUNDS: Final = 60
#: the chart of bets against the count runs from -COUNT_STEPS to +COUNT_STEPS (beyond: the ends)
COUNT_STEPS: Final = 10


@dataclass(frozen=True, slots=True)
class PlayerFlag:
    """A player's evidence: the test that speaks loudest, its statistic (Pearson's r), p-value and
    95 % interval, the rounds played, and what the count was worth to the player per hour."""

    player: str
    box: int
    rounds: int
    flagged: bool
    flagged_after: int | None
    test: str
    statistic: float
    p_value: float
    ci_low: float
    ci_high: float
    average_bet: int
    edge_per_hour: int
    index_plays: IndexTally = field(default_factory=IndexTally)
    #: (true count rounded to a whole step, the player's average main bet at it): the chart of
    #: bets against the count, summed over the rounds played (never the count of a shoe in play)
    bets_by_count: tuple[tuple[int, int], ...] = ()

    def as_json(self) -> dict[str, Any]:
        statistic = 0.0 if math.isnan(self.statistic) else round(self.statistic, 4)
        return {"box": self.box, "rounds": self.rounds, "flagged": self.flagged, "flagged_after": self.flagged_after,
                "test": self.test, "statistic": statistic, "p_value": self.p_value,
                "ci": [round(self.ci_low, 4), round(self.ci_high, 4)], "average_bet": self.average_bet,
                "edge_per_hour": self.edge_per_hour, "index_plays": self.index_plays.as_json(),
                "bets_by_count": [list(point) for point in self.bets_by_count]}


@dataclass
class _Player:
    box: int
    bets: RunningCorrelation = field(default_factory=RunningCorrelation)
    presence: RunningCorrelation = field(default_factory=RunningCorrelation)
    sat_out: list[float] = field(default_factory=list)  # true counts of rounds sat out since the last played
    rounds: int = 0
    staked: int = 0
    gain: float = 0.0
    first: datetime | None = None
    last: datetime | None = None
    flagged_after: int | None = None
    #: true count step -> (rounds, staked) of the rounds played at it
    by_count: dict[int, tuple[int, int]] = field(default_factory=dict)

    def played(self, true_count: float, stake: int, at: datetime | None) -> None:
        """A round played at ``true_count`` for ``stake``: the rounds sat out since were at
        the table too (they count, as rounds not played)."""
        for sat_out_count in self.sat_out:
            self.presence.add(sat_out_count, 0.0)
        self.sat_out.clear()
        self.presence.add(true_count, 1.0)
        self.bets.add(true_count, math.log(stake))
        self.rounds += 1
        self.staked += stake
        step = max(-COUNT_STEPS, min(COUNT_STEPS, round(true_count)))
        rounds_at, staked_at = self.by_count.get(step, (0, 0))
        self.by_count[step] = (rounds_at + 1, staked_at + stake)
        self.gain += stake * EDGE_PER_TRUE_COUNT * true_count
        self.first = self.first or at
        self.last = at or self.last

    def sat_out_one(self, true_count: float) -> None:
        """A round sat out; after ``LEFT_AFTER_ROUNDS`` of them the player has left the table, and
        a later return starts a new stay."""
        self.sat_out.append(true_count)
        if len(self.sat_out) > LEFT_AFTER_ROUNDS:
            self.sat_out.clear()

    def points(self) -> tuple[tuple[int, int], ...]:
        """Bets against the count, a point per true-count step: (step, average bet there)."""
        return tuple((step, staked // rounds) for step, (rounds, staked) in sorted(self.by_count.items()))


class AdvantageWatch:
    """Fed a blackjack table's journal entries in order (``apply``); ``flags()`` reports every player."""

    def __init__(self, decks: int = 6, *, alpha: float = ALPHA, min_rounds: int = MIN_ROUNDS) -> None:
        self.count = ShoeCount(decks)
        self.alpha = alpha
        self.min_rounds = min_rounds
        self.players: dict[str, _Player] = {}
        self._stakes: dict[tuple[str, int], int] = {}  # (player, box) -> main stake of the open round
        self._round_count: float | None = None
        self.index_plays = IndexPlays()

    def apply(self, kind: str, payload: dict[str, Any], ts: str | None = None) -> list[str]:
        """Take one journal entry; returns the players this entry got flagged."""
        self.count.apply(kind, payload)
        if kind == "round_closed":
            self.index_plays.round_closed(payload)
        command = payload.get("command") if kind == "command" else None
        take = _COMMANDS.get(command) if isinstance(command, str) else None
        return take(self, payload, ts) if take is not None else []

    def _open_round(self, payload: dict[str, Any], ts: str | None) -> list[str]:
        self._stakes.clear()
        self._round_count = self.count.true_count
        return []

    def _bet(self, payload: dict[str, Any], ts: str | None) -> list[str]:
        """A main bet adds to the player's stake on that box (side bets say nothing of the count)."""
        player, box, amount = payload.get("player"), payload.get("box"), payload.get("amount")
        if payload.get("kind", "main") != "main":
            return []
        if isinstance(player, str) and player and isinstance(box, int) and isinstance(amount, int) and amount > 0:
            self._stakes[(player, box)] = self._stakes.get((player, box), 0) + amount
        return []

    def _clear_bets(self, payload: dict[str, Any], ts: str | None) -> list[str]:
        if isinstance(payload.get("box"), int):
            for key in [k for k in self._stakes if k[1] == payload["box"]]:
                del self._stakes[key]
        return []

    def _decision(self, payload: dict[str, Any], ts: str | None) -> list[str]:
        player, box, action = payload.get("player"), payload.get("box"), payload.get("action")
        hand = payload.get("hand", 1)
        if isinstance(player, str) and isinstance(box, int) and isinstance(hand, int) and isinstance(action, str):
            self.index_plays.decision(player, box, hand, action, self.count.true_count)
        return []

    def _close_betting(self, payload: dict[str, Any], ts: str | None) -> list[str]:
        """The round's stakes are final: each player's evidence takes them (and the players
        who sat this round out), at the true count the round opened at."""
        true_count, at = self._round_count, _time(ts)
        if true_count is None:
            return []
        stakes: dict[str, int] = {}
        boxes: dict[str, int] = {}
        for (player, box), amount in self._stakes.items():
            stakes[player] = stakes.get(player, 0) + amount
            boxes.setdefault(player, box)
        flagged: list[str] = []
        for player, stake in stakes.items():
            seen = self.players.setdefault(player, _Player(boxes[player]))
            seen.played(true_count, stake, at)
            if seen.flagged_after is None and self._evidence(seen)[0]:
                seen.flagged_after = seen.rounds
                flagged.append(player)
        for player, seen in self.players.items():
            if player not in stakes:
                seen.sat_out_one(true_count)
        self._round_count = None
        return flagged

    def _evidence(self, seen: _Player) -> tuple[bool, str, Correlation]:
        bets, presence = seen.bets.result(), seen.presence.result()
        test, best = ("bet_ramp", bets) if bets.p_value <= presence.p_value else ("wonging", presence)
        return best.n >= self.min_rounds and best.p_value < self.alpha / 2, test, best

    def new_day(self) -> dict[str, PlayerFlag]:
        """End a gaming day: its flags, and every player's evidence starts again (the count goes on)."""
        flags = self.flags()
        self.players.clear()
        self.index_plays.tallies.clear()
        return flags

    def flags(self) -> dict[str, PlayerFlag]:
        report: dict[str, PlayerFlag] = {}
        for player, seen in self.players.items():
            _, test, best = self._evidence(seen)
            report[player] = PlayerFlag(
                player, seen.box, seen.rounds, seen.flagged_after is not None, seen.flagged_after, test, best.r,
                best.p_value, best.low, best.high, seen.staked // max(1, seen.rounds),
                round(seen.gain / max(1, seen.rounds) * _rounds_per_hour(seen)),
                self.index_plays.tallies.get(player, IndexTally()), seen.points())
        return report


Take = Callable[[AdvantageWatch, dict[str, Any], str | None], list[str]]
#: the commands the watch takes: command name -> how (the players it got flagged)
_COMMANDS: Final[dict[str, Take]] = {
    "open_round": AdvantageWatch._open_round,
    "bet": AdvantageWatch._bet,
    "clear_bets": AdvantageWatch._clear_bets,
    "decide": AdvantageWatch._decision,
    "close_betting": AdvantageWatch._close_betting,
}


def _rounds_per_hour(seen: _Player) -> float:
    if seen.first is not None and seen.last is not None:
        span = (seen.last - seen.first).total_seconds()
        if span >= MEASURED_AFTER_S:
            return seen.rounds / (span / 3600)
    return NOMINAL_ROUNDS_PER_HOUR


def _time(ts: str | None) -> datetime | None:
    if not ts:
        return None
    try:
        return datetime.fromisoformat(ts.replace("Z", "+00:00"))
    except ValueError:
        return None
