"""Remote bets at the table's side: the betting time, the studio's seal, the remote totals.

The felt's close (the dealer's, the betting time's ``timer``, the wheel's ``no_more_bets``)
puts a remote table's round in ``sealing``: the felt takes no more bets, the shoe's gate stays
locked and no draw is made, until the studio's seal of that round is journaled (betting closes
with it: the round record's ``remote.sealed`` is true and carries the seal) or the seal's grace
is over (``timer:seal``: closed without it, ``studio.seal_missing``, the studio returns every
remote bet of the round). A result that reaches the table while it waits for the seal ends the
wait the same way: a seal after the result proves nothing. A seal at any other time, or of
another round, is a ``studio.seal_late`` warning and changes nothing; the seal a round closed
with, sent again, changes nothing and says nothing. What the studio settled
is journaled as ``remote_settled`` beside the round's record (docs/studio.md).
"""

from __future__ import annotations

from typing import Any, Protocol

from controller.commands.studio import RemoteBets, RemoteDecision, Seal, SeatChange, Settled, StudioInput, parse_studio
from controller.games.base import CloseBetting
from controller.jsonbound import InputRefused
from controller.money import format_money
from controller.table import inputs, seats
from controller.table.betting import OPEN, SEAL_TIMER, SEALING, TIMERS, BettingDesk
from controller.table.corrections import CorrectionBook
from controller.table.effects import UNLOCK, Draw, Effect, Record
from controller.table.holds import ERROR, INFO, WARNING, Hold
from controller.table.phases import BETTING
from controller.table.rounds import RoundBook


class RemoteTable(seats.SeatTable, Protocol):
    """What the remote side needs of the table."""

    @property
    def betting(self) -> BettingDesk: ...
    @property
    def round(self) -> RoundBook: ...
    @property
    def book(self) -> CorrectionBook: ...
    @property
    def phase(self) -> str: ...
    @property
    def round_id(self) -> str | None: ...
    @property
    def hold(self) -> Hold | None: ...
    @property
    def currency(self) -> tuple[str, int]: ...
    def changed(self) -> None: ...
    def emit(self, effect: Effect) -> None: ...
    def alert(self, severity: str, code: str, message: str, **detail: Any) -> None: ...
    def engine_action(self, action: Any) -> None: ...
    def draw_due(self) -> bool: ...
    def cause(self) -> int: ...
    def source(self) -> str: ...
    def entry_round(self) -> str | None: ...
    def ts(self) -> str: ...


#: the felt's close, one frozen value
CLOSE_BETTING = CloseBetting()


class UnreadableStudio(ValueError):
    """A journaled studio message this code cannot read (written behind the edge's back)."""


def journaled(payload: dict[str, Any]) -> StudioInput:
    try:
        return parse_studio(payload)
    except InputRefused as exc:
        raise UnreadableStudio(exc.message) from None


#: the betting statuses ``progressed`` acts in
FOLLOWED = frozenset((OPEN, SEALING))


def progressed(table: RemoteTable) -> None:
    """After every change of the open round: the felt's close starts the close of betting (a
    remote table waits for the seal), and anything that moves the round while it waits for
    the seal (a card, a result) ends the wait without it."""
    desk = table.betting
    if desk.status == OPEN and table.phase != BETTING:
        for deadline in desk.closing(table.ts(), table.cause()):
            table.emit(deadline)
    elif desk.status == SEALING:
        unsealed(table, "the round went on before the studio's seal came")


def close_betting(table: RemoteTable) -> None:
    """The dealer's or a timer's ``close_betting``. A timer's that comes after the close (the
    dealer closed first, the seal came first), or that was journaled while another round was
    open (its entry's round), does nothing: no refusal, no alert."""
    source = table.source()
    if source in TIMERS and (not table.betting.due(source) or table.entry_round() != table.betting.round_id):
        return
    if source == SEAL_TIMER:
        unsealed(table, f"no seal within {table.betting.time.seal_grace_s} s")
        return
    table.engine_action(CLOSE_BETTING)
    if table.betting.status != SEALING:
        table.emit(UNLOCK)


def closed(table: RemoteTable, seal: dict[str, Any] | None) -> None:
    """Betting is closed (with the seal or without): the gate opens, the draw is asked for."""
    table.betting.closed(table.cause(), seal)
    table.changed()
    if table.hold is None:  # a held table's gate follows its resumption
        table.emit(UNLOCK)
    if table.round.draw(table.draw_due()):
        table.emit(Draw(table.round_id))


def unsealed(table: RemoteTable, why: str) -> None:
    closed(table, None)
    table.alert(ERROR, "studio.seal_missing", f"round {table.round_id}: betting closed without the studio's seal "
                                              f"({why}): every remote bet of the round is returned", reason=why)


def studio_input(table: RemoteTable, message: StudioInput) -> None:
    """A journaled message of the studio (the seats' go to ``seats``)."""
    if isinstance(message, Seal):
        _seal(table, message)
    elif isinstance(message, Settled):
        _settled(table, message)
    elif isinstance(message, SeatChange):
        seats.seat_change(table, message)
    elif isinstance(message, RemoteBets):
        seats.remote_bets(table, message)
    elif isinstance(message, RemoteDecision):
        seats.remote_decision(table, message)


def _seal(table: RemoteTable, seal: Seal) -> None:
    desk = table.betting
    ours = seal.round == table.round_id
    if ours and desk.status == OPEN and desk.deadline is not None and table.ts() >= desk.deadline and table.hold is None:
        table.engine_action(CLOSE_BETTING)  # sent at the deadline before the table's timer: the felt closes now
    if ours and desk.status == SEALING:
        closed(table, {**seal.journal_form(), "seq": table.cause()})
        money = format_money(seal.stake, *table.currency)
        table.alert(INFO, "studio.sealed", f"round {seal.round}: betting closed with the studio's seal "
                                           f"({seal.count} remote bets, {money})", seal=seal.id)
        return
    if _same_seal(sealed_with(table, seal.round), seal):
        return  # the seal the round closed with, sent again (at-least-once delivery): nothing to say
    if not ours:
        why = f"round {seal.round} is not the open round ({table.round_id or 'none is open'})"
    elif desk.status == OPEN:
        why = "betting is still open"
    else:
        why = "betting had closed already"
    table.alert(WARNING, "studio.seal_late", f"studio seal of round {seal.round} ignored: {why}; nothing changed",
                seal=seal.id, sealed_round=seal.round)


#: what tells one seal from another: the message's ``id`` and the journal's ``seq`` do not
_SEAL_IDENTITY = ("round", "count", "stake", "kinds", "players", "digest")


def sealed_with(table: RemoteTable, round_id: str) -> dict[str, Any] | None:
    """The seal ``round_id``'s betting closed with (the open round's, or a closed round's record)."""
    if round_id == table.round_id:
        return table.betting.seal
    remote = (table.book.records.get(round_id) or {}).get("remote") or {}
    return remote.get("seal")


def _same_seal(held: dict[str, Any] | None, seal: Seal) -> bool:
    """``seal`` says what ``held`` says (the studio sends its seal again when it cannot know the
    table has it: the table's ``sealing`` leaf and the deadline cross)."""
    if held is None:
        return False
    again = seal.journal_form()
    return all(held.get(k) == again.get(k) for k in _SEAL_IDENTITY)


def _settled(table: RemoteTable, settled: Settled) -> None:
    record = table.book.records.get(settled.round)
    if record is None or record.get("remote") is None:
        why = "is not a closed remote round of this table" if record is None else "took no remote bets"
        table.alert(WARNING, "studio.settled_unknown", f"studio totals of round {settled.round} ignored: the round "
                                                       f"{why}", settled=settled.id, settled_round=settled.round)
        return
    totals = {"round": settled.round, "id": settled.id, "count": settled.count, "stake": settled.stake,
              "paid": settled.paid, "refunded": settled.refunded, "drop": settled.drop, "win": settled.win,
              "cause": table.cause()}
    table.book.remote_settled(settled.round, totals)
    table.emit(Record(inputs.REMOTE_SETTLED, totals, settled.round))
