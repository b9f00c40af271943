"""The demo's studio (``croupier demo``): one ``croupier studio`` on the demo's broker and PostgreSQL,
one reference operator (its HTTP wallet in this process, its books in the demo's directory) and,
when Debian's RabbitMQ starts, the operator's queue on a throwaway broker with the operator's
consumer reading it. Simulated remote players keep the remote tables busy, cast as ``croupier studio
simulate`` casts them (``seated.cast``: at blackjack some sit at a box and decide, the others bet
side bets); a few demo players get a link each to play themselves.

Without PostgreSQL there is no studio (one line says so); without RabbitMQ the studio runs and the
feed stays in its outbox (one line says so).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import jwt

from controller.studio.config import StudioConfig, TableSection
from controller.studio.operators.publisher import queue_name
from controller.studio.operators.rabbit import RabbitServer
from controller.studio.operators.sim.consumer import FeedConsumer, FeedTally
from controller.studio.operators.sim.faults import Faults
from controller.studio.operators.sim.store import SimStore
from controller.studio.operators.sim.wallet_app import wallet_app
from controller.studio.server import StudioServer
from controller.studio.simulation import seated
from controller.studio.simulation.players import START_BALANCE, SimPlayer, Tally
from controller.web.serving import EmbeddedServer, embedded_server

OPERATOR = "demo-casino"
AUDIENCE = "croupier-studio"
CURRENCY = "EUR"
#: the demo players with a link of their own, and their starting balance (minor units)
DEMO_PLAYERS = 3
DEMO_BALANCE = 100_000
#: simulated remote players per table, and how many of them sit at a box (the rest keep boxes free for people)
SIM_PLAYERS = 4
SIM_SEATS = 2
#: a link's token is good this long (and for one join)
LINK_HOURS = 8


def _secret(path: Path) -> Path:
    if not path.exists():
        path.write_text(secrets.token_hex(32))
    path.chmod(0o600)
    return path


def money(amount: int) -> str:
    return f"{amount / 100:.2f} {CURRENCY}"


class DemoStudio:
    def __init__(self, directory: Path, broker: str, database: str | None, tables: dict[str, TableSection],
                 host: str, say: Callable[[str], None]) -> None:
        self.dir = directory / "studio"
        self.broker, self.database, self.tables, self.host, self.say = broker, database, tables, host, say
        self.server: StudioServer | None = None
        self.store: SimStore | None = None
        self.tally = FeedTally()
        self.jwt_secret = ""
        self._wallet_web: EmbeddedServer | None = None
        self._rabbit: RabbitServer | None = None
        self._consumer: FeedConsumer | None = None
        self._tasks: list[asyncio.Task[Any]] = []

    @property
    def running(self) -> bool:
        return self.server is not None

    async def __aenter__(self) -> DemoStudio:
        if self.database is None:
            self.say("studio: not running (its book needs the back office's PostgreSQL)")
            return self
        self.dir.mkdir(parents=True, exist_ok=True)
        jwt_file, wallet_file, feed_file = (_secret(self.dir / n) for n in ("jwt.secret", "wallet.secret", "feed.secret"))
        self.jwt_secret = jwt_file.read_text()
        self.store = SimStore(self.dir / "operator-sim.sqlite")
        wallet_url = await self._serve_wallet(wallet_app(self.store, wallet_file.read_bytes(), Faults(), self.tally))
        config = StudioConfig.model_validate({
            "studio": {"host": self.host, "port": 0, "database": self.database, "client_id": "croupier-demo-studio",
                       "tables": {k: v.model_dump() for k, v in self.tables.items()},
                       "operators": {OPERATOR: {"algorithm": "HS256", "secret_file": str(jwt_file), "issuer": OPERATOR,
                                                "audience": AUDIENCE, "wallet_url": wallet_url,
                                                "wallet_secret_file": str(wallet_file),
                                                "feed_secret_file": str(feed_file)}}},
            "mqtt": {"broker": self.broker, "insecure": True}, "base": self.dir})
        self.server = StudioServer(config, self.database)
        await self.server.start()
        self._tasks.append(asyncio.create_task(self._feed(), name="demo feed"))
        return self

    async def __aexit__(self, *exc: object) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._consumer is not None:
            with contextlib.suppress(Exception):
                await self._consumer.stop()
        if self.server is not None:
            await self.server.stop()
        if self._wallet_web is not None:
            self._wallet_web.should_exit = True
        if self._rabbit is not None:
            await asyncio.to_thread(self._rabbit.close)  # by its PID, with its epmd (its data stays in the directory)

    async def _serve_wallet(self, app: Any) -> str:
        self._wallet_web = embedded_server(app, host=self.host, port=0)
        task = asyncio.create_task(self._wallet_web.serve(), name="operator-sim wallet")
        self._tasks.append(task)
        while not self._wallet_web.started:
            if task.done():
                task.result()
                raise RuntimeError("the reference operator's wallet could not listen")
            await asyncio.sleep(0.02)
        port = int(self._wallet_web.servers[0].sockets[0].getsockname()[1])
        return f"http://{self.host}:{port}/wallet"

    async def _feed(self) -> None:
        """RabbitMQ started beside the floor (it takes seconds); then the feed published and consumed."""
        assert self.server is not None
        try:
            rabbit = RabbitServer(self.dir / "rabbitmq")  # its node's data kept with the demo's (--dir)
            self._rabbit = rabbit
            await asyncio.to_thread(rabbit.start)
        except (RuntimeError, OSError) as exc:
            self.say(f"feed: not running (RabbitMQ: {str(exc).splitlines()[0][:160]}; make demo installs rabbitmq-server)")
            return
        self.server.start_feed(rabbit.url)
        operator = self.server.operators[OPERATOR]
        queue = queue_name(operator, "")
        self._consumer = FeedConsumer(rabbit.url, queue, operator.feed_secret, tally=self.tally, store=self.store)
        await self._consumer.start()
        self.say(f"feed: {rabbit.url} queue {queue} (the reference operator consumes it)")

    # -- players ---------------------------------------------------------------------------------
    def token(self, player: str) -> str:
        now = datetime.now(UTC)
        return jwt.encode({"iss": OPERATOR, "aud": AUDIENCE, "sub": player, "name": player.replace("-", " ").title(),
                           "currency": CURRENCY, "jti": uuid.uuid4().hex, "exp": now + timedelta(hours=LINK_HOURS)},
                          self.jwt_secret, algorithm="HS256")

    def player_lines(self) -> list[str]:
        """One link per demo player and table, each with a fresh single-use token."""
        assert self.server is not None and self.store is not None
        lines = []
        for n in range(1, DEMO_PLAYERS + 1):
            player = f"demo-{n}"
            if self.store.balance(player, CURRENCY) == 0:
                self.store.fund(player, CURRENCY, DEMO_BALANCE)
            for table in self.tables:
                url = f"http://{self.host}:{self.server.port}/play/{table}?token={self.token(player)}"
                lines.append(f"player {table}: {url}  ({player}, balance {money(self.store.balance(player, CURRENCY))})")
        lines.append("players: each link's token joins once (a replayed token is refused); the demo prints new ones "
                     "when it starts again")
        return lines

    def start_players(self, seed: int = 7) -> None:
        """Simulated remote players at every remote table, betting every round, until the demo stops."""
        assert self.server is not None and self.store is not None
        rng = random.Random(seed)
        tally = Tally()
        url, operator = self.server.url, (OPERATOR, AUDIENCE, self.jwt_secret)
        for table, section in self.tables.items():
            cast = seated.cast(section.game, section.game_rules(), lambda kind, n, own, table=table, game=section.game,
                               **role: kind(n, url, operator, table, game, own, tally, **role), SIM_SEATS)
            for n in range(1, SIM_PLAYERS + 1):
                sim = cast(n, random.Random(rng.random()))
                sim.player = f"sim-{table}-{n}"
                self.store.fund(sim.player, CURRENCY, START_BALANCE)
                self._tasks.append(asyncio.create_task(keep_playing(sim), name=f"remote {sim.player}"))


async def keep_playing(sim: SimPlayer) -> None:
    """Bet on every round the table opens, for as long as the demo runs: a refused join or a
    dropped link is tried again shortly (``SimPlayer.run`` comes back after a lost connection)."""
    while True:
        try:
            await sim.run()
        except asyncio.CancelledError:
            await (sim.stop() if isinstance(sim, seated.Listening) else sim.drop())  # its turns' handlers too
            raise
        except Exception:  # noqa: BLE001  # a refused join, a studio restarting: try again shortly
            await sim.drop()
            await asyncio.sleep(1.0)
