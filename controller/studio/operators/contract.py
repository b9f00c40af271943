"""The generic JSON wallet contract on the wire: the request body we send and the answer we
accept. An answer is read with bounds (size, depth, fields) into a typed model; anything else is
``Malformed``, kept and retried, never taken on trust.

Request  ``POST <wallet_url>/<kind>`` with ``{"v": 1, "tx", "ref", "round", "player", "amount",
"currency", "token"}``; answer ``200`` with ``{"v": 1, "tx", "status", "balance"}`` signed like
the request (docs/operators.md).
"""

from __future__ import annotations

import json
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from controller.jsonbound import InputRefused, check_json
from controller.studio.operators.interface import WalletResult, WalletStatus, WalletTx

MAX_ANSWER_BYTES = 4096
MAX_DEPTH = 3


class Malformed(ValueError):
    """The operator's answer is not one of the contract's: the message says why."""


class WalletRequest(BaseModel):
    """The body of every wallet call (``POST <wallet_url>/debit|credit|cancel|adjust``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    v: Literal[1] = 1
    tx: str = Field(min_length=1, max_length=128, description="our transaction id: the idempotency key")
    ref: str = Field(min_length=1, max_length=128, description="the debit this movement belongs to (a debit: its own id)")
    round: str = Field(max_length=64, description="the table's round id")
    player: str = Field(min_length=1, max_length=128)
    amount: int = Field(ge=-(10**15), le=10**15, description="minor units; only an adjustment may be negative")
    currency: str = Field(min_length=3, max_length=3)
    token: str | None = Field(default=None, max_length=4096, description="the player's launch token (debits)")


class Answer(BaseModel):
    """The operator's answer: ``retry`` is its temporary error (we ask again); a duplicate request
    gets the same answer as the first."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    v: Literal[1]
    tx: str = Field(min_length=1, max_length=128)
    status: Literal["ok", "insufficient_funds", "operator_limit", "token_refused", "retry"]
    balance: int | None = Field(default=None, ge=0, le=10**15)

    def result(self) -> WalletResult:
        if self.status == "retry":  # the operator's temporary error: ask again
            return WalletResult(WalletStatus.UNKNOWN)
        return WalletResult(WalletStatus(self.status), self.balance)


def request_body(tx: WalletTx) -> bytes:
    body = WalletRequest(tx=tx.tx, ref=tx.ref, round=tx.round, player=tx.player, amount=tx.amount,
                         currency=tx.currency, token=tx.token or None)
    return json.dumps(body.model_dump(exclude_none=True), separators=(",", ":"), sort_keys=True).encode()


def parse_answer(raw: bytes, tx: str) -> Answer:
    """The answer to our request ``tx``, or ``Malformed``."""
    if len(raw) > MAX_ANSWER_BYTES:
        raise Malformed(f"answer of {len(raw)} bytes, more than {MAX_ANSWER_BYTES}")
    try:
        data = check_json(raw, max_bytes=MAX_ANSWER_BYTES, max_depth=MAX_DEPTH)
        answer = Answer.model_validate(data)
    except InputRefused as exc:
        raise Malformed(f"not an answer of the contract: {exc.message[:200]}") from None
    except ValidationError as exc:
        raise Malformed(f"not an answer of the contract: {exc.errors()[0]['msg'][:200]}") from None
    if answer.tx != tx:
        raise Malformed(f"answer names transaction {answer.tx[:64]!r}, not ours")
    return answer
