"""What a snapshot may build is decided by each class's kind, not by a hand-kept list of
modules: the runtime classes that live beside the state machine in controller/table are refused
(the old list missed the output writer and the admission's rate limits)."""

from __future__ import annotations

import pickle

import pytest

from controller.games.blackjack.rules import blackjack_rules
from controller.process import FeedListener
from controller.runtime import snapshot
from controller.runtime.admission import Admission
from controller.runtime.loop import TableLoop
from controller.runtime.outage import OutputWriter
from controller.runtime.snapshot import SafeUnpickler, SnapshotRefused
from controller.table.core import TableCore
from controller.table.holds import Hold
from controller.table.registry import adapter_for


def core() -> TableCore:
    return TableCore("t1", adapter_for("blackjack"), blackjack_rules("ru6"), "ru6")


@pytest.mark.parametrize("cls", [OutputWriter, Admission, FeedListener, TableLoop])
def test_runtime_classes_of_the_table_are_never_built(cls: type) -> None:
    with pytest.raises(SnapshotRefused, match=f"{cls.__module__}.{cls.__name__}"):
        SafeUnpickler(pickle.dumps(cls), core().adapter).load()


def test_the_tables_own_state_is_built() -> None:
    table = core()
    table.raise_hold("x.y", "held", ("burn",))
    loaded = snapshot.load(snapshot.dump(table), table.adapter)
    assert loaded.hold == Hold("x.y", "held", ("burn",), 0) and loaded.round.rounds == 0
