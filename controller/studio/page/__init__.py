"""The player's page (docs/studio.md, "The player's page"): ``GET /play/<table>`` serves one
static page that joins the table over the studio's own WebSocket ``/v1/play`` with the launch
token it reads from its own address (the fragment, or ``?token=``: never logged here, the studio
keeps no access log), and ``GET /play/<table>/table.json`` what it draws: the game, the chips,
and its betting spots (roulette: the rules' own layout offer, the console's; baccarat: the kinds
the table takes; blackjack: the side bets on a box's deal, and a seated player's own bets).

The page and its files are behind ``WebGuard`` (the other pages' CSP: no inline script or style,
nothing from another origin); the players' WebSocket is not (an operator's game client on its
own origin connects to it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from controller.games.base import chip_tray
from controller.games.blackjack.paytables import DEAL_KINDS
from controller.games.roulette.rules import RouletteRules
from controller.games.roulette.view import layout_offer
from controller.studio.rules import TableRules
from controller.table import registry
from controller.web import STATIC as COMMON
from controller.web.guard import WebGuard

STATIC = Path(__file__).with_name("static")
#: where the page takes the roulette layout's drawing, shared with the dealer's console
ROULETTE = registry.game("roulette").assets.folder
#: the page asks nothing bigger
MAX_BODY = 1024


def describe(table: str, rules: TableRules) -> dict[str, Any]:
    """What the player's page draws at ``table``: the game, the chips, and where one bets."""
    limits = rules.rules.limits
    out: dict[str, Any] = {"table": table, "game": rules.game, "chips": chip_tray(limits)}
    if isinstance(rules.rules, RouletteRules):
        out["layout"] = layout_offer(rules.rules)
        out["chips"] = out["layout"]["chips"]
    elif rules.game != "baccarat":  # the games with boxes: blackjack and its family
        out["side_bets"] = sorted(kind for kind in limits if kind in DEAL_KINDS)
        # a seated player's own bets on the box (docs/studio.md, "Seats"): the hand's, not a Bet Behind
        out["seat_bets"] = [kind for kind in limits if kind not in DEAL_KINDS and not kind.startswith("behind")]
        out["boxes"] = int(getattr(rules.rules, "boxes", 7))
        out["behind"] = bool(getattr(rules.rules, "bet_behind", False))  # Bet Behind another player's box
    else:  # baccarat: the kinds the table's engine takes at their minimum
        out["spots"] = [kind for kind, lim in limits.items() if rules.check([(kind, lim.min)], "page") is None]
    # the game seats remote players when the table decides for an absent one (docs/studio.md, "Seats")
    out["seats"] = bool(getattr(rules.adapter, "default_decisions", None))
    return out


def page_app(tables: dict[str, TableRules]) -> WebGuard:
    """The page, its description of each table and its files."""
    page = (STATIC / "play.html").read_text()
    described = {table: describe(table, rules) for table, rules in tables.items()}

    async def play(request: Request) -> Response:
        if request.path_params["table"] not in tables:
            return PlainTextResponse("No such table at this studio.", status_code=404)
        return HTMLResponse(page, headers={"Cache-Control": "no-store"})

    async def table_json(request: Request) -> Response:
        table = request.path_params["table"]
        if table not in described:
            return JSONResponse({"ok": False, "message": "no such table at this studio"}, status_code=404)
        return JSONResponse(described[table], headers={"Cache-Control": "no-store"})

    routes = [
        Route("/play/{table}", play),
        Route("/play/{table}/table.json", table_json),
        Mount("/page/static", StaticFiles(directory=STATIC), name="page"),
        Mount("/page/common", StaticFiles(directory=COMMON), name="common"),
    ]
    if ROULETTE is not None:
        routes.append(Mount("/page/roulette", StaticFiles(directory=ROULETTE), name="roulette"))
    return WebGuard(Starlette(routes=routes), max_body=MAX_BODY)
