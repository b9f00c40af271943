"""What the table takes now: the one place that decides it (docs/protocols.md, "The offer").

``build_offer`` reads the table (never changes it) into one ``Offer``: the phase, the dealer's
prompt, every round command it takes now with its constraints, and for the common ones it
refuses, the refusal (code and sentence). The core builds it when it is first read after a
step, at most once per step (``TableCore.offer``), and refuses an opening by its answer to
``open_round`` (``open_round_refusal``, which builds no offer where no hold is shown); the
console draws its buttons from it and checks a page's command against it, the bet spots light
from it, the pit's ``state`` and the studio's ``betting`` carry it. Built without validating
(its own output: the models are checked by the tests).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Protocol

from controller.cards import DECK
from controller.commands import models as cmd
from controller.commands.models import BY_NAME, DEALER
from controller.games.base import ExpectKind, GameRules
from controller.records.offer import Constraints, Offer, Phase, Refused, Take
from controller.table.betting import SEALING, BettingDesk
from controller.table.games.base import Engine, GameAdapter
from controller.table.health import DeviceHealth
from controller.table.holds import Hold, refused_in_hold
from controller.table.phases import SETTLING
from controller.table.seats import DECISION_TIMER, SeatDesk
from controller.table.shoe_device import SHOE, ShoeState


class OfferedTable(Protocol):
    """What deciding the offer reads of the table."""

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
    def round_id(self) -> str | None: ...
    @property
    def closing(self) -> bool: ...
    @property
    def adapter(self) -> GameAdapter: ...
    @property
    def health(self) -> DeviceHealth: ...
    @property
    def phase(self) -> str: ...
    @property
    def rules(self) -> GameRules: ...
    @property
    def betting(self) -> BettingDesk: ...
    @property
    def seats(self) -> SeatDesk: ...


#: the dealer's round commands a hold refuses (all but its ways out and what goes on during one)
_HELD_BACK = tuple(name for name, m in BY_NAME.items()
                   if DEALER in m.givers and m.round_bound and not m.releases_hold and not m.during_hold)
OPEN_ROUND, NEW_SHOE, BET, CLEAR_BETS, CLOSE_BETTING, DECIDE, KEY_CARD, KEY_RESULT, SETTLE, VOID_ROUND = (
    m.name() for m in (cmd.OpenRound, cmd.NewShoe, cmd.Bet, cmd.ClearBets, cmd.CloseBetting, cmd.Decide, cmd.KeyCard,
                       cmd.KeyResult, cmd.Settle, cmd.VoidRound))
#: takes and refusals are made once per distinct value (frozen: shared by every offer that has
#: them), so the offer built on every step costs a few dictionary look-ups, not models
_MADE = 4096


@lru_cache(maxsize=_MADE)
def _take(command: str, **constraints: Any) -> Take:
    return Take.model_construct(command=command, constraints=Constraints.model_construct(**constraints))


@lru_cache(maxsize=_MADE)
def _refused(command: str, code: str, reason: str) -> Refused:
    return Refused.model_construct(command=command, code=code, reason=reason)


@lru_cache(maxsize=256)
def _held_back(code: str, options: tuple[str, ...]) -> tuple[Refused, ...]:
    """The refusals of a hold of ``code`` with the ways out ``options``."""
    hold = Hold(code, "", options, 0)
    return tuple(_refused(name, r.code, r.message) for name in _HELD_BACK for r in (refused_in_hold(hold, name),))


def build_offer(core: OfferedTable) -> Offer:
    """The table's offer now (see the module)."""
    shown = core.outage or core.hold
    text = _prompt(core, shown)
    takes, refused = _takes(core, shown)
    phase: Phase = "hold" if shown is not None else core.phase  # type: ignore[assignment]
    return Offer.model_construct(phase=phase, prompt=f"{text} [{core.notice}]" if core.notice else text,
                                 round=core.round_id if core.engine is not None else None,
                                 takes=tuple(takes), refused=tuple(refused))


#: the last offer dumped for the wire, and its dump (the ``state`` is built many times an offer)
_DUMPED: list[tuple[Offer, dict[str, Any]]] = []


def offer_view(offer: Offer) -> dict[str, Any]:
    """The offer as the ``state`` and ``betting`` messages carry it (JSON, nulls left out),
    dumped once per offer: a shared dict nobody may change."""
    if _DUMPED and _DUMPED[0][0] is offer:
        return _DUMPED[0][1]
    dumped = offer.model_dump(mode="json", exclude_none=True)
    _DUMPED[:] = [(offer, dumped)]
    return dumped


def opening_refusal(core: OfferedTable) -> Refused | None:
    """The first reason a round cannot open now (docs/rules.md, procedures): the last round
    closed, the shoe ready (no cut card out, no burn due, a fresh deck where the game shuffles
    every round), the table not closed by the pit, every device the game needs online and no
    device fault uncleared; None: it may open."""
    shoe, health, own = core.shoe, core.health, core.adapter.device
    name = OPEN_ROUND
    if core.engine is not None:
        return _refused(name, "table.round.open", f"round {core.round_id} is not closed")
    if shoe.needs_new and not shoe.cut_seen:  # a game that shuffles every round
        return _refused(name, "table.shoe.shuffle", "this game deals every round from a new deck: load it first")
    if shoe.needs_new:
        return _refused(name, "table.shoe.cut", "the cut card is out: load a new shoe first")
    if shoe.burn_left > 0:
        return _refused(name, "table.shoe.burn", f"burn {shoe.burn_left} more card(s) out of the new shoe first")
    if core.closing:
        return _refused(name, "table.closing", "the pit closed the table after the last round")
    if core.adapter.uses_shoe and not health.online(SHOE):
        return _refused(name, "device.shoe.offline", "the shoe has not reported since the table started")
    if own is not None and not health.online(own):
        return _refused(name, f"device.{own}.offline", f"the {own} has not reported since the table started")
    faults = health.faults()
    if faults:
        said = ", ".join(f"{device} ({fault})" for device, fault in sorted(faults.items()))
        return _refused(name, "device.fault", f"device fault not cleared: {said}")
    return None


def open_round_refusal(core: OfferedTable) -> Refused | None:
    """The offer's answer to ``open_round`` now (None: it takes it), without building the offer
    where no hold is shown: ``build_offer`` then takes it exactly when ``opening_refusal`` finds
    no reason, and refuses it with that reason (a round opens once a round, the offer is built
    for what reads it)."""
    if core.outage is None and core.hold is None:
        return opening_refusal(core)
    offer = build_offer(core)
    if offer.take(OPEN_ROUND) is not None:
        return None
    return offer.refusal(OPEN_ROUND) or _refused(OPEN_ROUND, "table.round.not_now",
                                                 f"a round cannot open now: {offer.prompt}")


def _takes(core: OfferedTable, shown: Hold | None) -> tuple[list[Take], list[Refused]]:
    if shown is not None:
        return _held(core, shown)
    if core.keyin is not None:
        cards = tuple(c for c in DECK if core.shoe.composition.left(c) > 0)
        key = _take(KEY_CARD, cards=cards)
        takes, refused = _between_rounds(core) if core.engine is None else _round(core, core.engine)
        return [key, *takes], refused  # the round's own go on meanwhile (the console shows the picker)
    if core.engine is None:
        return _between_rounds(core)
    return _round(core, core.engine)


def _round(core: OfferedTable, engine: Engine) -> tuple[list[Take], list[Refused]]:
    """A round is open: what its engine expects, and a way out of it; no round or shoe opens."""
    early = [] if core.phase == SETTLING else [_refused(SETTLE, "table.settle.early", "the round has bets still to settle")]
    takes = _in_round(core, engine)
    seat = core.seats.seats.get(takes[0].constraints.box or 0) if takes and takes[0].constraints.seated else None
    if seat is not None:  # the studio's decide of the seated player is taken; the dealer's is refused
        early.append(_refused(DECIDE, "table.seat.remote_decides",
                              f"box {takes[0].constraints.box}: {seat.name} decides (a remote player)"))
    return takes + [_take(VOID_ROUND)], [
        *_not_opening(core), _refused(NEW_SHOE, "table.round.open", f"finish round {core.round_id} before a new shoe"),
        *early]


def _held(core: OfferedTable, hold: Hold) -> tuple[list[Take], list[Refused]]:
    """A hold's own ways out (only a pit boss takes those of a hold only the pit releases); every
    other round command is refused until one is taken. The journal's disk being full refuses all."""
    if hold is core.outage:
        return [], [_refused(name, hold.code, f"{name.replace('_', ' ')} refused: {hold.message}")
                    for name in _HELD_BACK]
    takes = [_take(option, pit_only=True) if hold.pit_only else _take(option) for option in hold.options]
    return takes, list(_held_back(hold.code, tuple(hold.options)))


def _not_opening(core: OfferedTable) -> list[Refused]:
    refusal = opening_refusal(core)
    return [refusal] if refusal is not None else []


def _between_rounds(core: OfferedTable) -> tuple[list[Take], list[Refused]]:
    """No round: a round once it may open (see ``opening_refusal``), a new shoe where a shoe deals."""
    refusal = opening_refusal(core)
    takes = [_take(OPEN_ROUND)] if refusal is None else []
    if core.adapter.uses_shoe or core.shoe.needs_new:
        takes.append(_take(NEW_SHOE))
    return takes, [refusal] if refusal is not None else []


def _in_round(core: OfferedTable, engine: Engine) -> list[Take]:
    """What the engine expects now (cards come from the shoe)."""
    expect = engine.expects()
    if expect.kind is ExpectKind.BETS:
        kinds = tuple(core.adapter.view.bet_kinds(core.rules, core.adapter.bet_kind))
        boxes = tuple(range(1, int(getattr(core.rules, "boxes", 7)) + 1))
        takes = [_take(BET, boxes=boxes, kinds=kinds, deadline=core.betting.deadline), _take(CLEAR_BETS, boxes=boxes)]
        return takes + ([_take(CLOSE_BETTING)] if core.adapter.uses_shoe else [])  # a wheel closes its own
    if expect.kind is ExpectKind.DECISION:
        if expect.box is None:
            return []
        seat, turn = core.seats.seats.get(expect.box), core.seats.turn
        seated = seat if seat is not None and turn is not None and turn.box == expect.box else None
        return [_take(DECIDE, box=expect.box, hand=expect.hand or 1, options=tuple(expect.options),
                      seated=seated.player if seated is not None else None)]
    if expect.kind is ExpectKind.RESULT:
        keys = core.adapter.view.result_keys(engine)
        return [] if keys is None else [_take(KEY_RESULT, numbers=tuple(str(n) for n in keys["numbers"]))]
    if expect.kind is ExpectKind.DONE and core.phase == SETTLING:
        return [_take(SETTLE)]
    return []


def _prompt(core: OfferedTable, hold: Hold | None) -> str:
    """The dealer's instruction (docs/console.md)."""
    shoe = core.shoe
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
