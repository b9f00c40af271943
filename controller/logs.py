"""Process logging, configured once at start: one line per event, plain or JSON lines.

``croupier run --log-level info --log-json`` (docs/deployment.md). Plain lines read
``2026-12-01T15:10:00.123Z WARNING controller.feed: feed t1: ...``; JSON lines carry ``ts``,
``level``, ``logger``, ``message`` (and ``error`` with the exception, on one line), so a log
shipper needs no multi-line parsing. Messages meant for the operator say what to do.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import TextIO

LEVELS = ("debug", "info", "warning", "error")
_HANDLER_NAME = "croupier"


def _stamp(created: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(created)) + f".{int(created % 1 * 1000):03d}Z"


def _one_line(text: str) -> str:
    return text.replace("\r", "\\r").replace("\n", "\\n")


class PlainFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = f"{_stamp(record.created)} {record.levelname} {record.name}: {record.getMessage()}"
        if record.exc_info:
            line += " | " + self.formatException(record.exc_info)
        return _one_line(line)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        event: dict[str, object] = {"ts": _stamp(record.created), "level": record.levelname.lower(),
                                    "logger": record.name, "message": record.getMessage()}
        if record.exc_info:
            event["error"] = self.formatException(record.exc_info)
        return json.dumps(event, ensure_ascii=False, default=str)


def configure(level: str = "info", *, as_json: bool = False, stream: TextIO | None = None) -> logging.Handler:
    """Install the one root handler (replacing an earlier one of ours); ValueError on a bad level."""
    if level.lower() not in LEVELS:
        raise ValueError(f"log level {level!r}: one of {', '.join(LEVELS)}")
    root = logging.getLogger()
    for old in [h for h in root.handlers if h.get_name() == _HANDLER_NAME]:
        root.removeHandler(old)
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.set_name(_HANDLER_NAME)
    handler.setFormatter(JsonFormatter() if as_json else PlainFormatter())
    root.addHandler(handler)
    root.setLevel(level.upper())
    logging.captureWarnings(True)
    return handler
