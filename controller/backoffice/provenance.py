"""Whether a corrected version of a round is backed by its table's journal (docs/backoffice.md,
"Corrections"). Pure: no I/O.

A table's feed account can publish anything on its topics, so a round re-sent with one more
``corrections`` item proves nothing by itself. A corrected version must carry the journal rows
from the pit command that approved the correction through the corrected record's own row, with
the hash of the row before them (``journal``). The back office recomputes the chain over them
(the journal's own checker, controller/verify.py), checks that the last row is this very record
and that the approving row is the pit's ``approve_correction`` of its last correction. With the
table's journal key configured, every row's MAC must verify: nobody without the key can make
such rows. Without it, the rows must agree with the journal heads the back office recorded, and
one recorded head must vouch for them (``Verdict.heads``, checked against the database by the
store). A table configured to trust its unbacked corrections (an older table, whose feed
carries no journal rows) has such versions taken, each one alerted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from controller.backoffice.records import RoundRow
from controller.records import JournalProof
from controller.verify import ChainBreak, ChainChecker

#: the fields the feed adds to a round record around the journal row's payload
ENVELOPE = frozenset(("ts", "seq", "journal"))


@dataclass(frozen=True, slots=True)
class Trust:
    """What the back office holds of one table (``[tables.<id>]``): its journal key, and whether
    a corrected version carrying no journal rows (a table older than them) is taken, alerted."""

    key: bytes | None = None
    unbacked: bool = False


@dataclass(frozen=True, slots=True)
class Verdict:
    """``refused``: why the version is not taken (None: it is). ``heads``: the (seq, hash) pairs
    of the chain, which a recorded head must vouch for (empty: nothing more to check).
    ``unbacked``: taken without journal rows, as the table's config allows (to be alerted)."""

    refused: str | None = None
    heads: tuple[tuple[int, str], ...] = ()
    unbacked: bool = False


def check(row: RoundRow, trust: Trust) -> Verdict:
    """The verdict on one round version (version 0 needs no proof)."""
    record = row.record
    if not record.corrections:
        return Verdict()
    proof, key = record.journal, trust.key
    if proof is None and trust.unbacked:
        return Verdict(unbacked=True)
    if proof is None:
        return Verdict("a corrected version without the journal rows that approved it (a forged correction, "
                       "or a table whose feed predates them)")
    problem = _chain(proof, key) or _is_this_record(row, proof) or _approves(row, proof)
    if problem is not None:
        return Verdict(problem)
    if key is not None:
        return Verdict()
    first = proof.rows[0].seq
    return Verdict(heads=((first - 1, proof.prev), *((r.seq, r.hash) for r in proof.rows)))


def _chain(proof: JournalProof, key: bytes | None) -> str | None:
    checker = ChainChecker(proof.rows[0].seq - 1, proof.prev, key=key, keyed=key is not None)
    try:
        for r in proof.rows:
            checker.check(r.seq, r.ts, r.round, r.kind, r.source, r.payload, r.hash, r.mac)
    except ChainBreak as exc:
        return f"journal row {exc.seq}: {exc.reason}"
    return None


def _payload(text: str) -> dict[str, object] | None:
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _is_this_record(row: RoundRow, proof: JournalProof) -> str | None:
    last = proof.rows[-1]
    payload = _payload(last.payload)
    if last.kind != "round_closed" or payload is None or last.seq != row.record.seq:
        return f"the last journal row carried (seq {last.seq}) is not this round's record"
    raw = row.raw
    body = {k: v for k, v in raw.items() if k not in ENVELOPE}
    if body != payload or raw.get("ts") != last.ts:
        return f"the round's fields differ from its journal row (seq {last.seq})"
    return None


def _approves(row: RoundRow, proof: JournalProof) -> str | None:
    correction = row.record.corrections[-1]
    approving = next((r for r in proof.rows if r.seq == correction.approval), None)
    payload = _payload(approving.payload) if approving is not None else None
    if (approving is None or payload is None or approving.kind != "pit_command"
            or payload.get("command") != "approve_correction" or correction.seq is None
            or str(payload.get("correction")) != str(correction.seq)):
        return f"no approve_correction of correction {correction.seq} among the journal rows carried"
    return None
