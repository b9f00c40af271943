"""The cursor passes an entry only when the last of its messages is acknowledged."""

from __future__ import annotations

from controller.feed.acks import AckTracker


def test_an_entry_counts_when_its_last_message_is_acknowledged() -> None:
    acks = AckTracker()
    acks.sent(seq=1)
    acks.sent()  # entry 2's event ...
    acks.sent(seq=2)  # ... and its round
    acks.sent(retained="ledger")
    acks.sent(seq=3)
    assert len(acks) == 5 and acks.entries_in_flight == 3 and acks.retained_in_flight == {"ledger"}
    assert acks.settle(pending=5) is False and acks.acked_seq is None
    assert acks.settle(pending=3) is True and acks.acked_seq == 1  # entry 2's round still out
    assert acks.settle(pending=2) is True and acks.acked_seq == 2
    assert acks.settle(pending=1) is False and acks.retained_in_flight == set()
    assert acks.settle(pending=0) is True and acks.acked_seq == 3 and len(acks) == 0


def test_nothing_acknowledged_keeps_the_saved_cursor() -> None:
    acks = AckTracker()
    assert acks.acked_seq_or(41) == 41
    acks.sent(seq=42)
    acks.settle(pending=0)
    assert acks.acked_seq_or(41) == 42
