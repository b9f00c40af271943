"""The table as the dealer sees it: one JSON-able snapshot the console page draws (docs/console.md).

Computed only from ``TableCore``'s public state and the engine's ``outcome()`` / ``expects()`` /
``settlements``, so it never changes what it reads. What a game's outcome looks like on the page
(positions, the house's hands, history, the spin) is the game's own view (``adapter.view``,
controller/games/<game>/view.py): this module names no game. Money stays in integer minor units here; the
page formats it with the currency given in the snapshot. Cards the engine reports face down (a
dark double, the hole card) are sent as ``null``: the screen cannot show what the table hides.
"""

from __future__ import annotations

from typing import Any

from controller.boards import boards_for
from controller.console.words import hold_prompt, hold_view, local_clock, suits_in
from controller.games.base import Expect
from controller.table import registry
from controller.table.core import TableCore


def expect_view(expect: Expect) -> dict[str, Any]:
    return {"kind": expect.kind.value, "box": expect.box, "hand": expect.hand, "options": list(expect.options),
            "players": list(expect.players), "face_down": expect.face_down, "note": expect.note}


def _bets(core: TableCore) -> dict[tuple[int, int], list[dict[str, Any]]]:
    """Every bet of the open round by (box, hand): the ones still riding and the settled ones."""
    engine = core.engine
    rows: dict[tuple[int, int], list[dict[str, Any]]] = {}
    if engine is None:
        return rows
    for s in core.adapter.open_bets(engine):
        rows.setdefault((s.box, s.hand), []).append(
            {"kind": s.kind, "player": s.player, "stake": s.stake, "payout": None})
    for s in engine.settlements:
        rows.setdefault((s.box, s.hand), []).append(
            {"kind": s.kind, "player": s.player, "stake": s.stake, "payout": s.payout})
    return rows


def _positions(core: TableCore) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(boxes, the house's hands) of the open round as the game's view draws them, each bet
    attached to its box and hand (bets on boxes not dealt yet, or of a game without cards, too)."""
    engine = core.engine
    if engine is None:
        return [], []
    view = core.adapter.view
    outcome = engine.outcome()
    bets = _bets(core)
    boxes: list[dict[str, Any]] = []
    seen: set[int] = set()
    for box in view.boxes(outcome):
        seen.add(box["box"])
        hands = [{**hand, "bets": bets.get((box["box"], hand["hand"]), [])} for hand in box["hands"]]
        boxes.append({"box": box["box"], "owner": box["owner"], "hands": hands})
    for (number, hand_no), rows in sorted(bets.items()):  # bets on boxes not dealt yet (betting open)
        if number not in seen:
            if not boxes or boxes[-1]["box"] != number:
                boxes.append({"box": number, "owner": None, "hands": []})
            boxes[-1]["hands"].append({"hand": hand_no, "cards": [], "total": None, "state": None, "bets": rows})
    boxes.sort(key=lambda b: b["box"])
    return boxes, [dict(h) for h in view.house(outcome)]


def table_view(core: TableCore, *, currency: str = "EUR", digits: int = 2, time_zone: str | None = None) -> dict[str, Any]:
    """Everything the page shows except devices' "last seen" and the actions (added by the hub)."""
    engine = core.engine
    view = core.adapter.view
    boxes, house = _positions(core)
    shoe = core.shoe
    return {
        "table": core.table_id,
        "game": core.adapter.game,
        "currency": {"code": currency, "digits": digits},
        "phase": "hold" if core.hold is not None else core.phase,
        "round": core.round_id,
        "prompt": hold_prompt(core.hold.view()) if core.hold is not None else core.prompt(),
        "notice": core.notice,
        "closing": core.closing,
        "dealer": getattr(core, "dealer", None),
        "hold": hold_view(core.hold.view()) if core.hold is not None else None,
        "keyin": core.keyin,
        "expect": expect_view(engine.expects()) if engine is not None else None,
        "boxes": boxes,
        "house": house,
        "spin": view.spin(engine) if engine is not None else None,
        "shoe": {"number": shoe.number, "id": shoe.shoe_id, "dealt": shoe.last_n, "cut_seen": shoe.cut_seen,
                 "burn_left": shoe.burn_left, "needs_new": shoe.needs_new} if core.adapter.uses_shoe else None,
        "alerts": [{**a, "message": suits_in(str(a.get("message") or "")),
                    "time": local_clock(core.alert_book.raised.get(seq), time_zone)}
                   for seq, a in sorted(core.alerts_open.items())],
        "history": view.history(list(core.records.values()), core.shoe.shoe_id),
        "boards": boards_for(list(core.records.values()), registry.boards_of),
        "limits": {k: v.model_dump() for k, v in core.rules.limits.items()},
        "offered": core.adapter.view.bet_kinds(core.rules, core.adapter.bet_kind),
        # a remote player's turn: the page counts the prompt's seconds down to the table's deadline
        "waiting": {"box": turn.box, "name": turn.name, "deadline": turn.deadline}
        if (turn := core.seats.turn) is not None and core.hold is None else None,
    }
