"""What people see of the table: the pit's ``state`` and the studio's ``betting`` (docs/pit.md,
docs/studio.md), each carrying the table's offer (what it takes now: controller/table/offer.py,
which says the dealer's prompt too). Read-only views of the core; nothing here changes the table."""

from __future__ import annotations

from typing import Any, Protocol

from controller.games.base import GameRules
from controller.records.offer import Offer
from controller.table.betting import CLOSED, SEALING
from controller.table.corrections import CorrectionBook
from controller.table.offer import OfferedTable, offer_view
from controller.table.rounds import RoundBook


class ViewedTable(OfferedTable, Protocol):
    """What people are shown of the table (read only): what its offer reads, and more."""

    @property
    def offer(self) -> Offer: ...
    @property
    def preset(self) -> str | None: ...
    @property
    def currency(self) -> tuple[str, int]: ...
    @property
    def dealer(self) -> str | None: ...
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
    def ts(self) -> str: ...


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
        "offer": offer_view(core.offer),
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
        # what the table takes of a seated box now: the remote seat draws the options the console does
        body["takes"] = [offer_view(core.offer)["takes"][i] for i, take in enumerate(core.offer.takes)
                         if take.constraints.seated is not None]
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
