"""The reference operator's wallet over HTTP: the generic contract (docs/operators.md), each request's
signature checked, each answer signed, faults applied on request."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from controller.jsonbound import InputRefused, check_json
from controller.studio.operators import signing
from controller.studio.operators.sim.consumer import FeedTally
from controller.studio.operators.sim.faults import Faults
from controller.studio.operators.sim.store import SimStore

KINDS = ("debit", "credit", "cancel", "adjust")
FIELDS = {"tx": str, "player": str, "currency": str, "amount": int}


class DroppedAnswer(RuntimeError):
    """Raised mid-answer: the connection closes without the answer (the drop-after-commit fault)."""


def signed_answer(secret: bytes, tx: str, answer: dict[str, Any], padding: int = 0) -> Response:
    if padding:
        answer = {**answer, "padding": "x" * padding}
    body = json.dumps(answer, separators=(",", ":")).encode()
    headers = signing.signed_headers(secret, "sim", int(time.time() * 1000), tx, body)
    return Response(body, status_code=200, headers=headers)


def wallet_app(store: SimStore, secret: bytes, faults: Faults, feed: FeedTally | None = None,
               lifespan: Any = None) -> Starlette:
    async def wallet_call(request: Request) -> Response:
        kind = request.path_params["kind"]
        if kind not in KINDS:
            return JSONResponse({"error": f"no such call {kind!r}"}, status_code=404)
        if faults.away:
            return JSONResponse({"error": "away"}, status_code=503)
        body = await request.body()
        wrong = signing.check(secret, request.headers, body, int(time.time() * 1000))
        if wrong is not None:
            return JSONResponse({"error": wrong}, status_code=401)
        try:
            req = check_json(body, max_bytes=4096, max_depth=2)
        except InputRefused as exc:
            return JSONResponse({"error": exc.message}, status_code=400)
        if not isinstance(req, dict) or any(not isinstance(req.get(k), t) for k, t in FIELDS.items()):
            return JSONResponse({"error": "tx, player, currency (strings) and amount (integer) are required"},
                                status_code=400)
        if faults.fail_500 > 0:
            faults.fail_500 -= 1
            return JSONResponse({"error": "internal"}, status_code=500)
        repeated = store.seen(req["tx"]) is not None
        if kind == "debit" and faults.token_refused > 0 and not repeated:
            faults.token_refused -= 1
            req = {**req, "token": "refused (fault)"}
        answer = store.apply(kind, req)
        if repeated and faults.contradict:
            answer = {**answer, "balance": int(answer["balance"]) + 1}
        if faults.delay_s:
            await asyncio.sleep(faults.delay_s)
        if faults.drop_after_commit > 0:
            faults.drop_after_commit -= 1
            return StreamingResponse(_dropped(), status_code=200, media_type="application/json")
        return signed_answer(secret, req["tx"], answer, faults.oversize)

    async def set_faults(request: Request) -> Response:
        try:
            changes = check_json(await request.body(), max_bytes=1024, max_depth=1)
            faults.update(dict(changes))
        except (InputRefused, ValueError, TypeError) as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        return JSONResponse({"ok": True})

    async def balance(request: Request) -> Response:
        player, currency = request.path_params["player"], request.query_params.get("currency", "EUR")
        return JSONResponse({"player": player, "currency": currency, "balance": store.balance(player, currency)})

    async def feed_tally(request: Request) -> Response:
        if feed is None:
            return JSONResponse({"error": "this operator-sim consumes no feed (--amqp)"}, status_code=404)
        return JSONResponse({"last": feed.last, "duplicates": feed.duplicates, "gaps": feed.gaps,
                             "bad_mac": feed.bad_mac, "unreadable": feed.unreadable})

    return Starlette(lifespan=lifespan, routes=[
        Route("/wallet/{kind}", wallet_call, methods=["POST"]),
        Route("/_sim/feed", feed_tally, methods=["GET"]),
        Route("/_sim/faults", set_faults, methods=["POST"]),
        Route("/_sim/balance/{player}", balance, methods=["GET"]),
    ])


async def _dropped() -> AsyncIterator[bytes]:
    raise DroppedAnswer("answer dropped after the commit (fault)")
    yield b""  # pragma: no cover - makes this a generator
