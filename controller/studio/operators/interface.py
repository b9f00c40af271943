"""The wallet as the studio sees it, whatever the operator's contract: a debit when a bet is
accepted, a credit when it is settled, a cancel when it is returned, an adjustment when the pit
corrects a settled round. Every movement carries our own transaction id, the operator is asked to
be idempotent on it, and the answer is one of a few typed outcomes the player can be told.

These names match the studio's ``controller/studio/wallet.py`` (``WalletTx``, ``WalletResult``,
``WalletStatus``) and add what operators need: the round, the refused token, adjustments.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Protocol


class WalletStatus(str, Enum):
    OK = "ok"
    INSUFFICIENT_FUNDS = "insufficient_funds"
    #: the operator's own limit for this player (stake, loss, session): the player is told so
    OPERATOR_LIMIT = "operator_limit"
    #: the player's launch token or session is no longer good at the operator
    TOKEN_REFUSED = "token_refused"
    #: no trustworthy answer (timeout, error, malformed, contradicting): a debit is refused and
    #: cancelled, a credit, cancel or adjustment is retried until answered
    UNKNOWN = "unknown"


#: what a refused bet tells the player (the studio's refusal reason codes)
REFUSAL_REASON: dict[WalletStatus, str] = {
    WalletStatus.INSUFFICIENT_FUNDS: "funds",
    WalletStatus.OPERATOR_LIMIT: "operator_limit",
    WalletStatus.TOKEN_REFUSED: "token_refused",
    WalletStatus.UNKNOWN: "wallet_unavailable",
}


class Kind(str, Enum):
    DEBIT = "debit"
    CREDIT = "credit"
    CANCEL = "cancel"
    ADJUST = "adjust"


@dataclass(frozen=True, slots=True)
class WalletTx:
    """One money movement. ``tx`` is our id (the idempotency key), ``ref`` the debit it belongs
    to (a debit's own id for a debit), ``amount`` minor units (an adjustment may be negative)."""

    tx: str
    ref: str
    operator: str
    player: str
    currency: str
    amount: int
    round: str = ""
    #: the player's launch token, for an operator that checks it on a debit
    token: str = ""


@dataclass(frozen=True, slots=True)
class WalletResult:
    status: WalletStatus
    #: the player's balance after the movement, when the wallet tells it
    balance: int | None = None

    @property
    def refusal(self) -> str | None:
        """The reason code a refused bet carries to the player (None when it went through)."""
        return REFUSAL_REASON.get(self.status)


class Wallet(Protocol):
    """One operator's wallet. A credit, cancel or adjustment answered ``UNKNOWN`` is not lost: it
    stays pending and is retried; a debit answered ``UNKNOWN`` is refused and cancelled."""

    async def debit(self, tx: WalletTx) -> WalletResult: ...

    async def credit(self, tx: WalletTx) -> WalletResult: ...

    async def cancel(self, tx: WalletTx) -> WalletResult: ...

    async def adjust(self, tx: WalletTx) -> WalletResult: ...
