"""The open round and the count of rounds: its id, phase, engine, what was burned in it, and
the random draw it waits for. Round ids count rounds (``<table>-000001``) and are never issued
twice: a round seen in journal entries the table did not apply still counts (``seen``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from controller.games.base import ExpectKind
from controller.table.corrections import CORRECTABLE_ROUNDS
from controller.table.games.base import Engine
from controller.table.pace import CloseTimes
from controller.table.phases import BETTING, IDLE, PLAYING, SETTLING

#: read once: an enum member read off its class goes through the enum's metaclass every time
_DONE, _BETS = ExpectKind.DONE, ExpectKind.BETS


@dataclass(slots=True)
class RoundBook:
    engine: Engine | None = None
    round_id: str | None = None
    #: rounds opened since the journal began
    rounds: int = 0
    closed_rounds: int = 0
    phase: str = IDLE
    opened: str = ""
    burned: list[str] = field(default_factory=list)
    #: who dealt the open round, and its index in its shoe (on its record)
    dealer: str | None = None
    shoe_round: int = 0
    #: a ``Draw`` effect is out and its ``draw`` input not yet in
    draw_requested: bool = False
    #: when the last rounds closed, as many as are kept for corrections: what the pace counts
    close_times: CloseTimes = field(default_factory=lambda: CloseTimes(CORRECTABLE_ROUNDS))

    def open(self, table_id: str, engine: Engine, opened: str, dealer: str | None, shoe_round: int) -> str:
        self.rounds += 1
        self.round_id = f"{table_id}-{self.rounds:06d}"
        self.engine, self.opened, self.dealer, self.shoe_round = engine, opened, dealer, shoe_round
        self.burned = []
        self.phase = BETTING
        return self.round_id

    def progressed(self) -> None:
        """The phase, from what the engine expects now."""
        assert self.engine is not None
        kind = self.engine.expects().kind
        self.phase = SETTLING if kind is _DONE else BETTING if kind is _BETS else PLAYING

    def draw(self, due: bool) -> bool:
        """Whether the draw is to be asked for now (due, and not asked for already)."""
        ask = due and not self.draw_requested
        self.draw_requested = due
        return ask

    def burn(self, cards: list[str]) -> None:
        """Cards set aside in the open round (none if no round is being dealt)."""
        if self.engine is not None and self.phase != IDLE:
            self.burned += cards

    def closed(self, at: str) -> None:
        """The open round closed at ``at`` (its journal ``ts``)."""
        self.close_times.closed(at)
        self.engine = None
        self.round_id = None
        self.phase = IDLE
        self.burned = []
        self.draw_requested = False
        self.closed_rounds += 1

    def seen(self, number: int) -> None:
        """Round ``number`` was opened once: no round id is issued twice."""
        self.rounds = max(self.rounds, number)
