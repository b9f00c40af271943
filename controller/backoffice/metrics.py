"""The back office's Prometheus figures (docs/backoffice.md, "Metrics"): what it read, wrote and
refused, its lag from a table's publish to the committed row, and whether its broker and its
database are there."""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

from controller.metrics import ServedMetrics

LAG_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0, 900.0)


class BackofficeMetrics(ServedMetrics):
    def __init__(self) -> None:
        super().__init__()
        r = self.registry
        self.messages = Counter("croupier_backoffice_messages", "feed messages received, by topic leaf", ["leaf"], registry=r)
        self.rows = Counter("croupier_backoffice_rows", "rows committed (duplicates included), by kind", ["kind"], registry=r)
        self.rejected = Counter("croupier_backoffice_rejected", "messages kept as rejected (unreadable or refused)",
                                registry=r)
        self.intake_alerts = Counter("croupier_backoffice_intake_alerts",
                                     "round versions refused as unbacked by the journal, or re-sent with another "
                                     "body, by code", ["code"], registry=r)
        self.batches = Counter("croupier_backoffice_batches", "transactions committed", registry=r)
        self.lag = Histogram("croupier_backoffice_lag_seconds", "a message's ts (the table's publish) to its row committed",
                             buckets=LAG_BUCKETS, registry=r)
        self.last_lag = Gauge("croupier_backoffice_last_lag_seconds", "lag of the newest committed message", registry=r)
        self.queued = Gauge("croupier_backoffice_queued", "messages received and not yet committed", registry=r)
        self.database_up = Gauge("croupier_backoffice_database_up", "1 while the database takes writes", registry=r)
        self.broker_up = Gauge("croupier_backoffice_broker_up", "1 while connected to the broker", registry=r)
        self.database_errors = Counter("croupier_backoffice_database_errors", "batches the database could not take (retried)",
                                       registry=r)
