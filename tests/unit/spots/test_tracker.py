"""Sequence, presence and refusal rules of the bet-spot session, without a broker."""

from __future__ import annotations

import itertools
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from drivers.spots import SpotOnline, SpotPress, SpotRefused, SpotTracker

T = "croupier/bj1/spot"


def press(spot: int, seq: int, button: str = "hit", device: str | None = None) -> tuple[str, bytes, bool]:
    body = {"v": 1, "device": device or f"spot-{spot}", "seq": seq, "button": button}
    return f"{T}/{spot}/press", json.dumps(body).encode(), False


def online(spot: int, value: bytes, retain: bool = False) -> tuple[str, bytes, bool]:
    return f"{T}/{spot}/online", value, retain


def run(tracker: SpotTracker, *messages: tuple[str, bytes, bool]) -> list[object]:
    return [event for m in messages for event in tracker.handle(*m)]


def summary(events: list[object]) -> list[tuple[object, ...]]:
    out: list[tuple[object, ...]] = []
    for e in events:
        if isinstance(e, SpotPress):
            out.append(("press", e.spot, e.seq))
        elif isinstance(e, SpotRefused):
            out.append(("refused", e.reason))
        elif isinstance(e, SpotOnline):
            out.append(("online", e.spot, e.online))
    return out


def test_seq_at_or_below_the_last_is_a_duplicate() -> None:
    t = SpotTracker("bj1")
    events = run(t, press(3, 118), press(3, 118), press(3, 117), press(3, 119), press(4, 1))
    assert summary(events) == [("press", 3, 118), ("refused", "duplicate"), ("refused", "duplicate"),
                               ("press", 3, 119), ("press", 4, 1)]
    assert t.refusals == {"duplicate": 2}


def test_reboot_restarts_at_one_only_after_a_live_announcement() -> None:
    t = SpotTracker("bj1")
    run(t, press(3, 5))
    assert summary(run(t, press(3, 1))) == [("refused", "duplicate")]  # no announcement yet
    assert summary(run(t, online(3, b"1", retain=True), press(3, 1))) == [("online", 3, True), ("refused", "duplicate")]
    assert summary(run(t, online(3, b"0"), online(3, b"1"), press(3, 1), press(3, 2))) == [
        ("online", 3, False), ("online", 3, True), ("press", 3, 1), ("press", 3, 2)]


def test_reconnect_resends_after_the_announcement_stay_duplicates() -> None:
    """paho announces in on_connect, then resends its unacknowledged presses."""
    t = SpotTracker("bj1")
    run(t, press(2, 1), press(2, 2), press(2, 3))
    assert summary(run(t, online(2, b"1"), press(2, 2), press(2, 3), press(2, 4))) == [
        ("online", 2, True), ("refused", "duplicate"), ("refused", "duplicate"), ("press", 2, 4)]
    t2 = SpotTracker("bj1")
    run(t2, press(2, 1))
    assert summary(run(t2, online(2, b"1"), press(2, 1))) == [("online", 2, True), ("refused", "duplicate")]


def test_restore_seeds_watermarks_from_the_journal() -> None:
    t = SpotTracker("bj1")
    t.restore("spot-3", 40)
    assert summary(run(t, press(3, 40), press(3, 41))) == [("refused", "duplicate"), ("press", 3, 41)]


def test_wrong_device_unknown_spot_retained_and_bad_topics() -> None:
    t = SpotTracker("bj1", spots=range(1, 8))
    topic, payload, _ = press(3, 1)
    events = run(t, press(3, 1, device="spot-4"), press(9, 1), (topic, payload, True),
                 (f"{T}/3/lamp", b"{}", False), ("croupier/bj1/other", b"", False), online(3, b"yes"))
    assert summary(events) == [("refused", r) for r in
                               ("wrong_device", "unknown_spot", "retained_press", "bad_topic", "bad_topic", "invalid_online")]
    assert events[0].spot == 3 and events[0].device == "spot-3"  # type: ignore[attr-defined]
    assert events[4].spot is None  # type: ignore[attr-defined]
    assert not t.last_seq  # nothing applied


def test_presence_reports_changes_only() -> None:
    t = SpotTracker("bj1")
    assert summary(run(t, online(1, b"1", True), online(1, b"1"), online(1, b"0"), online(1, b"0"))) == [
        ("online", 1, True), ("online", 1, False)]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["press", "online", "junk"]), st.integers(1, 3), st.integers(1, 6),
                          st.booleans(), st.binary(max_size=20)), max_size=40))
def test_any_sequence_applies_each_device_seq_at_most_once_between_announcements(ops: list) -> None:
    t = SpotTracker("bj1")
    applied: list[tuple[int, int]] = []
    for op, spot, seq, flag, junk in ops:
        if op == "press":
            message = press(spot, seq)
        elif op == "online":
            message = online(spot, b"1" if flag else b"0", retain=not flag)
        else:
            message = (f"{T}/{spot}/press", junk, flag)
        for e in t.handle(*message):
            if isinstance(e, SpotPress):
                applied.append((e.spot, e.seq))
    for spot in (1, 2, 3):
        seqs = [s for sp, s in applied if sp == spot]
        # strictly rising except for resets to 1 (reboots)
        assert all(b > a or b == 1 for a, b in itertools.pairwise(seqs))


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=60), st.sampled_from([f"{T}/3/press", f"{T}/3/online", f"{T}/0/press"])),
       st.binary(max_size=80), st.booleans())
def test_any_message_is_an_event_or_a_counted_refusal(topic: str, payload: bytes, retain: bool) -> None:
    t = SpotTracker("bj1", spots=range(1, 8))
    events = t.handle(topic, payload, retain)
    refused = [e for e in events if isinstance(e, SpotRefused)]
    assert sum(t.refusals.values()) == len(refused) and len(events) <= 1
