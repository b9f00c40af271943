"""Signatures of the generic wallet contract and of the operator's HTTP endpoints: HMAC-SHA256
with the operator's secret over ``<timestamp>.<request id>.`` followed by the body's bytes, sent
as lowercase hex. A request older or newer than ``SKEW_S`` is refused, so a captured request
cannot be replayed later; the request id makes every call idempotent.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping

TIMESTAMP = "X-Croupier-Timestamp"  # unix milliseconds
REQUEST = "X-Croupier-Request"  # our transaction id (a retry sends the same)
SIGNATURE = "X-Croupier-Signature"  # hex HMAC-SHA256
OPERATOR = "X-Croupier-Operator"
SKEW_S = 300


def sign(secret: bytes, timestamp_ms: int, request_id: str, body: bytes) -> str:
    message = f"{timestamp_ms}.{request_id}.".encode() + body
    return hmac.new(secret, message, hashlib.sha256).hexdigest()


def signed_headers(secret: bytes, operator: str, timestamp_ms: int, request_id: str, body: bytes) -> dict[str, str]:
    return {
        OPERATOR: operator,
        TIMESTAMP: str(timestamp_ms),
        REQUEST: request_id,
        SIGNATURE: sign(secret, timestamp_ms, request_id, body),
        "Content-Type": "application/json",
    }


def check(secret: bytes, headers: Mapping[str, str], body: bytes, now_ms: int) -> str | None:
    """None when ``headers`` carry a good, fresh signature of ``body``; else what is wrong."""
    raw_ts, request_id, given = headers.get(TIMESTAMP, ""), headers.get(REQUEST, ""), headers.get(SIGNATURE, "")
    if not raw_ts.isdigit() or not request_id or not given:
        return "missing or malformed signature headers"
    if len(request_id) > 128:
        return "request id longer than 128 characters"
    if abs(now_ms - int(raw_ts)) > SKEW_S * 1000:
        return "timestamp outside the allowed clock skew"
    if not hmac.compare_digest(sign(secret, int(raw_ts), request_id, body), given):
        return "bad signature"
    return None
