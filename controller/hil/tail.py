"""Reading the table's journal from outside, read-only, as a second process sees it: new rows
since the last read, and the live round recomputed from them (the soak's dealer deals when that
round wants a card). A file caught mid-write, or on a full disk, is retried, never read as empty.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.hil.replay import CardTruth, RoundReplay, SpinTruth


@dataclass(frozen=True)
class Row:
    seq: int
    round_id: str | None
    kind: str
    source: str
    payload: dict[str, Any]


class JournalTail:
    """Rows after the last one read, through a read-only connection opened per read."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.seq = 0

    def read(self) -> list[Row]:
        if not self.path.exists():
            return []
        try:
            db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=5)
        except sqlite3.OperationalError:
            return []
        try:
            found = db.execute("SELECT seq, round_id, kind, source, payload FROM events WHERE seq > ? ORDER BY seq",
                               (self.seq,)).fetchall()
        except sqlite3.OperationalError:
            return []  # no schema yet, or busy: the next read takes it
        finally:
            db.close()
        rows = [Row(seq, rid, kind, source, json.loads(payload)) for seq, rid, kind, source, payload in found]
        if rows:
            self.seq = rows[-1].seq
        return rows


@dataclass(frozen=True)
class LostCards:
    """Cards ``expected_n`` up to ``got_n`` (not included) left the shoe unread, as the table
    journaled at ``seq``."""

    seq: int
    expected_n: int
    got_n: int

    def covers(self, n: int, since_seq: int) -> bool:
        """Card ``n``, drawn when the journal stood at ``since_seq``, is among them."""
        return self.seq > since_seq and self.expected_n <= n < self.got_n


class LiveTable:
    """The table as its journal says, followed row by row: the open round through a fresh engine,
    the shoe's card count, the closed rounds."""

    def __init__(self, journal: Path, new_engine: Callable[[], Any], truth: CardTruth | SpinTruth | None) -> None:
        self.tail = JournalTail(journal)
        self.new_engine = new_engine
        self.truth = truth
        self.round: RoundReplay | None = None
        self.closed = 0
        self.last_card_n = 0
        #: the cards the table last journaled as lost (``shoe.lost_card``)
        self.lost: LostCards | None = None
        self.shoe_online = False
        #: the newest ``online`` row of the shoe (its driver heard HELLO) and when the soak read it
        self.shoe_online_seq, self.shoe_online_at = 0, 0.0
        self.last_started_seq = 0  # the newest ``table_started`` row: a controller is up and replayed
        self.round_rows = 0  # rows journaled for the open round so far (how far into it the game is)

    def poll(self) -> list[Row]:
        rows = self.tail.read()
        for row in rows:
            self._follow(row)
        return rows

    def _follow(self, row: Row) -> None:
        p = row.payload
        if row.kind == "table_started":
            self.last_started_seq = row.seq
        if row.kind == "round_closed":
            self.closed += 1
            self.round = None
            self.round_rows = 0
            return
        if row.kind == "device" and p.get("device") == "shoe":
            if p.get("type") == "offline":
                self.shoe_online = False
            elif p.get("type") in ("online", "shoe_status", "card", "noread"):  # it talks: it is there
                self.shoe_online = True
            if p.get("type") == "online":
                self.shoe_online_seq, self.shoe_online_at = row.seq, time.monotonic()
            if p.get("type") in ("card", "noread"):
                self.last_card_n = int(p.get("n", 0))
            elif p.get("type") == "lost_card":
                self.lost = LostCards(row.seq, int(p.get("expected_n", 0)), int(p.get("got_n", 0)))
        before = self.round
        self.round = follow_round(self.round, row, self.new_engine, self.truth)
        if self.round is not before:
            self.round_rows = 0
        if row.round_id is not None and self.round is not None and row.round_id == self.round.round_id:
            self.round_rows += 1


def follow_round(current: RoundReplay | None, row: Row, new_engine: Callable[[], Any],
                 truth: CardTruth | SpinTruth | None) -> RoundReplay | None:
    """Apply one journal row to the round it belongs to (a new round starts a fresh engine);
    a card or result outside any round still moves the truth on."""
    if row.kind == "device" and row.payload.get("type") in ("noread", "lost_card") and isinstance(truth, CardTruth):
        truth.counted(row.payload)  # the table's shoe count moves on; nothing is dealt
    if row.round_id is None:
        if row.kind == "device" and row.payload.get("type") == "card" and isinstance(truth, CardTruth):
            truth.counted(row.payload)
            truth.card(int(row.payload.get("n", 0)))
        elif row.kind == "device" and row.payload.get("type") == "winning_number" and isinstance(truth, SpinTruth):
            truth.number(int(row.payload.get("spin", 0)))
        return current
    if current is None or current.round_id != row.round_id:
        current = RoundReplay(row.round_id, new_engine())
    current.apply(row.kind, row.source, row.payload, truth)
    return current
