"""Punto Banco baccarat end to end: stacked 8-deck shoe on a pty, the CSP/1 driver, the table
task, the journal. Nobody decides anything: the table predicts every third card and holds on a
card the tableau does not call for. Every settlement is worked out by hand.

Bets every coup: box 1 (A) Banker 1010, box 2 (B) Player 2000, box 3 (C) Banker 300 and Tie 500.
Player 1:1, Banker 1:1 less 5 % commission rounded down, Tie 8:1, Player/Banker push on a tie.
Settlements are listed by box, then Player, Banker, Tie.
"""

from __future__ import annotations

from tests.integration.table.conftest import bets
from tests.integration.table_games.conftest import hold_alerts, open_with_bets

LIMITS = 'player = { min = 100, max = 100000 }\nbanker = { min = 100, max = 100000 }\ntie = { min = 100, max = 10000 }'
BETS = ((1, "banker", 1010, "A"), (2, "player", 2000, "B"), (3, "banker", 300, "C"), (3, "tie", 500, "C"))

# cards leave the shoe Player, Banker, Player, Banker, then the third cards
C1 = ["4H", "6S", "5D", "2C"]  # Player 4+5 = 9, Banker 6+2 = 8: naturals, Player wins
C2 = ["2H", "5S", "3D", "KC", "4C", "4S"]  # P 5 draws 4: 9; B 5 draws on a 4: 4 -> 9; tie
C3 = ["TH", "6D", "2S", "JS", "9H"]  # P 2 draws 9: 1; B 6 stands on a 9: Banker 6 wins
C4 = ["3H", "AS", "4D", "AC", "9C"]  # P 7 stands; B 2 draws 9: 11 -> 1; Player 7 wins


async def test_four_hand_worked_coups(game_table):
    t = await game_table(game="baccarat", stacked=C1 + C2 + C3 + C4, limits=LIMITS)

    # coup 1: naturals. A 1010 -> 0; B 2000 -> 4000; C Banker 300 -> 0, Tie 500 -> 0.
    await open_with_bets(t, *BETS)
    assert t.prompt == "Card to Player"
    await t.deal("4H")
    assert t.prompt == "Card to Banker"
    await t.deal("6S", "5D", "2C")
    assert t.prompt == "Natural — Player 9, Banker 8: Player wins — settle"
    await t.cmd("settle")

    # coup 2: both draw, 9-9. Player/Banker bets push; C's Tie 500 -> 500 + 8 x 500 = 4500.
    await open_with_bets(t, *BETS)
    await t.deal("2H", "5S", "3D", "KC")
    assert t.prompt == "Baccarat: third card to Player"
    await t.deal("4C")
    assert t.prompt == "Baccarat: third card to Banker"
    await t.deal("4S")
    assert t.prompt == "Banker has drawn — Player 9, Banker 9: Tie — settle"
    await t.cmd("settle")

    # coup 3: the tableau says Banker 6 stands on a Player third card of 9. Banker wins:
    # A 1010 -> 1010 + 959 (1010 x 0.95 = 959.5, rounded down) = 1969; C 300 -> 300 + 285 = 585.
    await open_with_bets(t, *BETS)
    await t.deal("TH", "6D", "2S", "JS", "9H")
    assert t.prompt == "Banker stands — Player 1, Banker 6: Banker wins — settle"
    await t.cmd("settle")

    # coup 4: Player stands on 7, Banker 2 draws. Player wins: B 2000 -> 4000, the rest lose.
    await open_with_bets(t, *BETS)
    await t.deal("3H", "AS", "4D", "AC")
    assert t.prompt == "Player stands on 7 — Baccarat: third card to Banker"
    await t.deal("9C")
    assert t.prompt == "Banker has drawn — Player 7, Banker 1: Player wins — settle"
    await t.cmd("settle")

    r1, r2, r3, r4 = t.rounds()
    assert bets(r1) == [(1, 1, "banker", "A", 1010, 0), (2, 1, "player", "B", 2000, 4000),
                        (3, 1, "banker", "C", 300, 0), (3, 1, "tie", "C", 500, 0)]
    assert bets(r2) == [(1, 1, "banker", "A", 1010, 1010), (2, 1, "player", "B", 2000, 2000),
                        (3, 1, "banker", "C", 300, 300), (3, 1, "tie", "C", 500, 4500)]
    assert bets(r3) == [(1, 1, "banker", "A", 1010, 1969), (2, 1, "player", "B", 2000, 0),
                        (3, 1, "banker", "C", 300, 585), (3, 1, "tie", "C", 500, 0)]
    assert bets(r4) == [(1, 1, "banker", "A", 1010, 0), (2, 1, "player", "B", 2000, 4000),
                        (3, 1, "banker", "C", 300, 0), (3, 1, "tie", "C", 500, 0)]
    assert [(r["stake_total"], r["payout_total"]) for r in (r1, r2, r3, r4)] == [
        (3810, 4000), (3810, 7810), (3810, 2554), (3810, 4000)]
    assert r3["outcome"] == {"player": {"cards": ["TH", "2S", "9H"], "total": 1},
                             "banker": {"cards": ["6D", "JS"], "total": 6},
                             "winner": "banker", "natural": False, "void": None, "burned": []}
    for i, r in enumerate((r1, r2, r3, r4), 1):
        assert r["round"] == f"g1-{i:06d}" and r["game"] == "baccarat" and r["status"] == "settled"
    assert r1["outcome"]["natural"] and r2["outcome"]["winner"] == "tie"
    assert t.alerts() == []


async def test_a_card_the_tableau_does_not_call_for_holds(game_table):
    """Coup 3 again; after the Banker stands on 6 the dealer draws once more. The table holds with
    the engine's rule code, settles nothing until the card is burned, then settles as above."""
    t = await game_table(game="baccarat", stacked=C3 + ["8D"], limits=LIMITS)
    await open_with_bets(t, *BETS)
    await t.deal("TH", "6D", "2S", "JS", "9H")
    await t.deal("8D")  # against the tableau

    (held,) = hold_alerts(t)
    assert held["code"] == "baccarat.tableau" and held["severity"] == "error"
    assert held["options"] == ["burn", "void_round"] and held["cards"] == ["8D"]
    assert t.prompt.startswith("HOLD baccarat.tableau: 8D: the coup is over")
    assert t.prompt.endswith("— burn or void_round")
    await t.cmd("settle")
    assert t.alerts()[-1]["code"] == "table.hold" and t.rounds() == []

    await t.cmd("burn")
    assert t.prompt == "Banker stands — Player 1, Banker 6: Banker wins — settle"
    await t.cmd("settle")
    (r,) = t.rounds()
    assert bets(r) == [(1, 1, "banker", "A", 1010, 1969), (2, 1, "player", "B", 2000, 0),
                       (3, 1, "banker", "C", 300, 585), (3, 1, "tie", "C", 500, 0)]
    assert r["outcome"]["burned"] == ["8D"] and r["outcome"]["banker"]["cards"] == ["6D", "JS"]


async def test_void_on_a_hold_keeps_what_was_settled(game_table):
    """Both hands stand (Player 7, Banker 6) and a fifth card comes out: the dealer voids. The
    coup was settled before the card came: a void never un-pays, so nothing is returned."""
    t = await game_table(game="baccarat", stacked=["4H", "3S", "3D", "3C", "KD"], limits=LIMITS)
    await open_with_bets(t, *BETS)
    await t.deal("4H", "3S", "3D", "3C")
    assert t.prompt == "Player and Banker stand — Player 7, Banker 6: Player wins — settle"
    await t.deal("KD")
    assert hold_alerts(t)[0]["code"] == "baccarat.both_stand"
    await t.cmd("void_round", reason="card out of turn")
    (r,) = t.rounds()
    assert r["status"] == "void" and r["outcome"]["burned"] == ["KD"]
    assert sorted(bets(r)) == [(1, 1, "banker", "A", 1010, 0), (2, 1, "player", "B", 2000, 4000),
                               (3, 1, "banker", "C", 300, 0), (3, 1, "tie", "C", 500, 0)]
    assert r["outcome"]["void"]["returned"] == []
