"""What the operators' side tells the floor about an operator that misbehaves: counters and
gauges for Prometheus, and a warning in the log. Every anomaly is also kept in the wallet log."""

from __future__ import annotations

import logging

from prometheus_client import Counter, Gauge

log = logging.getLogger("croupier.studio.operators")

ANOMALIES = Counter("croupier_operator_wallet_anomalies_total",
                    "Wallet answers not taken on trust (malformed, oversized, unsigned, slow, http error, contradiction)",
                    ["operator", "kind"])
FLAGGED = Gauge("croupier_operator_wallet_flagged", "Wallet transactions flagged for manual reconciliation", ["operator"])
PENDING = Gauge("croupier_operator_wallet_pending", "Wallet transactions waiting for the operator's answer", ["operator"])
FEED_LAG = Gauge("croupier_operator_feed_lag", "Feed events not yet confirmed by the broker for an operator", ["operator"])


def anomaly(operator: str, kind: str, tx: str, detail: str) -> None:
    ANOMALIES.labels(operator, kind).inc()
    log.warning("operator %s: wallet answer to %s not trusted (%s): %s", operator, tx, kind, detail)
