"""The floor as the pit sees it: every table's feed folded into one in-memory model (docs/pit.md).

Pure: no I/O and no clock of its own (the caller passes ``now``, wall-clock seconds). ``apply`` takes one MQTT
message of the pit feed (``croupier/<table>/<leaf>``); retained snapshots (``state``,
``prompt``, ``ledger``, ``online``) replace the table's copy, ``round`` and ``alert`` records
are kept in bounded histories and deduplicated by their journal ``seq`` (the feed is
at-least-once). Every message is checked first (``intake.check``): one that is refused is
counted and dropped, the table keeps what it showed, and the floor gets one alert per table
and topic (``pit.feed_refused``, with a count) until a good message of that topic comes; it
is logged at most once a minute per table and topic. A hostile or broken publisher cannot
crash the dashboard, nor break another table's tile or a response.
"""

from __future__ import annotations

import itertools
import json
import logging
import threading
from collections import OrderedDict, deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from controller.pit.intake import Refused, check
from controller.pit.offer import offered_limits
from controller.pit.stats import parse_ts

log = logging.getLogger(__name__)

ROOT = "croupier"
SEVERITY_RANK = {"critical": 0, "error": 1, "warning": 2, "info": 3}
#: how many closed rounds and alerts each table keeps for recall and statistics
ROUNDS_KEPT = 2000
ALERTS_KEPT = 200
ID_MAX = 64
#: seconds between two log lines about the same table and topic's refused messages
REFUSAL_LOG_EVERY = 60.0
REFUSED_CODE = "pit.feed_refused"
#: the table's warning that a dealer's correction waits for the pit (controller/table/pit.py)
CORRECTION_PENDING = "round.correction_pending"
#: stamps of a change to a table's rounds, unique across every table model of the process
_ROUND_CHANGES = itertools.count(1)
#: an alert the studio raised on the table's ``alert`` topic (docs/studio.md): not the table's
#: journal's, so acknowledged to the studio (``croupier/<table>/studio_command``), not the table
STUDIO_ORIGIN = "studio"


def severity_rank(severity: object) -> int:
    return SEVERITY_RANK.get(str(severity), len(SEVERITY_RANK))


def remote_money(ledger: dict[str, Any]) -> dict[str, int] | None:
    """The remote players' drop and win from a table's ``ledger`` (docs/studio.md), None when it
    took no remote bets: drop = stakes - refunds, win = stakes - what the studio paid back."""
    figures = [ledger.get(k) for k in ("remote_rounds", "remote_stake_total", "remote_paid_total",
                                       "remote_refunded_total")]
    if not all(isinstance(f, int) and not isinstance(f, bool) for f in figures) or not figures[0]:
        return None
    rounds, stake, paid, refunded = (int(f) for f in figures)  # type: ignore[arg-type]
    return {"rounds": rounds, "drop": stake - refunded, "win": stake - paid}


@dataclass
class TableModel:
    """One table's latest snapshots and recent history."""

    table: str
    state: dict[str, Any] = field(default_factory=dict)
    prompt: dict[str, Any] = field(default_factory=dict)
    ledger: dict[str, Any] = field(default_factory=dict)
    online: bool | None = None  # None: no presence seen yet
    rounds: OrderedDict[str, dict[str, Any]] = field(default_factory=OrderedDict)
    alerts: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=ALERTS_KEPT))
    acknowledged: dict[int, str] = field(default_factory=dict)  # alert seq -> who
    seqs: set[int] = field(default_factory=set)  # round/alert seqs seen (dedupe)
    updated: float = 0.0  # ``now`` of the last change
    #: topic leaf -> the dashboard's own alert about the messages refused there
    refused: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: changes when ``rounds`` changes (unique across models): what a count over the rounds is kept by
    rounds_changed: int = 0
    #: code -> the studio's latest alert of that code (retained: each replaces the one before)
    studio: dict[str, dict[str, Any]] = field(default_factory=dict)
    studio_acknowledged: dict[int, str] = field(default_factory=dict)  # the studio's alert seq -> who
    #: the table's last outcome of a pit command (``outcome``: accepted or refused, with the reason)
    outcome: dict[str, Any] = field(default_factory=dict)

    def from_studio(self, seq: object) -> bool:
        """Whether ``seq`` names the studio's open alert (its acknowledgement goes to the studio)."""
        return any(a.get("seq") == seq for a in self.studio.values())

    def open_alerts(self) -> list[dict[str, Any]]:
        """Unacknowledged alerts worth a pit boss's eye, most severe first, newest first within.

        The table's ``state`` lists its open errors (the authority: it drops them when
        acknowledged); warnings come from the ``alert`` stream until acknowledged."""
        by_seq: dict[int, dict[str, Any]] = {}
        for alert in self.alerts:
            seq = alert.get("seq")
            if isinstance(seq, int) and alert.get("severity") in ("critical", "error", "warning"):
                by_seq[seq] = alert
        listed = self.state.get("alerts_open")
        if isinstance(listed, list):
            open_errors = {a["seq"]: a for a in listed if isinstance(a, dict) and isinstance(a.get("seq"), int)}
            for seq in [s for s, a in by_seq.items() if a.get("severity") != "warning" and s not in open_errors]:
                del by_seq[seq]  # acknowledged, or raised before the table's last restart
            for seq, alert in open_errors.items():
                by_seq[seq] = {"severity": "error", **by_seq.get(seq, {}), **alert}
        pending = self.state.get("corrections_pending")
        if isinstance(pending, list):  # a correction approved or rejected no longer waits, whoever acknowledged
            waiting = {c.get("correction") for c in pending if isinstance(c, dict)}
            for seq in [s for s, a in by_seq.items() if a.get("code") == CORRECTION_PENDING
                        and a.get("correction") not in waiting]:
                del by_seq[seq]
        out = [dict(a, table=self.table) for s, a in by_seq.items() if s not in self.acknowledged]
        out.extend(dict(a, table=self.table) for a in self.studio.values()
                   if a.get("severity") in ("critical", "error", "warning") and a.get("seq") not in self.studio_acknowledged)
        out.extend(dict(a) for a in self.refused.values())
        out.sort(key=lambda a: (severity_rank(a.get("severity")), -int(a["seq"] or 0)))
        return out

    def tile(self, alerts: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """What the floor view shows of this table (``alerts``: its ``open_alerts()``, if known)."""
        return {**self.live_fields(self.open_alerts() if alerts is None else alerts), **self.state_fields()}

    def state_fields(self) -> dict[str, Any]:
        """The tile's fields that come from the table's ``state`` alone (a new state is a new
        dict: what is kept of them holds while ``state`` is the same object)."""
        state = self.state
        devices = state.get("devices")
        if not isinstance(devices, dict):
            devices = {}
        return {
            "game": state.get("game"),
            "preset": state.get("preset"),
            "phase": state.get("phase"),
            "round": state.get("round"),
            "dealer": state.get("dealer"),
            "limits": offered_limits(state),
            "currency": state.get("currency"),
            "currency_digits": state.get("currency_digits"),
            "devices": devices,
            "devices_ok": all(isinstance(d, dict) and d.get("online") and not d.get("fault") for d in devices.values()),
            "hold": state.get("hold"),
            "closing": state.get("closing"),
            "closed": state.get("closed"),
            "pace": state.get("pace") if isinstance(state.get("pace"), dict) else None,
        }

    def live_fields(self, alerts: list[dict[str, Any]]) -> dict[str, Any]:
        """The tile's other fields: presence, prompt, ledger, alerts (``open_alerts()``)."""
        return {
            "table": self.table,
            "online": self.online,
            "prompt": self.prompt.get("text"),
            "ledger": {k: self.ledger.get(k) for k in ("rounds_settled", "rounds_void", "stake_total", "payout_total")},
            "remote": remote_money(self.ledger),
            "updated": self.updated or None,
            "alerts": alerts[:5],
            "alerts_count": len(alerts),
            "worst": alerts[0]["severity"] if alerts else None,
        }


class FloorModel:
    """Every table seen on the broker. ``changed`` collects the tables touched since the last
    ``take_changed``, so a broadcaster sends each changed tile once per tick, not per message.
    Each table's tile and open alerts are kept until the table changes (``tile``, ``alerts``):
    at a thousand tables a tick rebuilds the changed ones only, not the floor. Of a changed
    table, its open alerts are rebuilt only when what they come from changed (not for a new
    prompt), and its tile's JSON reuses that of the fields from a ``state`` it already had
    (``tile_text``): most of a busy table's messages are prompts."""

    def __init__(self, rounds_kept: int = ROUNDS_KEPT) -> None:
        self.tables: dict[str, TableModel] = {}
        self._tiles: dict[str, dict[str, Any]] = {}
        self._texts: dict[str, str] = {}
        #: table -> (its ``state``, the JSON of its ``state_fields``, without the braces)
        self._state_texts: dict[str, tuple[dict[str, Any], str]] = {}
        self._open: dict[str, list[dict[str, Any]]] = {}
        #: table -> its open alerts as last put in the floor's list (``alerts``), and the tables
        #: whose open alerts may have changed since
        self._listed: dict[str, list[dict[str, Any]]] = {}
        self._unlisted: set[str] = set()
        #: ``alerts`` is also asked from the metrics' HTTP thread (controller/pit/metrics.py)
        self._listing = threading.Lock()
        self._floor_alerts: list[dict[str, Any]] | None = None
        self.rounds_kept = rounds_kept
        self.changed: set[str] = set()
        #: the tables changed since the totals last counted them (``take_recount``)
        self._recount: set[str] = set()
        self.messages = 0
        self.dropped = 0
        #: seconds from the last applied message's ``ts`` to ``now`` (None: it carried none)
        self.last_lag: float | None = None
        #: (table, leaf) -> [messages refused there, ``now`` of the last log line about them]
        self._refusals: dict[tuple[str, str], list[float]] = {}

    def table(self, table: str) -> TableModel:
        model = self.tables.get(table)
        if model is None:
            model = self.tables[table] = TableModel(table)
        return model

    def apply(self, topic: str, payload: bytes, now: float) -> str | None:
        """Fold one feed message in; the table it changed, or None if it changed nothing."""
        self.messages += 1
        self.last_lag = None
        parts = topic.split("/")
        if len(parts) != 3 or parts[0] != ROOT or not 0 < len(parts[1]) <= ID_MAX:
            self.dropped += 1
            return None
        table, leaf = parts[1], parts[2]
        if leaf == "online":
            if not payload:  # the retained topic was cleared: the table is gone from the floor
                self.tables.pop(table, None)
                self._forget(table)
                self.changed.add(table)
                self._recount.add(table)
                return table
            model = self.table(table)
            if payload.strip() not in (b"0", b"1"):
                return self._refuse(model, leaf, "presence is 1 or 0", now)
            alerts = self._accepted(model, leaf)
            model.online = payload.strip() == b"1"
            return self._touched(model, now, alerts)
        if leaf not in ("state", "prompt", "ledger", "round", "alert", "outcome") or not payload:
            return None
        try:
            data = check(table, leaf, payload)
        except Refused as refused:
            return self._refuse(self.table(table), leaf, str(refused), now)
        sent = parse_ts(data.get("ts"))
        if sent is not None and sent.tzinfo is not None:
            self.last_lag = now - sent.timestamp()
        model = self.table(table)
        alerts = self._accepted(model, leaf) or leaf in ("state", "alert")  # what open_alerts() reads
        if leaf == "outcome":  # only a pit command's is of interest here: the answer to a command sent
            if alerts:  # a refusal of the topic ended: its alert leaves the tile
                self._touched(model, now)
            if data.get("kind") != "pit_command":
                return model.table if alerts else None
            model.outcome = data
            return model.table
        if leaf == "state":
            model.state = data
        elif leaf == "prompt":
            model.prompt = data
        elif leaf == "ledger":
            model.ledger = data
        elif not self._record(model, leaf, data):
            return None
        return self._touched(model, now, alerts)

    def _record(self, model: TableModel, leaf: str, data: dict[str, Any]) -> bool:
        if leaf == "alert" and data.get("origin") == STUDIO_ORIGIN:
            return self._studio_alert(model, data)
        seq = data.get("seq")
        if isinstance(seq, int):
            if seq in model.seqs:
                return False  # an at-least-once duplicate
            model.seqs.add(seq)
            if len(model.seqs) > 4 * (self.rounds_kept + ALERTS_KEPT):
                model.seqs = set(sorted(model.seqs)[-2 * (self.rounds_kept + ALERTS_KEPT):])
        if leaf == "alert":
            model.alerts.append(data)
            target = data.get("alert")
            if data.get("code") == "pit.alert_acknowledged" and isinstance(target, int):
                model.acknowledged[target] = str(data.get("by", ""))
                while len(model.acknowledged) > 4 * ALERTS_KEPT:  # only the kept alerts need it
                    del model.acknowledged[next(iter(model.acknowledged))]
            return True
        round_id = data.get("round")
        if not isinstance(round_id, str):
            return False
        model.rounds_changed = next(_ROUND_CHANGES)
        model.rounds.pop(round_id, None)  # a corrected record replaces the round and moves last
        model.rounds[round_id] = data
        while len(model.rounds) > self.rounds_kept:
            model.rounds.popitem(last=False)
        return True

    @staticmethod
    def _studio_alert(model: TableModel, data: dict[str, Any]) -> bool:
        """The studio's alert: its seqs are its own (not the journal's), so not deduplicated with
        the table's; an acknowledgement joins the stream, any other replaces its code's last."""
        if data.get("code") == "pit.alert_acknowledged":
            model.alerts.append(data)
            target = data.get("alert")
            if isinstance(target, int):
                model.studio_acknowledged[target] = str(data.get("by", ""))
            return True
        if model.studio.get(str(data.get("code")), {}).get("seq", 0) > data["seq"]:
            return False  # an older alert delivered late
        model.studio[str(data.get("code"))] = data
        return True

    def restore(self, rounds: Iterable[Mapping[str, Any]], alerts: Iterable[Mapping[str, Any]], now: float) -> None:
        """Fold in what the floor's store kept of the gaming day (after a dashboard restart):
        rounds and alerts as the feed published them. What the feed already brought stays (it is
        as new or newer); the rounds end in table order, the alerts before the live ones."""
        restored: dict[str, list[dict[str, Any]]] = {}
        for leaf, records in (("round", rounds), ("alert", alerts)):
            for record in records:
                table = record.get("table")
                if not isinstance(table, str) or not 0 < len(table) <= ID_MAX:
                    continue
                try:
                    data = check(table, leaf, json.dumps(dict(record)).encode())
                except (Refused, TypeError, ValueError):
                    continue  # what the feed would refuse, the store cannot make the dashboard show
                model = self.table(table)
                seq = data.get("seq")
                if isinstance(seq, int) and seq in model.seqs:
                    continue
                if leaf == "round" and data.get("round") in model.rounds:
                    continue  # the feed brought it again, as new or newer
                if leaf == "alert" and data.get("origin") == STUDIO_ORIGIN:
                    self._studio_alert(model, data)
                    continue
                if leaf == "alert":
                    restored.setdefault(table, []).append(data)
                    if isinstance(seq, int):
                        model.seqs.add(seq)
                    continue
                self._record(model, leaf, data)
        for table, earlier in restored.items():
            model = self.tables[table]
            live = list(model.alerts)
            model.alerts.clear()
            for alert in sorted(earlier, key=lambda a: int(a.get("seq") or 0)):
                model.alerts.append(alert)
                target = alert.get("alert")
                if alert.get("code") == "pit.alert_acknowledged" and isinstance(target, int):
                    model.acknowledged[target] = str(alert.get("by", ""))
            model.alerts.extend(live)
        for model in self.tables.values():
            ordered = sorted(model.rounds.values(), key=lambda r: (str(r.get("opened") or ""), str(r.get("round"))))
            model.rounds = OrderedDict((str(r.get("round")), r) for r in ordered[-self.rounds_kept:])
            model.rounds_changed = next(_ROUND_CHANGES)
            self._touched(model, now)

    def _refuse(self, model: TableModel, leaf: str, reason: str, now: float) -> str:
        """Count and drop one refused message; the table's alert about that topic says so."""
        self.dropped += 1
        alert = model.refused.get(leaf)
        if alert is None:
            alert = model.refused[leaf] = {"seq": None, "severity": "warning", "code": REFUSED_CODE,
                                           "table": model.table, "source": leaf, "count": 0}
        alert["count"] += 1
        alert["ts"] = datetime.fromtimestamp(now, UTC).isoformat(timespec="milliseconds")
        alert["message"] = (f"the dashboard refused {alert['count']} {leaf} message(s) of {model.table}; "
                            f"last: {reason}. The tile shows the last good one.")
        if len(self._refusals) >= 10_000:  # bounded, whatever the topics
            self._refusals.clear()
        tally = self._refusals.setdefault((model.table, leaf), [0, -REFUSAL_LOG_EVERY])
        tally[0] += 1
        if now - tally[1] >= REFUSAL_LOG_EVERY:
            tally[1] = now
            log.warning("pit: croupier/%s/%s refused (%d so far): %s", model.table, leaf, tally[0], reason)
        return self._touched(model, now)

    def _accepted(self, model: TableModel, leaf: str) -> bool:
        """A good message of the topic ends its alert (the log keeps the count); whether it did."""
        return model.refused.pop(leaf, None) is not None

    def _touched(self, model: TableModel, now: float, alerts: bool = True) -> str:
        """``alerts``: whether what the table's open alerts come from may have changed."""
        model.updated = now
        self.changed.add(model.table)
        self._recount.add(model.table)
        self._tiles.pop(model.table, None)
        self._texts.pop(model.table, None)
        if alerts:
            with self._listing:  # as one: the metrics' thread may be listing what it kept
                self._open.pop(model.table, None)
                self._unlisted.add(model.table)
        return model.table

    def _forget(self, table: str) -> None:
        with self._listing:
            for kept in (self._tiles, self._texts, self._state_texts, self._open):
                kept.pop(table, None)
            self._unlisted.add(table)

    def tile(self, table: str) -> dict[str, Any]:
        """``TableModel.tile`` of that table, kept until it changes (not to be modified)."""
        tile = self._tiles.get(table)
        if tile is None:
            tile = self._tiles[table] = self.tables[table].tile(self.open_alerts(table))
        return tile

    def tile_text(self, table: str) -> str:
        """``tile(table)`` as JSON text, kept until the table changes; the JSON of its
        ``state_fields`` is kept while the table's ``state`` is the same."""
        text = self._texts.get(table)
        if text is None:
            model = self.tables[table]
            kept = self._state_texts.get(table)
            if kept is None or kept[0] is not model.state:
                kept = self._state_texts[table] = (model.state, json.dumps(model.state_fields())[1:-1])
            live = json.dumps(model.live_fields(self.open_alerts(table)))
            text = self._texts[table] = f"{live[:-1]}, {kept[1]}}}"
        return text

    def open_alerts(self, table: str) -> list[dict[str, Any]]:
        """``TableModel.open_alerts`` of that table, kept until it changes (not to be modified)."""
        alerts = self._open.get(table)
        if alerts is None:
            alerts = self._open[table] = self.tables[table].open_alerts()
        return alerts

    def take_changed(self) -> set[str]:
        changed, self.changed = self.changed, set()
        return changed

    def take_recount(self) -> set[str]:
        """The tables changed (or gone) since the last call: what the floor's totals count again."""
        recount, self._recount = self._recount, set()
        return recount

    def floor(self) -> list[dict[str, Any]]:
        return [self.tile(t) for t in sorted(self.tables)]

    def alerts(self) -> list[dict[str, Any]]:
        """Every table's open alerts in one list, most severe first (not to be modified). Kept
        while no table's open alerts change: a ``state`` message rebuilds its table's, which are
        mostly what they were (none), and the floor's list then stays as it is."""
        with self._listing:
            for table in self._unlisted:
                alerts = self.open_alerts(table) if table in self.tables else []
                if alerts != self._listed.get(table, []):
                    self._floor_alerts = None
                    if alerts:
                        self._listed[table] = alerts
                    else:
                        del self._listed[table]
            self._unlisted.clear()
            if self._floor_alerts is None:
                listed = self._listed
                out = [a for t in list(self.tables) if t in listed for a in listed[t]]
                out.sort(key=lambda a: str(a.get("ts", "")), reverse=True)
                out.sort(key=lambda a: severity_rank(a.get("severity")))  # stable: newest first within a severity
                self._floor_alerts = out
            return self._floor_alerts
