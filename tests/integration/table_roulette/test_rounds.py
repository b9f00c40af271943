"""Roulette end to end: the simulated Cammegh SS2 on a pty, the real wheel driver, the table task,
the journal. The wheel closes betting and gives the chosen result; every settlement below is
worked out by hand from docs/rules.md §4 (payout = everything returned: stake plus winnings)."""

from __future__ import annotations

from controller.table.core import IDLE, PLAYING
from tests.integration.table.conftest import bets


async def test_european_round_hand_worked(wheel_table):
    """17 (black, odd, 2nd dozen, 2nd column). Straight 100 at 35:1 -> 3600; split 17-20 200 at
    17:1 -> 3600; street 16-18 100 at 11:1 -> 1200; corner 17-18-20-21 100 at 8:1 -> 900; six line
    13-18 100 at 5:1 -> 600; red 1000 -> 0; black 500 -> 1000; dozen 2 500 at 2:1 -> 1500;
    column 2 500 -> 1500; voisins 900 (9 chips of 100, none on 17) -> 0; orphelins 500 (5 chips
    of 100: splits 14-17 and 17-20 hit at 17:1, 1800 each) -> 3600."""
    t = await wheel_table()
    assert t.prompt == "Open betting"
    t.sim.queue_results("17")
    await t.cmd("open_round")
    assert t.prompt == "Place your bets"
    placed = [(1, "straight:17", 100, "A"), (1, "split:20-17", 200, "A"), (2, "street:16-17-18", 100, "B"),
              (2, "corner:17-18-20-21", 100, "B"), (3, "six_line:13-14-15-16-17-18", 100, "C"), (3, "red", 1000, "C"),
              (4, "black", 500, "D"), (4, "dozen:2", 500, "D"), (5, "column:2", 500, "E"), (5, "voisins", 900, "E"),
              (6, "orphelins", 500, "F")]
    for box, kind, amount, player in placed:
        await t.bet(box, kind, amount, player)
    await t.until_phase(PLAYING)
    assert t.prompt == "No more bets — wait for the result"
    await t.bet(1, "red", 500, "A")  # the wheel said no more bets
    assert t.alerts()[-1]["code"] == "roulette.closed"
    await t.until_phase("settling")
    assert t.prompt == "Winning number 17 black — settle"
    await t.cmd("settle")

    (r,) = t.rounds()
    assert bets(r) == [
        (1, 1, "straight:17", "A", 100, 3600), (1, 1, "split:17-20", "A", 200, 3600),
        (2, 1, "street:16-17-18", "B", 100, 1200), (2, 1, "corner:17-18-20-21", "B", 100, 900),
        (3, 1, "six_line:13-14-15-16-17-18", "C", 100, 600), (3, 1, "red", "C", 1000, 0),
        (4, 1, "black", "D", 500, 1000), (4, 1, "dozen:2", "D", 500, 1500),
        (5, 1, "column:2", "E", 500, 1500), (5, 1, "voisins", "E", 900, 0),
        (6, 1, "orphelins", "F", 500, 3600),
    ]
    assert (r["stake_total"], r["payout_total"]) == (4500, 17500)
    assert r["status"] == "settled" and r["game"] == "roulette" and r["round"] == "r1-000001"
    assert r["outcome"]["numbers"] == ["17"] and r["outcome"]["colours"] == ["black"]
    assert r["outcome"]["voids"] == [] and r["outcome"]["sources"] == ["wheel"]
    # bets closed on the wheel's state 4, and the table started the game (*u 1)
    closed_at = t.device_entries("no_more_bets")[0].seq
    assert all(e.seq < closed_at for e in t.of_kind("command") if e.payload["command"] == "bet"
               and e.payload["kind"] != "red")
    assert "*u 1" in t.sim.received
    assert t.prompt == "Open betting" and t.core.phase == IDLE


async def test_american_five_bet_and_double_zero(wheel_table):
    """Round 1, 00: Five Bet 100 at 6:1 -> 700; straight 00 100 -> 3600; split 0-00 200 at 17:1 ->
    3600; trio 0-00-2 100 at 11:1 -> 1200; straight 0 100 -> 0; red 500 and even 500 lose on 00.
    Round 2, 2 (black, even): Five Bet -> 700; trio 0-00-2 -> 1200; straight 00 -> 0; even 500 -> 1000."""
    t = await wheel_table(preset="american")
    await t.spin((1, "five", 100, "A"), (1, "straight:00", 100, "A"), (2, "split:00-0", 200, "B"),
                 (2, "street:0-00-2", 100, "B"), (3, "straight:0", 100, "C"), (3, "red", 500, "C"),
                 (4, "even", 500, "D"), result="00")
    assert t.prompt == "Winning number 00 green — settle"
    await t.cmd("settle")
    await t.spin((1, "five", 100, "A"), (2, "street:0-00-2", 100, "B"), (2, "straight:00", 100, "B"),
                 (4, "even", 500, "D"), result="2")
    await t.cmd("settle")

    r1, r2 = t.rounds()
    assert bets(r1) == [
        (1, 1, "five", "A", 100, 700), (1, 1, "straight:00", "A", 100, 3600), (2, 1, "split:0-00", "B", 200, 3600),
        (2, 1, "street:0-00-2", "B", 100, 1200), (3, 1, "straight:0", "C", 100, 0), (3, 1, "red", "C", 500, 0),
        (4, 1, "even", "D", 500, 0),
    ]
    assert (r1["stake_total"], r1["payout_total"]) == (1600, 9100)
    assert r1["outcome"]["wheel"] == "american" and r1["outcome"]["numbers"] == ["00"]
    assert bets(r2) == [(1, 1, "five", "A", 100, 700), (2, 1, "street:0-00-2", "B", 100, 1200),
                        (2, 1, "straight:00", "B", 100, 0), (4, 1, "even", "D", 500, 1000)]
    assert (r2["stake_total"], r2["payout_total"]) == (800, 2900)
    assert t.sim.pockets == 38


async def test_double_ball_wheel_ball_then_keyed_ball(wheel_table):
    """Bets close on ball in rim (house rule). The wheel reports ball 1, the dealer keys ball 2.
    Round 1, 17 and 20 (both black; 17 odd, 20 even): straight 17 100 at 17:1 per ball -> 1800;
    straight 20 100 -> 1800; split 17-20 100 with both balls in it, 8:1 twice -> 1700; black 500
    with both balls black, 3:1 -> 2000; odd 500 needs both balls -> 0; both_any 100 -> 0.
    Round 2, 17 and 17: straight 17 100, both balls, 17:1 twice -> 3500; both_any 100 at 34:1 ->
    3500; both_on 17 100 at 1300:1 -> 130100; red 500 -> 0."""
    t = await wheel_table(preset="double-ball", rules='close_bets_on = "ball_in_rim"')
    await t.cmd("open_round")
    for box, kind, amount, player in [(1, "straight:17", 100, "A"), (1, "straight:20", 100, "A"),
                                      (2, "split:17-20", 100, "B"), (3, "black", 500, "C"), (3, "odd", 500, "C"),
                                      (4, "both_any", 100, "D")]:
        await t.bet(box, kind, amount, player)
    t.sim.queue_results("17")
    await t.loop.until(lambda core: core.phase == PLAYING, timeout=15)
    assert t.sim.state == 3  # closed on ball in rim, not on no more bets
    await t.cmd("key_result", number="20")  # the wheel gives ball 1 first
    assert t.alerts()[-1]["code"] == "roulette.keyed_result"
    await t.loop.until(lambda core: bool(getattr(core.engine, "balls", None)), timeout=15)
    assert t.prompt == "Ball 1: 17 black — key in ball 2"
    await t.cmd("key_result", number="20")
    assert t.prompt == "Winning numbers 17 black, 20 black — settle"
    await t.cmd("settle")

    t.sim.queue_results("17")
    await t.cmd("open_round")
    for box, kind, amount, player in [(1, "straight:17", 100, "A"), (2, "both_any", 100, "B"),
                                      (3, "both_on:17", 100, "C"), (4, "red", 500, "D")]:
        await t.bet(box, kind, amount, player)
    await t.loop.until(lambda core: bool(getattr(core.engine, "balls", None)), timeout=15)
    await t.cmd("key_result", number="17")
    await t.cmd("settle")

    r1, r2 = t.rounds()
    assert bets(r1) == [(1, 1, "straight:17", "A", 100, 1800), (1, 1, "straight:20", "A", 100, 1800),
                        (2, 1, "split:17-20", "B", 100, 1700), (3, 1, "black", "C", 500, 2000),
                        (3, 1, "odd", "C", 500, 0), (4, 1, "both_any", "D", 100, 0)]
    assert (r1["stake_total"], r1["payout_total"]) == (1400, 7300)
    assert r1["outcome"]["numbers"] == ["17", "20"] and r1["outcome"]["sources"] == ["wheel", "dealer"]
    assert bets(r2) == [(1, 1, "straight:17", "A", 100, 3500), (2, 1, "both_any", "B", 100, 3500),
                        (3, 1, "both_on:17", "C", 100, 130100), (4, 1, "red", "D", 500, 0)]
    assert (r2["stake_total"], r2["payout_total"]) == (800, 137100)
    keyed = [e for e in t.of_kind("command") if e.payload["command"] == "key_result"]
    assert [e.source for e in keyed] == ["test-dealer"] * 3  # who keyed what is in the journal
