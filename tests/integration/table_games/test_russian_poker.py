"""Russian five-card poker with card exchange end to end: one stacked deck per round on a pty,
the CSP/1 driver, the table task, the journal; a new deck after every round.

Deal: five passes, each one card to every box with an Ante (box order) and one to the dealer; the
dealer's last card is face up. Raise = 2 x Ante; exchange costs one Ante (kept) and loses the
Bonus. Dealer qualifies with Ace-King or better. Raise pays pair 1:1, flush 5:1; Bonus flush 50:1.
A box voided by a misdeal gets its bets back plus half its Ante. Settlements appear in the order
they happen: exchange fees and folds as decided, misdeals as declared, then the showdown.
"""

from __future__ import annotations

from tests.integration.table.conftest import bets
from tests.integration.table_games.conftest import hold_alerts, open_with_bets, restack

LIMITS = 'ante = { min = 100, max = 100000 }\nbonus = { min = 100, max = 50000 }'

# box 1 2H 5H 8H JH KH (flush); box 2 AS KS 7S 3S 9D (exchanges 9D for 6S: flush);
# box 3 2C 4D 7C 9H JD (jack high); dealer QC QD 5C 3D 8S (pair of queens, 8S up)
R1 = ["2H", "AS", "2C", "QC", "5H", "KS", "4D", "QD", "8H", "7S", "7C", "5C",
      "JH", "3S", "9H", "3D", "KH", "9D", "JD", "8S", "6S"]
# box 1 3C 7H TS QH 4S (found short: misdeal); box 2 9C 9S 4H 6D KD (pair of nines);
# dealer AH JC 8D 5S 2C (ace-jack high: does not qualify)
R2 = ["3C", "9C", "AH", "7H", "9S", "JC", "TS", "4H", "8D", "QH", "6D", "5S", "4S", "KD", "2C"]


async def _round1(t) -> None:
    """Round 1 up to the settle prompt (settled by the caller)."""
    # Round 1. A: Ante 1000 + Bonus 500; B: Ante 2000; C: Ante 500. Dealer pair of queens qualifies.
    # A raises (2000) a flush: Ante 1000 -> 2000, Raise 2000 at 5:1 -> 12000, Bonus 500 at 50:1
    # -> 25500. B exchanges 9D (fee 2000 -> 0), draws 6S: a spade flush, raises 4000:
    # Ante 2000 -> 4000, Raise 4000 -> 24000. C folds: 500 -> 0.
    await open_with_bets(t, (1, "ante", 1000, "A"), (1, "bonus", 500, "A"), (2, "ante", 2000, "B"),
                         (3, "ante", 500, "C"))
    assert t.prompt == "Card to box 1 (face down)"
    await t.deal(*R1[:3])
    assert t.prompt == "Card to dealer (face down)"
    await t.deal(*R1[3:19])
    assert t.prompt == "Card to dealer (face up)"
    await t.deal("8S")
    assert t.prompt == "Box 1: fold, raise or exchange?"
    await t.cmd("decide", box=1, action="raise", player="A")
    await t.cmd("exchange", box=2, discard="9d", player="B")
    assert t.prompt == "Exchanged card to box 2 (face down)"
    await t.deal("6S")
    assert t.prompt == "Box 2: fold or raise?"
    await t.cmd("decide", box=2, action="raise", player="B")
    await t.cmd("decide", box=3, action="fold", player="C")
    assert t.prompt == "Dealer qualifies with pair — settle"


async def test_hand_worked_rounds_with_exchange_and_a_box_misdeal(game_table):
    t = await game_table(game="russian-poker", preset="exchange", stacked=R1, limits=LIMITS)

    await _round1(t)
    await t.cmd("settle")

    assert t.prompt == "Shuffle: load a new deck"
    await t.cmd("new_shoe")
    restack(t, R2)

    # Round 2. A: Ante 1000; B: Ante 2000 + Bonus 1000. The dealer finds box 1 holding four
    # cards: misdeal, its Ante comes back with half an Ante on top: 1000 -> 1500. B raises a pair
    # of nines (4000); the dealer's ace-jack does not qualify: Ante 2000 -> 4000, Raise returned
    # 4000, the Bonus (no flush) 1000 -> 0.
    await open_with_bets(t, (1, "ante", 1000, "A"), (2, "ante", 2000, "B"), (2, "bonus", 1000, "B"))
    await t.deal(*R2)
    assert t.prompt == "Box 1: fold, raise or exchange?"
    await t.cmd("misdeal", target=1, cards_dealt=4)
    assert t.prompt == "Box 2: fold, raise or exchange?"
    await t.cmd("decide", box=2, action="raise", player="B")
    assert t.prompt == "Dealer does not qualify (high_card) — settle"
    await t.cmd("settle")

    r1, r2 = t.rounds()
    assert bets(r1) == [(2, 1, "exchange", "B", 2000, 0), (3, 1, "ante", "C", 500, 0),
                        (1, 1, "ante", "A", 1000, 2000), (1, 1, "raise", "A", 2000, 12000),
                        (1, 1, "bonus", "A", 500, 25500),
                        (2, 1, "ante", "B", 2000, 4000), (2, 1, "raise", "B", 4000, 24000)]
    assert (r1["stake_total"], r1["payout_total"]) == (12000, 67500)
    assert r1["outcome"]["boxes"]["2"] == {"cards": ["AS", "KS", "7S", "3S", "6S"], "hand": "flush",
                                           "status": "raised", "exchanged": True}
    assert r1["outcome"]["dealer"] == {"cards": ["QC", "QD", "5C", "3D", "8S"], "up": "8S", "hand": "pair",
                                       "qualifies": True}
    assert bets(r2) == [(1, 1, "ante", "A", 1000, 1500), (2, 1, "ante", "B", 2000, 4000),
                        (2, 1, "raise", "B", 4000, 4000), (2, 1, "bonus", "B", 1000, 0)]
    assert (r2["stake_total"], r2["payout_total"]) == (8000, 9500)
    assert r2["outcome"]["boxes"]["1"]["status"] == "void"
    assert [r["game"] for r in (r1, r2)] == ["russian-poker"] * 2


# box 1 KS KH 4C 7D 2S (pair of kings); dealer QC JD 9S 8H 3D
ONE_BOX = ["KS", "QC", "KH", "JD", "4C", "9S", "7D", "8H", "2S", "3D"]


async def test_dealer_holding_four_adds_a_fifth(game_table):
    """The dealer finds four cards in his hand (QC JD 9S 8H): he names them and adds a fifth, QH:
    a pair of queens qualifies. A raises a pair of kings (2000): Ante 1000 -> 2000, Raise pays
    1:1 -> 4000. A wrong misdeal declaration is refused and changes nothing."""
    t = await game_table(game="russian-poker", preset="exchange", stacked=ONE_BOX + ["QH"], limits=LIMITS)
    await open_with_bets(t, (1, "ante", 1000, "A"))
    await t.deal(*ONE_BOX)
    await t.cmd("misdeal", target="dealer", cards_dealt=5)
    assert t.alerts()[-1]["code"] == "russian.misdeal.count"
    await t.cmd("misdeal", target="dealer", cards_dealt=4, dealer_cards=["QC", "JD", "9S", "8H"])
    assert t.prompt == "Dealer adds his fifth card (face down)"
    await t.cmd("decide", box=1, action="raise", player="A")
    assert t.alerts()[-1]["code"] == "russian.phase"
    await t.deal("QH")
    assert t.prompt == "Box 1: fold, raise or exchange?"
    await t.cmd("decide", box=1, action="raise", player="A")
    assert t.prompt == "Dealer qualifies with pair — settle"
    await t.cmd("settle")
    (r,) = t.rounds()
    assert bets(r) == [(1, 1, "ante", "A", 1000, 2000), (1, 1, "raise", "A", 2000, 4000)]
    assert r["outcome"]["dealer"]["cards"] == ["QC", "JD", "9S", "8H", "QH"]


async def test_a_card_nobody_is_due_holds_until_burned(game_table):
    """After the deal a card comes out with no exchange asked for: hold, nothing settled; burned,
    box 1 raises its kings against the dealer's queen high (no qualifier): Ante 1000 -> 2000, the
    Raise 2000 is returned."""
    t = await game_table(game="russian-poker", preset="exchange", stacked=ONE_BOX + ["5H"], limits=LIMITS)
    await open_with_bets(t, (1, "ante", 1000, "A"))
    await t.deal(*ONE_BOX, "5H")
    (held,) = hold_alerts(t)
    assert held["code"] == "russian.card.unexpected" and held["cards"] == ["5H"]
    assert t.prompt == "HOLD russian.card.unexpected: no card is due now (decision) — burn or void_round"
    await t.cmd("exchange", box=1, discard="2S", player="A")
    assert t.alerts()[-1]["code"] == "table.hold" and t.rounds() == []
    await t.cmd("burn")
    await t.cmd("decide", box=1, action="raise", player="A")
    assert t.prompt == "Dealer does not qualify (high_card) — settle"
    await t.cmd("settle")
    (r,) = t.rounds()
    assert bets(r) == [(1, 1, "ante", "A", 1000, 2000), (1, 1, "raise", "A", 2000, 2000)]
    assert r["outcome"]["burned"] == ["5H"]


async def test_a_restart_mid_round_resumes_after_the_exchange(game_table):
    """The table stops after box 2's exchange (its fee already settled) and starts again on the
    same journal: the replayed round waits for box 2's card, and round 1 settles as hand-worked."""
    kwargs = {"game": "russian-poker", "preset": "exchange", "stacked": R1, "limits": LIMITS}
    t = await game_table(**kwargs)
    await open_with_bets(t, (1, "ante", 1000, "A"), (1, "bonus", 500, "A"), (2, "ante", 2000, "B"),
                         (3, "ante", 500, "C"))
    await t.deal(*R1[:20])
    await t.cmd("decide", box=1, action="raise", player="A")
    await t.cmd("exchange", box=2, discard="9D", player="B")
    await t.stop()

    t = await game_table(**kwargs)
    assert t.replayed.round_id == "g1-000001"
    assert t.prompt == "Exchanged card to box 2 (face down)"
    await t.deal("6S")
    await t.cmd("decide", box=2, action="raise", player="B")
    await t.cmd("decide", box=3, action="fold", player="C")
    await t.cmd("settle")
    (r,) = t.rounds()
    assert bets(r) == [(2, 1, "exchange", "B", 2000, 0), (3, 1, "ante", "C", 500, 0),
                       (1, 1, "ante", "A", 1000, 2000), (1, 1, "raise", "A", 2000, 12000),
                       (1, 1, "bonus", "A", 500, 25500),
                       (2, 1, "ante", "B", 2000, 4000), (2, 1, "raise", "B", 4000, 24000)]
