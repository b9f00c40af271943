"""The pit dashboard process (docs/pit.md): a broker subscription folded into the floor model,
served by uvicorn in the same asyncio loop.

Subscribes with its own broker account and a stable client id (``clean_session=False``): the
broker keeps the ``round`` and ``alert`` messages published while the dashboard was down.
Changed tiles go to the open pages at most every ``tick`` seconds, coalesced, so 200 busy
tables cost the browser one message per tick, not one per feed message.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import deque
from typing import Any

from controller.auth import Accounts
from controller.floor.edges import Edges, edges_for
from controller.floor.store import FloorStore
from controller.pit.alert_groups import group_alerts
from controller.pit.answers import CommandAnswers
from controller.pit.floor import FloorTotals
from controller.pit.history import History
from controller.pit.memory import DayMemory
from controller.pit.metrics import PitMetrics
from controller.pit.model import FloorModel, TableModel
from controller.pit.web import PitWeb
from controller.web.serving import DEFAULT_LIMITS, EmbeddedServer, Limits, embedded_server
from drivers.mqtt import MqttLink, Received

log = logging.getLogger(__name__)
LEAVES = ("state", "prompt", "ledger", "online", "round", "alert", "outcome")
LAG_SAMPLES = 100_000
#: seconds of a tick's tile work between two looks at the feed: a feed message that comes
#: meanwhile waits that long at most (the bare subscriber's p99 is under 2 ms)
SLICE_S = 0.0005


class PitServer:
    """``async with PitServer(broker, accounts) as pit: pit.url``; with ``metrics=(host, port)``
    it also serves Prometheus metrics there (``pit.metrics.server.url``)."""

    def __init__(self, broker: str, accounts: Accounts, *, host: str = "127.0.0.1", port: int = 0,
                 client_id: str = "croupier-pit", tick: float = 0.1, metrics: tuple[str, int] | None = None,
                 tls: tuple[str, str] | None = None, currency: tuple[str, int] = ("EUR", 2),
                 limits: Limits = DEFAULT_LIMITS, history: FloorStore | None = None) -> None:
        self.accounts = accounts
        #: what the pages show money in when a table's state names no currency
        self.currency = currency
        self.tls, self.limits = tls, limits
        self.model = FloorModel()
        self._totals = FloorTotals(currency)
        #: (game, preset) -> the rule set's edge, of the edges computed so far
        self._known_edges: dict[tuple[object, object], float] = {}
        #: the floor's open alerts as last grouped, and the list they were grouped from
        self._grouped: tuple[list[dict[str, Any]] | None, list[dict[str, Any]]] = (None, [])
        #: pit commands sent, until the table's feed answers them
        self.answers = CommandAnswers()
        self.link = MqttLink(broker, client_id, backoff_max=2.0)
        self._feed = self.link.subscribe(*(f"croupier/+/{leaf}" for leaf in LEAVES), qos=1)
        self.web = PitWeb(self)
        #: the floor's store (the back office's, handed in by the process wiring): history, and the
        #: gaming day shown again after a restart
        self.history = history
        self.memory = DayMemory(history, time.time())
        if history is not None:
            self.web.routes.router.routes[:0] = History(history, lambda r: self.web._session(r) is not None).routes()
        self.host, self.port, self.tick = host, port, tick
        #: seconds from a message's ``ts`` to its being folded into the model (feed lag)
        self.lags: deque[float] = deque(maxlen=LAG_SAMPLES)
        self._changed = asyncio.Event()
        self._edges: dict[tuple[str, str], asyncio.Task[Edges | None]] = {}
        self._server: EmbeddedServer | None = None
        self._tasks: list[asyncio.Task[Any]] = []
        self._answering: set[asyncio.Task[None]] = set()
        self._metrics_at = metrics
        self.metrics = PitMetrics(self.model, lambda: len(self.web.sockets)) if metrics is not None else None

    @property
    def url(self) -> str:
        return f"{'https' if self.tls else 'http'}://{self.host}:{self.port}/"

    # -- lifecycle -----------------------------------------------------------------------------
    async def start(self) -> None:
        if self.metrics is not None and self._metrics_at is not None:
            self.metrics.serve(*self._metrics_at)  # first: a port in use fails the start, before any link
        await self.link.start()
        cert, key = self.tls or (None, None)
        self._server = embedded_server(self.web.app, limits=self.limits, tls_cert=cert, tls_key=key,
                                       host=self.host, port=self.port, ws_ping_interval=20)
        self._tasks = [
            asyncio.create_task(self._consume(), name="pit feed"),
            asyncio.create_task(self._broadcast(), name="pit broadcast"),
            asyncio.create_task(self._server.serve(), name="pit web"),
        ]
        while not self._server.started:
            if self._tasks[2].done():
                self._tasks[2].result()  # raises the bind error
                raise RuntimeError(f"the dashboard could not listen on {self.host}:{self.port}")
            await asyncio.sleep(0.02)
        if self.port == 0:
            sockets = self._server.servers[0].sockets
            self.port = int(sockets[0].getsockname()[1])

    async def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        for task in self._tasks[:2]:
            task.cancel()
        self.web.stop_pacing()
        await self.memory.close()
        with contextlib.suppress(asyncio.CancelledError, asyncio.TimeoutError, Exception):
            await asyncio.wait_for(asyncio.gather(*self._tasks, return_exceptions=True), 5.0)
        self._tasks = []
        await self.link.close()
        if self.metrics is not None:
            self.metrics.close()

    async def __aenter__(self) -> PitServer:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # -- the feed -------------------------------------------------------------------------------
    async def _consume(self) -> None:
        await self.memory.restore(self.model)  # the day so far first, then what the feed brings
        self._changed.set()
        async for item in self._feed:
            if not isinstance(item, Received):
                continue
            now = time.time()
            try:
                changed = self.model.apply(item.topic, item.payload, now)
            except Exception:  # a shape nobody foresaw must not stop the floor
                log.exception("pit: message on %s not applied", item.topic)
                continue
            lag = self.model.last_lag if changed is not None else None
            if self.metrics is not None:
                self.metrics.received(item.topic, lag)
            if changed is not None:
                if lag is not None:
                    self.lags.append(lag)
                self._changed.set()
                self._answer(changed, item.topic.rsplit("/", 1)[-1], now)

    def _answer(self, table: str, leaf: str, now: float) -> None:
        model = self.model.tables.get(table)
        if model is None:
            return
        for answer in self.answers.seen(model, leaf, now):  # sent aside: a stalled page never holds the feed
            task = asyncio.create_task(self.web.broadcast({"type": "answer", **answer}))
            self._answering.add(task)
            task.add_done_callback(self._answering.discard)

    async def _broadcast(self) -> None:
        while True:
            await self._changed.wait()
            await asyncio.sleep(self.tick)  # coalesce a burst into one message
            self._changed.clear()
            changed = self.model.take_changed()
            if not self.web.sockets:  # nothing changed but an edge: the totals still go
                continue
            await self.web.broadcast(await self._tiles_message(sorted(changed)))

    async def _tile_texts(self, tables: list[str]) -> list[str]:
        """The tiles of ``tables`` still on the floor as JSON text, ``SLICE_S`` of work at a time
        with the feed read between slices: a tick of a thousand changed tiles, or a page opening
        on a floor of a thousand, never holds a feed message back for more than a slice."""
        tiles: list[str] = []
        floor = self.model.tables
        clock = time.perf_counter
        due = clock() + SLICE_S
        for table in tables:
            if table in floor:
                tiles.append(self.model.tile_text(table))
                if clock() >= due:
                    await asyncio.sleep(0)
                    due = clock() + SLICE_S
        await asyncio.sleep(0)  # the totals are a slice of their own
        return tiles

    async def _tiles_message(self, changed: list[str]) -> str:
        """The changed tiles, the floor's alerts and totals, as JSON text (``_tile_texts``)."""
        tiles = await self._tile_texts(changed)
        totals = self.totals()
        await asyncio.sleep(0)
        gone = [t for t in changed if t not in self.model.tables]
        rest = json.dumps({"gone": gone, "alerts": self.floor_alerts(), "totals": totals})
        return f'{{"type": "tiles", "tiles": [{", ".join(tiles)}], {rest[1:]}'

    async def floor_text(self, kind: str | None = None) -> str:
        """The whole floor as JSON text, a page's first message: every tile, the alerts, the
        broker link, the totals and the day shown (with ``"type": kind`` first, if given); its
        tiles built a slice at a time (``_tile_texts``)."""
        tiles = await self._tile_texts(sorted(self.model.tables))
        totals = self.totals()
        await asyncio.sleep(0)
        head = "" if kind is None else f'"type": {json.dumps(kind)}, '
        rest = json.dumps({"alerts": self.floor_alerts(), "broker": self.link.connected, "totals": totals,
                           "memory": self.memory.view()})
        return f'{{{head}"tables": [{", ".join(tiles)}], {rest[1:]}'

    def floor_alerts(self) -> list[dict[str, Any]]:
        """The floor's open alerts as the page lists them, grouped again only when they changed."""
        alerts = self.model.alerts()
        if self._grouped[0] is not alerts:
            self._grouped = (alerts, group_alerts(alerts))
        return self._grouped[1]

    def totals(self) -> dict[str, Any]:
        """The floor's totals, with the edges computed so far (the others are started); the
        tables changed since the last call are counted again, the others kept."""
        known: dict[tuple[object, object], float] = {}  # looked up once per rule set, not per table
        for rules, task in self._edges.items():
            if task.done() and not task.cancelled() and task.exception() is None:
                edges = task.result()
                if edges is not None:
                    known[rules] = edges.edge
        if known != self._known_edges:  # an edge came: the tables of its rule set count it
            self._known_edges = known
            self._totals.recount_all()
        return self._totals.update(self.model.tables, self.model.take_recount(), self._edge, time.time())

    def _edge(self, model: TableModel) -> float | None:
        """The table's rule-set edge if computed; a rule set not seen yet has its edges started."""
        key = (model.state.get("game"), model.state.get("preset"))
        edge = self._known_edges.get(key)
        if edge is None and key not in self._edges:
            self._edge_task(model)
        return edge

    def _edge_task(self, model: TableModel) -> asyncio.Task[Edges | None] | None:
        game, preset = model.state.get("game"), model.state.get("preset")
        if not isinstance(game, str) or not isinstance(preset, str):
            return None
        key = (game, preset)
        task = self._edges.get(key)
        if task is None:
            task = self._edges[key] = asyncio.create_task(asyncio.to_thread(edges_for, game, preset))
            task.add_done_callback(lambda _: self._changed.set())  # the totals gain an edge
        return task

    async def edges(self, model: TableModel) -> Edges | None:
        """The rule set's edges, computed once per game and preset in a thread (blackjack's takes
        seconds); None until the table's ``state`` names them."""
        task = self._edge_task(model)
        return None if task is None else await asyncio.shield(task)

    def lag_percentiles(self) -> dict[str, float | int | None]:
        samples = sorted(self.lags)
        if not samples:
            return {"samples": 0, "p50": None, "p99": None}
        return {"samples": len(samples), "p50": samples[len(samples) // 2],
                "p99": samples[min(len(samples) - 1, int(len(samples) * 0.99))]}
