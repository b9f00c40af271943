"""A refusal: an input the table does not act on; it becomes a warning alert and changes nothing."""

from __future__ import annotations


class Refusal(Exception):
    """``code`` is stable (for alerts and tests), ``message`` says what to do instead."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
