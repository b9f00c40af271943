"""The pit counts the remote players' drop and win beside the felt's, from the table's ledger."""

from __future__ import annotations

import json

from controller.pit.floor import floor_totals
from controller.pit.model import FloorModel
from tests.unit.pit import feed_messages as msg

REMOTE = {"remote_rounds": 2, "remote_stake_total": 1500, "remote_paid_total": 2300, "remote_refunded_total": 500}


def test_a_remote_tables_tile_and_the_floor_show_remote_drop_and_win() -> None:
    model = FloorModel()
    model.apply("croupier/rl/ledger", json.dumps(msg.ledger("rl", stake_total=10000, payout_total=9000,
                                                            **REMOTE)).encode(), 1.0)
    model.apply("croupier/bj/ledger", json.dumps(msg.ledger("bj", stake_total=4000, payout_total=3000)).encode(), 1.0)
    assert model.dropped == 0 and not model.tables["rl"].refused
    assert model.tables["rl"].tile()["remote"] == {"rounds": 2, "drop": 1000, "win": -800}
    assert model.tables["bj"].tile()["remote"] is None
    (eur,) = floor_totals(model.tables.values(), {}, 2.0, ("EUR", 2))["money"]
    assert (eur["drop"], eur["win"]) == (14000, 2000)  # the felt's, as before
    assert (eur["remote_drop"], eur["remote_win"]) == (1000, -800)
