"""Blackjack end to end: stacked shoe on its real transport, the CSP/1 driver, the table task,
the journal. The dealer and players are scripted; every settlement is worked out by hand.

House rules ru6: 6 decks, no hole card, dealer stands on every 17 (soft 17 too), blackjack
3:2, double on any two (a double on 9/10/11 is dealt face down), surrender not against an ace,
insurance pays 2:1, even money for a blackjack against an ace.
"""

from __future__ import annotations

import pytest

from tests.integration.table.conftest import bets

R1 = ["TS", "8H", "AS", "6D", "9C", "3D", "KH", "9S", "AC"]
R2 = ["8S", "TD", "9H", "8D", "6C", "3H", "TH", "KS", "9C"]
R3 = ["AS", "TH", "AD", "KC", "7S", "QS"]


async def _round1(t) -> None:
    """Box 1 (A, 1000) 10-9 stands on 19; box 2 (B, 2000) 8-3 doubles in the dark, gets 9: 20;
    box 3 (C, 500) A-K blackjack, paid 3:2 at once (a dealer 6 cannot make blackjack).
    Dealer 6-A: soft 17, stands. A: 1000 -> 2000; B: 4000 -> 8000; C: 500 -> 1250."""
    await t.play((1, 1000, "A"), (2, 2000, "B"), (3, 500, "C"))
    assert t.prompt == "Card to box 1, hand 1"
    await t.deal("TS", "8H", "AS")
    assert t.prompt == "Card to dealer"
    await t.deal("6D", "9C", "3D", "KH")
    assert t.prompt == "Box 1, hand 1 (10♠ 9♣ vs 6♦): hit / stand / double / surrender?"
    await t.cmd("decide", box=1, action="stand", player="A")
    await t.cmd("decide", box=2, action="double", player="B")
    assert t.prompt == "Card to box 2, hand 1 (face down)"
    await t.deal("9S")
    assert t.prompt == "Dealer: draw"
    await t.deal("AC")
    assert t.prompt == "Dealer stands on 17 — settle"
    await t.cmd("settle")


async def _round2(t) -> None:
    """Box 1 (A, 1000) splits 8s: hand 1 8-3 doubles (2000), gets T: 21; hand 2 8-K stands on 18.
    Box 4 (B, 1000) T-6 surrenders against a 9: half back at once. Dealer 9-9 stands on 18.
    Hand 1: 2000 -> 4000; hand 2 pushes: 1000 -> 1000; B: 1000 -> 500."""
    await t.play((1, 1000, "A"), (4, 1000, "B"))
    await t.deal("8S", "TD", "9H", "8D", "6C")
    await t.cmd("decide", box=1, action="split", player="A")
    assert t.prompt == "Card to box 1, hand 1"
    await t.deal("3H")
    await t.cmd("decide", box=1, hand=1, action="double", player="A")
    await t.deal("TH")
    assert t.prompt == "Card to box 1, hand 2"
    await t.deal("KS")
    await t.cmd("decide", box=1, hand=2, action="stand", player="A")
    await t.cmd("decide", box=4, action="surrender", player="B")
    assert t.prompt == "Dealer: draw"
    await t.deal("9C")
    assert t.prompt == "Dealer stands on 18 — settle"
    await t.cmd("settle")


async def _round3(t) -> None:
    """Dealer ace. Box 2 (A, 1000) A-K takes even money: 2000 at once. Box 3 (B, 2000) T-7
    insures for 1000 and stands. Dealer A-Q blackjack: insurance 1000 -> 3000, main 2000 -> 0.
    The cut card comes out with the 20th card: the round is finished, then a new shoe."""
    await t.play((2, 1000, "A"), (3, 2000, "B"))
    await t.deal("AS", "TH", "AD", "KC", "7S")
    assert t.prompt == "Box 2: even money?"
    await t.cmd("decide", box=2, action="even_money", player="A")
    assert t.prompt == "Box 3: insurance?"
    await t.cmd("decide", box=3, action="insurance", player="B", amount=1000)
    await t.cmd("decide", box=3, action="stand", player="B")
    assert t.core.shoe.cut_seen
    await t.deal("QS")
    assert t.prompt == "Dealer blackjack — settle"
    await t.cmd("settle")


@pytest.mark.parametrize("port", ["serial", "usb"])
async def test_three_hand_worked_rounds(table_factory, port):
    t = await table_factory(stacked=R1 + R2 + R3, port=port, extra_shoe="cut_after = 20")
    assert t.prompt == "Open betting"
    await _round1(t)
    await _round2(t)
    await _round3(t)
    r1, r2, r3 = t.rounds()

    assert bets(r1) == [(3, 1, "main", "C", 500, 1250), (1, 1, "main", "A", 1000, 2000), (2, 1, "main", "B", 4000, 8000)]
    assert (r1["stake_total"], r1["payout_total"]) == (5500, 11250)
    assert r1["outcome"]["dealer"]["cards"] == ["6D", "AC"]
    assert [h["cards"] for b in r1["outcome"]["boxes"] for h in b["hands"]] == [["TS", "9C"], ["8H", "3D", "9S"], ["AS", "KH"]]

    assert bets(r2) == [(4, 1, "main", "B", 1000, 500), (1, 1, "main", "A", 2000, 4000), (1, 2, "main", "A", 1000, 1000)]
    assert (r2["stake_total"], r2["payout_total"]) == (4000, 5500)

    assert bets(r3) == [(2, 1, "main", "A", 1000, 2000), (3, 1, "insurance", "B", 1000, 3000), (3, 1, "main", "B", 2000, 0)]
    assert (r3["stake_total"], r3["payout_total"]) == (4000, 5000)

    for i, r in enumerate((r1, r2, r3), 1):
        assert r["round"] == f"t1-{i:06d}" and r["status"] == "settled" and r["table"] == "t1"
        assert r["v"] == 1 and r["game"] == "blackjack" and r["corrections"] == []
        assert set(r) == {"v", "table", "round", "game", "opened", "closed", "status", "outcome", "bets",
                          "stake_total", "payout_total", "corrections", "dealer", "shoe", "shoe_round"}
        assert (r["dealer"], r["shoe"], r["shoe_round"]) == (None, "t1-shoe-1", i)  # nobody signed in
        assert r["opened"] <= r["closed"]

    # cut card: the round was finished, now a new shoe is required before the next round
    assert t.prompt == "Cut card is out: load a new shoe"
    await t.cmd("open_round")
    assert t.alerts()[-1]["code"] == "table.shoe.cut"
    await t.cmd("new_shoe")
    assert t.firmware.applied[-2:] == ["SHOE", "LOCK"]
    assert t.prompt == "Open betting" and t.core.shoe.last_n == 0


async def test_gate_locked_while_bets_are_open(table_factory):
    t = await table_factory(stacked=R1)
    await t.cmd("open_round")
    assert t.firmware.locked and t.firmware.draw() is None
    await t.cmd("bet", box=1, amount=1000, player="A")
    await t.cmd("close_betting")
    assert not t.firmware.locked
    assert t.firmware.applied[-2:] == ["LOCK", "UNLOCK"]


async def test_refused_bet_is_an_alert_and_changes_nothing(table_factory):
    t = await table_factory(stacked=R1)
    await t.cmd("open_round")
    await t.cmd("bet", box=1, amount=50, player="A")  # under the table minimum of 100
    await t.cmd("bet", box=9, amount=500, player="A")  # ru6 has 7 boxes
    assert [a["code"] for a in t.alerts()] == ["blackjack.bet.limits", "blackjack.bet.box"]
    assert all(a["severity"] == "warning" and not a["hold"] for a in t.alerts())
    await t.cmd("bet", box=1, amount=500, player="A")
    await t.cmd("close_betting")
    await t.deal("TS", "8H", "AS")  # box 1, dealer up, box 1: a blackjack, paid 3:2 at once
    assert t.prompt == "No live hands — settle"
    await t.cmd("settle")
    assert bets(t.rounds()[0]) == [(1, 1, "main", "A", 500, 1250)]
