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
* ``studio``      a message of the remote players' studio (``seal``, ``settled``) as the feed
                  validated it (``controller/commands/studio.py``, docs/studio.md).

Outputs (written by the table after the input that caused them; never replayed as inputs):

* ``alert``        ``{"severity", "code", "message", "cause", "hold", "options", ...}``; ``cause``
                   is the journal seq of the input that raised it.
* ``round_closed`` the PROTOCOLS §4 round record.
* ``remote_settled`` ``{"round", "count", "stake", "paid", "refunded", "drop", "win", "id"}``: what
                   the studio paid on a closed round's remote bets; the latest per round counts
                   (a correction re-settles: a new entry, never added to the first).
* ``table_started`` ``{"replayed", "written", "resumed_round", "game", "preset", "rules",
                   "hold_open_round"}`` (a round found open holds until resumed or voided): a
                   process (re)start; ``rules`` (the full rule set) is what replay uses for the
                   rounds opened after it.
"""

from __future__ import annotations

from typing import Any

from controller.commands.models import BY_NAME, DEALER_NAMES, Command
from controller.jsonbound import InputRefused

DEVICE = "device"
COMMAND = "command"
PIT_COMMAND = "pit_command"
DRAW = "draw"
STUDIO = "studio"
INPUT_KINDS = frozenset((DEVICE, COMMAND, PIT_COMMAND, DRAW, STUDIO))

ALERT = "alert"
ROUND_CLOSED = "round_closed"
REMOTE_SETTLED = "remote_settled"
TABLE_STARTED = "table_started"

def _arguments(model: type[Command]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    fields = [(k, f) for k, f in model.model_fields.items() if k != "command"]
    return tuple(k for k, f in fields if f.is_required()), tuple(k for k, f in fields if not f.is_required())


#: dealer/player commands and the argument names each takes (required, optional), read from the
#: one command model (controller/commands/models.py)
COMMANDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    name: _arguments(BY_NAME[name]) for name in DEALER_NAMES
}
__all__ = ["ALERT", "COMMAND", "COMMANDS", "DEVICE", "DRAW", "INPUT_KINDS", "PIT_COMMAND", "REMOTE_SETTLED",
           "ROUND_CLOSED", "STUDIO", "TABLE_STARTED", "InputRefused", "command"]


def command(name: str, **arguments: Any) -> dict[str, Any]:
    """A command payload, arguments with value None left out."""
    return {"command": name, **{k: v for k, v in arguments.items() if v is not None}}
