"""The operators' published messages (docs/schemas/operator-*.json, exported by
scripts/export_schemas.py from these models)."""

from __future__ import annotations

from typing import Any

from controller.studio.operators.contract import Answer, WalletRequest
from controller.studio.operators.feedmsg import FeedMessage, Snapshot
from controller.studio.operators.reconcile import ReconcileRow

SCHEMAS: dict[str, tuple[str, Any]] = {
    "operator-wallet-request": ("studio -> operator: POST <wallet_url>/debit|credit|cancel|adjust, signed "
                                "(docs/operators.md)", WalletRequest),
    "operator-wallet-answer": ("operator -> studio: the answer to a wallet call, HTTP 200, signed", Answer),
    "operator-feed": ("studio -> operator: one message of the operator's durable RabbitMQ queue", FeedMessage),
    "operator-snapshot": ("GET /v1/tables/<table>/snapshot: a table's state and the sequence it stands at", Snapshot),
    "operator-reconcile-row": ("one row of croupier studio reconcile and GET /v1/reconcile", ReconcileRow),
}
