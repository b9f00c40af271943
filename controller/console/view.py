"""The table as the dealer sees it: one JSON-able snapshot the console page draws (docs/console.md).

Computed only from ``TableCore``'s public state and the engine's ``outcome()`` / ``expects()`` /
``settlements``, so it never changes what it reads. Money stays in integer minor units here; the
page formats it with the currency given in the snapshot. Cards the engine reports face down (a
dark double, the hole card) are sent as ``null``: the screen cannot show what the table hides.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from controller.games.base import Expect
from controller.table.core import TableCore

#: blackjack hand states as the dealer says them ("live" means the player is done: stood)
HAND_WORDS = {"open": "to play", "hit": "card due", "doubling": "doubled: card due", "live": "stood",
              "bust": "bust", "surrendered": "surrendered", "blackjack": "blackjack", "charlie": "charlie"}
ROULETTE_HISTORY = 20
BEAD_PLATE = 66  # six rows of eleven columns


def expect_view(expect: Expect) -> dict[str, Any]:
    return {"kind": expect.kind.value, "box": expect.box, "hand": expect.hand, "options": list(expect.options),
            "players": list(expect.players), "face_down": expect.face_down, "note": expect.note}


def _masked(cards: Iterable[Any], face_down: Iterable[int] = ()) -> list[str | None]:
    hidden = set(face_down)
    return [None if i in hidden else str(c) for i, c in enumerate(cards)]


def _total(part: dict[str, Any]) -> str | None:
    for key in ("total", "value", "hand"):
        value = part.get(key)
        if value is not None:
            return str(value)
    return None


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


def _box_hands(box: dict[str, Any]) -> list[dict[str, Any]]:
    """The hands of one box of any shoe game's outcome, in one shape."""
    if "hands" in box:  # blackjack: one or more hands per box
        return [{"hand": h["hand"], "cards": _masked(h["cards"], h.get("face_down", ())),
                 "total": None if h.get("face_down") else _total(h),
                 "state": ("doubled" if h["status"] == "live" and h.get("multiplier", 1) > 1
                           else HAND_WORDS.get(h["status"], h["status"]))}
                for h in box["hands"]]
    state = box.get("status") or box.get("decision")
    return [{"hand": 1, "cards": _masked(box.get("cards", ()), box.get("face_down", ())), "total": _total(box),
             "state": HAND_WORDS.get(str(state), str(state)) if state else None}]


def _positions(core: TableCore, outcome: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(boxes, the house's hands) of a shoe game's round, bets attached to their box and hand."""
    bets = _bets(core)
    raw = outcome.get("boxes", [])
    boxes_out = raw if isinstance(raw, list) else [{"box": int(n), **b} for n, b in raw.items()]
    seen: set[int] = set()
    boxes: list[dict[str, Any]] = []
    for box in boxes_out:
        number = int(box["box"])
        seen.add(number)
        hands = _box_hands(box)
        for hand in hands:
            hand["bets"] = bets.get((number, hand["hand"]), [])
        boxes.append({"box": number, "owner": box.get("owner"), "hands": hands})
    for (number, hand_no), rows in sorted(bets.items()):  # bets on boxes not dealt yet (betting open)
        if number not in seen:
            if not boxes or boxes[-1]["box"] != number:
                boxes.append({"box": number, "owner": None, "hands": []})
            boxes[-1]["hands"].append({"hand": hand_no, "cards": [], "total": None, "state": None, "bets": rows})
    boxes.sort(key=lambda b: b["box"])
    house: list[dict[str, Any]] = []
    for name in ("dealer", "player", "banker"):
        part = outcome.get(name)
        if isinstance(part, dict):
            house.append({"name": name, "cards": _masked(part.get("cards", ()), part.get("face_down", ())),
                          "total": None if part.get("face_down") else _total(part)})
    return boxes, house


def _history(core: TableCore) -> dict[str, Any]:
    """Roulette's last numbers and baccarat's bead plate, from the rounds the core remembers."""
    records = list(core.records.values())
    game = core.adapter.game
    if game == "roulette":
        numbers = [n for r in records if r["status"] == "settled" for n in r["outcome"].get("numbers", [])]
        return {"last_numbers": numbers[-ROULETTE_HISTORY:][::-1]}
    if game == "baccarat":
        shoe_id = core.shoe.shoe_id
        this_shoe = [r for r in records if r.get("shoe", shoe_id) == shoe_id and r["status"] == "settled"]
        beads = [{"winner": r["outcome"].get("winner"), "natural": r["outcome"].get("natural", False)}
                 for r in this_shoe]
        return {"bead_plate": beads[-BEAD_PLATE:]}
    return {}


def _spin(core: TableCore) -> dict[str, Any] | None:
    engine: Any = core.engine
    if core.adapter.game != "roulette" or engine is None:
        return None
    return {"phase": str(getattr(engine.phase, "value", engine.phase)), "balls": [n for n, _ in engine.balls],
            "voids": list(engine.voids), "multipliers": dict(engine.multipliers)}


def table_view(core: TableCore, *, currency: str = "EUR", digits: int = 2) -> dict[str, Any]:
    """Everything the page shows except devices' "last seen" and the actions (added by the hub)."""
    engine = core.engine
    outcome = engine.outcome() if engine is not None else {}
    boxes, house = _positions(core, outcome) if engine is not None and core.adapter.uses_shoe else ([], [])
    if engine is not None and not core.adapter.uses_shoe:
        bets = _bets(core)
        boxes = [{"box": box, "owner": None, "hands": [{"hand": hand, "cards": [], "total": None, "state": None,
                                                          "bets": rows}]}
                 for (box, hand), rows in sorted(bets.items())]
    shoe = core.shoe
    return {
        "table": core.table_id,
        "game": core.adapter.game,
        "currency": {"code": currency, "digits": digits},
        "phase": "hold" if core.hold is not None else core.phase,
        "round": core.round_id,
        "prompt": core.prompt(),
        "notice": core.notice,
        "closing": core.closing,
        "dealer": getattr(core, "dealer", None),
        "hold": core.hold.view() if core.hold is not None else None,
        "keyin": core.keyin,
        "expect": expect_view(engine.expects()) if engine is not None else None,
        "boxes": boxes,
        "house": house,
        "spin": _spin(core),
        "shoe": {"number": shoe.number, "id": shoe.shoe_id, "dealt": shoe.last_n, "cut_seen": shoe.cut_seen,
                 "burn_left": shoe.burn_left, "needs_new": shoe.needs_new} if core.adapter.uses_shoe else None,
        "alerts": [dict(a) for _, a in sorted(core.alerts_open.items())],
        "history": _history(core),
        "limits": {k: v.model_dump() for k, v in core.rules.limits.items()},
    }
