"""Catch a Wave end to end: a stacked 8-deck shoe with a cut card on a pty (and on the pyusb
backend), the CSP/1 driver, the table task, the journal. Players are scripted; the dealer's calls
are the table's prediction (docs/rules.md §3): first call higher on 7 or lower, lower on 8 or higher;
after a right call higher on 4 or lower, stand on 5..10, lower on J or higher. Rank order 2 low
... A high.
"""

from __future__ import annotations

import pytest

from tests.integration.table.conftest import bets
from tests.integration.table_games.conftest import hold_alerts, open_with_bets

LIMITS = "main = { min = 100, max = 100000 }"
BETS = ((1, "main", 1000, "A"), (2, "main", 2000, "B"), (3, "main", 500, "C"))

# first cards box 1, 2, 3, dealer; then the calls' cards in play order
R1 = ["5H", "KD", "8S", "9C", "9D", "3C", "KS", "6H"]
R2 = ["2D", "QH", "7D", "4S", "5C", "9S", "3D", "2C"]
R3 = ["2S", "KC", "4H", "6C", "8D", "TD", "QC", "AH"]


async def _round1(t) -> None:
    """Up to the dealer standing (the dealer settles next). A (1000) 5: higher 9 right, lower 3
    right, stands on 2. B (2000) K: lower, a K: equal loses at once. C (500) stands on 8 with 0.
    Dealer 9 calls lower: 6 right (1); on a 6 he stands.
    A 2 right vs 1: pays 1:1 -> 2000. C 0 vs 1: loses."""
    await open_with_bets(t, *BETS)
    assert t.prompt == "Card to box 1"
    await t.deal("5H", "KD", "8S")
    assert t.prompt == "Card to dealer"
    await t.deal("9C")
    assert t.prompt == "Box 1 (5H, 0 right calls, dealer 9C): stand, higher or lower?"
    await t.cmd("decide", box=1, action="higher", player="A")
    assert t.prompt == "Box 1 calls higher — card"
    await t.deal("9D")
    await t.cmd("decide", box=1, action="lower", player="A")
    await t.deal("3C")
    await t.cmd("decide", box=1, action="stand", player="A")
    await t.cmd("decide", box=2, action="lower", player="B")
    await t.deal("KS")
    assert t.prompt == "Box 3 (8S, 0 right calls, dealer 9C): stand, higher or lower?"
    await t.cmd("decide", box=3, action="stand", player="C")
    assert t.prompt == "Dealer calls lower — card"
    await t.deal("6H")
    assert t.prompt == "Dealer stands on 1 right calls — settle"


@pytest.mark.parametrize("port", ["serial", "usb"])
async def test_three_hand_worked_rounds_then_the_cut_card(game_table, port):
    t = await game_table(game="catch-a-wave", stacked=R1 + R2 + R3, limits=LIMITS, port=port, cut_after=20)
    await _round1(t)
    await t.cmd("settle")

    # Round 2. A 2: higher 5, higher 9, stands on 2. B Q: lower 3, stands on 1. C stands on 7.
    # Dealer 4 calls higher and draws a 2: wrong. Every live bet wins 1:1.
    await open_with_bets(t, *BETS)
    await t.deal("2D", "QH", "7D", "4S")
    for action, card in (("higher", "5C"), ("higher", "9S")):
        await t.cmd("decide", box=1, action=action, player="A")
        await t.deal(card)
    await t.cmd("decide", box=1, action="stand", player="A")
    await t.cmd("decide", box=2, action="lower", player="B")
    await t.deal("3D")
    await t.cmd("decide", box=2, action="stand", player="B")
    await t.cmd("decide", box=3, action="stand", player="C")
    assert t.prompt == "Dealer calls higher — card"
    await t.deal("2C")
    assert t.prompt == "Dealer called wrong — live bets win — settle"
    await t.cmd("settle")

    # Round 3. A alone (1000) from a 2: six right calls higher (4 6 8 T Q A) catch the wave, 6:1 at
    # once: 7000. No live bet is left, the dealer does not play. The cut card (after card 20)
    # came out during the round: the round is finished, then a new shoe is required.
    await open_with_bets(t, (1, "main", 1000, "A"))
    await t.deal("2S", "KC")
    for card in R3[2:]:
        await t.cmd("decide", box=1, action="higher", player="A")
        await t.deal(card)
    assert t.core.shoe.cut_seen
    assert t.prompt == "No live bets — settle"
    await t.cmd("settle")
    assert t.prompt == "Cut card is out: load a new shoe"

    r1, r2, r3 = t.rounds()
    assert bets(r1) == [(2, 1, "main", "B", 2000, 0), (1, 1, "main", "A", 1000, 2000), (3, 1, "main", "C", 500, 0)]
    assert (r1["stake_total"], r1["payout_total"]) == (3500, 2000)
    assert bets(r2) == [(1, 1, "main", "A", 1000, 2000), (2, 1, "main", "B", 2000, 4000),
                        (3, 1, "main", "C", 500, 1000)]
    assert (r2["stake_total"], r2["payout_total"]) == (3500, 7000)
    assert bets(r3) == [(1, 1, "main", "A", 1000, 7000)]
    assert r1["outcome"]["dealer"] == {"cards": ["9C", "6H"], "calls": ["lower"], "right_calls": 1, "wrong": False}
    assert [(b["box"], b["cards"], b["calls"], b["status"]) for b in r1["outcome"]["boxes"]] == [
        (1, ["5H", "9D", "3C"], ["higher", "lower"], "stood"), (2, ["KD", "KS"], ["lower"], "lost"),
        (3, ["8S"], [], "stood")]
    assert r3["outcome"]["boxes"][0]["status"] == "wave" and r3["outcome"]["dealer"]["cards"] == ["KC"]
    assert [r["status"] for r in (r1, r2, r3)] == ["settled"] * 3


async def test_a_card_after_the_dealer_stands_holds(game_table):
    """Round 1 again; after the dealer stands on his 6 another card comes out: hold with the
    engine's code, nothing settled until it is burned; then the settlements of round 1."""
    t = await game_table(game="catch-a-wave", stacked=R1 + ["QD"], limits=LIMITS)
    await _round1(t)
    await t.deal("QD")
    (held,) = hold_alerts(t)
    assert held["code"] == "caw.dealer.stands" and held["cards"] == ["QD"]
    assert t.prompt == "HOLD caw.dealer.stands: QD: no card is due (caw.dealer.stands) — burn or void_round"
    await t.cmd("settle")
    assert t.alerts()[-1]["code"] == "table.hold" and t.rounds() == []
    await t.cmd("burn")
    assert t.prompt == "Dealer stands on 1 right calls — settle"
    await t.cmd("settle")
    (r,) = t.rounds()
    assert bets(r) == [(2, 1, "main", "B", 2000, 0), (1, 1, "main", "A", 1000, 2000), (3, 1, "main", "C", 500, 0)]
    assert r["outcome"]["burned"] == ["QD"] and r["outcome"]["dealer"]["cards"] == ["9C", "6H"]


async def test_a_card_before_the_call_is_refused(game_table):
    """Box 1 has not called yet when a card comes out: a hold (``caw.card.no_call``); voided,
    every stake comes back."""
    t = await game_table(game="catch-a-wave", stacked=R1, limits=LIMITS)
    await open_with_bets(t, *BETS)
    await t.deal("5H", "KD", "8S", "9C", "9D")
    assert hold_alerts(t)[0]["code"] == "caw.card.no_call"
    await t.cmd("void_round", reason="card before the call")
    (r,) = t.rounds()
    assert r["status"] == "void" and r["outcome"]["burned"] == ["9D"]
    assert bets(r) == [(1, 1, "main", "A", 1000, 1000), (2, 1, "main", "B", 2000, 2000), (3, 1, "main", "C", 500, 500)]

