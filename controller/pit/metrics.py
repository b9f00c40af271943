"""Prometheus metrics for the pit dashboard (docs/pit.md, "Metrics"; docs/deployment.md, "Metrics").

The same exposition as a table's (``controller.metrics.MetricsServer``), on its own registry:

* ``croupier_pit_tables{state}`` tables on the floor (``seen``) and those whose presence is
  ``online``
* ``croupier_pit_messages_total{topic}`` feed messages received, by topic leaf (``state``,
  ``round``, ...; anything else is ``other``); ``croupier_pit_messages_dropped_total`` those
  that were not a feed message at all
* ``croupier_pit_feed_lag_seconds`` from a message's ``ts`` (the table's publish time) to the
  dashboard having folded it in (histogram)
* ``croupier_pit_alerts_open{severity}`` alerts open on the floor, as the floor view lists them
* ``croupier_pit_commands_sent_total{command}``, ``croupier_pit_commands_refused_total{reason}``
  pit commands published, and refused before publishing (``session``: not signed in, ``csrf``:
  without the session's CSRF token, ``role``: not a pit boss, ``invalid``: a command the table
  would refuse)
* ``croupier_pit_websocket_clients`` pages connected to the live feed

Counters start at 0 with each process. Gauges are read from the floor model at each scrape,
so they cannot drift from what the page shows.
"""

from __future__ import annotations

from collections import Counter as Tally
from collections.abc import Callable, Iterator

from prometheus_client import Counter, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from controller.metrics import LATENCY_BUCKETS, ServedMetrics
from controller.pit.commands import KINDS
from controller.pit.model import SEVERITY_RANK, FloorModel

#: the feed's topic leaves the dashboard subscribes to; any other leaf counts as ``other``
TOPICS = ("state", "prompt", "ledger", "online", "round", "alert", "outcome")
REFUSALS = ("session", "csrf", "role", "invalid")


class _FloorCollector(Collector):
    """Gauges computed from the floor model when Prometheus scrapes."""

    def __init__(self, model: FloorModel, clients: Callable[[], int]) -> None:
        self.model = model
        self.clients = clients

    def collect(self) -> Iterator[Metric]:
        tables = list(self.model.tables.values())
        seen = GaugeMetricFamily("croupier_pit_tables", "Tables on the floor (seen) and online", labels=["state"])
        seen.add_metric(["seen"], len(tables))
        seen.add_metric(["online"], sum(1 for t in tables if t.online))
        yield seen
        alerts = GaugeMetricFamily("croupier_pit_alerts_open", "Alerts open on the floor", labels=["severity"])
        by_severity = Tally(str(a.get("severity")) for a in self.model.alerts())
        for severity in SEVERITY_RANK:
            alerts.add_metric([severity], by_severity.pop(severity, 0))
        for severity, count in sorted(by_severity.items()):  # a severity the table invented
            alerts.add_metric([severity[:32]], count)
        yield alerts
        yield CounterMetricFamily("croupier_pit_messages_dropped", "Feed messages that were not a feed message",
                                  value=self.model.dropped)
        yield GaugeMetricFamily("croupier_pit_websocket_clients", "Pages connected to the live feed",
                                value=self.clients())


class PitMetrics(ServedMetrics):
    """Fed by the dashboard's feed consumer (``received``) and its command route (``sent``,
    ``refused``); the rest is read from ``model`` and ``clients()`` at each scrape."""

    def __init__(self, model: FloorModel, clients: Callable[[], int]) -> None:
        super().__init__()
        r = self.registry
        self.messages = Counter("croupier_pit_messages", "Feed messages received", ["topic"], registry=r)
        self.lag = Histogram("croupier_pit_feed_lag_seconds", "From a feed message's ts to folded in",
                             buckets=LATENCY_BUCKETS, registry=r)
        self.commands_sent = Counter("croupier_pit_commands_sent", "Pit commands published", ["command"], registry=r)
        self.commands_refused = Counter("croupier_pit_commands_refused", "Pit commands refused before publishing",
                                        ["reason"], registry=r)
        for topic in (*TOPICS, "other"):
            self.messages.labels(topic)
        for reason in REFUSALS:
            self.commands_refused.labels(reason)
        r.register(_FloorCollector(model, clients))

    def received(self, topic: str, lag: float | None) -> None:
        leaf = topic.rsplit("/", 1)[-1]
        self.messages.labels(leaf if leaf in TOPICS else "other").inc()
        if lag is not None:
            self.lag.observe(max(lag, 0.0))  # a table clock ahead of the dashboard's is no negative lag

    def sent(self, command: str) -> None:
        self.commands_sent.labels(command if command in KINDS else "other").inc()

    def refused(self, reason: str) -> None:
        self.commands_refused.labels(reason).inc()
