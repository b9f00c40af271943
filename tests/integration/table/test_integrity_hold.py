"""The journal's integrity hold (issue 17 item 8): only a pit boss, with a reason the journal
keeps, releases it, and the rounds opened in the damaged part still count, so no round id is
ever issued twice."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from controller.journal import Journal
from controller.runtime.recovery import INTEGRITY, replay
from controller.table import inputs
from tests.unit.table.test_core import Live, new_core, play_one_round


def _edit_behind_the_table(path: Path, sql: str) -> None:
    db = sqlite3.connect(path)
    db.execute("DROP TRIGGER events_append_only_update")
    db.execute("DROP TRIGGER events_append_only_delete")
    db.execute(sql)
    db.commit()
    db.close()


def _held_table(tmp_path: Path) -> tuple[Live, str]:
    """Three rounds played, the second one's record edited: the next start holds on it."""
    path = tmp_path / "t.journal"
    with Journal(path) as journal:
        live = Live(journal)
        for _ in range(3):
            play_one_round(live)
        assert [r["round"] for r in live.rounds()] == ["t1-000001", "t1-000002", "t1-000003"]
        second = next(e for e in journal.entries() if e.kind == inputs.ROUND_CLOSED and e.round_id == "t1-000002")
    _edit_behind_the_table(path, f"UPDATE events SET payload = replace(payload, '\"payout\":1000', "
                                 f"'\"payout\":9000') WHERE seq = {second.seq}")
    journal = Journal(path)
    core = new_core()
    result = replay(journal, core)
    assert result.integrity is not None and core.hold is not None and core.hold.code == INTEGRITY
    return Live(journal, core, online=True), "t1-000002"


def _pit(live: Live, **fields: object) -> None:
    live.put(inputs.PIT_COMMAND, {"v": 1, "id": f"c{live.journal.last_seq()}", "sender": "pitboss-ana",
                                  "command": "dismiss", **fields}, "pit:pitboss-ana")


def test_a_dealer_cannot_dismiss_the_integrity_hold_only_a_pit_boss_with_a_reason(tmp_path: Path) -> None:
    live, _ = _held_table(tmp_path)
    live.cmd("dismiss")
    assert live.core.hold is not None and live.core.hold.code == INTEGRITY
    refused = live.alerts()[-1]
    assert refused["code"] == "table.hold.pit_only" and "only a pit boss may release" in refused["message"]
    _pit(live)  # no reason
    assert live.core.hold is not None and live.alerts()[-1]["code"] == "table.hold.pit_only"
    live.cmd("open_round")
    assert live.core.round_id is None and live.alerts()[-1]["code"] == "table.hold"

    _pit(live, reason="checked against the backup: row 2 was edited")
    assert live.core.hold is None
    released = live.alerts()[-1]
    assert released["code"] == "table.dismissed" and released["by"] == "pitboss-ana"
    assert released["reason"] == "checked against the backup: row 2 was edited"
    assert "checked against the backup" in released["message"]


def test_round_ids_opened_in_the_damaged_part_are_never_issued_again(tmp_path: Path) -> None:
    live, _ = _held_table(tmp_path)
    _pit(live, reason="looked at it")
    play_one_round(live)
    ids = [e.payload["round"] for e in live.journal.entries() if e.kind == inputs.ROUND_CLOSED]
    assert ids == ["t1-000001", "t1-000002", "t1-000003", "t1-000004"], "t1-000002 was issued again"
    # and again after the next start (from the snapshot written past the damage)
    again = new_core()
    replay(live.journal, again)
    assert again.rounds == 4


def test_a_void_cannot_slip_past_the_integrity_hold(tmp_path: Path) -> None:
    path = tmp_path / "t.journal"
    with Journal(path) as journal:
        live = Live(journal)
        play_one_round(live)
        live.cmd("open_round")
        live.cmd("bet", box=1, amount=500, player="A")
        bet = journal.last_seq()
    _edit_behind_the_table(path, f"UPDATE events SET source = 'x' WHERE seq = {bet}")
    journal = Journal(path)
    core = new_core()
    replay(journal, core)
    assert core.round_id == "t1-000002" and core.hold is not None  # opened before the damage
    live = Live(journal, core, online=True)
    live.put(inputs.PIT_COMMAND, {"v": 1, "id": "c1", "sender": "boss", "command": "void_round",
                                  "round": "t1-000002"}, "pit:boss")
    live.cmd("void_round")
    assert core.hold is not None and core.hold.code == INTEGRITY
    assert [a["code"] for a in live.alerts()[-2:]] == ["table.hold.pit_only", "table.hold.pit_only"]


def test_the_console_offers_the_dealer_no_way_out_of_the_integrity_hold(tmp_path: Path) -> None:
    from controller.console.actions import legal_actions

    live, _ = _held_table(tmp_path)
    assert legal_actions(live.core) == []
    _pit(live, reason="looked at it")
    assert [a["command"] for a in legal_actions(live.core)] == ["open_round", "new_shoe"]
