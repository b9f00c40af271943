"""Procedure enforcement end to end: each case holds the table with an alert code and a prompt,
nothing is settled until the dealer takes a legal way out, and nothing is silently accepted."""

from __future__ import annotations

import random

from controller.shoe import Shoe
from tests.integration.table.conftest import bets


def _hold_alerts(t):
    return [a for a in t.alerts() if a["hold"]]


async def test_dealer_draws_on_17_holds_until_burned(table_factory):
    """Box 1 (A, 1000) 10-8 stands on 18; dealer 7-Q stands on 17, then draws a 5 anyway."""
    t = await table_factory(stacked=["TS", "7C", "8S", "QD", "5H"])
    await t.play((1, 1000, "A"))
    await t.deal("TS", "7C", "8S")
    await t.cmd("decide", box=1, action="stand", player="A")
    await t.deal("QD")
    assert t.prompt == "Dealer stands on 17 — settle"
    await t.deal("5H")  # against the rules

    (held,) = _hold_alerts(t)
    assert held["code"] == "blackjack.dealer.stands" and held["severity"] == "error"
    assert held["options"] == ["burn", "void_round"] and held["cards"] == ["5H"]
    assert t.prompt == "HOLD blackjack.dealer.stands: 5H: the dealer stands on 17 — burn or void_round"
    await t.cmd("settle")  # refused while holding
    assert t.alerts()[-1]["code"] == "table.hold" and t.rounds() == []

    await t.cmd("burn")
    assert t.prompt == "Dealer stands on 17 — settle"
    await t.cmd("settle")
    (r,) = t.rounds()
    assert bets(r) == [(1, 1, "main", "A", 1000, 2000)]
    assert r["outcome"]["burned"] == ["5H"] and r["outcome"]["dealer"]["cards"] == ["7C", "QD"]


async def test_card_while_bets_are_open_voids_with_refunds(table_factory):
    """The gate jams open while bets are open: the card is refused; the dealer voids the round."""
    t = await table_factory(stacked=["KD", "2C"])
    await t.cmd("open_round")
    await t.cmd("bet", box=2, amount=1500, player="A")
    await t.cmd("bet", box=4, amount=300, player="B")
    t.firmware.locked = False  # a jammed gate
    await t.draw("KD")
    (held,) = _hold_alerts(t)
    assert held["code"] == "blackjack.card.betting_open"
    await t.cmd("bet", box=5, amount=100, player="C")  # nothing goes on while holding
    assert t.alerts()[-1]["code"] == "table.hold"
    await t.cmd("void_round", reason="card while betting open")
    (r,) = t.rounds()
    assert r["status"] == "void"
    assert bets(r) == [(2, 1, "main", "A", 1500, 1500), (4, 1, "main", "B", 300, 300)]
    assert r["stake_total"] == r["payout_total"] == 1800 and r["outcome"]["burned"] == ["KD"]
    assert t.prompt == "Open betting"


async def test_void_after_early_settlements_keeps_them_and_refunds_what_still_rides(table_factory):
    """A blackjack paid 3:2 at once and a doubled hand: a void returns only the doubled hand's
    stake, which still rides; the blackjack stays paid (RULES.md: a void never un-pays)."""
    t = await table_factory(stacked=["AS", "TD", "6H", "KC", "6S", "9D"], preset="ru6")
    await t.play((1, 1000, "A"), (2, 2000, "B"))
    await t.deal("AS", "TD", "6H", "KC", "6S")  # box 1 A-K blackjack; box 2 T-6 vs 6
    await t.cmd("decide", box=2, action="double", player="B")
    await t.cmd("void_round", reason="dealer error")
    (r,) = t.rounds()
    assert r["status"] == "void"
    assert bets(r) == [(1, 1, "main", "A", 1000, 2500), (2, 1, "main", "B", 4000, 4000)]
    assert r["outcome"]["void"]["returned"] == [1] and r["outcome"]["void"]["stands"] == [0]


async def test_impossible_card_holds_and_burn_goes_on(table_factory):
    """A one-deck table whose shoe holds a foreign second ace of spades."""
    t = await table_factory(stacked=None, rules="decks = 1")
    t.firmware.shoe = Shoe(2, random.Random(0), stacked=["AS", "KD", "AS", "9H", "7C", "TC"])
    await t.play((1, 1000, "A"))
    await t.deal("AS", "KD", "AS")
    (held,) = _hold_alerts(t)
    assert held["code"] == "shoe.impossible_card" and held["cards"] == ["AS"]
    assert t.prompt.startswith("HOLD shoe.impossible_card: AS: all 1 copies already dealt")
    await t.cmd("burn")
    assert t.prompt == "Card to box 1, hand 1"
    await t.deal("9H")  # soft 20
    await t.cmd("decide", box=1, action="stand", player="A")
    await t.deal("7C")  # dealer K-7: 17
    await t.cmd("settle")
    (r,) = t.rounds()
    assert bets(r) == [(1, 1, "main", "A", 1000, 2000)] and r["outcome"]["burned"] == ["AS"]


async def test_lost_card_holds_until_void(table_factory):
    """A CARD frame is never acknowledged and the shoe gives up on it: the driver reports a gap
    in n, the table holds; a card dealt after that joins the hold; the dealer voids."""
    t = await table_factory(stacked=["TS", "8H", "9C", "4D", "QC"])
    await t.play((1, 1000, "A"))
    await t.deal("TS")
    fw = t.firmware
    fw.max_tries = 1
    fw.tx_faults.drop_frames = 1
    assert fw.draw() == "8H"  # the dealer's up card, lost on the line
    assert fw.draw() == "9C"
    await t.loop.until(lambda core: core.hold is not None, timeout=10)
    await t.loop.settled()
    held = _hold_alerts(t)[0]
    assert held["code"] == "shoe.lost_card" and held["severity"] == "error"
    assert t.prompt.startswith("HOLD shoe.lost_card")
    await t.loop.until(lambda core: core.hold is not None and len(core.hold.cards) == 2, timeout=5)
    assert [c for c, _ in t.core.hold.cards] == ["?", "9C"]
    assert t.rounds() == []
    await t.cmd("void_round", reason="lost card")
    (r,) = t.rounds()
    assert r["status"] == "void" and bets(r) == [(1, 1, "main", "A", 1000, 1000)]


async def test_noread_is_keyed_in_and_checked(table_factory):
    """Box 1's second card leaves unread; the dealer keys it in (a wrong key for a card the
    one-deck shoe cannot hold any more is refused) and the round goes on."""
    t = await table_factory(stacked=["AS", "KD", "AH", "9C", "8C"], rules="decks = 1")
    await t.play((1, 1000, "A"))
    await t.deal("AS", "KD")
    t.firmware.noread_next = 1
    await t.draw("AH")
    assert t.prompt == "Card 3 not read: key it in"
    assert t.alerts()[-1]["code"] == "shoe.noread"
    await t.cmd("key_card", card="AS")  # already dealt: impossible in one deck
    assert t.alerts()[-1]["code"] == "shoe.impossible_card" and t.core.keyin == 3
    await t.cmd("key_card", card="ah")
    assert t.prompt == "Box 1, hand 1 (A♠ A♥ vs K♦): hit / stand / double / split / surrender?"
    await t.cmd("decide", box=1, action="stand", player="A")  # soft 12
    await t.deal("9C")  # dealer K-9: 19
    await t.cmd("settle")
    (r,) = t.rounds()
    assert bets(r) == [(1, 1, "main", "A", 1000, 0)]
    assert r["outcome"]["boxes"][0]["hands"][0]["cards"] == ["AS", "AH"]


async def test_an_empty_shoe_without_its_cut_card_holds_and_ends_the_shoe(table_factory):
    """The CUT frame never reached the table (a power loss ate it; here: a stacked shoe with no
    cut card). The dealer's 12 needs a card the empty shoe cannot give: the shoe's EMPTY status
    holds the round instead of leaving it waiting, and the shoe ends with it."""
    t = await table_factory(stacked=["TS", "8H", "9C", "4D"])
    await t.play((1, 1000, "A"))
    await t.deal("TS", "8H", "9C")
    await t.cmd("decide", box=1, action="stand", player="A")
    await t.deal("4D")  # dealer 8-4: 12, draws; nothing is left
    assert t.firmware.state == "EMPTY"
    await t.loop.until(lambda core: core.hold is not None, timeout=10)
    await t.loop.settled()
    held = _hold_alerts(t)[0]
    assert held["code"] == "shoe.empty" and held["options"] == ["burn", "void_round"]
    assert [a["code"] for a in t.alerts()].count("shoe.cut_missed") == 1
    assert t.rounds() == [] and t.core.shoe.cut_seen
    await t.cmd("void_round", reason="shoe empty")
    (r,) = t.rounds()
    assert r["status"] == "void" and bets(r) == [(1, 1, "main", "A", 1000, 1000)]
    assert t.core.shoe.needs_new and t.core.hold is None
    await t.cmd("open_round")  # refused: the shoe is finished
    assert t.core.engine is None
    await t.cmd("new_shoe")
    assert not t.core.shoe.empty and not t.core.shoe.needs_new
