"""The typed outcome of a round (docs/architecture.md, "Layers"): what ``Engine.outcome()`` returns.

Each game declares its outcome as frozen pydantic models built on ``Outcome``; ``record()`` is the
JSON the round record carries (docs/protocols.md §4), field for field and in the same order as
the dict the engines returned before, so journals and feeds read exactly as they did. A record
read back (recall, the pit, the printer) is parsed with ``from_record`` into the same model, so
every consumer reads fields by name and never guesses a shape.

For code written against the dict, an outcome also reads as a read-only mapping of its record
(``outcome["dealer"]``, ``{**outcome}``); new code reads the fields.
"""

from __future__ import annotations

from collections.abc import KeysView, Mapping
from typing import Any, Self

from pydantic import BaseModel, ConfigDict, ValidationError


class Outcome(BaseModel):
    """Base of every game's outcome model and of the parts it is made of."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    def record(self) -> dict[str, Any]:
        """The outcome as the round record's ``outcome`` JSON."""
        return self.model_dump(mode="json")

    @classmethod
    def from_record(cls, data: Any) -> Self | None:
        """The model of a record's ``outcome`` (keys the table adds, such as ``burned``, are
        ignored); None for one that does not fit (a record of another version)."""
        if not isinstance(data, Mapping):
            return None
        try:
            return cls.model_validate(data)
        except ValidationError:
            return None

    # ---- read-only mapping of the record, for code written against the dict
    def keys(self) -> KeysView[str]:
        return self.record().keys()

    def __getitem__(self, key: str) -> Any:
        return self.record()[key]

    def __contains__(self, key: object) -> bool:
        return key in type(self).model_fields

    def get(self, key: str, default: Any = None) -> Any:
        return self.record().get(key, default)
