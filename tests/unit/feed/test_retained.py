"""Retained snapshots waiting to go out: the newest per topic, under the feed's envelope, and a
body that is not JSON dropped with the reason logged, never blocking what waits beside it."""

from __future__ import annotations

import json
import logging

import pytest

from controller.feed.retained import Retained

TS = "2026-12-02T02:00:00.000Z"


def test_the_newest_value_of_a_topic_goes_out_stamped_when_it_was_set() -> None:
    retained = Retained("bj1")
    retained.put("croupier/bj1/prompt", {"text": "Deal a card to box 1"}, "bj1-000001", "2026-12-02T01:59:59.000Z")
    retained.put("croupier/bj1/prompt", {"text": "Deal a card to box 2"}, "bj1-000001", TS)
    assert retained.topics() == ["croupier/bj1/prompt"] and len(retained) == 1
    payload = retained.payload("croupier/bj1/prompt")
    assert payload is not None
    assert json.loads(payload) == {"text": "Deal a card to box 2", "v": 1, "table": "bj1", "round": "bj1-000001",
                                   "ts": TS}
    retained.sent("croupier/bj1/prompt")
    assert len(retained) == 0


def test_a_body_that_is_not_json_is_dropped_and_said_and_the_others_still_go(
        caplog: pytest.LogCaptureFixture) -> None:
    retained = Retained("bj1")
    retained.put("croupier/bj1/state", {"phase": "betting", "boxes": {1, 2}}, None, TS)  # a set: no JSON
    retained.put_payload("croupier/bj1/ledger", b'{"v":1}')
    with caplog.at_level(logging.ERROR):
        assert retained.payload("croupier/bj1/state") is None
    assert "state snapshot could not be built as JSON" in caplog.text
    assert retained.topics() == ["croupier/bj1/ledger"]
    assert retained.payload("croupier/bj1/ledger") == b'{"v":1}'


def test_a_body_given_as_how_to_build_it_is_built_once_when_sent_and_only_the_newest() -> None:
    retained = Retained("bj1")
    built: list[str] = []

    def state(phase: str) -> dict[str, str]:
        built.append(phase)
        return {"phase": phase}

    retained.put("croupier/bj1/state", lambda: state("betting"), "bj1-000001", TS)
    retained.put("croupier/bj1/state", lambda: state("dealing"), "bj1-000001", TS)  # replaces it unbuilt
    payload = retained.payload("croupier/bj1/state")
    assert payload is not None and json.loads(payload)["phase"] == "dealing"
    assert retained.payload("croupier/bj1/state") == payload  # built and encoded once
    assert built == ["dealing"]


def test_a_body_whose_build_fails_is_dropped_and_said(caplog: pytest.LogCaptureFixture) -> None:
    retained = Retained("bj1")
    retained.put("croupier/bj1/state", lambda: {}["round"], None, TS)  # a KeyError while building
    with caplog.at_level(logging.ERROR):
        assert retained.payload("croupier/bj1/state") is None
    assert "KeyError" in caplog.text and len(retained) == 0
