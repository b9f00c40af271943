"""Rejecting a pending correction at the table (controller/table/corrections.py)."""

from __future__ import annotations

import pytest

from controller.commands.models import Change
from controller.table.corrections import CorrectionBook
from controller.table.refusal import Refusal

RECORD = {"round": "t1-000001", "status": "settled", "corrections": [], "payout_total": 500,
          "bets": [{"box": 1, "hand": 1, "kind": "main", "player": "A", "stake": 500, "payout": 500}]}


def UNBOUNDED(kind: str, stake: int) -> int:
    return 10**12


def test_a_rejected_correction_leaves_the_pending_list_and_cannot_be_approved() -> None:
    book = CorrectionBook()
    book.closed(dict(RECORD))
    book.request("t1-000001", [Change(box=1, hand=1, kind="main", payout=1000)], "misread", bound=UNBOUNDED,
                 seq=4, source="dealer",
                 ts="2026-01-01T00:00:00+00:00")
    assert book.pending()[0]["changes"] == [{"box": 1, "hand": 1, "kind": "main", "player": "A", "stake": 500,
                                             "before": 500, "after": 1000}]
    request = book.reject("4", "pat", "camera shows otherwise", ts="2026-01-01T00:01:00+00:00")
    assert (request["status"], request["rejected_by"], request["rejection"]) == ("rejected", "pat",
                                                                                "camera shows otherwise")
    assert book.pending() == [] and book.records["t1-000001"]["payout_total"] == 500
    with pytest.raises(Refusal) as refused:
        book.approve("4", "pat", seq=9, ts="2026-01-01T00:02:00+00:00")
    assert refused.value.code == "pit.approve_correction.rejected"
    with pytest.raises(Refusal) as again:
        book.reject("4", "pat", "twice", ts="2026-01-01T00:02:00+00:00")
    assert again.value.code == "pit.reject_correction.rejected"
    # the dealer may ask again
    book.request("t1-000001", [Change(box=1, hand=1, kind="main", payout=0)], "lost", bound=UNBOUNDED,
                 seq=11, source="dealer",
                 ts="2026-01-01T00:03:00+00:00")
    assert [c["correction"] for c in book.pending()] == [11]
