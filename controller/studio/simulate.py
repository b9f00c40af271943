"""``croupier studio simulate``: R rounds of a table with N simulated remote players through the
real service: the real table (the table process's ``run_table``, its devices simulated on their
real transports, batch mode's simulated dealer and seated players; ``simulation/table.py``), the
studio's WebSocket API, its book in PostgreSQL and the broker. Some players are late, some
disconnect and come back, some send a request twice (``simulation/players.py``). The run prints
one JSON object: what the studio took, sealed and settled (its book), what the table journaled
(the seals and the studio's totals), and how many bets the studio paid otherwise than an
independent reading of the table's journal owes them (``simulation/check.py``)."""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
from pathlib import Path
from typing import Any

from controller.config import TableConfig
from controller.studio.config import StudioConfig
from controller.studio.operators.counters import counters
from controller.studio.server import StudioServer
from controller.studio.simulation import check, seated, table
from controller.studio.simulation.operator import RETRY, ReferenceOperator, reference_operator
from controller.studio.simulation.players import START_BALANCE, Tally


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    if len(values) == 1:
        return round(values[0], 2)
    return round(statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1], 2)


def _operator(config: StudioConfig) -> tuple[str, tuple[str, str, str]]:
    """The first HS256 operator: its name, and (issuer, audience, secret) to sign the players' tokens."""
    for (name, key), op in zip(config.keys().items(), config.studio.operators.values()):
        if op.algorithm == "HS256":
            return name, (op.issuer, op.audience, key)
    raise ValueError("simulate signs its players' tokens: the config needs an HS256 operator")


async def simulate(config: StudioConfig, database: str, broker: str, *, players: int, rounds: int, seed: int,
                   betting_s: int = 1, grace_s: int = 3, directory: Path | None = None,
                   table_broker: str | None = None, operator_faults: tuple[str, ...] | None = None,
                   rabbitmq_restart: bool = False, drain_s: float = 120.0) -> dict[str, Any]:
    """Play the config's first table; the run's table journal goes to ``directory`` (a temporary one
    when None). The studio meets the broker as ``broker``, the table as ``table_broker`` (its own
    account; the same URL when None). With ``operator_faults`` (``operator.FAULTS``, maybe none)
    the players' operator is the reference operator over HTTP, with those faults, its feed on a
    throwaway RabbitMQ (restarted once mid-round with ``rabbitmq_restart``); the object then has
    ``wallet``, ``feed`` and ``players_checked`` too (``_operator_figures``)."""
    with tempfile.TemporaryDirectory(prefix="croupier-simulate-") as scratch:
        table_id, section = next(iter(config.studio.tables.items()))
        table_config = table.table_config(table_id, section, directory or Path(scratch), table_broker or broker,
                                          betting_s=betting_s, grace_s=grace_s, seed=seed)
        run = Run(config, database, broker, table_config, players, rounds, seed)
        if operator_faults is None:
            return await run.play()
        name = _operator(config)[0]
        funds = {f"sim-{n}": START_BALANCE for n in range(1, players + 1)}
        async with reference_operator(name, Path(scratch) / "operator", operator_faults, funds) as ref:
            run.operator = ref
            run.restart_at = max(2, rounds // 2) if rabbitmq_restart else None
            run.drain_s = drain_s
            return await run.play()


class Run:
    """One simulation: the studio, the players and the table, and the figures read at the end."""

    def __init__(self, config: StudioConfig, database: str, broker: str, table_config: TableConfig, players: int,
                 rounds: int, seed: int) -> None:
        self.config, self.database, self.broker, self.table_config = config, database, broker, table_config
        self.players, self.rounds, self.seed = players, rounds, seed
        self.operator: ReferenceOperator | None = None
        self.restart_at: int | None = None
        self.drain_s = 120.0

    def studio_config(self) -> StudioConfig:
        config, players = self.config, self.players
        table_id = next(iter(config.studio.tables))
        update: dict[str, Any] = {
            "host": "127.0.0.1", "port": 0, "tables": {table_id: table.studio_section(self.table_config)},
            "per_client": max(config.studio.per_client, players + 16),
            "max_connections": max(config.studio.max_connections, players + 16)}
        if self.operator is not None:
            name = self.operator.name
            section = config.studio.operators[name].model_copy(update=self.operator.section())
            update.update(amqp=self.operator.rabbit.url, operators={**config.studio.operators, name: section})
        return config.model_copy(update={"studio": config.studio.model_copy(update=update),
                                         "mqtt": config.mqtt.model_copy(update={"broker": self.broker,
                                                                                "insecure": True})})

    async def play(self) -> dict[str, Any]:
        table_id, section = next(iter(self.config.studio.tables.items()))
        operator, signing = _operator(self.config)
        rng = random.Random(self.seed)
        tally = Tally()
        ref = self.operator
        async with StudioServer(self.studio_config(), self.database, retry=RETRY if ref else None) as server:
            assert server.link is not None
            await asyncio.wait_for(server.link.connected.wait(), 30)
            if await _rows(server, "SELECT 1 FROM studio_rounds WHERE table_id = %s LIMIT 1", table_id):
                raise ValueError(f"the studio's database already has rounds of {table_id}: simulate needs a fresh one")
            served = table.studio_section(self.table_config)
            cast = seated.cast(served.game, served.game_rules(), lambda kind, n, own, **role: kind(
                n, server.url, signing, table_id, section.game, own, tally, **role))
            sims = [cast(n, random.Random(rng.random())) for n in range(1, self.players + 1)]
            if ref is None:
                for sim in sims:
                    await server.wallet.fund(operator, sim.player, "EUR", START_BALANCE)
            else:
                await ref.consume(server.operators[operator], section.game)
            await asyncio.gather(*(s.connect() for s in sims))
            background = [asyncio.create_task(s.run(), name=s.player) for s in sims]
            if ref is not None:
                background.append(asyncio.create_task(ref.drive(server.pool, table_id, self.restart_at)))
            try:
                await table.play(self.table_config, self.rounds)
            finally:
                for task in background:
                    task.cancel()
                await asyncio.gather(*background, return_exceptions=True)
                await asyncio.gather(*(s.stop() for s in sims), return_exceptions=True)
            drained = await ref.drain(server.pool, self.drain_s) if ref is not None else True
            books = await _books(server, table_id)
            bets = await _rows(server, "SELECT player, round, kind, amount, status, payout, operator || '/' || player "
                                       "FROM studio_bets WHERE table_id = %s ORDER BY id", table_id)
            kept = {str(r[0]) for r in await _rows(server, "SELECT id FROM studio_bets WHERE table_id = %s", table_id)}
            figures = await _operator_figures(server, ref, drained) if ref is not None else {}
        reading = check.read_journal(self.table_config.journal_path)
        served = table.studio_section(self.table_config)
        rules = served.game_rules()
        closed = [(r[1], r[2], int(r[3]), r[5], r[6]) for r in bets if r[4] in ("settled", "refunded")]
        differences = check.differences(served.game, rules, reading, closed)
        out = {
            "rounds": len(reading.records), "void": reading.voids, "players": self.players, "bets_accepted": tally.accepted_bets,
            "bets_refused": dict(sorted(tally.refused.items())), "settled": books["settled"],
            "refunded": books["refunded"], "seals_journaled": reading.seals, "drop": books["drop"], "paid": books["paid"],
            "table_drop": reading.drop, "table_paid": reading.paid,
            "accept_ms": {"p50": _percentile(tally.accept_ms, 50), "p99": _percentile(tally.accept_ms, 99)},
            "decisions": reading.decisions, "differences": differences + len(tally.accepted_ids - kept),
        }
        if ref is not None:
            results = check.player_results(served.game, rules, reading,
                                           [(str(p), str(r), str(k), int(a), str(s), v, str(w))
                                            for p, r, k, a, s, v, w in bets])
            figures["wallet"]["mismatches"] += _players_otherwise(ref, results, self.players)
            figures["players_checked"] = self.players
            out.update(figures)
        return out


async def _rows(server: StudioServer, sql: str, *args: Any) -> list[Any]:
    async with server.pool.connection() as conn:
        cur = await conn.execute(sql, args)
        return list(await cur.fetchall())


async def _books(server: StudioServer, table_id: str) -> dict[str, int]:
    settled, refunded, drop, paid = (await _rows(
        server, "SELECT count(*) FILTER (WHERE status = 'settled'), count(*) FILTER (WHERE status = 'refunded'), "
                "coalesce(sum(amount) FILTER (WHERE status = 'settled'), 0) + (SELECT coalesce(sum(amount), 0) FROM "
                "studio_payments WHERE table_id = %s AND kind = 'debit' AND tx LIKE 'added:%%'), "
                "coalesce(sum(payout) FILTER (WHERE status = 'settled'), 0) FROM studio_bets WHERE table_id = %s",
        table_id, table_id))[0]
    return {"settled": int(settled), "refunded": int(refunded), "drop": int(drop), "paid": int(paid)}


def _players_otherwise(ref: ReferenceOperator, results: dict[str, tuple[int | None, int | None]], players: int) -> int:
    """Players whose balance change at the operator is not their result as the studio settled it
    and as the table's journal owes it (``check.player_results``), to the minor unit."""
    count = 0
    for n in range(1, players + 1):
        player = f"sim-{n}"
        studio, journal = results.get(player, (0, 0))
        count += not (ref.store.balance(player, "EUR") - START_BALANCE == studio == journal)
    return count


async def _operator_figures(server: StudioServer, ref: ReferenceOperator, drained: bool) -> dict[str, Any]:
    """``wallet`` and ``feed`` as ``counters`` reads both sides, with what the operator's books
    say of double returns and open debits, and whether the run drained in time."""
    c = await counters(server.pool, ref.store, ref.tally)
    wallet = {k: c[k] for k in ("debits", "credits", "cancels", "adjustments", "retries", "mismatches", "pending",
                                "flagged")}
    wallet.update(returned_twice=ref.store.returned_twice(), debits_open=ref.store.open_debits())
    feed = {k: c[k] for k in ("published", "delivered", "gaps", "duplicates_after_dedup")}
    feed.update(redelivered=ref.tally.duplicates, bad_mac=ref.tally.bad_mac, rabbitmq_restarts=ref.restarts)
    return {"operator_faults": list(ref.faults), "drained": drained, "wallet": wallet, "feed": feed}
