"""The evidence of a ``protection.advantage_play`` alert as the back office reads it.

The evidence comes from the feed: it is data, not a contract the reports may lean on. Each
field is read through this typed model, and a value of the wrong type (a string where a count
belongs, a NaN, a boolean, a missing interval) becomes "not given" (None, or left out), never
an exception in a report and never a wrong figure.
"""

from __future__ import annotations

import math
from typing import Any, Final

from pydantic import BaseModel, ConfigDict, field_validator

#: points drawn per player at most (a chart, not a data dump)
MAX_POINTS: Final = 2000
INDEX_PLAY_KEYS: Final = ("situations", "with_count", "against_count", "missed")


def number(value: Any) -> float | None:
    """A finite int or float as a float; anything else None."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return float(value)


def count(value: Any) -> int | None:
    """An int (not a bool); anything else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


class Evidence(BaseModel):
    """One flag's evidence; every field None (or empty) when the feed gave nothing usable."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    test: str | None = None
    statistic: float | None = None
    ci: tuple[float | None, float | None] = (None, None)
    p_value: float | None = None
    rounds: int | None = None
    average_bet: int | None = None
    edge_per_hour: int | None = None
    index_plays: dict[str, int] = {}
    bets_by_count: list[tuple[float, float]] = []

    @field_validator("test", mode="before")
    @classmethod
    def _text(cls, value: Any) -> str | None:
        return value if isinstance(value, str) else None

    @field_validator("statistic", "p_value", mode="before")
    @classmethod
    def _number(cls, value: Any) -> float | None:
        return number(value)

    @field_validator("rounds", "average_bet", "edge_per_hour", mode="before")
    @classmethod
    def _count(cls, value: Any) -> int | None:
        return count(value)

    @field_validator("ci", mode="before")
    @classmethod
    def _interval(cls, value: Any) -> tuple[float | None, float | None]:
        if isinstance(value, list | tuple) and len(value) == 2:
            return number(value[0]), number(value[1])
        return None, None

    @field_validator("index_plays", mode="before")
    @classmethod
    def _plays(cls, value: Any) -> dict[str, int]:
        found = value if isinstance(value, dict) else {}
        return {k: n for k in INDEX_PLAY_KEYS if (n := count(found.get(k))) is not None}

    @field_validator("bets_by_count", mode="before")
    @classmethod
    def _points(cls, value: Any) -> list[tuple[float, float]]:
        out = []
        for item in value if isinstance(value, list) else []:
            if isinstance(item, list | tuple) and len(item) >= 2:
                tc, bet = number(item[0]), number(item[1])
                if tc is not None and bet is not None:
                    out.append((tc, bet))
        return out[:MAX_POINTS]

    @classmethod
    def read(cls, raw: Any) -> Evidence:
        """The evidence of ``raw`` (anything the database held), never raising."""
        return cls.model_validate(raw if isinstance(raw, dict) else {})
