"""The reference operator's books in SQLite: balances and every transaction with the answer it
got, so a request asked again gets the same answer (the contract's idempotency)."""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS balances (player TEXT, currency TEXT, balance INTEGER NOT NULL,
                                     PRIMARY KEY (player, currency));
CREATE TABLE IF NOT EXISTS txs (tx TEXT PRIMARY KEY, kind TEXT NOT NULL, ref TEXT NOT NULL, player TEXT NOT NULL,
                                amount INTEGER NOT NULL, moved INTEGER NOT NULL, answer TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS feed_position (table_id TEXT PRIMARY KEY, seq INTEGER NOT NULL);
"""


class SimStore:
    def __init__(self, path: Path | str = ":memory:", *, stake_limit: int = 10**9) -> None:
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.executescript(SCHEMA)
        self._lock = threading.Lock()
        #: the operator's own limit on one debit (its "responsible gambling" limit)
        self.stake_limit = stake_limit

    def feed_positions(self) -> dict[str, int]:
        """Per table, the last feed seq the operator's consumer took (its position across restarts)."""
        with self._lock:
            return {str(t): int(n) for t, n in self._db.execute("SELECT table_id, seq FROM feed_position")}

    def keep_position(self, table: str, seq: int) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO feed_position VALUES (?, ?)", (table, seq))

    def fund(self, player: str, currency: str, balance: int) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO balances VALUES (?, ?, ?)", (player, currency, balance))

    def balance(self, player: str, currency: str) -> int:
        row = self._db.execute("SELECT balance FROM balances WHERE player = ? AND currency = ?",
                               (player, currency)).fetchone()
        return int(row[0]) if row else 0

    def count(self, kind: str, ref: str | None = None) -> int:
        sql, args = "SELECT count(*) FROM txs WHERE kind = ?", [kind]
        if ref is not None:
            sql, args = sql + " AND ref = ?", [kind, ref]
        return int(self._db.execute(sql, args).fetchone()[0])

    def transactions(self) -> dict[str, tuple[str, int, dict[str, Any]]]:
        """Every transaction it took: ``tx -> (kind, money moved, its answer)``."""
        rows = self._db.execute("SELECT tx, kind, moved, answer FROM txs").fetchall()
        return {str(tx): (str(kind), int(moved), dict(json.loads(answer))) for tx, kind, moved, answer in rows}

    def returned_twice(self) -> int:
        """Debits given back more than once: two credits of one debit, or a credit and a cancel
        that moved money (a movement the studio asked twice must be applied once)."""
        row = self._db.execute(
            "SELECT count(*) FROM (SELECT ref FROM txs WHERE kind = 'credit' OR (kind = 'cancel' AND moved <> 0) "
            "GROUP BY ref HAVING count(*) > 1)").fetchone()
        return int(row[0])

    def open_debits(self) -> int:
        """Debits that took money and were neither credited nor cancelled (returned)."""
        row = self._db.execute(
            "SELECT count(*) FROM txs d WHERE d.kind = 'debit' AND d.moved <> 0 AND NOT EXISTS (SELECT 1 FROM txs r "
            "WHERE r.ref = d.tx AND (r.kind = 'credit' OR (r.kind = 'cancel' AND r.moved <> 0)))").fetchone()
        return int(row[0])

    def seen(self, tx: str) -> dict[str, Any] | None:
        row = self._db.execute("SELECT answer FROM txs WHERE tx = ?", (tx,)).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def apply(self, kind: str, req: dict[str, Any]) -> dict[str, Any]:
        """The answer to one request, moved and recorded in one SQLite transaction."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                answer = self._apply(kind, req)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return answer

    def _apply(self, kind: str, req: dict[str, Any]) -> dict[str, Any]:
        tx, player, currency, amount = req["tx"], req["player"], req["currency"], int(req["amount"])
        earlier = self.seen(tx)
        if earlier is not None:
            return earlier
        balance = self.balance(player, currency)
        delta, status = 0, "ok"
        cancelled = self._db.execute("SELECT 1 FROM txs WHERE kind = 'cancel' AND ref = ?", (tx,)).fetchone()
        if kind == "debit" and cancelled:  # a debit arriving after its own cancel moves nothing
            status = "retry"
        elif kind == "debit":
            if str(req.get("token", "")).startswith("refused"):
                status = "token_refused"
            elif amount > self.stake_limit:
                status = "operator_limit"
            elif amount > balance:
                status = "insufficient_funds"
            else:
                delta = -amount
        elif kind == "cancel":
            row = self._db.execute("SELECT moved FROM txs WHERE tx = ? AND kind = 'debit'", (req["ref"],)).fetchone()
            cancelled = self._db.execute("SELECT 1 FROM txs WHERE kind = 'cancel' AND ref = ?", (req["ref"],)).fetchone()
            delta = -int(row[0]) if row and not cancelled else 0  # a cancel of an unknown debit moves nothing
        elif balance + amount < 0:  # credit, adjust
            status = "insufficient_funds"
        else:
            delta = amount
        answer = {"v": 1, "tx": tx, "status": status, "balance": balance + delta}
        self._db.execute("INSERT OR REPLACE INTO balances VALUES (?, ?, ?)", (player, currency, balance + delta))
        self._db.execute("INSERT INTO txs VALUES (?, ?, ?, ?, ?, ?, ?)",
                         (tx, kind, req.get("ref", tx), player, amount, delta, json.dumps(answer)))
        return answer
