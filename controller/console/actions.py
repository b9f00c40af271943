"""What the console offers now, who may do it, and the edge check of what the page sends.

``legal_actions`` reads the table state and the engine's ``expects()``: only what the table
would take now is offered (the table still checks everything again when it applies the input).
``ConsoleRequest`` is the one shape a page may send; ``check_request`` refuses, before anything
is journaled, a command the signed-in role may not give, one not offered now, or arguments of
the wrong type or size (docs/console.md, docs/security.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError

from controller.auth import Role
from controller.cards import DECK, CardError, parse_card
from controller.commands import models as cmd
from controller.commands.models import BY_NAME, DEALER, PIT, Command, Name
from controller.commands.parse import parse_order
from controller.console.betform import chips
from controller.console.words import command_words
from controller.games.base import Expect, ExpectKind
from controller.jsonbound import InputRefused
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
    """The actions the table takes now, as buttons and pickers the page draws: those of the first
    state in ``_STATES`` the table is in."""
    offer = next(offer for applies, offer in _STATES if applies(core))
    return offer(core)


def _held(core: TableCore) -> list[dict[str, Any]]:
    """A hold's own ways out; none at the console when only the pit dashboard releases it (by a
    pit boss with a reason)."""
    assert core.hold is not None
    if core.hold.pit_only:
        return []
    return [_button(o, style="danger" if o == cmd.VoidRound.name() else "primary") for o in core.hold.options]


def _keying_in(core: TableCore) -> list[dict[str, Any]]:
    """The card picker (the cards this shoe can still hold), and a way out of a round."""
    picker = {"command": "key_card", "label": f"Key in card {core.keyin}", "widget": "cards",
              "cards": [c for c in DECK if core.shoe.composition.left(c) > 0], "args": {}}
    return [picker] + ([_button(cmd.VoidRound, "Void round", "danger")] if core.engine is not None else [])


def _between_rounds(core: TableCore) -> list[dict[str, Any]]:
    """No round: a new shoe when the shoe needs one, else a round (nothing while closing, nor
    while the burn cards are pulled through the gate or from the simulator panel)."""
    if core.closing:
        return []
    if core.shoe.needs_new:
        return [_button(cmd.NewShoe, style="primary")]
    if core.shoe.burn_left > 0:
        return []
    return [_button(cmd.OpenRound, style="primary")] + (
        [_button(cmd.NewShoe, "New shoe", "confirm")] if core.adapter.uses_shoe else [])


def _in_round(core: TableCore) -> list[dict[str, Any]]:
    """What the engine expects now, and a way out of the round."""
    assert core.engine is not None
    expect = core.engine.expects()
    offer = _EXPECTED.get(expect.kind)
    return (offer(core, expect) if offer is not None else []) + [_button(cmd.VoidRound, "Void round", "danger")]


def _bets(core: TableCore, expect: Expect) -> list[dict[str, Any]]:
    """The bet form (or, for a game keyed on its own layout like roulette's, no button of its
    own), and closing the betting where a shoe deals."""
    kinds = core.adapter.view.bet_kinds(core.rules, core.adapter.bet_kind)
    bet = ({**_button(cmd.Bet), "widget": "bet", "kinds": kinds, "boxes": int(getattr(core.rules, "boxes", 7)),
            "chips": chips(core.rules.limits, kinds, core.currency[1])}
           if kinds else {**_button(cmd.Bet), "elsewhere": True})
    return [bet] + ([_button(cmd.CloseBetting, style="primary")] if core.adapter.uses_shoe else [])


def _decisions(core: TableCore, expect: Expect) -> list[dict[str, Any]]:
    """A button per option of the box that decides (none when no one box does)."""
    if expect.box is None:
        return []
    return [_button(cmd.Decide, f"Box {expect.box}: {option.replace('_', ' ')}", "primary",
                    box=expect.box, hand=expect.hand or 1, action=option) for option in expect.options]


def _result(core: TableCore, expect: Expect) -> list[dict[str, Any]]:
    """The result keys of a game keyed by hand (a wheel's numbers), if it has them."""
    assert core.engine is not None
    keys = core.adapter.view.result_keys(core.engine)
    if keys is None:
        return []
    return [{**_button(cmd.KeyResult, keys["label"]), "widget": "numbers", "numbers": keys["numbers"]}]


def _settle(core: TableCore, expect: Expect) -> list[dict[str, Any]]:
    return [_button(cmd.Settle, core.adapter.view.settle_label, "primary")]


Offer = Callable[[TableCore], list[dict[str, Any]]]
#: the table's states, first match wins: (is the table in it, what it offers there)
_STATES: tuple[tuple[Callable[[TableCore], bool], Offer], ...] = (
    (lambda core: core.hold is not None, _held),
    (lambda core: core.keyin is not None, _keying_in),
    (lambda core: core.engine is None, _between_rounds),
    (lambda core: True, _in_round),
)
#: in a round, what the console offers for what the engine expects (cards come from the shoe)
_EXPECTED: dict[ExpectKind, Callable[[TableCore, Expect], list[dict[str, Any]]]] = {
    ExpectKind.BETS: _bets,
    ExpectKind.DECISION: _decisions,
    ExpectKind.RESULT: _result,
    ExpectKind.DONE: _settle,
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
    if request.command not in {a["command"] for a in legal_actions(core)}:
        raise RequestRefused("console.not_now", f"{command_words(request.command)} is not possible now: {core.prompt()}")


def _keyed_card(core: TableCore, order: cmd.KeyCard) -> cmd.KeyCard:
    """A keyed-in card, written the card's own way, once this shoe can still hold it."""
    try:
        card = parse_card(order.card)
    except CardError as exc:
        raise RequestRefused("console.card", str(exc)) from None
    if core.shoe.composition.left(card) == 0:
        raise RequestRefused("shoe.impossible_card", f"{card} cannot be in this shoe any more")
    return order.model_copy(update={"card": card})
