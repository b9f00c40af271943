"""What a snapshot may build is decided by the state machine's own imports and each class's
kind, not by a hand-kept list of modules: the runtime's classes (the loop, the output writer,
the admission's rate limits) and the faces' are refused."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pytest

from controller.config import load
from controller.games.blackjack.rules import blackjack_rules
from controller.journal import Entry, Journal
from controller.process import FeedListener, build_core
from controller.runtime import snapshot
from controller.runtime.admission import Admission
from controller.runtime.devices import game_devices
from controller.runtime.loop import TableLoop
from controller.runtime.outage import OutputWriter
from controller.runtime.snapshot import SafeUnpickler, SnapshotRefused
from controller.table import inputs
from controller.table.core import TableCore
from controller.table.holds import Hold
from controller.table.registry import adapter_for

ROOT = Path(__file__).resolve().parents[3]


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


@pytest.mark.parametrize("config", sorted((ROOT / "config").glob("*.toml")), ids=lambda p: p.stem)
def test_every_game_mid_round_comes_back_from_a_snapshot(config: Path, tmp_path: Path) -> None:
    """Every example table with bets on the layout: what the snapshot builds is found by the
    state machine's own imports, for every game's engine and adapter, with no list to keep."""
    table = build_core(load(config))
    with Journal(tmp_path / "t.journal") as journal:
        def put(kind: str, payload: dict[str, Any]) -> None:
            table.step(journal.append(kind, payload, source="test", round_id=table.round_id))

        for device in game_devices(table):
            put(inputs.DEVICE, {"type": "online", "device": device, "detail": "test"})
        put(inputs.COMMAND, inputs.command("sign_in", dealer="D1"))
        put(inputs.COMMAND, inputs.command("open_round"))
        limits = table.rules.limits.get(table.adapter.bet_kind)
        unit = limits.min if limits else 100
        for kind, amount in table.adapter.simulated_bets(table.rules, 1, unit, table.rounds):
            put(inputs.COMMAND, inputs.command("bet", box=1, amount=amount, kind=kind, player="P1"))
    assert table.engine is not None and table.adapter.open_bets(table.engine)
    loaded = snapshot.load(snapshot.dump(table), table.adapter)
    assert loaded.state() == table.state() and loaded.prompt() == table.prompt()


def test_a_class_of_the_journal_is_built_only_if_it_is_data() -> None:
    """The journal is part of the state machine's imports (its entries), but it does I/O: its
    ``Entry`` is data, its ``Journal`` (which opens a file) is never built."""
    assert snapshot.state_machine()[0] >= {"controller.journal", "controller.table.core", "controller.games.base"}
    assert SafeUnpickler(pickle.dumps(Entry), core().adapter).load() is Entry
    with pytest.raises(SnapshotRefused, match="controller.journal.Journal"):
        SafeUnpickler(pickle.dumps(Journal), core().adapter).load()
