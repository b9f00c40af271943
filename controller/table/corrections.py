"""Corrections of a closed round's payouts: requested by the dealer, applied on the pit's approval.

The dealer's ``correct`` (round, payout changes, reason) is a pending correction known by its
journal seq; it changes nothing until the pit approves it (``approve_correction``) or turns it
down with a reason (``reject_correction``). Approval
gives a new record of that round whose ``corrections`` list says what changed, who asked and
who approved; the first record stays in the journal as it was (docs/pit.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from controller.commands.models import Change
from controller.table.refusal import Refusal

#: the most a bet of (kind, stake) returns at this table, stake included (None: no bound known)
Bound = Callable[[str, int], int | None]

#: closed rounds kept in memory for corrections (older ones are recalled from the journal only)
CORRECTABLE_ROUNDS = 1000


@dataclass(slots=True)
class CorrectionBook:
    #: round id -> its latest record (the last ``CORRECTABLE_ROUNDS`` closed rounds)
    records: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: correction seq -> the dealer's request (``status`` pending or applied)
    corrections: dict[int, dict[str, Any]] = field(default_factory=dict)

    def closed(self, record: dict[str, Any]) -> None:
        """A round closed: it may be corrected from now on."""
        self.records[record["round"]] = record
        while len(self.records) > CORRECTABLE_ROUNDS:
            del self.records[next(iter(self.records))]

    def remote_settled(self, round_id: str, totals: dict[str, Any]) -> None:
        """What the studio settled on the round: kept in its record (``remote.settled``), so the
        versions a correction makes carry it (docs/studio.md)."""
        record = self.records[round_id]
        self.records[round_id] = {**record, "remote": {**record["remote"], "settled": totals}}

    def pending(self) -> list[dict[str, Any]]:
        """The requests waiting for the pit, as its ``state`` lists them."""
        return [{**{k: c[k] for k in ("correction", "round", "reason", "requested_by")},
                 "changes": [{k: v for k, v in row.items() if k != "index"} for row in c["changes"]]}
                for _, c in sorted(self.corrections.items()) if c["status"] == "pending"]

    def request(self, round_id: str, changes: Sequence[Change], reason: str, *, bound: Bound, seq: int,
                source: str, ts: str) -> dict[str, Any]:
        """The dealer's request (its shape checked by the ``Correct`` model), recorded as pending
        (Refusal saying why the round cannot be corrected so)."""
        rows = self.rows(round_id, changes, bound)
        self.corrections[seq] = {"correction": seq, "round": round_id, "reason": reason, "status": "pending",
                                 "requested_by": source, "requested": ts, "changes": rows}
        return self.corrections[seq]

    def check_payouts(self, round_id: str, changes: Sequence[Change], bound: Bound) -> None:
        """The table's edge, before it journals a ``correct``: Refusal when a corrected payout is
        more than its bet can return. A round or bet this book does not know (yet: the round may
        be closing) is left to the core, which refuses it with its alert."""
        record = self.records.get(round_id)
        try:
            rows = changed_rows(record, changes) if record is not None else []
        except Refusal:
            return
        for row in rows:
            check_bound(row, bound(row["kind"], row["stake"]))

    def rows(self, round_id: str, changes: Sequence[Change], bound: Bound) -> list[dict[str, Any]]:
        """The rows a request changes, or Refusal saying why the round cannot be corrected so."""
        record = self.records.get(round_id)
        if record is None:
            raise Refusal("table.correct.unknown_round", f"no closed round {round_id!r} to correct "
                                                         f"(the last {CORRECTABLE_ROUNDS} rounds can be corrected)")
        if record["status"] != "settled":
            raise Refusal("table.correct.void", f"round {round_id} is void: a void round is not corrected")
        pending = [s for s, c in self.corrections.items() if c["round"] == round_id and c["status"] == "pending"]
        if pending:
            raise Refusal("table.correct.pending", f"round {round_id} has correction {pending[0]} pending approval")
        rows = changed_rows(record, changes)
        for row in rows:
            check_bound(row, bound(row["kind"], row["stake"]))
        return rows

    def _pending(self, ident: Any, command: str) -> dict[str, Any]:
        """The pending request ``ident`` names (Refusal, coded by ``command``, if none is)."""
        text = str(ident)
        request = self.corrections.get(int(text)) if text.isdigit() else None
        if request is None:
            raise Refusal(f"pit.{command}.unknown", f"no correction {text} was requested")
        if request["status"] == "rejected":
            raise Refusal(f"pit.{command}.rejected", f"correction {text} was rejected already")
        if request["status"] != "pending":
            raise Refusal(f"pit.{command}.applied", f"correction {text} was applied already")
        return request

    def reject(self, ident: Any, sender: str, reason: str, *, ts: str) -> dict[str, Any]:
        """Turn a pending request down: it changes nothing and leaves the pending list."""
        request = self._pending(ident, "reject_correction")
        request.update(status="rejected", rejected_by=sender, rejected=ts, rejection=reason)
        return request

    def approve(self, ident: Any, sender: str, *, seq: int, ts: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """Apply a pending request: (the round's record before, its corrected record)."""
        request = self._pending(ident, "approve_correction")
        asker = person(request["requested_by"])
        if asker and asker == person(sender):
            raise Refusal("pit.approve_correction.same_person",
                          f"correction {request['correction']} was requested by {asker}: another person must "
                          f"approve it (four eyes)")
        record = self.records.get(request["round"])
        if record is None:
            raise Refusal("pit.approve_correction.unknown", f"round {request['round']} is too old to correct here")
        bets = [dict(b) for b in record["bets"]]
        changes = []
        for row in request["changes"]:
            bets[row["index"]]["payout"] = row["after"]
            changes.append({k: v for k, v in row.items() if k != "index"})
        payout_total = sum(b["payout"] for b in bets)
        correction = {
            "seq": request["correction"], "reason": request["reason"], "requested_by": request["requested_by"],
            "requested": request["requested"], "approved_by": sender, "approved": ts, "approval": seq,
            "changes": changes, "payout_total_before": record["payout_total"], "payout_total_after": payout_total,
        }
        corrected = {**record, "bets": bets, "stake_total": sum(b["stake"] for b in bets),
                     "payout_total": payout_total, "corrections": [*record["corrections"], correction]}
        self.records[request["round"]] = corrected
        request["status"] = "applied"
        return record, corrected


def changed_rows(record: dict[str, Any], changes: Sequence[Change]) -> list[dict[str, Any]]:
    """The bets a correction changes: each ``{box, hand, kind, player?, payout}`` names exactly
    one bet of the round and gives its corrected payout."""
    rows: list[dict[str, Any]] = []
    for given in changes:
        change = given.model_dump(exclude_none=True)
        payout = given.payout
        found = [i for i, b in enumerate(record["bets"])
                 if (b["box"], b["hand"], b["kind"]) == (change["box"], change["hand"], change["kind"])
                 and ("player" not in change or b["player"] == change["player"])]
        if len(found) != 1:
            raise Refusal("table.correct.no_bet", f"{change!r} names {len(found)} bets of round "
                                                  f"{record['round']}, not one")
        bet = record["bets"][found[0]]
        if any(r["index"] == found[0] for r in rows):
            raise Refusal("table.correct.changes", f"{change!r}: that bet is changed twice")
        if bet["payout"] == payout:
            raise Refusal("table.correct.unchanged", f"{change!r}: that bet was paid {payout} already")
        rows.append({"index": found[0], "box": bet["box"], "hand": bet["hand"], "kind": bet["kind"],
                     "player": bet["player"], "stake": bet["stake"], "before": bet["payout"], "after": payout})
    return rows


def person(source: str) -> str:
    """Who a journaled source or a pit sender names, to tell two people apart: the account of a
    console (``console:<user>``), else the name as given; letter case aside."""
    head, colon, account = source.partition(":")
    return (account if colon and head == "console" else source).strip().casefold()


def check_bound(row: dict[str, Any], most: int | None) -> None:
    """Refusal when a corrected payout is more than its bet can return at this table."""
    where = f"box {row['box']}.{row['hand']} {row['kind']}"
    if most is None:
        raise Refusal("table.correct.unbounded", f"{where}: the game cannot say what this bet can pay, "
                                                 f"so it is not corrected at the table")
    if row["after"] > most:
        after, stake = row["after"], row["stake"]
        raise Refusal("table.correct.too_much", f"{where}: a payout of {after} is more than a bet of {stake} can "
                                                f"return at this table ({most})",
                      lambda money: f"{where}: a payout of {money(after)} is more than a bet of {money(stake)} "
                                    f"can return at this table (at most {money(most)})")
