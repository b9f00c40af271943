"""Each game's own view of its outcome (docs/architecture.md, "adding a game"): what the dealer's
console, the pit, recall and the terminal printer show of a round, so no generic module knows a
game's shape. A game's adapter names its ``GameView`` (``GameAdapter.view``).

* ``boxes`` / ``house``: the console's positions (cards as codes, the page draws them, face-down
  ones as ``None``; totals and states as the dealer says them), before the generic console
  attaches each hand's bets;
* ``history`` / ``spin``: what the console shows besides (roulette's last numbers, baccarat's
  bead plate, the spin under way);
* ``lines`` / ``summary``: the round as text (cards with suits: ``8♦ 10♦ vs K♠``) for the printer,
  ``croupier recall``, the pit's rounds and the console's recall.

A closed round's outcome comes back from a record as JSON: ``parse`` turns it into the game's
model; a record of another version that does not fit falls back to ``fallback_lines``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, TypedDict

from controller.cards import cards_text
from controller.games.outcome import Outcome


class HandView(TypedDict):
    hand: int
    cards: list[str | None]
    total: str | None
    state: str | None


class BoxView(TypedDict):
    box: int
    owner: str | None
    hands: list[HandView]


class HouseView(TypedDict):
    name: str
    cards: list[str | None]
    total: str | None


def masked(cards: Iterable[str], face_down: Iterable[int] = ()) -> list[str | None]:
    """Card codes with the face-down ones as ``None``: the screen cannot show what the table hides."""
    hidden = set(face_down)
    return [None if i in hidden else str(c) for i, c in enumerate(cards)]


def one_hand(box: int, cards: Sequence[str], total: object, state: str | None, owner: str | None = None) -> BoxView:
    """A box of a one-hand game, all cards shown."""
    return {"box": box, "owner": owner, "hands": [
        {"hand": 1, "cards": masked(cards), "total": None if total is None else str(total), "state": state}]}


class GameView:
    """A game's views; this base shows nothing of an outcome (a game without a view of its own)."""

    #: the game's outcome model, to read a record's ``outcome`` back
    outcome_model: ClassVar[type[Outcome]] = Outcome

    def parse(self, outcome: Mapping[str, Any] | Outcome) -> Outcome | None:
        if isinstance(outcome, Outcome):
            return outcome
        return self.outcome_model.from_record(outcome)

    # ------------------------------------------------------------------ the console
    def boxes(self, outcome: Outcome) -> list[BoxView]:
        return []

    def house(self, outcome: Outcome) -> list[HouseView]:
        return []

    def history(self, records: Sequence[Mapping[str, Any]], shoe_id: str | None) -> dict[str, Any]:
        """What the console shows of earlier rounds (nothing by default)."""
        return {}

    def spin(self, engine: Any) -> dict[str, Any] | None:
        """The spin under way (a wheel game's), None for a game without one."""
        return None

    #: the console's label of the settle button ("" for the command's own words)
    settle_label: ClassVar[str] = ""

    def bet_kinds(self, rules: Any, first: str) -> list[str]:
        """The kinds the console's bet form offers: every kind the table's limits name, the game's
        first bet first; a game that keys its bets elsewhere (roulette's layout) offers none."""
        kinds = sorted(rules.limits) or [first]
        return sorted(kinds, key=lambda k: (k != first, kinds.index(k)))

    def result_keys(self, engine: Any) -> dict[str, Any] | None:
        """The result the dealer keys now (a label and the results to pick from), or None when
        the game has no keyed result or is not waiting for one."""
        return None

    def console_extras(self, loop: Any) -> dict[str, Callable[[], Any]]:
        """More of the console's snapshot, by name, each read at every snapshot (none by default)."""
        return {}

    # ------------------------------------------------------------------ text
    def lines(self, outcome: Outcome) -> list[str]:
        return []

    def summary(self, outcome: Outcome) -> str:
        """One line for a list of rounds."""
        return "; ".join(self.lines(outcome))

    def record_lines(self, outcome: Mapping[str, Any]) -> list[str]:
        """A record's outcome as text lines (a record that does not fit the model: generic)."""
        parsed = self.parse(outcome)
        return self.lines(parsed) if parsed is not None else fallback_lines(outcome)

    def record_summary(self, outcome: Mapping[str, Any]) -> str:
        parsed = self.parse(outcome)
        return self.summary(parsed) if parsed is not None else "; ".join(fallback_lines(outcome))


def fallback_lines(outcome: Mapping[str, Any]) -> list[str]:
    """A round of a game (or version) this code has no view of: its dealer's cards, if any."""
    dealer = outcome.get("dealer") if isinstance(outcome, Mapping) else None
    cards = dealer.get("cards") if isinstance(dealer, Mapping) else None
    if isinstance(cards, list) and all(isinstance(c, str) for c in cards):
        return [f"dealer {cards_text(cards)}"]
    return []
