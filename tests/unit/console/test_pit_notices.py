"""What the pit did, told to the dealer: from the journal, a refused pit command is not news."""

from __future__ import annotations

from typing import Any

from controller.console.notices import PitNotices
from controller.journal import Entry
from controller.table import inputs


def entry(seq: int, kind: str, payload: dict[str, Any]) -> Entry:
    return Entry(seq, "2026-01-01T00:00:00Z", None, kind, "pit", payload)


def pit(seq: int, command: str, **args: Any) -> Entry:
    return entry(seq, inputs.PIT_COMMAND, {"v": 1, "id": f"c{seq}", "sender": "petra", "command": command, **args})


def test_a_refused_pit_command_tells_nothing_and_a_taken_one_is_told() -> None:
    notices = PitNotices()
    notices.on_entry(pit(5, "reopen"))
    notices.on_entry(entry(6, inputs.ALERT, {"code": "pit.reopen.not_closed", "cause": 5, "refused": {}}))
    notices.settle()
    assert notices.latest is None
    notices.on_entry(pit(7, "close_after_round"))
    notices.settle()
    assert notices.latest == {"seq": 7, "text": "The pit (petra) closes the table after this round", "sender": "petra"}


def test_a_rejected_correction_says_why_and_an_approval_says_the_amounts() -> None:
    notices = PitNotices()
    notices.on_entry(pit(9, "reject_correction", correction="12", reason="the camera shows 20.00 EUR paid"))
    notices.on_entry(entry(10, inputs.DEVICE, {"device": "shoe", "type": "online"}))  # the table went on
    assert notices.latest is not None
    assert notices.latest["text"] == "The pit (petra) rejected correction 12 (the camera shows 20.00 EUR paid)"
    notices.on_entry(pit(11, "approve_correction", correction=13))
    notices.on_entry(entry(12, inputs.ALERT, {"code": "round.correction_applied", "cause": 11,
                                              "message": "correction 13 of round t1-000001 approved by petra: "
                                                         "payout 20.00 EUR -> 25.00 EUR"}))
    notices.settle()
    assert notices.latest is not None and notices.latest["text"].endswith("payout 20.00 EUR -> 25.00 EUR")


def test_an_approval_then_a_rejection_are_both_kept_for_the_dealer() -> None:
    notices = PitNotices()
    notices.on_entry(pit(3, "approve_correction", correction=4))
    notices.on_entry(pit(5, "reject_correction", correction=6, reason="no camera footage"))
    notices.settle()
    assert [n["text"] for n in notices.recent] == ["The pit (petra) approved correction 4",
                                                   "The pit (petra) rejected correction 6 (no camera footage)"]
