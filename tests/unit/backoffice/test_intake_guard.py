"""Whatever reading one message raises, the consumer keeps it as rejected with the error's
name, so it is committed and acknowledged and the stream goes on (docs/backoffice.md)."""

from __future__ import annotations

import pytest

from controller.backoffice import consumer, records


def test_a_defect_in_parsing_is_kept_as_rejected_with_its_name(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(topic: str, payload: bytes) -> list[records.Row]:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(records, "parse", broken)
    [row] = consumer.parsed("croupier/bj1/round", b"[" * 10_000)
    assert isinstance(row, records.Rejected)
    assert row.reason == "unreadable (RecursionError): maximum recursion depth exceeded"
    assert row.payload == b"[" * 4096 and row.topic == "croupier/bj1/round"
