"""Logging: one line per event, plain or JSON, at the level asked for."""

from __future__ import annotations

import io
import json
import logging

import pytest

from controller.logs import configure


def test_json_lines_one_per_event_even_with_an_exception() -> None:
    out = io.StringIO()
    handler = configure("info", as_json=True, stream=out)
    try:
        log = logging.getLogger("controller.test")
        log.debug("not shown")
        log.warning("cannot open %s: check the cable", "/dev/ttyUSB9")
        try:
            raise OSError("no such device")
        except OSError:
            log.exception("shoe lost")
    finally:
        logging.getLogger().removeHandler(handler)
    lines = out.getvalue().splitlines()
    assert len(lines) == 2
    first, second = (json.loads(line) for line in lines)
    assert (first["level"], first["logger"], first["message"]) == (
        "warning", "controller.test", "cannot open /dev/ttyUSB9: check the cable")
    assert second["message"] == "shoe lost" and "OSError: no such device" in second["error"]


def test_plain_lines_stay_one_line_and_configuring_again_replaces() -> None:
    out = io.StringIO()
    configure("debug", stream=io.StringIO())
    handler = configure("warning", stream=out)
    try:
        logging.getLogger("x").warning("two\nlines")
    finally:
        logging.getLogger().removeHandler(handler)
    assert out.getvalue().count("\n") == 1 and "WARNING x: two\\nlines" in out.getvalue()


def test_a_bad_level_is_refused() -> None:
    with pytest.raises(ValueError, match="one of debug, info, warning, error"):
        configure("loud")
