"""The console's roulette countdown and the studio's ``betting`` leaf show the same deadline: the
journaled open plus the table's betting time."""

from __future__ import annotations

from types import SimpleNamespace

from controller.games.roulette.view import BettingWindow
from controller.records import BettingMessage
from controller.table import inputs, view
from controller.table.betting import BettingTime, later
from tests.unit.studio.table_helpers import roulette_live


def test_the_console_counts_down_to_the_journaled_deadline() -> None:
    live = roulette_live(BettingTime(betting_s=15, remote=True))
    stepped = SimpleNamespace(core=live.core, applied_hooks=[])
    window = BettingWindow(stepped)
    live.cmd("open_round")
    opened = next(e for e in live.journal.latest(inputs.COMMAND))
    window.applied(live.core, opened)
    shown = window.view()
    assert shown is not None and shown["ends"] == later(opened.ts, 15) == live.core.betting.deadline
    assert shown["window_s"] == 15
    leaf = view.betting(live.core)
    assert leaf["deadline"] == shown["ends"] and leaf["status"] == "open" and leaf["remote"] is True
    BettingMessage.model_validate({**leaf, "v": 1, "table": "rl", "ts": opened.ts})


def test_without_a_betting_time_the_window_is_measured_as_before() -> None:
    live = roulette_live(BettingTime())
    window = BettingWindow(SimpleNamespace(core=live.core, applied_hooks=[]))
    live.cmd("open_round")
    window.applied(live.core, next(e for e in live.journal.latest(inputs.COMMAND)))
    shown = window.view()
    assert shown is not None and shown["ends"] is None
    assert view.betting(live.core)["deadline"] is None
