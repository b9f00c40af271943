"""Three Card Blackjack end to end: one stacked deck per round on a pty, the CSP/1 driver, the
table task, the journal; the table demands a freshly shuffled deck after every round.

Deal: one card at a time to each box with an Ante in box order, then the dealer, three times;
the dealer's third card is his up card. Boxes are turned in order: Ace Plus settles when the box
is turned, then it plays (Bet = Ante) or folds. Dealer qualifies with 17. Settlements appear in
the order they happen: Ace Plus and folds as the boxes are turned, then Ante and Play per box.
"""

from __future__ import annotations

from tests.integration.table.conftest import bets
from tests.integration.table_games.conftest import hold_alerts, open_with_bets, restack

LIMITS = 'ante = { min = 100, max = 100000 }\nace_plus = { min = 100, max = 10000 }'

# box 1 AS KH 5D (blackjack), box 2 9C 8C 2D (19), box 3 7S 6H 2C (15), dealer TD 9D 3S (19)
R1 = ["AS", "9C", "7S", "TD", "KH", "8C", "6H", "9D", "5D", "2D", "2C", "3S"]
# box 1 AH QS 4C (blackjack), box 2 AD AC 6S (18), box 3 5H 5C 4D (14), dealer 6H 7D 2S (15)
R2 = ["AH", "AD", "5H", "6H", "QS", "AC", "5C", "7D", "4C", "6S", "4D", "2S"]


async def _round1(t) -> None:
    """Round 1 up to the settle prompt (settled by the caller)."""
    # Round 1. A: Ante 1000 + Ace Plus 500; B: Ante 2000; C: Ante 500. Dealer T-9-3 = 19 qualifies.
    # Box 1 turned: A-K-5 is Ace Plus "A-T-x" 3:1: 500 -> 2000. A plays: blackjack beats 19:
    # Ante 1000 -> 2000, Play 1000 -> 2000. B plays 9-8-2 = 19 against 19: both push.
    # C folds 7-6-2 = 15: Ante 500 -> 0.
    await open_with_bets(t, (1, "ante", 1000, "A"), (1, "ace_plus", 500, "A"), (2, "ante", 2000, "B"),
                         (3, "ante", 500, "C"))
    assert t.prompt == "Card to box 1 (face down)"
    await t.deal("AS", "9C", "7S")
    assert t.prompt == "Card to dealer (face down)"
    await t.deal("TD", "KH", "8C", "6H", "9D", "5D", "2D", "2C")
    assert t.prompt == "Card to dealer (face up)"
    await t.deal("3S")
    assert t.prompt == "Box 1: play or fold?"
    await t.cmd("decide", box=1, action="play", player="A")
    assert t.prompt == "Box 2: play or fold?"
    await t.cmd("decide", box=2, action="play", player="B")
    await t.cmd("decide", box=3, action="fold", player="C")
    assert t.prompt == "Dealer qualifies with 19 — settle"


async def test_two_hand_worked_rounds_and_a_deck_per_round(game_table):
    t = await game_table(game="three-card-blackjack", stacked=R1, limits=LIMITS)

    await _round1(t)
    await t.cmd("settle")

    # one deck, shuffled every round: no round before a new deck
    assert t.prompt == "Shuffle: load a new deck"
    await t.cmd("open_round")
    assert t.alerts()[-1]["code"] == "table.shoe.shuffle" and t.core.engine is None
    await t.cmd("new_shoe")
    assert t.firmware.applied[-2:] == ["SHOE", "LOCK"] and t.core.shoe.last_n == 0
    assert t.prompt == "Open betting"
    restack(t, R2)

    # Round 2. A: Ante 1000; B: Ante 2000 + Ace Plus 100; C: Ante 500. Dealer 6-7-2 = 15 does
    # not qualify. B's A-A-6 is "A-A-x" 15:1: 100 -> 1600 (settled when box 2 is turned).
    # A plays a blackjack: the Ante wins 1:1 (2000), the Play pushes (1000).
    # B plays 18: both push. C folds 14: 500 -> 0.
    await open_with_bets(t, (1, "ante", 1000, "A"), (2, "ante", 2000, "B"), (2, "ace_plus", 100, "B"),
                         (3, "ante", 500, "C"))
    await t.deal(*R2)
    await t.cmd("decide", box=1, action="play", player="A")
    await t.cmd("decide", box=2, action="play", player="B")
    assert t.prompt == "Box 3: play or fold?"
    await t.cmd("decide", box=3, action="fold", player="C")
    assert t.prompt == "Dealer does not qualify (15) — settle"
    await t.cmd("settle")
    assert t.prompt == "Shuffle: load a new deck"

    r1, r2 = t.rounds()
    assert bets(r1) == [(1, 1, "ace_plus", "A", 500, 2000), (3, 1, "ante", "C", 500, 0),
                        (1, 1, "ante", "A", 1000, 2000), (1, 1, "play", "A", 1000, 2000),
                        (2, 1, "ante", "B", 2000, 2000), (2, 1, "play", "B", 2000, 2000)]
    assert (r1["stake_total"], r1["payout_total"]) == (7000, 10000)
    assert bets(r2) == [(2, 1, "ace_plus", "B", 100, 1600), (3, 1, "ante", "C", 500, 0),
                        (1, 1, "ante", "A", 1000, 2000), (1, 1, "play", "A", 1000, 1000),
                        (2, 1, "ante", "B", 2000, 2000), (2, 1, "play", "B", 2000, 2000)]
    assert (r2["stake_total"], r2["payout_total"]) == (6600, 8600)
    assert r1["outcome"]["dealer"] == {"cards": ["TD", "9D", "3S"], "value": 19, "blackjack": False,
                                       "qualifies": True}
    assert [(b["box"], b["cards"], b["value"], b["decision"]) for b in r1["outcome"]["boxes"]] == [
        (1, ["AS", "KH", "5D"], 22, "play"), (2, ["9C", "8C", "2D"], 19, "play"), (3, ["7S", "6H", "2C"], 15, "fold")]
    assert [r["game"] for r in (r1, r2)] == ["three-card-blackjack"] * 2


# box 1 AS KH 5D (blackjack, Ace Plus A-T-x), dealer TD 9D 3S (19), then a stray 7C
ONE_BOX = ["AS", "TD", "KH", "9D", "5D", "3S"]


async def test_a_card_during_decisions_holds_until_burned(game_table):
    """A card leaves the shoe while box 1 decides: hold with the engine's code, nothing settled.
    Burned, the round goes on: Ace Plus 500 -> 2000, blackjack beats 19: Ante and Play 1000 -> 2000."""
    t = await game_table(game="three-card-blackjack", stacked=ONE_BOX + ["7C"], limits=LIMITS)
    await open_with_bets(t, (1, "ante", 1000, "A"), (1, "ace_plus", 500, "A"))
    await t.deal(*ONE_BOX)
    assert t.prompt == "Box 1: play or fold?"
    await t.deal("7C")

    (held,) = hold_alerts(t)
    assert held["code"] == "tcb.card.decisions" and held["cards"] == ["7C"]
    assert t.prompt == "HOLD tcb.card.decisions: 7C: no card is due now — burn or void_round"
    await t.cmd("decide", box=1, action="play", player="A")
    assert t.alerts()[-1]["code"] == "table.hold" and t.rounds() == []

    await t.cmd("burn")
    assert t.prompt == "Box 1: play or fold?"
    await t.cmd("decide", box=1, action="play", player="A")
    await t.cmd("settle")
    (r,) = t.rounds()
    assert bets(r) == [(1, 1, "ace_plus", "A", 500, 2000), (1, 1, "ante", "A", 1000, 2000),
                       (1, 1, "play", "A", 1000, 2000)]
    assert r["outcome"]["burned"] == ["7C"]


async def test_void_keeps_an_ace_plus_already_paid(game_table):
    """Voided on the hold: the Ante still rides and comes back; the Ace Plus paid at the turn
    stays paid (a void never un-pays)."""
    t = await game_table(game="three-card-blackjack", stacked=ONE_BOX + ["7C"], limits=LIMITS)
    await open_with_bets(t, (1, "ante", 1000, "A"), (1, "ace_plus", 500, "A"))
    await t.deal(*ONE_BOX, "7C")
    await t.cmd("void_round", reason="card out of turn")
    (r,) = t.rounds()
    assert r["status"] == "void"
    assert bets(r) == [(1, 1, "ace_plus", "A", 500, 2000), (1, 1, "ante", "A", 1000, 1000)]
    assert t.prompt == "Shuffle: load a new deck"
