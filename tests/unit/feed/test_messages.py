"""Message shapes: every journal entry's event, and its round or alert alongside."""

from __future__ import annotations

import json

from controller.feed import Topics
from controller.feed.messages import entry_messages, snapshot_message
from controller.journal import Entry

TOPICS = Topics("bj1")


def decoded(entry: Entry) -> list[tuple[str, dict[str, object]]]:
    return [(m.topic, json.loads(m.payload)) for m in entry_messages(TOPICS, entry)]


def test_an_ordinary_entry_is_one_event() -> None:
    entry = Entry(5, "2026-11-29T16:00:00.000Z", "r1", "card", "shoe", {"card": "QH", "n": 17})
    assert decoded(entry) == [("croupier/bj1/event", {
        "v": 1, "table": "bj1", "round": "r1", "ts": "2026-11-29T16:00:00.000Z", "seq": 5, "kind": "card",
        "source": "shoe", "payload": {"card": "QH", "n": 17},
    })]


def test_a_closed_round_is_its_event_then_its_record_with_the_seq() -> None:
    record = {"v": 1, "table": "bj1", "round": "r1", "game": "blackjack", "status": "void", "bets": [],
              "stake_total": 0, "payout_total": 0, "corrections": []}
    (first, _), (topic, body) = decoded(Entry(8, "2026-11-29T16:00:00.000Z", "r1", "round_closed", "table", record))
    assert first == "croupier/bj1/event" and topic == "croupier/bj1/round"
    assert body == {**record, "ts": "2026-11-29T16:00:00.000Z", "seq": 8}


def test_an_alert_gets_the_envelope_and_the_seq_cannot_be_overridden() -> None:
    alert = {"severity": "error", "code": "wrong_box", "message": "card to box 4", "seq": 999}
    (_, _), (topic, body) = decoded(Entry(9, "2026-11-29T16:00:00.000Z", None, "alert", "table", alert))
    assert topic == "croupier/bj1/alert"
    assert body == {"v": 1, "table": "bj1", "round": None, "ts": "2026-11-29T16:00:00.000Z",
                    "severity": "error", "code": "wrong_box", "message": "card to box 4", "seq": 9}


def test_snapshots_keep_their_own_round_and_nothing_else_of_the_envelope() -> None:
    body = snapshot_message("bj1", "r7", "T", {"phase": "betting", "round": "r8", "v": 9, "table": "x"})
    assert body == {"phase": "betting", "round": "r8", "v": 1, "table": "bj1", "ts": "T"}
    assert snapshot_message("bj1", "r7", "T", {"text": "Deal"})["round"] == "r7"


def test_topics() -> None:
    assert (TOPICS.state, TOPICS.prompt, TOPICS.ledger, TOPICS.command) == (
        "croupier/bj1/state", "croupier/bj1/prompt", "croupier/bj1/ledger", "croupier/bj1/command")
