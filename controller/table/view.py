"""What people see of the table: the dealer's prompt and the pit's ``state`` (docs/console.md,
docs/pit.md). Read-only views of the core; nothing here changes the table."""

from __future__ import annotations

from typing import Any, Protocol

from controller.games.base import GameRules
from controller.table.betting import CLOSED, SEALING, BettingDesk
from controller.table.corrections import CorrectionBook
from controller.table.games.base import Engine, GameAdapter
from controller.table.health import DeviceHealth
from controller.table.holds import Hold
from controller.table.phases import SETTLING
from controller.table.rounds import RoundBook
from controller.table.seats import DECISION_TIMER, SeatDesk
from controller.table.shoe_device import ShoeState


class ViewedTable(Protocol):
    """What people are shown of the table (read only)."""

    @property
    def notice(self) -> str | None: ...
    @property
    def hold(self) -> Hold | None: ...
    @property
    def outage(self) -> Hold | None: ...
    @property
    def shoe(self) -> ShoeState: ...
    @property
    def keyin(self) -> int | None: ...
    @property
    def engine(self) -> Engine | None: ...
    @property
    def closing(self) -> bool: ...
    @property
    def adapter(self) -> GameAdapter: ...
    @property
    def health(self) -> DeviceHealth: ...
    @property
    def phase(self) -> str: ...
    @property
    def preset(self) -> str | None: ...
    @property
    def currency(self) -> tuple[str, int]: ...
    @property
    def round_id(self) -> str | None: ...
    @property
    def dealer(self) -> str | None: ...
    @property
    def rules(self) -> GameRules: ...
    @property
    def devices(self) -> dict[str, dict[str, Any]]: ...
    @property
    def alerts_open(self) -> dict[int, dict[str, Any]]: ...
    @property
    def book(self) -> CorrectionBook: ...
    @property
    def round(self) -> RoundBook: ...
    @property
    def pace_goal(self) -> tuple[int | None, int]: ...
    @property
    def betting(self) -> BettingDesk: ...
    @property
    def seats(self) -> SeatDesk: ...
    def ts(self) -> str: ...


def prompt(core: ViewedTable) -> str:
    """The dealer's current instruction (with a refused press's reason until the state changes)."""
    text = _instruction(core)
    return f"{text} [{core.notice}]" if core.notice else text


def _instruction(core: ViewedTable) -> str:
    hold, shoe = core.outage or core.hold, core.shoe
    if hold is not None:
        return f"HOLD {hold.code}: {hold.message} — {' or '.join(hold.options)}"
    if core.keyin is not None:
        return f"Card {core.keyin} not read: key it in"
    if core.engine is None:
        if core.closing:
            return "Table closed"
        if shoe.needs_new:
            return "Cut card is out: load a new shoe" if shoe.cut_seen else "Shuffle: load a new deck"
        if shoe.burn_left > 0:
            return f"Burn {shoe.burn_left} card{'s' if shoe.burn_left > 1 else ''}"
        own = core.adapter.device
        fault = core.health.fault(own) if own else None
        if own and fault:
            return f"{own.capitalize()} fault ({fault}): wait until it is re-powered and healthy"
        return "Open betting"
    if core.betting.status == SEALING:
        return "Betting closed: waiting for the studio's seal"
    if core.phase == SETTLING:
        return core.adapter.done_prompt(core.engine)
    turn = core.seats.turn
    if turn is not None:  # the console counts the seconds down to the turn's deadline
        left = core.betting.time.decision_s if turn.source == DECISION_TIMER else 0
        return f"Box {turn.box}: {turn.name} decides, {left} s"
    return core.adapter.prompt(core.engine, core.engine.expects())


def state(core: ViewedTable) -> dict[str, Any]:
    """The retained ``state`` snapshot of the pit feed (devices are added by the loop)."""
    shoe, shown = core.shoe, core.outage or core.hold
    return {
        "game": core.adapter.game,
        "preset": core.preset,
        "currency": core.currency[0],
        "currency_digits": core.currency[1],
        "phase": "hold" if shown is not None else core.phase,
        "round": core.round_id,
        "dealer": core.dealer,
        "closing": core.closing,
        "limits": limits(core.rules),
        "shoe": {"id": shoe.shoe_id, "cards_dealt": shoe.last_n, "cut_card_seen": shoe.cut_seen,
                 "to_burn": shoe.burn_left},
        "hold": shown.view() if shown is not None else None,
        "devices": {d: dict(h) for d, h in core.devices.items()},
        "alerts_open": [dict(a) for _, a in sorted(core.alerts_open.items())],
        "corrections_pending": core.book.pending(),
        "pace": core.round.close_times.pace(core.ts(), core.pace_goal[0] or core.adapter.pace_target, core.pace_goal[1]),
    }


def betting(core: ViewedTable) -> dict[str, Any]:
    """The retained ``betting`` message's body (docs/protocols.md, the studio's contract):
    the open round's betting status, its deadline, what the table takes."""
    desk = core.betting
    body: dict[str, Any] = {
        "round": desk.round_id, "status": desk.status, "opened": desk.opened, "deadline": desk.deadline,
        "seq": desk.seq, "game": core.adapter.game, "currency": core.currency[0], "digits": core.currency[1],
        "limits": {kind: [limit["min"], limit["max"]] for kind, limit in limits(core.rules).items()},
        "remote": desk.remote if desk.round_id else desk.time.remote,
    }
    if desk.status == CLOSED:
        body["sealed"] = desk.sealed
    if desk.status == SEALING:
        body["grace_end"] = desk.grace_end
    if core.seats.seats or core.seats.turn is not None or core.seats.decisions:
        body.update(core.seats.view(desk.time.decision_s))  # remote players seated (docs/studio.md, "Seats")
        body["cards"] = core.engine.outcome().record() if core.engine is not None else None
    return body


#: id(rules) -> (rules, their limits as the state shows them); the rules held, so no id is reused
_LIMITS: dict[int, tuple[GameRules, dict[str, dict[str, Any]]]] = {}
_LIMITS_KEPT = 16


def limits(rules: GameRules) -> dict[str, dict[str, Any]]:
    """The table's limits as the ``state`` shows them: dumped once per rule set (rules are frozen,
    and the state is built on every change of the prompt), a fresh copy each time."""
    held = _LIMITS.get(id(rules))
    if held is None or held[0] is not rules:
        if len(_LIMITS) >= _LIMITS_KEPT:
            _LIMITS.clear()
        held = _LIMITS[id(rules)] = (rules, {k: v.model_dump() for k, v in rules.limits.items()})
    return {k: dict(v) for k, v in held[1].items()}
