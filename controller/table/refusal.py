"""A refusal: an input the table does not act on; it becomes a warning alert and changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from controller.games.base import RuleError
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


def game_action(make: Callable[[], Any]) -> Any:
    """What ``make`` builds of the game's rules; a rule it breaks is a ``Refusal``."""
    try:
        return make()
    except RuleError as exc:
        raise Refusal(exc.rule, exc.message, exc.said) from None
