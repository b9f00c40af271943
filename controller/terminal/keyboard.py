"""Dealer commands keyed on the terminal, one per line, until the web console exists:
``open_round``, ``bet box=1 amount=500 player=A``, ``close_betting``,
``decide box=1 action=hit``, ``key_card card=AH``, ``burn``, ``void_round``, ``settle``,
``new_shoe``, ``correct round=t1-000004 changes='[{"box":1,"hand":1,"kind":"main","payout":2500}]'
reason="blackjack paid 1:1"``. Words are split as a shell would (quotes keep blanks); values
are read as JSON where they parse (``500``), else as text (``AH``).

``split_words`` is ``shlex.split`` done by regular expressions: the same words and the same
errors, about fifty times faster (shlex reads a character at a time in Python, which was 90% of
the cost of a keyed line)."""

from __future__ import annotations

import asyncio
import re
import sys
from typing import Any

from controller.jsonbound import check_bounds, check_json
from controller.runtime.loop import TableLoop
from controller.table.inputs import COMMANDS, InputRefused, command

#: the longest line a dealer may key (a correction with many changes fits)
MAX_LINE = 8192


def parse_line(line: str) -> dict[str, Any] | None:
    """A command payload, or None for a blank line; ValueError for text that is no command.
    The payload's values are still unchecked: ``TableLoop.submit`` checks them."""
    if len(line) > MAX_LINE:
        raise ValueError(f"line of {len(line)} characters; a command has at most {MAX_LINE}")
    words = split_words(line)  # ValueError on an unclosed quote
    if not words:
        return None
    name, args = words[0], {}
    if name not in COMMANDS:
        raise ValueError(f"unknown command {name!r}; known: {', '.join(COMMANDS)}")
    for word in words[1:]:
        key, sep, raw = word.partition("=")
        if not sep:
            raise ValueError(f"expected key=value, got {word!r}")
        args[key] = _value(key, raw)
    return command(name, **args)


#: what a JSON text may begin with: blanks, a value's first character, or (read as UTF-16 or
#: UTF-32, as ``json.loads`` reads bytes that start so) a NUL or a byte-order mark
_JSON_FIRST = frozenset(' \t\r\n{["-0123456789tfnNI\x00\ufeff')


def _value(key: str, raw: str) -> Any:
    """``raw`` read as JSON if it is JSON, else as text; ValueError if too large or too deep.
    Text that cannot start a JSON document is not handed to the JSON parser (whose refusal,
    an exception, costs more than the rest of the line)."""
    try:
        if raw[:1] in _JSON_FIRST:
            return check_json(raw)
        check_bounds(raw.encode())
    except InputRefused as refused:
        if refused.code != "input.malformed":
            raise ValueError(f"{key}: {refused.message}") from None
    return raw


#: shlex's blanks (not \v, \f or other Unicode spaces, which are part of a word)
_BLANKS = " \t\r\n"
_BLANK_RUN = re.compile(r"[ \t\r\n]+")
#: a whole word (bare characters, '...' literal, "..." with \\ and \" escaped, \x escaped), or
#: blanks, or else the stray quote or backslash that no word can take
_SCAN = re.compile(r"""((?:[^ \t\r\n'"\\]+|'[^']*'|"[^"\\]*(?:\\.[^"\\]*)*"|\\.)+)|[ \t\r\n]+|(.)""", re.DOTALL)
_QUOTED = re.compile(r"""'([^']*)'|"([^"\\]*(?:\\.[^"\\]*)*)"|\\(.)""", re.DOTALL)
_ESCAPED_IN_DOUBLE = re.compile(r'\\([\\"])')


def split_words(line: str) -> list[str]:
    """``shlex.split(line)``: the same words, the same ValueError for an unclosed quote
    ("No closing quotation") or a trailing backslash ("No escaped character")."""
    if "'" not in line and '"' not in line and "\\" not in line:
        bare = line.strip(_BLANKS)
        return _BLANK_RUN.split(bare) if bare else []
    words: list[str] = []
    for found in _SCAN.finditer(line):
        word, stray = found.groups()
        if stray is not None:
            raise ValueError(_unfinished(line, found.start()))
        if word is not None:
            words.append(_QUOTED.sub(_unquoted, word))
    return words


def _unquoted(piece: re.Match[str]) -> str:
    single, double, escaped = piece.groups()
    if single is not None:
        return str(single)
    if double is not None:
        return _ESCAPED_IN_DOUBLE.sub(r"\1", double)
    return str(escaped)


def _unfinished(line: str, at: int) -> str:
    """shlex's words for the quote or backslash at ``at`` that no word could take: a
    backslash is last on the line, or a quote is never closed (a double quote's text then
    runs to the end, and ends in a lone backslash if an odd number of them ends the line)."""
    ending = len(line) - len(line.rstrip("\\"))
    if line[at] == "\\" or (line[at] == '"' and ending % 2 == 1):
        return "No escaped character"
    return "No closing quotation"


async def read_commands(loop: TableLoop, source: str = "dealer") -> None:
    """Submit each keyed line to the table; a line it refuses is answered with ``? reason``
    and the dealer keys the next one."""
    reader = asyncio.StreamReader(limit=MAX_LINE + 2)
    try:
        await asyncio.get_running_loop().connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    except (ValueError, OSError):  # stdin is a regular file or closed: nobody is keying
        return
    while True:
        try:
            line = await reader.readline()
        except ValueError:  # longer than the limit: the rest of it is dropped too
            print(f"? line longer than {MAX_LINE} characters: not read", flush=True)
            continue
        if not line:
            return
        answer = submit_line(loop, line.decode(errors="replace"), source)
        if answer:
            print(answer, flush=True)


def submit_line(loop: TableLoop, line: str, source: str = "dealer") -> str | None:
    """Submit one keyed line; the answer to print when it is refused (``? why``), else None."""
    try:
        payload = parse_line(line)
        if payload is not None:
            loop.submit("command", payload, source)
    except InputRefused as refused:
        return f"? {refused.message}"
    except ValueError as exc:
        return f"? {exc}"
    return None
