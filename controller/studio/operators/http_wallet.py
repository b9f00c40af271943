"""The generic JSON-over-HTTP(S) wallet contract's adapter: each call signed (``signing``), logged
before it is sent and its answer logged before it is believed (``txlog``), the answer bounded in
size and time and read into the contract (``contract``). An answer that is malformed, oversized,
unsigned, slow or that contradicts an earlier one is an anomaly: kept, alerted, never trusted.

A debit is asked at most ``debit_attempts`` times (the same id: the operator pays once); without an
answer it is given up and cancelled, never guessed. A credit, cancel or adjustment is asked once
here; without an answer it stays pending for the operator's ``RetryWorker``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import httpx

from controller.studio.operators import alerts, contract, signing
from controller.studio.operators.interface import Kind, Wallet, WalletResult, WalletStatus, WalletTx
from controller.studio.operators.settings import Operator
from controller.studio.operators.txlog import TxLog

UNKNOWN = WalletResult(WalletStatus.UNKNOWN)


def utc_now() -> datetime:
    return datetime.now(UTC)


def cancel_of(debit: WalletTx) -> WalletTx:
    """The cancel that returns ``debit`` whole: its own id derived from the debit's, so asking
    again is the same cancel."""
    return replace(debit, tx=f"{debit.tx}:cancel", ref=debit.tx, token="")


class HttpWallet:
    """One operator's wallet over the generic contract (``Wallet``)."""

    def __init__(self, operator: Operator, log: TxLog, client: httpx.AsyncClient, *,
                 now: Callable[[], datetime] = utc_now, wake: Callable[[], None] = lambda: None,
                 first_retry: timedelta = timedelta(seconds=1)) -> None:
        self.operator = operator
        self.log = log
        self.client = client
        self.now = now
        #: tells the operator's retry worker that a movement is pending
        self.wake = wake
        #: told of every answered credit, cancel and adjustment, whoever asked (the studio tells the
        #: player a balance that came after the round's ``settled``)
        self.answered: Callable[[WalletTx, Kind, WalletResult], Awaitable[None]] | None = None
        self.first_retry = first_retry

    # -- the Wallet interface ------------------------------------------------------------------
    async def debit(self, tx: WalletTx) -> WalletResult:
        logged = await self._open(tx, Kind.DEBIT)
        if logged is not None:
            return logged
        for _ in range(self.operator.settings.debit_attempts):
            result = await self.send(tx, Kind.DEBIT)
            if result.status is not WalletStatus.UNKNOWN:
                return result
            current = await self.log.get(tx.tx)
            if current is not None and current.state != "pending":
                break  # flagged (a contradiction): no more asking
        await self.abandon(tx)
        return UNKNOWN

    async def abandon(self, tx: WalletTx) -> None:
        """Give up a debit without a trustworthy answer: it is returned by its cancel (pending
        until the operator answers it), never guessed to have happened or not."""
        await self.log.give_up_debit(tx.tx)
        await self.cancel(cancel_of(tx))

    async def credit(self, tx: WalletTx) -> WalletResult:
        return await self._once(tx, Kind.CREDIT)

    async def cancel(self, tx: WalletTx) -> WalletResult:
        return await self._once(tx, Kind.CANCEL)

    async def adjust(self, tx: WalletTx) -> WalletResult:
        return await self._once(tx, Kind.ADJUST)

    # -- one call ------------------------------------------------------------------------------
    async def send(self, tx: WalletTx, kind: Kind) -> WalletResult:
        """One attempt: logged, signed, sent, its answer logged and checked."""
        body = contract.request_body(tx)
        # kept as sent, but for the player's token (a bearer credential is not stored)
        attempt = await self.log.request(tx.tx, contract.request_body(replace(tx, token="")) if tx.token else body)
        settings = self.operator.settings
        headers = signing.signed_headers(self.operator.wallet_secret, self.operator.id, int(time.time() * 1000), tx.tx, body)
        url = f"{settings.wallet_url.rstrip('/')}/{kind.value}"
        try:
            async with asyncio.timeout(settings.timeout_s):
                status, answer_headers, raw = await self._post(url, body, headers)
        except TimeoutError:
            return await self._distrust(tx.tx, attempt, "slow", f"no answer within {settings.timeout_s} s")
        except httpx.HTTPError as exc:
            return await self._distrust(tx.tx, attempt, "unreachable", f"{type(exc).__name__}: {exc}"[:300])
        except contract.Malformed as exc:
            return await self._distrust(tx.tx, attempt, "oversized", str(exc))
        if status != 200:
            return await self._distrust(tx.tx, attempt, "http_error", f"HTTP {status}", status, raw)
        wrong = signing.check(self.operator.wallet_secret, answer_headers, raw, int(time.time() * 1000))
        if wrong is not None or answer_headers.get(signing.REQUEST) != tx.tx:
            return await self._distrust(tx.tx, attempt, "unsigned", wrong or "answer signed for another request",
                                        status, raw)
        try:
            answer = contract.parse_answer(raw, tx.tx)
        except contract.Malformed as exc:
            return await self._distrust(tx.tx, attempt, "malformed", str(exc), status, raw)
        result = answer.result()
        contradiction = await self.log.answer(tx.tx, attempt, raw, result, answer.status)
        if contradiction is not None:
            alerts.anomaly(self.operator.id, "contradiction", tx.tx, contradiction)
            await self.log.flag(tx.tx, contradiction)
            return UNKNOWN
        if result.status is WalletStatus.UNKNOWN:
            return UNKNOWN
        await self.log.settle(tx.tx, result, self.now())
        if self.answered is not None and kind is not Kind.DEBIT:
            await self.answered(tx, kind, result)
        return result

    async def _post(self, url: str, body: bytes, headers: dict[str, str]) -> tuple[int, httpx.Headers, bytes]:
        """Status, headers and at most ``MAX_ANSWER_BYTES`` of the answer (more is ``Malformed``)."""
        async with self.client.stream("POST", url, content=body, headers=headers) as response:
            declared = response.headers.get("content-length", "")
            if declared.isdigit() and int(declared) > contract.MAX_ANSWER_BYTES:
                raise contract.Malformed(f"answer of {declared} bytes, more than {contract.MAX_ANSWER_BYTES}")
            chunks, size = [], 0
            async for chunk in response.aiter_bytes():  # decoded: a compressed answer is bounded as read
                size += len(chunk)
                if size > contract.MAX_ANSWER_BYTES:
                    raise contract.Malformed(f"answer longer than {contract.MAX_ANSWER_BYTES} bytes")
                chunks.append(chunk)
            return response.status_code, response.headers, b"".join(chunks)

    async def _distrust(self, tx: str, attempt: int, kind: str, detail: str, http_status: int | None = None,
                        body: bytes = b"") -> WalletResult:
        await self.log.failure(tx, attempt, f"{kind}: {detail}", http_status, body)
        alerts.anomaly(self.operator.id, kind, tx, detail)
        return UNKNOWN

    async def _open(self, tx: WalletTx, kind: Kind) -> WalletResult | None:
        """The logged answer of a transaction already settled (asked again: the same answer, the
        operator not asked), UNKNOWN for one given up or flagged, None for one to ask."""
        now = self.now()
        logged = await self.log.open(tx, kind, now, now + self.first_retry)
        if logged.state == "answered" and logged.result is not None:
            return logged.result
        if logged.state in ("cancelled", "flagged"):
            return UNKNOWN
        return None

    async def _once(self, tx: WalletTx, kind: Kind) -> WalletResult:
        logged = await self.logged(tx, kind)
        if logged is not None:
            return logged
        return await self.attempt(tx, kind)

    async def logged(self, tx: WalletTx, kind: Kind) -> WalletResult | None:
        """Write the movement to the log (once); its logged answer, UNKNOWN when given up or
        flagged, None when the operator is to be asked (``attempt``)."""
        return await self._open(tx, kind)

    async def attempt(self, tx: WalletTx, kind: Kind) -> WalletResult:
        """Ask a logged credit, cancel or adjustment once; unanswered, the retry worker asks again."""
        result = await self.send(tx, kind)
        if result.status is WalletStatus.UNKNOWN:
            self.wake()
        return result


def as_wallet(wallet: HttpWallet) -> Wallet:
    """The studio's view of an operator's wallet (mypy checks here that the adapter is one)."""
    return wallet
