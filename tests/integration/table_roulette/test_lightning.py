"""The multiplier draw (preset ``lightning``): made from ``secrets`` right after bets close,
journaled as a ``draw`` input before the wheel's result, proven by its seed, and on a restart
taken from the journal, never drawn again."""

from __future__ import annotations

from controller.games.roulette.adapter import multiplier_draw
from controller.games.roulette.layout import colour
from controller.journal import Journal
from controller.process import build_core
from controller.table import inputs
from controller.table.core import PLAYING, SETTLING
from controller.table.effects import Record

POCKETS = [str(n) for n in range(37)]


async def test_draw_journaled_before_result_and_replayed_on_restart(wheel_table):
    t = await wheel_table(preset="lightning")
    await t.cmd("open_round")
    for n in POCKETS:  # a straight up on every number: one of them carries the drawn multiplier
        t.loop.command("bet", "player:A", box=1, kind=f"straight:{n}", amount=100, player="A")
    t.loop.command("bet", "player:B", box=2, kind="red", amount=500, player="B")
    await t.loop.settled()
    await t.loop.until(lambda core: core.engine is not None and bool(core.engine.multipliers), timeout=15)
    assert t.core.phase == PLAYING and t.prompt == "No more bets — wait for the result"

    (draw,) = t.of_kind(inputs.DRAW)
    assert draw.source == "rng:secrets" and draw.round_id == "r1-000001" and len(draw.payload["seed"]) == 64
    drawn = [(str(n), int(m)) for n, m in draw.payload["multipliers"]]
    assert multiplier_draw(t.core.rules, bytes.fromhex(draw.payload["seed"])) == drawn  # the seed proves it
    assert 1 <= len(drawn) <= 5 and all(m >= 50 for _, m in drawn)
    closed_at = t.device_entries("no_more_bets")[0].seq
    assert closed_at < draw.seq and not t.device_entries("winning_number")

    # the process stops before the ball lands; a new one resumes the round from the journal
    await t.stop()
    t2 = await wheel_table(preset="lightning")
    assert t2.replayed.round_id == "r1-000001"
    assert t2.core.engine.multipliers == dict(drawn)
    assert t2.core.hold is not None and t2.core.hold.code == "table.restart"
    number, multiplier = drawn[0]
    t2.sim.queue_results(number)
    await t2.cmd("resume")  # the dealer checked the layout: the wheel's game starts again (*u 1)
    await t2.until_phase(SETTLING)
    assert t2.prompt == f"Winning number {number} {colour(number)} ({multiplier}x) — settle"
    await t2.cmd("settle")
    assert len(t2.of_kind(inputs.DRAW)) == 1  # never drawn again
    assert draw.seq < t2.device_entries("winning_number")[0].seq

    (r,) = t2.rounds()
    assert r["outcome"]["numbers"] == [number] and r["outcome"]["multipliers"] == dict(drawn)
    # the straight up on the number pays the multiplier (m:1), the 36 others lose, red is even money
    won = {(b["kind"], b["payout"]) for b in r["bets"] if b["payout"]}
    expected = {(f"straight:{number}", 100 * (multiplier + 1))}
    if colour(number) == "red":
        expected.add(("red", 1000))
    assert won == expected
    assert (r["stake_total"], r["payout_total"]) == (4200, sum(p for _, p in expected))

    # replaying the whole journal through a fresh core rebuilds the very same record
    core = build_core(t2.config)
    regenerated = []
    with Journal(t2.config.journal_path) as journal:
        for e in journal.entries():
            if e.kind in inputs.INPUT_KINDS:
                regenerated += [x.payload for x in core.step(e) if isinstance(x, Record) and x.kind == inputs.ROUND_CLOSED]
    assert regenerated == [r]


async def test_draw_missing_at_a_crash_is_made_on_restart(wheel_table):
    """The process died after bets closed and before the draw was journaled: the restarted table
    makes the draw at once (it was never known to anyone), before any result can count."""
    t = await wheel_table(preset="lightning")
    await t.cmd("open_round")
    await t.bet(1, "straight:7", 100, "A")
    await t.stop()
    with Journal(t.config.journal_path) as journal:  # the crash point: the close is journaled, no draw
        closed = journal.append(inputs.COMMAND, {"command": "close_betting"}, source="test-dealer", round_id="r1-000001")

    t2 = await wheel_table(preset="lightning")
    assert not t2.of_kind(inputs.DRAW) and t2.core.hold is not None  # nothing drawn before the dealer resumes
    await t2.cmd("resume")
    await t2.loop.until(lambda core: core.engine is not None and bool(core.engine.multipliers), timeout=15)
    (draw,) = t2.of_kind(inputs.DRAW)
    assert draw.seq > closed.seq and draw.round_id == "r1-000001"
    assert t2.core.engine.multipliers == {str(n): int(m) for n, m in draw.payload["multipliers"]}
    t2.sim.queue_results("7")
    await t2.until_phase(SETTLING)
    await t2.cmd("settle")
    (r,) = t2.rounds()
    m = r["outcome"]["multipliers"].get("7")
    assert r["bets"][0]["payout"] == 100 * ((m or 29) + 1)  # the multiplier, or the reduced 29:1
