"""The bounded JSON parser every edge shares (dealer lines, console requests, pit commands).

``check_json`` bounds a raw JSON document's size and nesting depth by a scan *before* the parser
sees it, so no nesting can exhaust the stack and no body is parsed whole that is too large to be
a command. A refusal is an ``InputRefused``: a stable ``code`` for counts and alerts, a
``message`` that says what was wrong. Nothing here knows the table, the feed or the console.
"""

from __future__ import annotations

import json
import re
from typing import Any

#: a command's JSON form: bytes and nesting depth (a correction with 64 changes fits in 8 KB)
MAX_COMMAND_BYTES = 8192
MAX_DEPTH = 4


class InputRefused(ValueError):
    """An input refused at the edge, before it is journaled: ``code`` is stable (for counts and
    alerts), ``message`` says what was wrong and what is expected."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def check_json(raw: bytes | str, *, max_bytes: int = MAX_COMMAND_BYTES, max_depth: int = MAX_DEPTH) -> Any:
    """Parse a JSON document no larger than ``max_bytes`` and no deeper than ``max_depth``
    (checked by a scan before the parser sees it, so no nesting can exhaust the stack)."""
    data = raw.encode() if isinstance(raw, str) else raw
    check_bounds(data, max_bytes=max_bytes, max_depth=max_depth)
    try:
        return json.loads(data)
    except (UnicodeDecodeError, ValueError) as exc:
        raise InputRefused("input.malformed", f"not JSON: {exc}") from None


def check_bounds(data: bytes, *, max_bytes: int = MAX_COMMAND_BYTES, max_depth: int = MAX_DEPTH) -> None:
    """``InputRefused`` when ``data`` is larger than ``max_bytes`` or nests deeper than ``max_depth``."""
    if len(data) > max_bytes:
        raise InputRefused("input.too_large", f"{len(data)} bytes is more than the {max_bytes} a command may have")
    depth = json_depth(data) if data.count(b"[") + data.count(b"{") > max_depth else 0
    if depth > max_depth:
        raise InputRefused("input.too_deep", f"nested {depth} deep; a command nests at most {max_depth} deep")


#: a JSON string, escapes included; one left open runs to the end (nothing in it counts)
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"?', re.DOTALL)
#: a run of opening or of closing brackets
_RUN = re.compile(rb"[\[{]+|[\]}]+")


def json_depth(data: bytes) -> int:
    """The deepest nesting of ``[`` and ``{`` outside strings (an upper bound for invalid JSON).

    Strings are cut out and brackets taken a run at a time by regular expressions, so a 2,000-deep
    nest costs two steps of Python rather than 4,000 (the fuzz bench's hostile inputs)."""
    depth = deepest = 0
    for run in _RUN.findall(_STRING.sub(b"", data) if b'"' in data else data):
        if run[0] in b"[{":
            depth += len(run)
            deepest = max(deepest, depth)
        else:
            depth -= len(run)
    return deepest
