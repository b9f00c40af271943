"""Index plays: a player's decisions that leave basic strategy where the Hi-Lo count says to.

A counter does not only ramp the bet: at some true counts the right play changes (insure at +3,
stand 16 against a ten at 0, ...). The situations below are the best-known of these (Hi-Lo
indices, hard totals). For each decision the player took in one of them, the watch asks: did the
player take the deviation, and did the count call for it? A player on basic strategy never
deviates; a careless one deviates whatever the count; a counter deviates with it.

The hand at a decision is read back from the round's record: a hand's first two cards, then one
card for each hit or double before it; the dealer's up card is the dealer's first card. Hands
split from another are skipped (their cards at the time cannot be told from the record alone).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from pydantic import ValidationError

from controller import records
from controller.cards import BJ_POINTS
from controller.games.blackjack.outcome import BlackjackOutcome
from controller.table import registry  # noqa: F401 (the registered games' outcome models, for round records)


@dataclass(frozen=True, slots=True)
class Index:
    """At ``total`` against ``up`` (``T`` any ten), take ``deviation`` when the true count is at
    least ``count`` (``above``), or below it (a negative index: hit where basic strategy stands)."""

    total: int
    up: str
    deviation: str
    count: float
    above: bool = True


INDICES: Final = (
    Index(16, "T", "stand", 0), Index(15, "T", "stand", 4), Index(16, "9", "stand", 5),
    Index(12, "3", "stand", 2), Index(12, "2", "stand", 3), Index(11, "A", "double", 1),
    Index(10, "T", "double", 4), Index(10, "A", "double", 4), Index(9, "2", "double", 1), Index(9, "7", "double", 3),
    Index(13, "2", "hit", -1, above=False), Index(13, "3", "hit", -2, above=False),
    Index(12, "4", "hit", 0, above=False), Index(12, "5", "hit", -2, above=False), Index(12, "6", "hit", -1, above=False),
)
_BY_SITUATION: Final = {(i.total, i.up): i for i in INDICES}
INSURANCE_INDEX: Final = 3.0
_TAKES: Final = {"hit": ("hit",), "stand": ("stand",), "double": ("double",)}


@dataclass
class IndexTally:
    """Decisions in index situations: deviations with the count, deviations against it, and the
    situations where the count called for a deviation the player did not take."""

    situations: int = 0
    with_count: int = 0
    against_count: int = 0
    missed: int = 0

    def as_json(self) -> dict[str, int]:
        return {"situations": self.situations, "with_count": self.with_count, "against_count": self.against_count,
                "missed": self.missed}


def _hard_total(cards: list[str]) -> int | None:
    points = [BJ_POINTS[c[0]] for c in cards]
    total = sum(points)
    if 1 in points and total + 10 <= 21:
        return None  # a soft hand: the indices above are for hard totals
    return total


#: (player, box, hand, action, the true count when it was taken)
Decision = tuple[str, int, int, str, float]
INSURANCE_ACTIONS = frozenset({"insurance", "even_money", "no_insurance", "no_even_money"})


def _hands(outcome: BlackjackOutcome) -> dict[tuple[int, int], list[str]]:
    """Each hand's cards in a blackjack round's outcome, by (box, hand)."""
    return {(b.box, h.hand): list(h.cards) for b in outcome.boxes for h in b.hands}


def _drawn_before(decisions: list[Decision]) -> Iterator[tuple[Decision, int]]:
    """Each decision with the cards its hand drew before it (one per hit or double)."""
    taken: dict[tuple[int, int], int] = {}
    for decision in decisions:
        _, box, hand, action, _ = decision
        drawn = taken.get((box, hand), 0)
        if action in ("hit", "double"):
            taken[(box, hand)] = drawn + 1
        yield decision, drawn


def _up_card(outcome: BlackjackOutcome) -> str | None:
    """The dealer's up card's rank (``T`` any ten), or None when the record shows no dealer card."""
    dealer = outcome.dealer.cards
    if not dealer:
        return None
    return "T" if dealer[0][0] in "TJQK" else dealer[0][0]


def _index_for(cards: list[str], drawn: int, up: str) -> Index | None:
    """The index play of the decision taken on a hand's first ``2 + drawn`` cards against ``up``
    (None: no index for that situation, or a double offered on no more than two cards)."""
    if len(cards) < 2 + drawn:
        return None
    total = _hard_total(cards[: 2 + drawn])
    index = _BY_SITUATION.get((total, up)) if total is not None else None
    if index is None or (index.deviation == "double" and drawn):
        return None
    return index


@dataclass
class IndexPlays:
    """Fed each decision with the true count when it was taken (``decision``), and each closed
    round's record (``round_closed``), which places the decisions in their hands."""

    tallies: dict[str, IndexTally] = field(default_factory=dict)
    _pending: list[Decision] = field(default_factory=list)

    def decision(self, player: str, box: int, hand: int, action: str, true_count: float) -> None:
        self._pending.append((player, box, hand, action, true_count))

    def round_closed(self, record: Mapping[str, Any]) -> None:
        """The record is read through the record contract: only a blackjack round's places decisions."""
        decisions, self._pending = self._pending, []
        try:
            outcome = records.parse_record(record).outcome
        except ValidationError:
            return
        if not isinstance(outcome, BlackjackOutcome):
            return
        up = _up_card(outcome)
        if up is None:
            return
        hands = _hands(outcome)
        split_boxes = {box for box, hand in hands if hand > 1}
        for (player, box, hand, action, count), drawn in _drawn_before(decisions):
            if action in INSURANCE_ACTIONS:
                self._insurance(player, action, count, up)
            elif box not in split_boxes:
                self._index_play(player, action, count, _index_for(hands.get((box, hand)) or [], drawn, up))

    def _insurance(self, player: str, action: str, count: float, up: str) -> None:
        """Insurance is an index play only against an ace (taken at +3 and above)."""
        if up == "A":
            self._score(player, action in ("insurance", "even_money"), count >= INSURANCE_INDEX)

    def _index_play(self, player: str, action: str, count: float, index: Index | None) -> None:
        if index is not None:
            calls = count >= index.count if index.above else count < index.count
            self._score(player, action == index.deviation, calls)

    def _score(self, player: str, deviated: bool, count_calls: bool) -> None:
        tally = self.tallies.setdefault(player, IndexTally())
        tally.situations += 1
        if deviated and count_calls:
            tally.with_count += 1
        elif deviated:
            tally.against_count += 1
        elif count_calls:
            tally.missed += 1
