"""Prometheus metrics for a table process (and the helpers the pit dashboard uses for its own).

Each table has its own registry, served over HTTP when the config's ``[metrics]`` says so
(docs/deployment.md, "Metrics"). What is counted comes from the journal, as it is written:
every closed round, alert and hold is an entry, so the figures cannot disagree with the
journal. Since a process start, as Prometheus counters are:

* ``croupier_rounds_total{table,status}`` rounds closed, settled or void
* ``croupier_alerts_total{table,severity,code}`` and ``croupier_holds_total{table,code}``
* ``croupier_device_online{table,device}`` 1 or 0, as the table last saw the device
* ``croupier_device_event_seconds{table,device}`` a device event from its arrival (journaled)
  to the table having acted on it (stepped, effects carried out)
* ``croupier_journal_append_seconds{table}`` one durable journal write
* ``croupier_journal_head_seq{table}``, ``croupier_feed_lag_entries{table}`` entries the pit
  feed's broker has not acknowledged yet
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, start_http_server

from controller.journal import Entry

#: seconds: from sub-millisecond (a card on a quiet table) to the device timeouts
LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
APPEND_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)
_INPUT_KINDS = frozenset(("device", "command", "pit_command", "draw"))
_PENDING_MAX = 10_000


class MetricsServer:
    """``prometheus_client``'s HTTP exposition of one registry, on a thread; ``port`` 0 takes a
    free port (``.port`` says which)."""

    def __init__(self, registry: CollectorRegistry, host: str, port: int) -> None:
        self._server, self._thread = start_http_server(port, addr=host, registry=registry)
        self.host = host
        self.port = int(self._server.server_port)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/metrics"

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


def device_label(source: str) -> str:
    """Bounded label values: every bet spot counts as ``spots``."""
    return "spots" if source.startswith("spot") else source[:32]


class ServedMetrics:
    """One registry of figures and, once ``serve``d, its HTTP endpoint (table and dashboard alike)."""

    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        self.registry = registry if registry is not None else CollectorRegistry()
        self.server: MetricsServer | None = None

    def serve(self, host: str, port: int) -> MetricsServer:
        self.server = MetricsServer(self.registry, host, port)
        return self.server

    def close(self) -> None:
        if self.server is not None:
            self.server.close()
            self.server = None


class TableMetrics(ServedMetrics):
    """Fed by the journal (``observe_append``) and the table loop (``applied``)."""

    def __init__(self, table: str, registry: CollectorRegistry | None = None) -> None:
        super().__init__(registry)
        self.table = table
        r = self.registry
        self.rounds = Counter("croupier_rounds", "Rounds closed", ["table", "status"], registry=r)
        self.alerts = Counter("croupier_alerts", "Alerts journaled", ["table", "severity", "code"], registry=r)
        self.holds = Counter("croupier_holds", "Holds raised", ["table", "code"], registry=r)
        self.online = Gauge("croupier_device_online", "Device online (1) or not (0)", ["table", "device"],
                            registry=r)
        self.event_seconds = Histogram("croupier_device_event_seconds", "Device event from arrival to acted on",
                                       ["table", "device"], buckets=LATENCY_BUCKETS, registry=r)
        self.append_seconds = Histogram("croupier_journal_append_seconds", "One durable journal append",
                                        ["table"], buckets=APPEND_BUCKETS, registry=r)
        self.head = Gauge("croupier_journal_head_seq", "Newest journal seq", ["table"], registry=r)
        self.feed_lag = Gauge("croupier_feed_lag_entries", "Journal entries the pit feed has not had acknowledged",
                              ["table"], registry=r)
        self._arrived: OrderedDict[int, float] = OrderedDict()
        self._lock = threading.Lock()
        # the children written per entry, looked up once (``labels`` takes a lock and builds a key)
        self._append_child = self.append_seconds.labels(table)
        self._head_child = self.head.labels(table)
        self._online_children: dict[str, Any] = {}
        self._event_children: dict[str, Any] = {}

    # -- from the journal ---------------------------------------------------------------------------
    def observe_append(self, entry: Entry, seconds: float) -> None:
        t = self.table
        self._append_child.observe(seconds)
        self._head_child.set(entry.seq)
        p = entry.payload
        if entry.kind == "device":
            with self._lock:
                self._arrived[entry.seq] = time.perf_counter() - seconds
                while len(self._arrived) > _PENDING_MAX:
                    self._arrived.popitem(last=False)
        elif entry.kind == "round_closed":
            if not p.get("corrections"):  # a correction is a new record of a round already counted
                self.rounds.labels(t, str(p.get("status", "settled"))).inc()
        elif entry.kind == "alert":
            code = str(p.get("code", ""))[:64]
            self.alerts.labels(t, str(p.get("severity", "")), code).inc()
            if p.get("hold"):
                self.holds.labels(t, code).inc()

    # -- from the loop ------------------------------------------------------------------------------
    def applied(self, core: Any, entry: Entry) -> None:
        if entry.kind == "device":
            with self._lock:
                arrived = self._arrived.pop(entry.seq, None)
            if arrived is not None:
                self._child(self._event_children, self.event_seconds, entry.source).observe(
                    time.perf_counter() - arrived)
        for device, health in dict(getattr(core, "devices", {})).items():
            self._child(self._online_children, self.online, device).set(1 if health.get("online") else 0)

    def _child(self, children: dict[str, Any], metric: Any, device: str) -> Any:
        """``metric``'s child for this table and ``device``, kept once made (labels are bounded)."""
        child = children.get(device)
        if child is None:
            child = children[device] = metric.labels(self.table, device_label(device))
        return child

    def watch_feed_lag(self, lag: Callable[[], float]) -> None:
        """``lag()`` is read at each scrape."""
        self.feed_lag.labels(self.table).set_function(lag)


def table_metrics(config: Any, journal: Any) -> TableMetrics | None:
    """The table's metrics, counting every journal write and served, when ``[metrics]`` is enabled."""
    section = config.metrics
    if not section.enabled:
        return None
    metrics = TableMetrics(config.table.id)
    journal.observers.append(metrics.observe_append)
    metrics.serve(section.host, section.port)
    return metrics
