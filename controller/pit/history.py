"""The dashboard's history (docs/pit.md, "History"): earlier gaming days' rounds and reports
from the floor's store (``controller.floor.store.FloorStore``, the back office's where one is
configured). It survives a dashboard restart, since the store is read each time.

Every route needs a signed-in session (any role may look). ``day`` is ``YYYY-MM-DD`` or
``today``. A wrong question answers 400 and a store that cannot answer (its database down or
frozen) 503, each with a sentence, quickly: a question waits ``ANSWER_WITHIN_S`` at most, and
the store itself fails fast while its database is away. Answers are JSON (or CSV).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from datetime import date
from typing import Any, TypeVar

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from controller.floor.store import BadQuery, FloorStore, RoundsQuery, StoreUnavailable
from controller.pit.views import round_row

log = logging.getLogger(__name__)
SessionCheck = Callable[[Request], bool]
#: the most rounds one page of history lists
MAX_ROUNDS = 500
#: seconds a question may take before the page is told the store does not answer
ANSWER_WITHIN_S = 4.0
T = TypeVar("T")


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message, "message": message}, status_code=status)


def _text(request: Request, key: str) -> str | None:
    value = request.query_params.get(key, "").strip()
    if len(value) > 64:
        raise BadQuery(f"{key} is at most 64 characters")
    return value or None


def _whole(text: str, key: str, default: int) -> int:
    if not text:
        return default
    try:
        return int(text)
    except ValueError:
        raise BadQuery(f"{key} is a whole number") from None


class History:
    """The history routes over one store."""

    def __init__(self, store: FloorStore, signed_in: SessionCheck) -> None:
        self.store = store
        self.signed_in = signed_in

    def routes(self) -> list[Route]:
        return [Route("/api/history/rounds", self.rounds), Route("/api/history/report", self.report),
                Route("/api/history/report.csv", self.report_csv), Route("/api/history/shifts", self.shifts)]

    async def _ask(self, request: Request, question: Callable[[], T]) -> T | Response:
        """``question()`` in a thread, or the 401/400/503 to answer instead."""
        if not self.signed_in(request):
            return _error(401, "sign in")
        try:
            return await asyncio.wait_for(asyncio.to_thread(question), ANSWER_WITHIN_S)
        except BadQuery as exc:
            return _error(400, str(exc))
        except StoreUnavailable as exc:
            return _error(503, f"History is not available now: {exc}")
        except TimeoutError:
            log.warning("pit: the floor's store did not answer within %.0f s", ANSWER_WITHIN_S)
            return _error(503, f"History is not available now: the back office did not answer within "
                               f"{ANSWER_WITHIN_S:.0f} s")

    def _day(self, request: Request) -> date:
        text = request.query_params.get("day", "").strip()
        if text in ("", "today"):
            return self.store.today()
        try:
            return date.fromisoformat(text)
        except ValueError:
            raise BadQuery("day is YYYY-MM-DD or today") from None

    async def rounds(self, request: Request) -> Response:
        def question() -> dict[str, Any]:
            limit = _whole(request.query_params.get("limit", ""), "limit", 200)
            if limit > MAX_ROUNDS:
                raise BadQuery(f"limit is at most {MAX_ROUNDS}")
            query = RoundsQuery(self._day(request), _text(request, "table"), _text(request, "dealer"),
                                _text(request, "player"), _text(request, "shift"), limit)
            found = self.store.rounds(query)
            return {"day": found.day.isoformat(), "rounds": [
                {"table": r.get("table"), "game": r.get("game"), "version": len(r.get("corrections") or []),
                 **round_row(r)} for r in reversed(found.records)]}

        answer = await self._ask(request, question)
        return answer if isinstance(answer, Response) else JSONResponse(answer)

    async def shifts(self, request: Request) -> Response:
        def question() -> dict[str, Any]:
            day = self._day(request)
            return {"day": day.isoformat(), "shifts": [{"name": s.name, "start": s.start, "end": s.end}
                                                       for s in self.store.shifts(day)]}

        answer = await self._ask(request, question)
        return answer if isinstance(answer, Response) else JSONResponse(answer)

    def _report(self, request: Request) -> Any:
        return self.store.report(self._day(request), _text(request, "table"), _text(request, "shift"))

    async def report(self, request: Request) -> Response:
        answer = await self._ask(request, lambda: self._report(request))
        if isinstance(answer, Response):
            return answer
        return Response(json.dumps(dict(answer.body)), media_type="application/json")

    async def report_csv(self, request: Request) -> Response:
        answer = await self._ask(request, lambda: self._report(request))
        if isinstance(answer, Response):
            return answer
        return Response(answer.csv, media_type="text/csv", headers={
            "Content-Disposition": f'attachment; filename="gaming-day-{answer.day.isoformat()}.csv"'})
