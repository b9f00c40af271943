"""Crash test: `croupier run --rounds 200` with its pit feed on the real mosquitto is killed with
SIGKILL at seeded random points (mid-round, between rounds, during start-up and replay) and
started again on the same journal until the 200 rounds are played.

Then: every round is closed exactly once and none is missing; every round's cards, bets and
settlements, and so the ledger to the cent, equal those of an uninterrupted run with the same
shoe seed; and the pit received every round on ``round`` (duplicates allowed by the feed's
at-least-once contract, each one identical to the first) and every journal entry on ``event``.
(A run's feed drains for 2 s at exit; whatever it left is sent by the next start, which the test
stands in for with the same feed on the same journal if the last run closed behind.)

``CRASH_SEED`` and ``CRASH_KILLS`` (defaults 20261129 and 12) choose the kill points.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

from controller.feed import Feed
from controller.journal import Journal
from tests.fixtures.mosquitto import MosquittoBroker
from tests.integration.feed.conftest import TABLE, Pit
from tests.integration.table_stress import harness
from tests.support.waiting import until

ROUNDS = 200
SEED = int(os.environ.get("CRASH_SEED", "20261129"))
KILLS = int(os.environ.get("CRASH_KILLS", "12"))
RUN_TIMEOUT = 120.0


def kill_plan(rng: random.Random) -> list[tuple[str, float]]:
    """``("round", n + fraction)``: kill once n rounds are closed, a random moment into the next
    one; ``("start", s)``: kill s seconds after the process was started (replay, device start)."""
    starts = max(2, KILLS // 4)
    targets = sorted(rng.sample(range(1, ROUNDS - 4), KILLS - starts))
    plan: list[tuple[str, float]] = [("round", n + rng.random()) for n in targets]
    for _ in range(starts):  # start-up kills between the round kills
        plan.insert(rng.randrange(1, len(plan)), ("start", rng.uniform(0.4, 1.6)))
    return plan


async def wait_exit(proc: subprocess.Popen[bytes], timeout: float) -> int:
    try:
        await until(lambda: proc.poll() is not None, "croupier run finished", within=timeout)
    except AssertionError:
        proc.kill()
        raise
    return int(proc.returncode)


async def crash_run(config: Path, journal: Path, logs: Path, plan: list[tuple[str, float]]) -> dict[str, Any]:
    """Run to 200 closed rounds, killing as ``plan`` says; returns what happened."""
    kills = starts = 0
    killed_mid_round = 0
    while (closed := harness.closed_rounds(journal)) < ROUNDS:
        starts += 1
        assert starts <= len(plan) + 5, "the table makes no progress across restarts"
        proc = harness.start(config, ROUNDS - closed, log=logs / f"run-{starts:02d}.log")
        how, at = plan[kills] if kills < len(plan) else ("finish", 0.0)
        if how == "start":
            await asyncio.sleep(at)  # the kill point under test: a chosen moment of the start-up (wall time)
        elif how == "round":
            whole, fraction = int(at), at - int(at)
            await until(lambda whole=whole, proc=proc: harness.closed_rounds(journal) >= whole or proc.poll() is not None,
                        "progress towards the kill point", within=RUN_TIMEOUT, poll=0.005)
            # the kill point under test: a round takes ~40 ms here, so anywhere inside the next
            await asyncio.sleep(fraction * 0.04)
        if how != "finish" and proc.poll() is None and harness.closed_rounds(journal) < ROUNDS - 1:
            os.kill(proc.pid, signal.SIGKILL)
            rc = await wait_exit(proc, 10)
            assert rc == -signal.SIGKILL
            kills += 1
            open_round = harness.rows(journal, "SELECT COUNT(*) FROM events WHERE kind='command' AND "
                                               "json_extract(payload, '$.command') = 'open_round'")
            killed_mid_round += int(bool(open_round) and open_round[0][0] > harness.closed_rounds(journal))
            continue
        rc = await wait_exit(proc, RUN_TIMEOUT)
        log = (logs / f"run-{starts:02d}.log").read_text(errors="replace")
        assert rc == 0, f"croupier run exited {rc}:\n{log[-3000:]}"
        if how != "finish":
            kills += 1  # this kill point was reached only after the run had finished: skip it
    return {"kills": kills, "starts": starts, "mid_round": killed_mid_round}


async def catch_up(broker: MosquittoBroker, journal: Path, last_seq: int) -> int:
    """What the next start of the table would do if the last run's feed closed behind (it drains
    for 2 s at exit; a loaded CI machine can need longer): the same feed, from the journal's
    cursor. Returns how many entries it had to send."""
    with Journal(journal) as j:
        behind = last_seq - j.cursor("feed")
        if behind > 0:
            async with Feed.connect(harness.feed_url(broker), j, TABLE, backoff_max=0.5) as feed:
                await asyncio.wait_for(feed.wait_caught_up(), 30)
    return max(behind, 0)


async def test_sigkill_at_random_points_of_200_rounds(tmp_path: Path, mosquitto: MosquittoBroker) -> None:
    reference_dir, crash_dir, logs = tmp_path / "reference", tmp_path / "crash", tmp_path / "logs"
    for d in (reference_dir, crash_dir, logs):
        d.mkdir()
    began = time.monotonic()

    # the same table, same shoe seed, played without interruption (no feed: nothing to compare)
    reference = harness.start(harness.write_config(reference_dir, broker="none"), ROUNDS, log=logs / "reference.log")
    assert await wait_exit(reference, RUN_TIMEOUT) == 0, (logs / "reference.log").read_text()[-3000:]
    expected = [rec for _, rec in harness.round_entries(reference_dir / "table.journal")]
    assert len(expected) == ROUNDS

    config = harness.write_config(crash_dir, broker=harness.feed_url(mosquitto))
    journal = crash_dir / "table.journal"
    plan = kill_plan(random.Random(SEED))
    async with Pit(mosquitto, client_id="pit-crash") as pit:
        summary = await crash_run(config, journal, logs, plan)
        entries = harness.round_entries(journal)
        last_seq = harness.rows(journal, "SELECT MAX(seq) FROM events")[0][0]
        summary["catch_up"] = await catch_up(mosquitto, journal, last_seq)
        round_ids = {rec["round"] for _, rec in entries}
        try:
            await pit.wait_for(lambda: {m.get("round") for m in pit.on("round")} >= round_ids, timeout=30)
            await pit.wait_seqs(last_seq, timeout=30)
            await pit.wait_for(lambda: pit.on("ledger")[-1].get("seq") == entries[-1][0], timeout=10)
        except TimeoutError:
            missing = sorted(round_ids - {m.get("round") for m in pit.on("round")})
            raise AssertionError(f"pit missing rounds {missing[:10]} ({len(missing)}); events complete to "
                                 f"{pit.complete('event')} of {last_seq}; feed cursor "
                                 f"{harness.rows(journal, 'SELECT seq FROM cursors')}; {summary}; pit connections "
                                 f"{pit.connections}; broker log:\n{mosquitto.log[-4000:]}") from None

    # every round closed exactly once, none missing, in order
    ids = [rec["round"] for _, rec in entries]
    assert ids == [f"{TABLE}-{n:06d}" for n in range(1, ROUNDS + 1)]
    assert summary["kills"] >= KILLS - 1 and summary["mid_round"] >= KILLS // 3, summary

    # the same cards, bets and settlements as the uninterrupted run: the ledger to the cent
    records = [rec for _, rec in entries]
    assert [harness.money(r) for r in records] == [harness.money(r) for r in expected]
    for r in records:
        assert r["stake_total"] == sum(b["stake"] for b in r["bets"])
        assert r["payout_total"] == sum(b["payout"] for b in r["bets"])
    stakes = sum(r["stake_total"] for r in records if r["status"] == "settled")
    payouts = sum(r["payout_total"] for r in records if r["status"] == "settled")
    assert (stakes, payouts) == (sum(r["stake_total"] for r in expected if r["status"] == "settled"),
                                 sum(r["payout_total"] for r in expected if r["status"] == "settled"))

    # the pit feed: every round, each duplicate identical to the first; every journal entry
    by_round: dict[str, list[dict[str, Any]]] = {}
    for message in pit.on("round"):
        by_round.setdefault(message["round"], []).append(message)
    assert set(by_round) == round_ids
    for seq, record in entries:
        first, *again = by_round[record["round"]]
        assert first["seq"] == seq and {k: first[k] for k in record} == record
        assert all(m == first for m in again)
    assert pit.complete("event") >= last_seq
    # the retained ledger the pit holds last: the feed's own fold of the journal, to the cent
    ledger = pit.on("ledger")[-1]
    assert (ledger["rounds_settled"], ledger["rounds_void"], ledger["stake_total"], ledger["payout_total"]) == (
        sum(r["status"] == "settled" for r in records), sum(r["status"] == "void" for r in records), stakes, payouts)

    duplicates = len(pit.on("round")) - ROUNDS
    print(f"\ncrash test: {summary['kills']} SIGKILLs ({summary['mid_round']} mid-round) over {summary['starts']} "
          f"starts; {ROUNDS} rounds each closed once; stakes {stakes} payouts {payouts} as uninterrupted; "
          f"pit got {len(pit.on('round'))} round messages ({duplicates} duplicates), events 1..{last_seq} "
          f"({summary['catch_up']} sent by a catch-up start); "
          f"{time.monotonic() - began:.1f} s")
