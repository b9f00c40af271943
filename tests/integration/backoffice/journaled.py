"""A table's round corrected the way a table corrects it, in a real journal (controller/journal.py,
keyed or not), and the feed messages its real feed builds from that journal (controller/feed/):
for the back office's tests of corrected versions."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.commands.models import Change
from controller.feed.messages import Message, Topics, entry_messages
from controller.feed.proof import correction_proof
from controller.journal import Journal
from controller.table.corrections import CorrectionBook
from tests.integration.backoffice.feed import round_record

KEY = b"k" * 32


@dataclass(frozen=True)
class Corrected:
    """The round's first record and its corrected record as journaled, and every feed message."""

    first: dict[str, Any]
    corrected: dict[str, Any]
    messages: list[Message]


def journal_record(body: dict[str, Any]) -> dict[str, Any]:
    """A feed round message's record as the table journals it (the feed adds ``ts`` and ``seq``)."""
    return {k: v for k, v in body.items() if k not in ("ts", "seq")}


def corrected_round(path: Path, table: str = "bj1", n: int = 1, *, key: bytes | None = KEY,
                    payout: int = 2000) -> Corrected:
    """Round ``n`` closed (paid 0), the dealer's ``correct``, the pit's ``approve_correction`` and
    the corrected record, journaled in order as the table writes them."""
    first = round_record(table, n, seq=1, stake=1000, payout=0)
    book = CorrectionBook()
    with Journal(path, exclusive=True, key=key) as journal:
        closed = journal.append("round_closed", journal_record(first), source="table", round_id=first["round"],
                                ts=first["ts"])
        book.closed(journal_record(first))
        change = Change(box=1, hand=1, kind="main", payout=payout, player="p1")
        request = journal.append("command", {"command": "correct", "round": first["round"], "reason": "misread",
                                             "changes": [change.model_dump()]}, source="dealer")
        book.request(first["round"], [change], "misread", bound=lambda kind, stake: 10**12, seq=request.seq,
                     source="dealer", ts=request.ts)  # any payout: the back office's checks are under test
        approve = journal.append("pit_command", {"v": 1, "id": "pit-1", "sender": "anna",
                                                 "command": "approve_correction", "correction": request.seq},
                                 source="pit:anna")
        _, corrected = book.approve(request.seq, "anna", seq=approve.seq, ts=approve.ts)
        journal.append("round_closed", corrected, source="table", round_id=first["round"])
        topics = Topics(table)
        messages = [m for entry in journal.entries()
                    for m in entry_messages(topics, entry, correction_proof(journal, entry)
                                            if entry.kind == "round_closed" else None)]
    return Corrected({**first, "seq": closed.seq}, corrected, messages)
