"""What the console offers now, who may do it, and the edge check of what the page sends.

``legal_actions`` reads the table state and the engine's ``expects()``: only what the table
would take now is offered (the table still checks everything again when it applies the input).
``ConsoleRequest`` is the one shape a page may send; ``check_request`` refuses, before anything
is journaled, a command the signed-in role may not give, one not offered now, or arguments of
the wrong type or size (docs/console.md, docs/security.md).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from controller.auth import Role
from controller.cards import DECK, CardError, parse_card
from controller.games.base import ExpectKind
from controller.games.roulette.layout import wheel
from controller.table import inputs
from controller.table.core import TableCore

Name = Annotated[str, StringConstraints(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_:.+-]+$")]
Text = Annotated[str, StringConstraints(min_length=1, max_length=200)]

#: commands a dealer gives at the console (the table journals them as ``command`` inputs)
DEALER_COMMANDS = frozenset((
    "open_round", "bet", "clear_bets", "close_betting", "decide", "settle", "key_card", "burn",
    "void_round", "new_shoe", "correct", "key_result", "resume", "dismiss", "sign_in", "sign_out", "exchange",
    "misdeal",
))
#: what only a pit boss may do (journaled as ``pit_command`` inputs with the user as sender)
PIT_COMMANDS = frozenset(("close_after_round", "reopen", "approve_correction", "acknowledge_alert"))
#: commands that are legal whatever the table is doing (sign-in at a shift change, recall)
ALWAYS = frozenset(("sign_in", "sign_out", "correct"))


class RequestRefused(Exception):
    """A console request refused at the edge: never journaled."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class CommandArgs(BaseModel):
    """Every argument a console command may carry, each typed and bounded."""

    model_config = ConfigDict(extra="forbid", strict=True)
    box: int | None = Field(default=None, ge=1, le=999)
    hand: int | None = Field(default=None, ge=1, le=16)
    amount: int | None = Field(default=None, ge=1, le=10**10)
    kind: Name | None = None
    player: Name | None = None
    action: Name | None = None
    card: Annotated[str, StringConstraints(min_length=2, max_length=3)] | None = None
    number: Annotated[str, StringConstraints(min_length=1, max_length=2, pattern=r"^(00|[0-9]{1,2})$")] | None = None
    reason: Text | None = None
    round: Name | None = None
    dealer: Name | None = None
    changes: list[dict[str, int | str]] | None = Field(default=None, max_length=20)
    alert: int | None = Field(default=None, ge=1)
    correction: int | None = Field(default=None, ge=1)


class ConsoleRequest(BaseModel):
    """One command from the page: ``cseq`` (client sequence) and ``round`` make it idempotent."""

    model_config = ConfigDict(extra="forbid", strict=True)
    type: Literal["command"]
    cseq: int = Field(ge=1, le=2**53)
    round: Name | None
    command: Name
    args: CommandArgs = CommandArgs()


def parse_request(raw: Any) -> ConsoleRequest:
    try:
        return ConsoleRequest.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        raise RequestRefused("console.request", f"{where}: {err['msg']}") from None


def _button(command: str, label: str, style: str = "", **args: Any) -> dict[str, Any]:
    return {"command": command, "label": label, "style": style, "args": args}


HOLD_WORDS = {"burn": "Burn the held cards", "void_round": "Void the round", "resume": "Resume the round"}


def legal_actions(core: TableCore) -> list[dict[str, Any]]:
    """The actions the table takes now, as buttons and pickers the page draws."""
    engine = core.engine
    if core.hold is not None:
        return [_button(o, HOLD_WORDS.get(o, o.replace("_", " ").capitalize()),
                        "danger" if o == "void_round" else "primary") for o in core.hold.options]
    if core.keyin is not None:
        picker = {"command": "key_card", "label": f"Key in card {core.keyin}", "widget": "cards",
                  "cards": [c for c in DECK if core.shoe.composition.left(c) > 0], "args": {}}
        return [picker] + ([_button("void_round", "Void round", "danger")] if engine is not None else [])
    if engine is None:
        if core.closing:
            return []
        if core.shoe.needs_new:
            return [_button("new_shoe", "New shoe loaded", "primary")]
        if core.shoe.burn_left > 0:
            return []  # the burn cards are pulled through the gate (or from the simulator panel)
        actions = [_button("open_round", "Open betting", "primary")]
        if core.adapter.uses_shoe:
            actions.append(_button("new_shoe", "New shoe", "confirm"))
        return actions
    expect = engine.expects()
    actions = []
    if expect.kind is ExpectKind.BETS:
        first = core.adapter.bet_kind
        kinds = sorted(core.rules.limits, key=lambda k: (k != first, k)) or [first]
        actions.append({"command": "bet", "label": "Key a bet", "widget": "bet", "kinds": kinds, "args": {}})
        if core.adapter.uses_shoe:
            actions.append(_button("close_betting", "Close betting", "primary"))
    elif expect.kind is ExpectKind.DECISION and expect.box is not None:
        for option in expect.options:
            actions.append(_button("decide", f"Box {expect.box}: {option.replace('_', ' ')}", "primary",
                                   box=expect.box, hand=expect.hand or 1, action=option))
    elif expect.kind is ExpectKind.RESULT and getattr(engine, "balls", None):
        roulette: Any = engine
        numbers = sorted(wheel(roulette.rules.wheel).pockets, key=lambda p: (p not in ("0", "00"), int(p), p))
        actions.append({"command": "key_result", "label": f"Key in ball {len(roulette.balls) + 1}",
                        "widget": "numbers", "numbers": numbers, "args": {}})
    elif expect.kind is ExpectKind.DONE:
        label = "Confirm result — settle" if core.adapter.game == "roulette" else "Settle"
        actions.append(_button("settle", label, "primary"))
    actions.append(_button("void_round", "Void round", "danger"))
    return actions


def check_request(core: TableCore, role: Role, request: ConsoleRequest) -> dict[str, Any]:
    """The command's arguments once the role may give it and the table takes it now; else
    ``RequestRefused`` with the reason shown to the dealer."""
    name = request.command
    if name in PIT_COMMANDS:
        if role != "pit_boss":
            raise RequestRefused("console.role", f"{name} is for the pit boss only")
    elif name not in DEALER_COMMANDS and not (core.hold is not None and name in core.hold.options
                                              and name in inputs.COMMANDS):
        raise RequestRefused("console.command", f"unknown command {name!r}")
    if request.round != core.round_id and name not in ALWAYS and name not in PIT_COMMANDS:
        raise RequestRefused("console.stale", f"the screen showed round {request.round or 'none'}, the table is at "
                                              f"{core.round_id or 'no round'}: look again")
    args = request.args.model_dump(exclude_none=True)
    if name not in PIT_COMMANDS and name not in ALWAYS:
        offered = {a["command"] for a in legal_actions(core)}
        if name not in offered:
            raise RequestRefused("console.not_now", f"{name.replace('_', ' ')} is not possible now: {core.prompt()}")
    if name == "key_card":
        try:
            card = parse_card(str(args.get("card", "")))
        except CardError as exc:
            raise RequestRefused("console.card", str(exc)) from None
        if core.shoe.composition.left(card) == 0:
            raise RequestRefused("shoe.impossible_card", f"{card} cannot be in this shoe any more")
        args["card"] = card
    return args
