"""The dashboard's Prometheus endpoint, scraped while it watches tables on a real mosquitto: every
figure starts where it should and moves with what happens on the floor (docs/pit.md, "Metrics")."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
import websockets
from prometheus_client.parser import text_string_to_metric_families
from typer.testing import CliRunner

from controller.cli import app
from controller.pit.config import PitConfigError, parse
from controller.pit.server import PitServer
from drivers.mqtt import MqttLink
from tests.fixtures.mosquitto import MosquittoBroker
from tests.integration.pit.conftest import accounts, signed_in, until
from tests.unit.pit import feed_messages as msg

Figures = dict[tuple[str, tuple[tuple[str, str], ...]], float]


async def scrape(pit: PitServer) -> Figures:
    assert pit.metrics is not None and pit.metrics.server is not None
    async with httpx.AsyncClient() as client:
        response = await client.get(pit.metrics.server.url)
    assert response.status_code == 200
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(response.text) for s in family.samples}


def figure(figures: Figures, name: str, **labels: str) -> float:
    return figures[(name, tuple(sorted(labels.items())))]


@pytest.fixture
async def watched(mosquitto: MosquittoBroker, hashes: dict[str, str]) -> AsyncIterator[PitServer]:
    async with PitServer(mosquitto.tcp_url(mosquitto.pit), accounts(hashes), tick=0.05,
                         metrics=("127.0.0.1", 0)) as server:
        await until(lambda: server.link.connected)
        yield server


async def test_the_figures_move_with_the_floor(watched: PitServer, tables: Any, mosquitto: MosquittoBroker) -> None:
    pit = watched
    before = await scrape(pit)
    assert figure(before, "croupier_pit_tables", state="seen") == 0
    assert figure(before, "croupier_pit_messages_total", topic="state") == 0
    assert figure(before, "croupier_pit_feed_lag_seconds_count") == 0
    assert figure(before, "croupier_pit_websocket_clients") == 0
    assert figure(before, "croupier_pit_commands_refused_total", reason="role") == 0

    rl = await tables("rl")
    rl.state()
    err = rl.append("alert", {"severity": "error", "code": "wheel.fault", "message": "ball not sensed"})
    rl.append("alert", {"severity": "warning", "code": "spot.refused", "message": "press out of turn"})
    rl.state(phase="hold", alerts_open=[{"seq": err, "code": "wheel.fault", "message": "ball not sensed", "round": None}])

    def rl_in_hold() -> bool:
        model = pit.model.tables.get("rl")
        return model is not None and len(model.alerts) == 2 and model.state.get("phase") == "hold" and bool(model.online)

    await until(rl_in_hold)
    seen = await scrape(pit)
    assert figure(seen, "croupier_pit_tables", state="seen") == 1
    assert figure(seen, "croupier_pit_tables", state="online") == 1
    assert figure(seen, "croupier_pit_messages_total", topic="alert") == 2
    assert figure(seen, "croupier_pit_messages_total", topic="state") >= 1
    assert figure(seen, "croupier_pit_messages_total", topic="online") >= 1
    assert figure(seen, "croupier_pit_alerts_open", severity="error") == 1
    assert figure(seen, "croupier_pit_alerts_open", severity="warning") == 1
    assert figure(seen, "croupier_pit_alerts_open", severity="critical") == 0
    assert figure(seen, "croupier_pit_feed_lag_seconds_count") >= 3  # two alerts and a state, each with its ts

    # a table whose message left 2 s before it arrived, and a publisher sending garbage
    async with MqttLink(mosquitto.tcp_url(), "late-table") as late:
        await until(lambda: late.connected)
        sent = datetime.fromtimestamp(time.time() - 2.0, UTC).isoformat()
        late.publish("croupier/late/state", json.dumps(msg.state("late", ts=sent)).encode())
        late.publish("croupier/late/round", b"not json")
        late.publish("croupier/late/bogus", b"{}")
        await until(lambda: "late" in pit.model.tables and pit.model.dropped == 1)  # in order: one publisher
    after = await scrape(pit)
    assert figure(after, "croupier_pit_tables", state="seen") == 2
    assert figure(after, "croupier_pit_tables", state="online") == 1  # "late" never said it is online
    assert figure(after, "croupier_pit_messages_dropped_total") == 1
    assert figure(after, "croupier_pit_messages_total", topic="round") == 1
    assert figure(after, "croupier_pit_messages_total", topic="other") == 0  # not subscribed: never arrives
    total = figure(after, "croupier_pit_feed_lag_seconds_count")
    assert total == figure(seen, "croupier_pit_feed_lag_seconds_count") + 1
    over_a_second = total - figure(after, "croupier_pit_feed_lag_seconds_bucket", le="1.0")
    assert over_a_second >= 1
    assert figure(after, "croupier_pit_feed_lag_seconds_sum") - figure(seen, "croupier_pit_feed_lag_seconds_sum") >= 2.0


async def test_commands_sent_and_refused_are_counted(watched: PitServer, tables: Any) -> None:
    pit = watched
    rl = await tables("rl")
    rl.state()
    await until(lambda: "rl" in pit.model.tables)
    async with signed_in(pit, "pat") as boss:
        assert (await boss.post("/api/command", json={"table": "rl", "command": "close_after_round"})).status_code == 200
        assert (await boss.post("/api/command", json={"table": "rl", "command": "void_round"})).status_code == 400
    async with signed_in(pit, "dee") as dealer:
        assert (await dealer.post("/api/command", json={"table": "rl", "command": "close_after_round"})).status_code == 403
    async with httpx.AsyncClient(base_url=pit.url) as stranger:
        assert (await stranger.post("/api/command", json={"table": "rl", "command": "close_after_round"})).status_code == 401
    await until(lambda: rl.commands)
    figures = await scrape(pit)
    assert figure(figures, "croupier_pit_commands_sent_total", command="close_after_round") == 1
    assert ("croupier_pit_commands_sent_total", (("command", "void_round"),)) not in figures
    assert figure(figures, "croupier_pit_commands_refused_total", reason="invalid") == 1
    assert figure(figures, "croupier_pit_commands_refused_total", reason="role") == 1
    assert figure(figures, "croupier_pit_commands_refused_total", reason="session") == 1


async def test_websocket_clients_come_and_go(watched: PitServer) -> None:
    pit = watched
    async with signed_in(pit, "pat") as client:
        cookie = client.cookies.get("pit_session")
    url = f"ws://127.0.0.1:{pit.port}/ws"
    async with websockets.connect(url, additional_headers={"Cookie": f"pit_session={cookie}"}) as ws:
        assert json.loads(await ws.recv())["type"] == "floor"  # sent just before the page is counted
        await until(lambda: pit.web.sockets)
        assert figure(await scrape(pit), "croupier_pit_websocket_clients") == 1
    await until(lambda: not pit.web.sockets)
    assert figure(await scrape(pit), "croupier_pit_websocket_clients") == 0


async def test_no_endpoint_unless_asked(mosquitto: MosquittoBroker, hashes: dict[str, str]) -> None:
    async with PitServer(mosquitto.tcp_url(mosquitto.pit), accounts(hashes)) as pit:
        assert pit.metrics is None


def test_the_config_and_the_option_enable_it() -> None:
    assert parse({}).metrics_at() is None
    assert parse({"metrics": {"enabled": True}}).metrics_at() == ("127.0.0.1", 9465)
    assert parse({"metrics": {"enabled": True, "host": "0.0.0.0", "port": 0}}).metrics_at() == ("0.0.0.0", 0)
    with pytest.raises(PitConfigError, match="metrics.prot"):
        parse({"metrics": {"enabled": True, "prot": 1}})
    config = parse({})
    config.serve_metrics("9999")
    assert config.metrics_at() == ("127.0.0.1", 9999)
    config.serve_metrics("10.0.0.5:9100")
    assert config.metrics_at() == ("10.0.0.5", 9100)
    for bad in ("", "x", "host:", "1:70000", "-1"):
        with pytest.raises(PitConfigError, match="--metrics"):
            config.serve_metrics(bad)
    result = CliRunner().invoke(app, ["pit", "--metrics", "nine", "--broker", "mqtt://localhost:1", "--insecure"])
    assert result.exit_code == 2 and "--metrics: PORT or HOST:PORT" in result.output
