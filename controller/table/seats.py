"""Remote players seated at boxes (docs/studio.md, "Seats"): whose box it is, the turn the
dealer's prompt waits on, and what the table decides when the player does not.

A seat comes from the studio (a journaled ``seat`` message); so do a seated player's bets and
decisions (``bets``, ``decide``). When the engine's next decision is a seated box's, a **turn**
starts with the entry that made it due: its ``ts`` plus ``decision_s`` is the deadline, and the
core asks the loop for it with a ``Deadline`` (source ``timer:decision``; ``timer:disconnect``,
due at once, when the player's connection is lost). The loop journals the table's own decision
as a ``decide`` command from that source: the decision and its cause are in the journal before
the engine takes it, and a restart re-arms the replayed turn's deadline where it was. The
game's default decision is the adapter's (``default_decisions``); with ``decision_policy =
"refund"`` the box's remote bets are returned besides (the record's ``remote.seats``). Pure: no
clock, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from controller.commands import models as cmd
from controller.commands.studio import RemoteBets, RemoteDecision, SeatChange
from controller.games.base import ExpectKind, PlaceBet, decide
from controller.table.betting import BettingDesk, later
from controller.table.effects import Deadline, Effect
from controller.table.games.base import Engine, GameAdapter
from controller.table.holds import INFO, WARNING
from controller.table.phases import BETTING
from controller.table.refusal import Refusal

DECISION_TIMER, DISCONNECT_TIMER = "timer:decision", "timer:disconnect"
DECISION_TIMERS = frozenset((DECISION_TIMER, DISCONNECT_TIMER))
CAUSES = {DECISION_TIMER: "timeout", DISCONNECT_TIMER: "disconnect"}
REFUND = "refund"


@dataclass(slots=True)
class Seat:
    player: str
    name: str
    connected: bool = True
    #: the player left during a round: the seat stays (disconnected) until the round closes
    leaving: bool = False


@dataclass(frozen=True, slots=True)
class Turn:
    """A seated box's decision the dealer waits on."""

    round_id: str
    box: int
    hand: int
    player: str
    name: str
    options: tuple[str, ...]
    started: str
    deadline: str
    #: the entry that made the decision due (the deadline's key: one timer per turn)
    seq: int
    source: str

    def deadline_effect(self) -> Deadline:
        return Deadline(self.round_id, self.source, self.deadline, self.seq)

    def view(self, decision_s: int) -> dict[str, Any]:
        return {"round": self.round_id, "box": self.box, "hand": self.hand, "player": self.player, "name": self.name,
                "decisions": list(self.options), "started": self.started, "deadline": self.deadline,
                "decision_ms": decision_s * 1000 if self.source == DECISION_TIMER else 0}


@dataclass(slots=True)
class SeatDesk:
    """The table's seats, the turn waiting, and the open round's decisions with their causes."""

    seats: dict[int, Seat] = field(default_factory=dict)
    turn: Turn | None = None
    decisions: list[dict[str, Any]] = field(default_factory=list)
    refunded: list[int] = field(default_factory=list)
    #: boxes seated when the open round's betting closed, with their players (for the record)
    played: dict[int, str] = field(default_factory=dict)
    serial: int = 0

    def deadlines(self) -> list[Deadline]:
        return [self.turn.deadline_effect()] if self.turn is not None else []

    def round_opened(self) -> None:
        """A round opened or closed: no turn waits, and the seats of players who left go."""
        self.turn, self.decisions, self.refunded, self.played = None, [], [], {}
        self.seats = {b: s for b, s in self.seats.items() if not s.leaving}
        self.serial += 1

    def record_part(self) -> dict[str, Any] | None:
        """The round record's ``remote.seats`` (None when no remote player sat or decided)."""
        if not (self.played or self.decisions):
            return None
        return {"players": {str(b): p for b, p in sorted(self.played.items())}, "decisions": list(self.decisions),
                "refunded": sorted(self.refunded)}

    def view(self, decision_s: int) -> dict[str, Any]:
        """What the retained ``betting`` leaf says of the seats (the studio's source)."""
        return {"seats": {str(b): {"player": s.player, "name": s.name, "connected": s.connected}
                          for b, s in sorted(self.seats.items())},
                "turn": self.turn.view(decision_s) if self.turn is not None else None,
                "decided": self.decisions[-1] if self.decisions else None}


class SeatTable(Protocol):
    """What the seats need of the table."""

    @property
    def seats(self) -> SeatDesk: ...
    @property
    def betting(self) -> BettingDesk: ...
    @property
    def adapter(self) -> GameAdapter: ...
    @property
    def engine(self) -> Engine | None: ...
    @property
    def round_id(self) -> str | None: ...
    @property
    def phase(self) -> str: ...
    def changed(self) -> None: ...
    def emit(self, effect: Effect) -> None: ...
    def alert(self, severity: str, code: str, message: str, **detail: Any) -> None: ...
    def engine_action(self, action: Any) -> None: ...
    def cause(self) -> int: ...
    def source(self) -> str: ...
    def entry_round(self) -> str | None: ...
    def ts(self) -> str: ...


def default_decision(adapter: GameAdapter, options: tuple[str, ...]) -> str:
    """The game's default for a decision offered with ``options`` (stand, fold, no insurance)."""
    return next((d for d in adapter.default_decisions if d in options), options[0])


# ----------------------------------------------------------------------------- studio messages
def seat_change(table: SeatTable, msg: SeatChange) -> None:
    """A remote player sits, leaves, or loses (or regains) the connection."""
    desk = table.seats
    if not table.adapter.default_decisions:
        table.alert(WARNING, "studio.seat_refused", f"{table.adapter.game} has no seats for remote players",
                    box=msg.box, player=msg.player)
        return
    held = desk.seats.get(msg.box)
    if held is not None and held.player != msg.player:
        table.alert(WARNING, "studio.seat_refused", f"box {msg.box} is {held.name}'s; {msg.name} cannot sit there",
                    box=msg.box, player=msg.player)
        return
    if msg.seated:
        desk.seats[msg.box] = Seat(msg.player, msg.name, msg.connected)
    elif held is not None and table.engine is not None:  # the bets on it play on, decided by the policy
        held.connected, held.leaving = False, True
    elif held is not None:
        del desk.seats[msg.box]
    desk.serial += 1
    table.changed()
    turn = desk.turn
    if turn is not None and turn.box == msg.box:
        follow(table)  # the turn's player left or lost the connection: decided at once


def remote_bets(table: SeatTable, msg: RemoteBets) -> None:
    """A seated player's bets or a Bet Behind, placed on the engine while betting is open; what the
    engine refuses is an alert (the studio returns a bet the record has no row for)."""
    seat = table.seats.seats.get(msg.box)
    for item in msg.bets:
        behind = item.kind.startswith("behind")
        why = None
        if msg.round != table.round_id or table.phase != BETTING:
            why = f"round {msg.round} is not taking bets"
        elif not behind and (seat is None or seat.player != msg.player):
            why = f"box {msg.box} is not {msg.player}'s seat"
        if why is None:
            try:
                table.engine_action(PlaceBet(msg.box, item.kind, item.amount, msg.player))
                continue
            except Refusal as refusal:
                why = refusal.message
        table.alert(WARNING, "studio.bet_refused", f"remote bet {item.kind} on box {msg.box} of {msg.player} not "
                                                   f"placed: {why}; the studio returns it", box=msg.box,
                    player=msg.player, request=msg.request, kind=item.kind, amount=item.amount)


def remote_decision(table: SeatTable, msg: RemoteDecision) -> None:
    """The seated player's decision: taken if it answers the turn waiting, else a warning."""
    turn = table.seats.turn
    if turn is None or (turn.round_id, turn.box, turn.hand, turn.player) != (msg.round, msg.box, msg.hand, msg.player):
        table.alert(WARNING, "studio.decision_late", f"decision {msg.decision} of box {msg.box} hand {msg.hand} "
                                                     f"(round {msg.round}) ignored: no such turn waits",
                    box=msg.box, player=msg.player, request=msg.request)
        return
    _decide(table, turn, msg.decision, "player", msg.amount, request=msg.request)


def dealer_decide(table: SeatTable, order: cmd.Decide) -> None:
    """A ``decide`` command: the table's own at a turn's deadline (``timer:*``), or the dealer's,
    who does not decide for a remote player's box."""
    turn = table.seats.turn
    source = table.source()
    if source in DECISION_TIMERS:
        if turn is None or turn.source != source or table.entry_round() != turn.round_id \
                or (turn.box, turn.hand) != (order.box, order.hand or 1):
            return  # the turn was answered before this timer's entry: nothing to do
        _decide(table, turn, order.action, CAUSES[source], None)
        return
    seat = table.seats.seats.get(order.box)
    if turn is not None and turn.box == order.box and seat is not None:
        raise Refusal("table.seat.remote_decides", f"box {order.box}: {seat.name} decides (a remote player)")
    table.engine_action(decide(order.box, order.action, order.hand or 1, order.player or "", order.amount))


def _decide(table: SeatTable, turn: Turn, decision: str, cause: str, amount: int | None,
            request: str | None = None) -> None:
    desk = table.seats
    refund = cause != "player" and table.betting.time.decision_policy == REFUND
    table.engine_action(decide(turn.box, decision, turn.hand, "", amount))  # a refused one raises: nothing noted
    said = {"round": turn.round_id, "box": turn.box, "hand": turn.hand, "decision": decision, "cause": cause,
            "refunded": refund, "request": request, "seq": table.cause()}
    desk.decisions.append(said)
    if refund and turn.box not in desk.refunded:
        desk.refunded.append(turn.box)
    desk.serial += 1
    if cause != "player":
        why = "the decision time ran out" if cause == "timeout" else "the player's connection is lost"
        table.alert(INFO, f"table.seat.{cause}", f"box {turn.box}: {turn.name}: {why}; the table decided {decision}"
                                                  + ("; the box's remote bets are returned" if refund else ""),
                    box=turn.box, player=turn.player, decision=decision)


# ----------------------------------------------------------------------------- turns
def follow(table: SeatTable) -> None:
    """After every change of the round: a seated box's decision due now starts a turn (with this
    entry's ``ts``), anything else ends the one waiting."""
    desk = table.seats
    if not desk.seats and desk.turn is None:  # nobody seated, no turn to end: nothing to follow
        return
    engine = table.engine
    if engine is not None and table.phase != BETTING and not desk.played:
        desk.played = {b: s.player for b, s in desk.seats.items()}  # who sat as the round was dealt
    expect = engine.expects() if engine is not None else None
    seat = desk.seats.get(expect.box) if expect is not None and expect.box is not None else None
    if expect is None or expect.kind is not ExpectKind.DECISION or seat is None or table.round_id is None:
        if desk.turn is not None:
            desk.turn = None
            desk.serial += 1
        return
    source = DECISION_TIMER if seat.connected else DISCONNECT_TIMER
    ts = table.ts()
    deadline = later(ts, table.betting.time.decision_s) if seat.connected else ts
    desk.turn = Turn(table.round_id, int(expect.box or 0), expect.hand or 1, seat.player, seat.name,
                     tuple(expect.options), ts, deadline, table.cause(), source)
    desk.serial += 1
    table.emit(desk.turn.deadline_effect())


def remote_part(betting: BettingDesk, desk: SeatDesk) -> dict[str, Any] | None:
    """The round record's ``remote``: the seal's part, and the seats' when remote players sat."""
    part = betting.remote_part()
    seats = desk.record_part()
    if seats is None:
        return part
    return {**(part or {"sealed": betting.sealed, "seal": betting.seal, "settled": None}), "seats": seats}


def timeout_order(table: SeatTable, deadline: Deadline) -> cmd.Decide | None:
    """The ``decide`` the loop journals at ``deadline`` (None: the turn is no longer waiting)."""
    turn = table.seats.turn
    if turn is None or turn.deadline_effect() != deadline:
        return None
    return cmd.Decide(box=turn.box, hand=turn.hand, action=default_decision(table.adapter, turn.options))
