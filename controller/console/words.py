"""What the dealer reads, in the dealer's words: no rule codes, no command names, cards with
suits, times in the table's local time zone (24 h). The page draws these strings as they are."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from controller.cards import cards_text
from controller.commands.models import BY_NAME
from controller.table.games.describe import outcome_lines

#: a card code standing alone in a table's message ("TD: no card is due")
CARD_CODE = re.compile(r"(?<![A-Za-z0-9])(10|[2-9TJQKA])([SHDC])(?![A-Za-z0-9])")


def suits_in(text: str) -> str:
    """A message with its card codes as the felt shows them (``TD`` -> ``10♦``)."""
    return CARD_CODE.sub(lambda m: cards_text([m.group(1).replace("10", "T") + m.group(2)]), text)


def command_words(name: str) -> str:
    """A command as its button says it ("void_round" -> "Void round")."""
    model = BY_NAME.get(name)
    label = model.label if model is not None and model.label else ""
    return label or name.replace("_", " ").capitalize()


def ways_out(options: Iterable[str]) -> str:
    return " or ".join(command_words(o) for o in options)


def hold_prompt(hold: Mapping[str, Any]) -> str:
    """The prompt while the table holds: what happened and the ways out, never the hold's code.
    The HOLD banner above it marks the hold and shows the held cards: each is said once."""
    message = suits_in(str(hold.get("message") or "the table holds"))
    return f"{message[:1].upper()}{message[1:]} — {ways_out(hold.get('options') or [])}"


def _local(stamp: Any, zone: str | None) -> datetime | None:
    """An ISO timestamp in ``zone`` (IANA; None: the table PC's own), None if it is not one."""
    if not isinstance(stamp, str) or not stamp:
        return None
    try:
        moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment.astimezone(ZoneInfo(zone) if zone else None) if moment.tzinfo is not None else moment


def local_time(stamp: Any, zone: str | None = None) -> str:
    """An ISO timestamp as the table's local date and 24-hour time (``2026-12-02 14:05:09``) in
    ``zone`` (IANA; None: the table PC's own); anything else as the empty string."""
    moment = _local(stamp, zone)
    return moment.strftime("%Y-%m-%d %H:%M:%S") if moment is not None else ""


def local_clock(stamp: Any, zone: str | None = None) -> str:
    """The same as the 24-hour time of day alone (``14:05:09``): what happened during the shift."""
    moment = _local(stamp, zone)
    return moment.strftime("%H:%M:%S") if moment is not None else ""


def recall_round(record: Mapping[str, Any], zone: str | None = None) -> dict[str, Any]:
    """A closed round as the console's recall shows it: the record's fields the page needs, the
    outcome as text lines (cards with suits), the close time in local 24-hour time."""
    return {
        "round": record.get("round"),
        "status": record.get("status"),
        "closed": local_time(record.get("closed"), zone),
        "dealer": record.get("dealer"),
        "lines": outcome_lines(record),
        "bets": [{"box": b.get("box"), "hand": b.get("hand", 1), "kind": b.get("kind"), "player": b.get("player") or "",
                  "stake": b.get("stake"), "payout": b.get("payout")} for b in record.get("bets") or []],
        "corrections": len(record.get("corrections") or []),
    }


def hold_view(hold: Mapping[str, Any]) -> dict[str, Any]:
    """The hold as the page shows it: its message with suits (the code stays, for tests only)."""
    return {**hold, "message": suits_in(str(hold.get("message") or ""))}
