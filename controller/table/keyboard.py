"""Dealer commands keyed on the terminal, one per line, until the web console exists:
``open_round``, ``bet box=1 amount=500 player=A``, ``close_betting``,
``decide box=1 action=hit``, ``key_card card=AH``, ``burn``, ``void_round``, ``settle``,
``new_shoe``, ``correct round=t1-000004 changes='[{"box":1,"hand":1,"kind":"main","payout":2500}]'
reason="blackjack paid 1:1"``. Words are split as a shell would (quotes keep blanks); values
are read as JSON where they parse (``500``), else as text (``AH``)."""

from __future__ import annotations

import asyncio
import json
import shlex
import sys
from typing import Any

from controller.table.inputs import COMMANDS, command
from controller.table.loop import TableLoop


def parse_line(line: str) -> dict[str, Any] | None:
    """A command payload, or None for a blank line; ValueError for text that is no command."""
    words = shlex.split(line)  # ValueError on an unclosed quote
    if not words:
        return None
    name, args = words[0], {}
    if name not in COMMANDS:
        raise ValueError(f"unknown command {name!r}; known: {', '.join(COMMANDS)}")
    for word in words[1:]:
        key, sep, raw = word.partition("=")
        if not sep:
            raise ValueError(f"expected key=value, got {word!r}")
        try:
            args[key] = json.loads(raw)
        except ValueError:
            args[key] = raw
    return command(name, **args)


async def read_commands(loop: TableLoop, source: str = "dealer") -> None:
    """Submit each keyed line to the table (which journals, checks and refuses as for any input)."""
    reader = asyncio.StreamReader()
    try:
        await asyncio.get_running_loop().connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    except (ValueError, OSError):  # stdin is a regular file or closed: nobody is keying
        return
    while line := await reader.readline():
        try:
            payload = parse_line(line.decode(errors="replace"))
        except ValueError as exc:
            print(f"? {exc}", flush=True)
            continue
        if payload is not None:
            loop.submit("command", payload, source)
