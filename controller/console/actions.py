"""What the console offers now, who may do it, and the edge check of what the page sends.

``legal_actions`` draws the table's offer (``core.offer``: what it takes now, decided in
controller/table/offer.py alone); the page is sent the offer's refusals too, so it says why
something is not offered (the table still checks everything again when it applies the input).
``ConsoleRequest`` is the one shape a page may send; ``check_request`` refuses, before anything
is journaled, a command the signed-in role may not give, one not offered now, or arguments of
the wrong type or size (docs/console.md, docs/security.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError

from controller.auth import Role
from controller.cards import CardError, parse_card
from controller.commands import models as cmd
from controller.commands.models import BY_NAME, DEALER, PIT, Command, Name
from controller.commands.parse import parse_order
from controller.console.betform import chips
from controller.console.words import command_words
from controller.jsonbound import InputRefused
from controller.records.offer import Take
from controller.table.core import TableCore

#: commands a dealer gives at the console (the table journals them as ``command`` inputs)
DEALER_COMMANDS = frozenset(name for name, m in BY_NAME.items() if DEALER in m.givers)
#: what only a pit boss may do (journaled as ``pit_command`` inputs with the user as sender)
PIT_COMMANDS = frozenset(name for name, m in BY_NAME.items() if m.givers == {PIT})
#: commands that are legal whatever the table is doing (sign-in at a shift change, recall)
ALWAYS = frozenset(name for name, m in BY_NAME.items() if not m.round_bound) - PIT_COMMANDS


class RequestRefused(Exception):
    """A console request refused at the edge: never journaled."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class ConsoleRequest(BaseModel):
    """One command from the page: ``cseq`` (client sequence) and ``round`` make it idempotent;
    ``command`` and ``args`` are read into the command's model (controller/commands/), the one
    the dealer line and the pit read too."""

    model_config = ConfigDict(extra="forbid", strict=True)
    type: Literal["command"]
    cseq: int = Field(ge=1, le=2**53)
    round: Name | None
    command: Annotated[str, Field(max_length=64)]
    args: dict[str, Any] = {}
    _order: Command | None = PrivateAttr(default=None)

    @property
    def order(self) -> Command:
        assert self._order is not None, "a request is made by parse_request"
        return self._order


def parse_request(raw: Any) -> ConsoleRequest:
    """The page's message and its command, or ``RequestRefused`` (the command's refusal is the
    same sentence the dealer line and the pit give)."""
    try:
        request = ConsoleRequest.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        raise RequestRefused("console.request", f"{where}: {err['msg']}") from None
    model = BY_NAME.get(request.command)
    giver = PIT if model is not None and model.givers == {PIT} else DEALER
    try:
        request._order = parse_order({**request.args, "command": request.command}, giver)
    except InputRefused as refused:
        raise RequestRefused(refused.code, refused.message) from None
    return request


def _button(command: str | type[Command], label: str = "", style: str = "", **args: Any) -> dict[str, Any]:
    """A button of ``command`` (a model: its own label unless ``label`` says otherwise)."""
    if isinstance(command, str):
        model = BY_NAME.get(command)
        label = label or (model.label if model is not None and model.label else command.replace("_", " ").capitalize())
    else:
        model, label = command, label or command.label
    return {"command": model.name() if model is not None else command, "label": label, "style": style, "args": args}


def legal_actions(core: TableCore) -> list[dict[str, Any]]:
    """The table's offer (``core.offer``, controller/table/offer.py) as buttons and pickers the
    page draws: what to show is decided here, what the table takes is the offer's alone."""
    offer = core.offer
    shown = offer.takes
    if core.keyin is not None and core.hold is None:  # the card picker, and a way out of the round only
        shown = tuple(t for t in offer.takes if t.command in (cmd.KeyCard.name(), cmd.VoidRound.name()))
    buttons: list[dict[str, Any]] = []
    for take in shown:
        draw = _DRAWN.get(take.command)
        if take.constraints.pit_only:  # only the pit dashboard releases it (by a pit boss, with a reason)
            continue
        if draw is None:  # a hold's way out
            buttons.append(_button(take.command, style="danger" if take.command == cmd.VoidRound.name() else "primary"))
        else:
            buttons += draw(core, take)
    return buttons


def refusals(core: TableCore) -> list[dict[str, str]]:
    """Why the table refuses what it does not take now (the offer's), for the page to say so."""
    return [{"command": r.command, "label": command_words(r.command), "code": r.code, "reason": r.reason}
            for r in core.offer.refused]


def _key_card(core: TableCore, take: Take) -> list[dict[str, Any]]:
    """The card picker: the cards this shoe can still hold."""
    return [{"command": take.command, "label": f"Key in card {core.keyin}", "widget": "cards",
             "cards": list(take.constraints.cards or ()), "args": {}}]


def _new_shoe(core: TableCore, take: Take) -> list[dict[str, Any]]:
    """The new shoe: the one thing to do when the shoe needs one, else a confirmed aside."""
    if core.closing or (core.shoe.burn_left > 0 and not core.shoe.needs_new):
        return []  # nothing while closing, nor while the burn cards are pulled
    if core.shoe.needs_new:
        return [_button(cmd.NewShoe, style="primary")]
    return [_button(cmd.NewShoe, "New shoe", "confirm")]


def _bet(core: TableCore, take: Take) -> list[dict[str, Any]]:
    """The bet form (or, for a game keyed on its own layout like roulette's, no button of its own)."""
    kinds = list(take.constraints.kinds or ())
    if not kinds:
        return [{**_button(cmd.Bet), "elsewhere": True}]
    return [{**_button(cmd.Bet), "widget": "bet", "kinds": kinds, "boxes": len(take.constraints.boxes or ()),
             "chips": chips(core.rules.limits, kinds, core.currency[1])}]


def _decide(core: TableCore, take: Take) -> list[dict[str, Any]]:
    """A button per option of the box that decides."""
    box, hand = take.constraints.box, take.constraints.hand or 1
    if take.constraints.seated:  # a remote player decides that box (the prompt counts the time down)
        return []
    return [_button(cmd.Decide, f"Box {box}: {option.replace('_', ' ')}", "primary", box=box, hand=hand, action=option)
            for option in take.constraints.options or ()]


def _key_result(core: TableCore, take: Take) -> list[dict[str, Any]]:
    """The result keys of a game keyed by hand (a wheel's numbers)."""
    assert core.engine is not None
    keys = core.adapter.view.result_keys(core.engine)
    label = keys["label"] if keys is not None else ""
    return [{**_button(cmd.KeyResult, label), "widget": "numbers", "numbers": list(take.constraints.numbers or ())}]


def _plain(label: str = "", style: str = "primary") -> Callable[[TableCore, Take], list[dict[str, Any]]]:
    return lambda core, take: [_button(take.command, label, style)]


#: how the console draws each command the offer takes (a hold's ways out: a plain button); a
#: command drawn as nothing (clear_bets: the bet spots' and the felt's) is still taken
_DRAWN: dict[str, Callable[[TableCore, Take], list[dict[str, Any]]]] = {
    cmd.KeyCard.name(): _key_card,
    cmd.OpenRound.name(): _plain(),
    cmd.NewShoe.name(): _new_shoe,
    cmd.Bet.name(): _bet,
    cmd.ClearBets.name(): lambda core, take: [],
    cmd.CloseBetting.name(): _plain(),
    cmd.Decide.name(): _decide,
    cmd.KeyResult.name(): _key_result,
    cmd.Settle.name(): lambda core, take: [_button(cmd.Settle, core.adapter.view.settle_label, "primary")],
    cmd.VoidRound.name(): _plain("Void round", "danger"),
}


def check_request(core: TableCore, role: Role, request: ConsoleRequest) -> dict[str, Any]:
    """The command's arguments once the role may give it and the table takes it now; else
    ``RequestRefused`` with the reason shown to the dealer."""
    return checked_order(core, role, request).arguments()


def checked_order(core: TableCore, role: Role, request: ConsoleRequest) -> Command:
    """The command's model once the role may give it and the table takes it now; else
    ``RequestRefused`` with the reason shown to the dealer."""
    order, name = request.order, request.command
    if name in PIT_COMMANDS and role != "pit_boss":
        raise RequestRefused("console.role", f"{command_words(name)} is for the pit boss only")
    if order.round_bound:
        _check_taken_now(core, request)
    if isinstance(order, cmd.KeyCard):
        return _keyed_card(core, order)
    return order


def _check_taken_now(core: TableCore, request: ConsoleRequest) -> None:
    """A round's command: of the round the screen showed, and offered now."""
    if request.round != core.round_id:
        raise RequestRefused("console.stale", f"the screen showed round {request.round or 'none'}, the table is "
                                              f"at {core.round_id or 'no round'}: look again")
    offer = core.offer
    take = offer.take(request.command)
    if take is None or take.constraints.pit_only or take.constraints.seated:  # the pit's, a remote player's
        refused = offer.refusal(request.command)
        raise RequestRefused("console.not_now", f"{command_words(request.command)} is not possible now: "
                                                f"{refused.reason if refused is not None else offer.prompt}")


def _keyed_card(core: TableCore, order: cmd.KeyCard) -> cmd.KeyCard:
    """A keyed-in card, written the card's own way, once this shoe can still hold it."""
    try:
        card = parse_card(order.card)
    except CardError as exc:
        raise RequestRefused("console.card", str(exc)) from None
    if core.shoe.composition.left(card) == 0:
        raise RequestRefused("shoe.impossible_card", f"{card} cannot be in this shoe any more")
    return order.model_copy(update={"card": card})
