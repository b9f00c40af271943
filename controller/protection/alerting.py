"""How a watch at a live table tells the pit: an alert journaled as an output of the table, after
the entry that caused it (its seq is the alert's ``cause``), once that entry's listeners are done."""

from __future__ import annotations

import asyncio
from typing import Any

from controller.runtime.loop import TableLoop
from controller.table import inputs
from controller.table.holds import alert


def journal_alert(loop: TableLoop, severity: str, code: str, message: str, cause: int, **detail: Any) -> None:
    """Journal the alert now (outside a listener: a watch rebuilt at start)."""
    loop.writer.write(inputs.ALERT, alert(severity, code, message, cause, **detail), loop.core.round_id)


def alert_after(loop: TableLoop, severity: str, code: str, message: str, cause: int, **detail: Any) -> None:
    """Journal the alert once the entry being told to the listeners is done with."""
    asyncio.get_running_loop().call_soon(lambda: journal_alert(loop, severity, code, message, cause, **detail))
