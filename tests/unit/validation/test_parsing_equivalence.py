"""The fast dealer-line and JSON-bound parsers decide exactly as the plain ones they replaced.

``split_words`` stands in for ``shlex.split``, ``json_depth`` scans by regular expressions
instead of a byte at a time, ``parse_line`` skips the JSON parser for text that cannot be JSON,
and the did-you-mean hint skips names too long to match. Each is checked here against the
plain version (shlex itself, a byte-by-byte scanner, the old line parser, unbounded difflib):
same words, same values, same refusals word for word.
"""

from __future__ import annotations

import difflib
import json
import shlex
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.commands.models import DEALER_NAMES as NAMES
from controller.commands.parse import did_you_mean
from controller.jsonbound import MAX_COMMAND_BYTES, MAX_DEPTH, check_json, json_depth
from controller.table.inputs import COMMANDS, InputRefused, command
from controller.terminal.keyboard import MAX_LINE, parse_line, split_words

MANY = settings(max_examples=1500, deadline=None)

# Characters where a shell splitter or a JSON reader could go wrong: blanks shlex splits on and
# blanks it does not (\v, \f, Unicode spaces), quotes, escapes, brackets, the first characters of
# JSON values, NUL and byte-order marks (which make json.loads read bytes as UTF-16 or UTF-32).
TRICKY = list(" \t\r\n\x0b\x0c\u2003\u00a0'\"\\=[]{}:,-0123456789.eE+tfnNIaruls\x00\ufeffé€")
tricky_text = st.text(alphabet=st.sampled_from(TRICKY) | st.characters(), max_size=40)


def outcome(parse: Any, *args: Any) -> tuple[str, str]:
    """What a parser made of its input, comparable across versions (repr: NaN is not NaN)."""
    try:
        return "ok", repr(parse(*args))
    except ValueError as exc:
        return type(exc).__name__, str(exc)


# --- the plain versions, as they were -------------------------------------------------------

def scanned_depth(data: bytes) -> int:
    """The deepest nesting of [ and { outside strings, one byte at a time."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in data:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:
                escaped = True
            elif byte == 0x22:
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return deepest


def plain_check_json(raw: str) -> Any:
    data = raw.encode()
    if len(data) > MAX_COMMAND_BYTES:
        raise InputRefused("input.too_large", f"{len(data)} bytes is more than the {MAX_COMMAND_BYTES} a command may have")
    depth = scanned_depth(data)
    if depth > MAX_DEPTH:
        raise InputRefused("input.too_deep", f"nested {depth} deep; a command nests at most {MAX_DEPTH} deep")
    try:
        return json.loads(data)
    except (UnicodeDecodeError, ValueError) as exc:
        raise InputRefused("input.malformed", f"not JSON: {exc}") from None


def plain_parse_line(line: str) -> dict[str, Any] | None:
    if len(line) > MAX_LINE:
        raise ValueError(f"line of {len(line)} characters; a command has at most {MAX_LINE}")
    words = shlex.split(line)
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
            args[key] = plain_check_json(raw)
        except InputRefused as refused:
            if refused.code != "input.malformed":
                raise ValueError(f"{key}: {refused.message}") from None
            args[key] = raw
    return command(name, **args)


# --- the properties ----------------------------------------------------------------------------

@MANY
@given(line=tricky_text)
def test_split_words_is_shlex_split(line: str) -> None:
    assert outcome(split_words, line) == outcome(shlex.split, line)


@pytest.mark.parametrize(("line", "words"), [
    ("bet box=1  amount=500\tplayer=A\r\n", ["bet", "box=1", "amount=500", "player=A"]),
    ("void_round reason='a  b' x\"y z\"w", ["void_round", "reason=a  b", 'xy zw']),
    (r'a "q\"u\\o\te" \ b' + "\\'", ["a", 'q"u\\o\\te', " b'"]),
    ("a '' \"\" b", ["a", "", "", "b"]),
    ("a\x0bb c\u2003d", ["a\x0bb", "c\u2003d"]),  # only space, tab, CR and LF part words
])
def test_split_words_by_hand(line: str, words: list[str]) -> None:
    assert split_words(line) == words == shlex.split(line)


@pytest.mark.parametrize(("line", "error"), [
    ("bet player='A", "No closing quotation"),
    ('bet player="A\\"', "No closing quotation"),
    ('bet player="A\\\\\\', "No escaped character"),
    ('bet player="A\\\\', "No closing quotation"),
    ("bet player=A\\", "No escaped character"),
    ("bet player='A\\", "No closing quotation"),
])
def test_split_words_refuses_as_shlex_does(line: str, error: str) -> None:
    with pytest.raises(ValueError, match=error):
        shlex.split(line)
    with pytest.raises(ValueError, match=error):
        split_words(line)


arguments = st.lists(st.tuples(st.sampled_from(["box", "amount", "player", "kind", "changes", "x"]), tricky_text),
                     max_size=4)


@MANY
@given(name=st.sampled_from(sorted(COMMANDS)), args=arguments, quote=st.sampled_from(["", "'", '"']))
def test_parse_line_reads_every_value_as_the_plain_parser_did(name: str, args: list[tuple[str, str]],
                                                              quote: str) -> None:
    line = " ".join([name, *(f"{key}={quote}{value}{quote}" for key, value in args)])
    assert outcome(parse_line, line) == outcome(plain_parse_line, line)


@MANY
@given(line=tricky_text)
def test_parse_line_on_any_text_is_the_plain_parser(line: str) -> None:
    assert outcome(parse_line, line) == outcome(plain_parse_line, line)


@pytest.mark.parametrize(("value", "read"), [
    ("500", 500), ("-5", -5), ("1050.5", 1050.5), ("NaN", "nan"), ("'\"1050\"'", "1050"), ("null", None),
    ("\x00" + "5", 5), ("\ufeff7", 7), ("AH", "AH"), ("true", True), ("[1,2]", [1, 2]),
])
def test_values_that_are_json_are_read_as_json(value: str, read: object) -> None:
    parsed = parse_line(f"bet amount={value}")
    assert parsed is not None
    got = parsed.get("amount")  # a null argument is left out, as if not given
    assert (str(got) == read) if read == "nan" else (got == read and type(got) is type(read)), got


def test_text_that_cannot_be_json_is_still_bounded() -> None:
    with pytest.raises(ValueError, match="player: nested 5 deep"):
        parse_line("bet box=1 player=A[[[[[")
    with pytest.raises(ValueError, match="player: 8193 bytes is more than the 8192"):
        parse_line("bet box=1 player=A" + "é" * 4096)


@MANY
@given(data=st.binary(max_size=300) | st.lists(st.sampled_from([b"[", b"]", b"{", b"}", b'"', b"\\", b"a", b" "]),
                                                 max_size=200).map(b"".join))
def test_json_depth_is_the_byte_scan(data: bytes) -> None:
    assert json_depth(data) == scanned_depth(data)


@pytest.mark.parametrize(("data", "depth"), [
    (b"[" * 2000 + b"1" + b"]" * 2000, 2000), (b'{"a":"[[[[\\"[[","b":[[1]]}', 3), (b"]]][[", 0), (b"]]][[[[[", 2),
    (b'["unclosed [[[[', 1), (b'{"k\\\\":[[2]]}', 3), (b"", 0),
])
def test_json_depth_by_hand(data: bytes, depth: int) -> None:
    assert json_depth(data) == scanned_depth(data) == depth


def test_check_json_still_refuses_deep_and_large_documents() -> None:
    with pytest.raises(InputRefused) as deep:
        check_json(b'{"command":"bet","box":' + b"[" * 4000 + b"]" * 4000 + b"}")
    assert deep.value.code == "input.too_deep" and "nested 4001 deep" in deep.value.message
    with pytest.raises(InputRefused) as large:
        check_json(b" " * (MAX_COMMAND_BYTES + 1))
    assert large.value.code == "input.too_large"


@MANY
@given(name=st.sampled_from(NAMES).flatmap(
    lambda n: st.tuples(st.text(max_size=40), st.integers(1, 4)).map(lambda t: n * t[1] + t[0])) | st.text(max_size=60))
def test_did_you_mean_is_unbounded_difflib(name: str) -> None:
    close = difflib.get_close_matches(name, NAMES, n=1)
    assert did_you_mean(name, NAMES) == (f" (did you mean {close[0]}?)" if close else "")
