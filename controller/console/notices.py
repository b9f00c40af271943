"""What the pit did to this table, told to the dealer: a void, a close or a reopen, a correction
approved or rejected (docs/console.md, "The dealer is told"). Read from the journal: a pit
command, then what the table said because of it; a command the table refused is not news."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

from controller.journal import Entry
from controller.table import inputs

#: pit command -> what the dealer is told ({sender}, the command's arguments)
TOLD = {
    "void_round": "The pit ({sender}) voided round {round}",
    "close_after_round": "The pit ({sender}) closes the table after this round",
    "reopen": "The pit ({sender}) reopened the table",
    "approve_correction": "The pit ({sender}) approved correction {correction}",
    "reject_correction": "The pit ({sender}) rejected correction {correction}",
    "dismiss": "The pit ({sender}) released the hold",
}
#: what the table said because of a pit command, told instead (its amounts already in money)
DETAIL = ("round.correction_applied", "round.correction_rejected", "table.round.void")
#: the pit's latest acts kept for the dealer: an approval then a rejection are both told
KEPT = 5


@dataclass
class _Asked:
    seq: int
    text: str
    sender: str
    refused: bool = False
    detail: str = ""


class PitNotices:
    """The last ``KEPT`` things the pit did, oldest first, each ``{"seq", "text", "sender"}``; the
    page shows every one the dealer has not read yet."""

    def __init__(self) -> None:
        self.recent: deque[dict[str, Any]] = deque(maxlen=KEPT)
        self._asked: _Asked | None = None

    @property
    def latest(self) -> dict[str, Any] | None:
        """The last thing the pit did (``None`` until the pit acts)."""
        return self.recent[-1] if self.recent else None

    def on_entry(self, entry: Entry) -> None:
        if entry.kind in inputs.INPUT_KINDS:
            self.settle()
            if entry.kind == inputs.PIT_COMMAND:
                self._asked = self._read(entry)
        elif entry.kind == inputs.ALERT and self._asked is not None and entry.payload.get("cause") == self._asked.seq:
            if "refused" in entry.payload:
                self._asked.refused = True
            elif entry.payload.get("code") in DETAIL and not self._asked.detail:
                self._asked.detail = str(entry.payload.get("message") or "")

    def settle(self) -> None:
        """The pit command applied is now known to stand (the table went on, or went quiet)."""
        asked, self._asked = self._asked, None
        if asked is None or asked.refused:
            return
        self.recent.append({"seq": asked.seq, "text": asked.detail or asked.text, "sender": asked.sender})

    @staticmethod
    def _read(entry: Entry) -> _Asked | None:
        payload = entry.payload
        told = TOLD.get(str(payload.get("command")))
        if told is None:
            return None
        fields = {k: str(v) for k, v in payload.items()}
        fields.setdefault("round", "")
        fields.setdefault("correction", "")
        fields["sender"] = str(payload.get("sender") or "pit boss")
        text = told.format_map(fields)
        if payload.get("command") == "reject_correction" and payload.get("reason"):
            text += f" ({payload['reason']})"
        return _Asked(entry.seq, text, fields["sender"])
