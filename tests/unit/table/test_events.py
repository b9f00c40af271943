"""Journaled device events come back as the drivers' own models: every event class of every
driver round-trips through its journal form (``model_dump(mode="json")``) to an equal model of
the same class, events sharing a ``type`` (the shoe's and the wheel's ``fault``, the spots'
``refused``) included; and no payload makes the parser raise anything but ``NotAnEvent``."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.table.events import EVENT_CLASSES, NotAnEvent, parse_event
from drivers.events import DeviceEvent, Refused
from drivers.shoe.events import ShoeFault
from drivers.spots.events import SpotRefused
from drivers.wheel.events import Fault


def test_every_driver_event_class_is_in_the_union():
    names = {cls.__name__ for cls in EVENT_CLASSES}
    assert {"CardDrawn", "NoRead", "CutCard", "LostCard", "ShoeStatus", "ShoeFault", "Hello", "SpotPress",
            "SpotOnline", "SpotRefused", "WinningNumberEvent", "Void", "Fault", "Recovered", "DeviceOnline",
            "DeviceOffline", "Refused"} <= names


@pytest.mark.parametrize("cls", EVENT_CLASSES, ids=lambda c: c.__name__)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_each_event_round_trips_through_its_journal_form(cls, data):
    event = data.draw(st.builds(cls))
    back = parse_event(event.model_dump(mode="json"))
    assert type(back) is cls and back == event


@pytest.mark.parametrize(("event", "cls"), [
    (ShoeFault(code=3, text="jam"), ShoeFault),
    (Fault(reason="reported", code=3), Fault),
    (Refused(device="shoe", reason="n=4 read twice", raw="CARD;AH;4"), Refused),
    (SpotRefused(device="spot-2", reason="spot.bad_amount", spot=2, detail="amount 1.5"), SpotRefused),
])
def test_a_shared_type_is_told_apart_by_its_fields(event, cls):
    assert type(parse_event(event.model_dump(mode="json"))) is cls


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                           max_leaves=8)
types = st.sampled_from(sorted({str(c.model_fields["type"].default) for c in EVENT_CLASSES})) | st.text(max_size=8)


@settings(max_examples=300, deadline=None)
@given(kind=types, fields=st.dictionaries(st.sampled_from(["device", "card", "n", "spot", "reason", "code", "text",
                                                           "number", "spin", "raw", "detail", "state"]),
                                          json_values, max_size=5))
def test_any_payload_is_an_event_or_not_an_event(kind, fields):
    try:
        event = parse_event({"type": kind, **fields})
    except NotAnEvent as exc:
        assert str(exc)
    else:
        assert isinstance(event, DeviceEvent) and event.type == kind
