"""The table view's rounds list (docs/pit.md, "The table view"): table order, newest first,
searched and cut into pages.

Table order is the order the rounds were opened at the table (then their id): a corrected
round keeps its place, although its corrected record arrives later. A search is words that
must all match one of the round's id, its dealer, a player of its bets, or the time it opened
or closed as the page shows it (``YYYY-MM-DD`` and ``HH:MM:SS`` in the page's time zone,
given as the browser's ``getTimezoneOffset()`` in minutes).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import timedelta
from typing import Any

from controller.pit.stats import parse_ts

PER_PAGE = 25
PER_PAGE_MAX = 200


def table_order(records: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Newest first: by the time the round opened, then by its id."""
    return sorted(records, key=lambda r: (str(r.get("opened") or ""), str(r.get("round") or "")), reverse=True)


def _local_times(value: object, offset_minutes: int) -> list[str]:
    moment = parse_ts(value)
    if moment is None or moment.tzinfo is None:
        return []
    local = moment - timedelta(minutes=offset_minutes)  # getTimezoneOffset: UTC minus local
    return [local.strftime("%Y-%m-%d"), local.strftime("%H:%M:%S")]


def searchable(record: Mapping[str, Any], offset_minutes: int) -> str:
    """Everything a search may match in ``record``, lower case."""
    bets = record.get("bets")
    players = [str(b.get("player")) for b in bets if isinstance(b, Mapping) and b.get("player")] \
        if isinstance(bets, list) else []
    words = [str(record.get("round") or ""), str(record.get("dealer") or ""), *players,
             *_local_times(record.get("opened"), offset_minutes), *_local_times(record.get("closed"), offset_minutes)]
    return " ".join(words).lower()


def rounds_page(records: Iterable[Mapping[str, Any]], row: Callable[[Mapping[str, Any]], dict[str, Any]], *,
                query: str = "", page: int = 1, per_page: int = PER_PAGE, offset_minutes: int = 0) -> dict[str, Any]:
    """One page of the rounds matching ``query``: ``{rows, total, page, pages, per_page, query}``."""
    per_page = max(1, min(PER_PAGE_MAX, per_page))
    words = query.lower().split()
    found = [r for r in table_order(records) if all(w in searchable(r, offset_minutes) for w in words)]
    pages = max(1, -(-len(found) // per_page))
    page = max(1, min(pages, page))
    start = (page - 1) * per_page
    return {"rows": [row(r) for r in found[start:start + per_page]], "total": len(found), "page": page,
            "pages": pages, "per_page": per_page, "query": query}
