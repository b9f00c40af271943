"""A refusal: an input the table does not act on; it becomes a warning alert and changes nothing."""

from __future__ import annotations

from controller.money import Worded, worded


class Refusal(Exception):
    """``code`` is stable (for alerts and tests), ``message`` says what to do instead; ``said``,
    when the refusal names money, says it with the table's currency (``text``)."""

    def __init__(self, code: str, message: str, said: Worded | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.said = said

    def text(self, currency: str, digits: int = 2) -> str:
        return worded(self.message, self.said, currency, digits)
