"""The soak's verdict, reached without the table's state: the journal read from outside, every
round recomputed through a fresh engine from its journaled bets and decisions and the cards or
numbers the soak's rig dealt, the pit feed as the soak's own subscriber received it
(docs/hil.md, "Reading the report").

- a bet is *lost* when the recomputation places it and no closed record of its round carries it,
  or its round never closed (a soak that ends passes only with every round closed);
- a round is *double settled* when it has more than one ``round_closed`` entry, or a record
  carries one bet twice;
- the *ledger balances* when every record's totals are the sums of its bets, the recomputation
  pays every bet to the cent as the record does, and the pit's last ``ledger`` message has the
  journal's totals, each round counted as controller/round_money.py counts it (a void round's
  bets that stood count, what it returned does not);
- the *feed is complete* when the pit received every journal seq on ``event`` and every closed
  round on ``round``, each copy identical.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from controller.hil.mqtt import PitWatcher
from controller.hil.replay import CardTruth, RoundReplay, SpinTruth, settlement_key
from controller.hil.tail import Row, follow_round
from controller.round_money import counted


@dataclass
class Verdict:
    rounds_settled: int = 0
    rounds_void: int = 0
    lost_bets: int = 0
    double_settled: int = 0
    payout_mismatches: int = 0
    card_mismatches: int = 0
    stake_total: int = 0
    payout_total: int = 0
    ledger_balanced: bool = False
    feed_complete: bool = False
    last_seq: int = 0
    disk_full_holds: int = 0
    examples: list[str] = field(default_factory=list)

    def note(self, text: str) -> None:
        if len(self.examples) < 20:
            self.examples.append(text)


def check(rows: list[Row], new_engine: Callable[[], Any], truth: CardTruth | SpinTruth,
          pit: PitWatcher | None) -> Verdict:
    v = Verdict(last_seq=rows[-1].seq if rows else 0)
    replays, records = _replay(rows, new_engine, truth, v)
    _unclosed(replays, records, v)
    balanced = True
    for rid, recs in records.items():
        balanced &= _check_record(rid, recs, replays.get(rid), v)
    balanced &= _against_pit(pit, v)
    v.ledger_balanced = balanced and v.payout_mismatches == 0
    v.feed_complete = pit is not None and _feed_complete(pit, records, v)
    return v


def _replay(rows: list[Row], new_engine: Callable[[], Any], truth: CardTruth | SpinTruth,
            v: Verdict) -> tuple[dict[str, RoundReplay], dict[str, list[dict[str, Any]]]]:
    """Every round recomputed from the journal's inputs, and every record the table wrote of it."""
    replays: dict[str, RoundReplay] = {}
    records: dict[str, list[dict[str, Any]]] = {}
    current: RoundReplay | None = None
    for row in rows:
        if row.kind == "round_closed" and row.round_id is not None:
            records.setdefault(row.round_id, []).append(row.payload)
            continue
        if row.kind == "alert" and row.payload.get("code") == "journal.disk_full":
            v.disk_full_holds += 1
        current = follow_round(current, row, new_engine, truth)
        if current is not None:
            replays[current.round_id] = current
    return replays, records


def _unclosed(replays: dict[str, RoundReplay], records: dict[str, list[dict[str, Any]]], v: Verdict) -> None:
    """Cards that were not the shoe's, and bets of rounds the table never closed (lost)."""
    for rid, replay in replays.items():
        v.card_mismatches += len(replay.card_mismatches)
        for m in replay.card_mismatches:
            v.note(f"{rid}: {m}")
        if rid not in records:  # every bet it took, settled in the engine or still riding
            riding = len(replay.engine.settlements) + len(replay.engine.open_bets())
            v.lost_bets += riding
            if riding:
                v.note(f"{rid}: {riding} bet(s) placed, round never closed")


def _check_record(rid: str, recs: list[dict[str, Any]], found: RoundReplay | None, v: Verdict) -> bool:
    """A closed round's record against its recomputation: closed once, every bet carried once and
    paid as recomputed; counted into the verdict. False when its totals are not its bets' sums."""
    if len(recs) > 1:
        v.double_settled += len(recs) - 1
        v.note(f"{rid}: closed {len(recs)} times")
    rec = recs[0]
    bets = rec.get("bets", [])
    got = Counter(settlement_key(b) for b in bets)
    expected = Counter(settlement_key(s) for s in found.settlements()) if found else Counter()
    placed = Counter(k[:5] for k in expected.elements())
    carried = Counter(k[:5] for k in got.elements())
    lost = placed - carried
    v.lost_bets += sum(lost.values())
    if lost:
        v.note(f"{rid}: bets placed but not in the record: {sorted(lost)}")
    if any(n > 1 for n in carried.values()) and not any(n > 1 for n in placed.values()):
        v.double_settled += sum(n - 1 for n in carried.values() if n > 1)
        v.note(f"{rid}: a bet carried twice in the record")
    if got != expected:
        v.payout_mismatches += 1
        v.note(f"{rid}: record {sorted(got.elements())} != recomputed {sorted(expected.elements())}")
    if rec.get("status") == "void":
        v.rounds_void += 1
    else:
        v.rounds_settled += 1
    drop, paid = counted(rec)  # a void round's bets that stood count, as the pit's ledger counts them
    v.stake_total += drop
    v.payout_total += paid
    if rec.get("stake_total") != sum(b["stake"] for b in bets) or \
            rec.get("payout_total") != sum(b["payout"] for b in bets):
        v.note(f"{rid}: totals are not the sums of its bets")
        return False
    return True


def _against_pit(pit: PitWatcher | None, v: Verdict) -> bool:
    """The pit's ledger (what the feed delivered) against the journal's counts."""
    if pit is None:
        return True
    if pit.ledger is None:
        v.note("the pit never received a ledger")
        return False
    seen = (pit.ledger.get("rounds_settled"), pit.ledger.get("rounds_void"), pit.ledger.get("stake_total"),
            pit.ledger.get("payout_total"))
    journal = (v.rounds_settled, v.rounds_void, v.stake_total, v.payout_total)
    if seen != journal:
        v.note(f"pit ledger {seen} != journal {journal}")
        return False
    return True


def _feed_complete(pit: PitWatcher, records: dict[str, list[dict[str, Any]]], v: Verdict) -> bool:
    ok = True
    if pit.complete() < v.last_seq:
        ok = False
        v.note(f"pit has events 1..{pit.complete()} of {v.last_seq}")
    missing = sorted(set(records) - set(pit.rounds))
    if missing:
        ok = False
        v.note(f"pit missing {len(missing)} round(s), e.g. {missing[:5]}")
    for rid, copies in pit.rounds.items():
        first = {k: copies[0].get(k) for k in ("status", "bets", "stake_total", "payout_total")}
        if any({k: c.get(k) for k in first} != first for c in copies[1:]):
            ok = False
            v.note(f"{rid}: pit copies differ")
    return ok
