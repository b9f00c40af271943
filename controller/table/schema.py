"""The edge check of a dealer or console command, kept at its old place: the models and their
limits are controller/commands/ (one command model for the dealer, the console and the pit), and
the bounded JSON parser is controller/jsonbound.py; both are re-exported here for old imports.

``checked_command`` turns a payload into its canonical journal form or raises ``InputRefused``
with a stable code and a sentence the dealer can act on.
"""

from __future__ import annotations

from typing import Any

from controller.commands.models import DEALER_NAMES, EXPECTED, MAX_AMOUNT, MAX_BOX, MAX_CHANGES, MAX_HAND, PRINTABLE
from controller.commands.parse import did_you_mean, parse_order
from controller.jsonbound import MAX_COMMAND_BYTES, MAX_DEPTH, InputRefused, check_bounds, check_json, json_depth

#: every dealer command name, in the order the dealer's help lists them
NAMES: tuple[str, ...] = DEALER_NAMES

__all__ = ["EXPECTED", "MAX_AMOUNT", "MAX_BOX", "MAX_CHANGES", "MAX_COMMAND_BYTES", "MAX_DEPTH", "MAX_HAND", "NAMES",
           "PRINTABLE", "InputRefused", "check_bounds", "check_json", "checked_command", "json_depth"]


def checked_command(payload: Any) -> dict[str, Any]:
    """The command in its journal form (unset arguments left out), or ``InputRefused``."""
    return parse_order(payload).journal_form()


def _did_you_mean(name: Any) -> str:
    return did_you_mean(name, NAMES)
