"""The operators' HTTP endpoint: reconciliation rows, a round's detail for a dispute, and a table's
snapshot, each for the operator that signs the request (the wallet contract's HMAC with the
operator's wallet secret; for a GET the signed bytes are the request's path and query).

    GET /v1/reconcile?from=<ISO time>&to=<ISO time>[&format=csv]
    GET /v1/rounds/<round>
    GET /v1/tables/<table>/snapshot
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from psycopg_pool import AsyncConnectionPool
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from controller.studio.operators import outbox, reconcile, signing
from controller.studio.operators.settings import Operator

MAX_RANGE_DAYS = 31


def signed_target(request: Request) -> bytes:
    query = request.url.query
    return (request.url.path + (f"?{query}" if query else "")).encode()


def refuse(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def parse_time(raw: str | None, name: str) -> datetime:
    if not raw:
        raise ValueError(f"{name} is required (ISO 8601 with a time zone, e.g. 2026-12-05T00:00:00Z)")
    try:
        value = datetime.fromisoformat(raw.replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(f"{name}: not an ISO 8601 time") from None
    if value.tzinfo is None:
        raise ValueError(f"{name}: give the time zone (Z or +hh:mm)")
    return value


def operator_api(pool: AsyncConnectionPool[Any], operators: Mapping[str, Operator]) -> Starlette:
    def who(request: Request) -> Operator | Response:
        operator = operators.get(request.headers.get(signing.OPERATOR, ""))
        if operator is None:
            return refuse(401, "unknown operator")
        wrong = signing.check(operator.wallet_secret, request.headers, signed_target(request), int(time.time() * 1000))
        return refuse(401, wrong) if wrong else operator

    async def reconcile_rows(request: Request) -> Response:
        operator = who(request)
        if isinstance(operator, Response):
            return operator
        try:
            start = parse_time(request.query_params.get("from"), "from")
            end = parse_time(request.query_params.get("to"), "to")
        except ValueError as exc:
            return refuse(400, str(exc))
        if not start < end or (end - start).days > MAX_RANGE_DAYS:
            return refuse(400, f"from must be before to, at most {MAX_RANGE_DAYS} days apart")
        async with pool.connection() as conn:
            found = await reconcile.rows(conn, operator.id, start, end)
        if request.query_params.get("format") == "csv":
            return PlainTextResponse(reconcile.to_csv(found), media_type="text/csv")
        return Response(reconcile.to_json(found), media_type="application/json")

    async def round_detail(request: Request) -> Response:
        operator = who(request)
        if isinstance(operator, Response):
            return operator
        async with pool.connection() as conn:
            detail = await reconcile.round_detail(conn, operator.id, request.path_params["round"])
        if detail is not None:
            detail["events"] = [e for e in detail["events"] if operator.settings.takes(e["table"])]
        if detail is None or not (detail["transactions"] or detail["events"]):
            return refuse(404, "no such round for this operator")
        return JSONResponse(detail)

    async def snapshot(request: Request) -> Response:
        operator = who(request)
        if isinstance(operator, Response):
            return operator
        table = request.path_params["table"]
        if not operator.settings.takes(table):
            return refuse(403, "this operator does not take this table")
        async with pool.connection() as conn:
            found = await outbox.snapshot(conn, table)
        return refuse(404, "no event of this table yet") if found is None else JSONResponse(found)

    return Starlette(routes=[
        Route("/v1/reconcile", reconcile_rows, methods=["GET"]),
        Route("/v1/rounds/{round}", round_detail, methods=["GET"]),
        Route("/v1/tables/{table}/snapshot", snapshot, methods=["GET"]),
    ])
