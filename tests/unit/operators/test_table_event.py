"""The table's journal stream read into the operators' feed events: a card or number as dealt (from
the device or keyed by the dealer), the table opened or closed by the pit; nothing else, and no
entry, however shaped, raises."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from controller.studio.operators.tablefeed import table_event

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                    max_leaves=8)


def entry(kind: str, payload: dict[str, Any], seq: int = 12) -> dict[str, Any]:
    return {"v": 1, "table": "bac-1", "round": "bac-1-000003", "ts": "2026-12-05T10:00:00.000Z", "seq": seq,
            "kind": kind, "source": "shoe", "payload": payload}


def test_cards_and_numbers_as_dealt_and_the_table_opening_and_closing() -> None:
    at = {"journal_seq": 12, "ts": "2026-12-05T10:00:00.000Z"}
    assert table_event(entry("device", {"type": "card", "card": "QH", "n": 7})) == (
        "card", {"card": "QH", "source": "shoe", **at})
    assert table_event(entry("device", {"type": "winning_number", "number": "00", "spin": 4})) == (
        "number", {"number": "00", "source": "wheel", **at})
    assert table_event(entry("command", {"command": "key_card", "card": "2C"})) == (
        "card", {"card": "2C", "source": "dealer", **at})
    assert table_event(entry("command", {"command": "key_result", "number": 17})) == (
        "number", {"number": "17", "source": "dealer", **at})
    assert table_event(entry("table_started", {"replayed": 3})) == ("table_open", at)
    assert table_event(entry("pit_command", {"command": "close_after_round"})) == (
        "table_closed", {"by": "pit", "after_round": True, **at})
    assert table_event(entry("pit_command", {"command": "reopen"}))[0] == "table_open"  # type: ignore[index]


def test_what_is_not_the_operators_is_left_out() -> None:
    for kind, payload in (("device", {"type": "noread", "n": 3}), ("device", {"type": "card"}),
                          ("command", {"command": "bet", "box": 1}), ("alert", {"code": "x"}),
                          ("pit_command", {"command": "void_round"}), ("round_closed", {"round": "r"})):
        assert table_event(entry(kind, payload)) is None


@given(kind=st.sampled_from(["device", "command", "pit_command", "table_started", "studio"]) | st.text(max_size=6),
       payload=JSON)
def test_any_entry_is_an_event_or_none(kind: str, payload: Any) -> None:
    found = table_event({"seq": 1, "kind": kind, "payload": payload})
    assert found is None or (isinstance(found[0], str) and found[1]["journal_seq"] == 1)
