"""The table's inputs and outputs as journal entries: kinds, and the commands people give.

Inputs (replayed on start, in journal order, through the same core as live):

* ``device``      a device event, ``payload`` = the driver's event (``type`` card, noread, cut,
                  lost_card, shoe_status, fault, online, offline, hello, refused; the wheel's
                  place_bets ... winning_number, void, fault, recovered); ``source`` the device.
* ``command``     a dealer or player command, ``payload`` = ``{"command": name, ...arguments}``
                  (``correct``: ``round``, ``reason``, ``changes`` = ``[{box, hand, kind,
                  player (optional), payout}]``, the corrected payouts of that closed round);
                  ``source`` says who (``dealer``, ``player:<id>``, ``sim-dealer``, ...).
* ``pit_command`` a pit-boss command as the feed validated it (``PitCommand.journal_payload()``).
* ``draw``        a random draw the table made from ``secrets`` (roulette multipliers), journaled
                  before the result can be known; replay applies it, never draws again.

Outputs (written by the table after the input that caused them; never replayed as inputs):

* ``alert``        ``{"severity", "code", "message", "cause", "hold", "options", ...}``; ``cause``
                   is the journal seq of the input that raised it.
* ``round_closed`` the PROTOCOLS §4 round record.
* ``table_started`` ``{"replayed", "written", "resumed_round", "game", "preset", "rules",
                   "hold_open_round"}`` (a round found open holds until resumed or voided): a
                   process (re)start; ``rules`` (the full rule set) is what replay uses for the
                   rounds opened after it.
"""

from __future__ import annotations

from typing import Any

DEVICE = "device"
COMMAND = "command"
PIT_COMMAND = "pit_command"
DRAW = "draw"
INPUT_KINDS = frozenset((DEVICE, COMMAND, PIT_COMMAND, DRAW))

ALERT = "alert"
ROUND_CLOSED = "round_closed"
TABLE_STARTED = "table_started"

#: dealer/player commands and the argument names each takes (required, optional)
COMMANDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "open_round": ((), ()),
    "bet": (("box", "amount"), ("kind", "player")),
    "clear_bets": (("box",), ("player",)),
    "close_betting": ((), ()),
    "decide": (("box", "action"), ("hand", "player", "amount")),
    "settle": ((), ()),
    "key_card": (("card",), ()),
    "burn": ((), ()),
    "void_round": ((), ("reason",)),
    "new_shoe": ((), ()),
    # a correction of a closed round's payouts, pending until the pit approves it
    "correct": (("round", "changes", "reason"), ()),
    # a game's own commands, turned into engine actions by its adapter (``game_action``)
    "exchange": (("box", "discard"), ("player",)),
    "misdeal": (("target", "cards_dealt"), ("dealer_cards",)),
    "key_result": (("number",), ()),
    # who deals (the console's sign-in), and the way out of a pause
    "sign_in": (("dealer",), ()),
    "sign_out": ((), ()),
    "resume": ((), ()),
    # the way out of a hold on a journal entry the table could not apply (nothing to undo)
    "dismiss": ((), ()),
}


class InputRefused(ValueError):
    """An input refused at the edge, before it is journaled: ``code`` is stable (for counts and
    alerts), ``message`` says what was wrong and what is expected."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class BadCommand(ValueError):
    """A command the table cannot even read (unknown name, missing or extra argument)."""


def check_command(payload: dict[str, Any]) -> str:
    """The command's name, once its arguments are the ones it takes."""
    name = payload.get("command")
    if name not in COMMANDS:
        raise BadCommand(f"unknown command {name!r}; known: {', '.join(COMMANDS)}")
    required, optional = COMMANDS[name]
    given = set(payload) - {"command"}
    missing = set(required) - given
    extra = given - set(required) - set(optional)
    if missing or extra:
        raise BadCommand(f"{name}: missing {sorted(missing)}, unexpected {sorted(extra)}")
    return str(name)


def command(name: str, **arguments: Any) -> dict[str, Any]:
    """A command payload, arguments with value None left out."""
    return {"command": name, **{k: v for k, v in arguments.items() if v is not None}}
