"""A journal holding entries the table cannot apply still starts: ``croupier run`` replays it,
holds on the first bad entry (``table.entry_unapplicable`` naming its seq), the simulated dealer
takes the way out, and the rounds are played. The entries are written straight into the journal
(the edge refuses them live), one set with a round open and one between rounds."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from controller.config import load
from controller.journal import Journal
from controller.process import run_table
from controller.table import inputs
from tests.support.configs import simulated_shoe, write_table_config

ROUND_OPEN = [
    (inputs.DEVICE, {"type": "online", "device": "shoe", "detail": "before"}),
    (inputs.COMMAND, {"command": "open_round"}),
    (inputs.COMMAND, {"command": "bet", "box": 2, "amount": 500, "player": "B"}),
    (inputs.COMMAND, {"command": "bet", "box": "x", "amount": 1000, "player": "A"}),  # the issue's own line
    (inputs.COMMAND, {"command": "bet", "box": 1, "amount": 1000, "kind": ["main"]}),
]
BETWEEN_ROUNDS = [
    (inputs.DEVICE, {"type": "teleport", "device": "shoe"}),
    (inputs.DEVICE, {"type": "card", "device": "shoe", "card": "AH", "n": "one"}),
    (inputs.COMMAND, {"command": "bet", "box": "x", "amount": 1000, "player": "A"}),
]


@pytest.mark.parametrize(("entries", "way_out"), [(ROUND_OPEN, "void_round"), (BETWEEN_ROUNDS, "dismiss")],
                         ids=["round-open", "between-rounds"])
async def test_the_table_starts_on_a_journal_it_cannot_apply(tmp_path: Path, entries, way_out):
    path = write_table_config(tmp_path, table_id="hj", limits={"main": {"min": 100, "max": 100000}},
                              devices={"shoe": simulated_shoe(seed=4, gap_timeout=None)})
    config = load(path)
    with Journal(config.journal_path) as journal:
        seqs = [journal.append(kind, payload, source="hostile").seq for kind, payload in entries]

    out = io.StringIO()
    assert await run_table(config, 2, out=out) == 0

    with Journal(config.journal_path) as journal:
        written = list(journal.entries())
    raised = [e for e in written if e.kind == inputs.ALERT and e.payload["code"] == "table.entry_unapplicable"]
    assert raised and raised[0].payload["entry"] in seqs and raised[0].payload["options"] == [way_out]
    answered = [e for e in written if e.kind == inputs.COMMAND and e.payload["command"] == way_out]
    assert answered and answered[0].seq > raised[0].seq
    closed = [e.payload for e in written if e.kind == inputs.ROUND_CLOSED]
    # the round the bad entry stood in is closed void, its stakes returned; then play goes on
    statuses = ["void", "settled"] if way_out == "void_round" else ["settled", "settled"]
    assert [r["status"] for r in closed] == statuses and closed[0]["round"] == "hj-000001"
    if way_out == "void_round":
        assert [(b["box"], b["stake"], b["payout"]) for b in closed[0]["bets"]] == [(2, 500, 500)]
    assert closed[-1]["stake_total"] > 0
    assert "Traceback" not in out.getvalue()
