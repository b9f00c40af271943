"""The base of every board's data: frozen, typed, and dumped as plain JSON for the pages.

A board never carries ``None``: a value that may be unknown is either left out of the model or
told by an explicit field (a count of 0, an empty list, a flag).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict


class Board(BaseModel):
    """A frozen model whose ``as_json()`` is plain JSON (lists, dicts, str, int, bool)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    def as_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")
