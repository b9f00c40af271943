"""The seal of a round's bet book (the contract's digest): count, stake, totals per kind, players,
and sha256 over the canonical JSON of the accepted bets sorted by id. Anyone holding the book
recomputes it from the rows alone."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class BookBet:
    id: str
    player: str
    kind: str
    amount: int


def digest(bets: list[BookBet]) -> str:
    """sha256 hex of the canonical JSON (sorted keys, no spaces) of ``bets`` sorted by id."""
    rows = [{"id": b.id, "player": b.player, "kind": b.kind, "amount": b.amount}
            for b in sorted(bets, key=lambda b: b.id)]
    text = json.dumps(rows, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def seal_body(round_id: str, bets: list[BookBet]) -> dict[str, object]:
    """The seal's fields (without ``v``, ``id`` and ``type``, which the sender adds)."""
    kinds: Counter[str] = Counter()
    for b in bets:
        kinds[b.kind] += b.amount
    return {"round": round_id, "count": len(bets), "stake": sum(b.amount for b in bets),
            "kinds": dict(sorted(kinds.items())), "players": len({b.player for b in bets}),
            "digest": digest(bets)}
