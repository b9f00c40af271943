"""What a corrected round's message carries so that a reader off the table can check it against
the journal (docs/protocols.md, "Corrections"): the journal rows from the pit command that
approved the correction through the corrected record's own row, as stored (the payload as its
JSON text, the chain hash, the MAC of a keyed journal), and the hash of the row before them.

Anyone can recompute the chain over those rows; whoever holds the table's journal key can check
their MACs, which nobody without the key can make. A round's first record carries nothing more.
"""

from __future__ import annotations

from typing import Any

from controller.journal import GENESIS, Entry, Journal

#: rows a proof may carry (the approving command's effects follow it at once: two or three rows)
MAX_PROOF_ROWS = 64


def approval_seq(entry: Entry) -> int | None:
    """The journal seq of the pit command that approved a corrected record's last correction."""
    corrections = entry.payload.get("corrections")
    if not isinstance(corrections, list) or not corrections or not isinstance(corrections[-1], dict):
        return None
    approval = corrections[-1].get("approval")
    return approval if isinstance(approval, int) and not isinstance(approval, bool) and 0 < approval <= entry.seq else None


def correction_proof(journal: Journal, entry: Entry) -> dict[str, Any] | None:
    """``{"prev", "rows"}`` for a corrected ``round_closed`` entry (None for a first record, or
    when the rows are not in the journal as a chain)."""
    first = approval_seq(entry)
    if first is None or entry.seq - first + 1 > MAX_PROOF_ROWS:
        return None
    found, prev = journal.hash_at(first - 1) if first > 1 else (True, GENESIS)
    rows = [{"seq": seq, "ts": ts, "round": rid, "kind": kind, "source": source, "payload": payload,
             "hash": digest, "mac": mac}
            for seq, ts, rid, kind, source, payload, digest, mac in journal.rows(after=first - 1, until=entry.seq)]
    if not found or prev is None or len(rows) != entry.seq - first + 1 or any(r["hash"] is None for r in rows):
        return None
    return {"prev": prev, "rows": rows}
