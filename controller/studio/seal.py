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


#: the table takes a studio message of 4 KiB at most (the contract); the seal keeps room for the
#: envelope (``v``, ``id``, ``type``)
MAX_SEAL_BYTES = 4096 - 128


def seal_body(round_id: str, bets: list[BookBet]) -> dict[str, object]:
    """The seal's fields (without ``v``, ``id`` and ``type``, which the sender adds).

    ``kinds`` totals each bet kind (``straight:17``); when a round's kinds would not fit the
    table's 4 KiB (a roulette layout covered number by number), they are totalled by type
    (``straight``) instead: the count, the stake and the digest still pin every bet."""
    kinds: Counter[str] = Counter()
    for b in bets:
        kinds[b.kind] += b.amount
    body: dict[str, object] = {"round": round_id, "count": len(bets), "stake": sum(b.amount for b in bets),
                               "kinds": dict(sorted(kinds.items())), "players": len({b.player for b in bets}),
                               "digest": digest(bets)}
    if len(json.dumps(body, separators=(",", ":"))) > MAX_SEAL_BYTES:
        by_type: Counter[str] = Counter()
        for kind, amount in kinds.items():
            by_type[kind.partition(":")[0]] += amount
        body["kinds"] = dict(sorted(by_type.items()))
    return body


def seal_id(table: str, body: dict[str, object]) -> str:
    """The seal message's id, the same each time this seal is sent (the deadline's, the table's
    ``sealing`` leaf's, another studio process's): the table's inbox takes one id once, so a copy
    is not even journaled. Another seal of the round (another digest) has another id."""
    key = f"{table}/{body['round']}/{body['digest']}"
    return "seal-" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:40]
