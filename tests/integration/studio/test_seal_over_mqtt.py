"""A remote table (``[table] remote = true``) and a fake studio over the floor broker's generated
ACL: the studio reads the retained ``betting`` leaf, answers ``sealing`` with its seal and betting
closes with it; without a seal the grace closes it (every remote bet returned by contract) and a
seal after that is a late-seal alert; the studio's totals are journaled beside the round; and
no account but the studio's can write the table's ``studio`` topic."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from controller.config import load
from controller.journal import Journal
from controller.process import run_table
from controller.runtime.loop import TableLoop
from controller.table import inputs
from tests.integration.mqtt_security.conftest import FloorBroker, take, watching
from tests.integration.studio.fake_studio import STUDIO, FakeStudio, seal, settled
from tests.support.configs import simulated_shoe, write_table_config
from tests.support.waiting import until


def remote_table(tmp_path: Path, floor: FloorBroker, grace: int) -> Path:
    broker = f"mqtts://bj1-controller@127.0.0.1:{floor.port}?cafile={floor.out / 'tls' / 'ca.pem'}"
    return write_table_config(tmp_path, "blackjack", table_id="bj1", preset="ru6",
                              limits={"main": {"min": 100, "max": 100000}},
                              devices={"shoe": simulated_shoe(gap_timeout=2.0)},
                              mqtt={"broker": broker, "password_file": str(floor.out / "secrets" / "bj1-controller.secret")},
                              table={"remote": True, "seal_grace_s": grace})


async def run_with(path: Path, play: Callable[[TableLoop], Awaitable[None]]) -> list[Any]:
    """Run the table until ``play`` is done; the journal's entries."""
    config = load(path)
    done = asyncio.Event()

    async def on_ready(loop: TableLoop, devices: Any) -> None:
        await loop.until(lambda core: core.prompt() == "Open betting", timeout=20)
        await play(loop)
        done.set()

    table = asyncio.create_task(run_table(config, out=io.StringIO(), prompts=False, on_ready=on_ready, keyboard=False))
    waiting = asyncio.create_task(done.wait())
    await asyncio.wait({table, waiting}, return_when=asyncio.FIRST_COMPLETED)
    table.cancel()
    await asyncio.gather(table, return_exceptions=True)
    waiting.cancel()
    assert done.is_set(), "the table stopped before the play was done"
    with Journal(config.journal_path) as journal:
        return list(journal.entries())


async def test_betting_closes_with_the_studios_seal_and_its_totals_are_journaled(
        tmp_path: Path, studio_floor: FloorBroker) -> None:
    async with FakeStudio(studio_floor) as studio:
        # retained: the table would take it again on every resubscription, so it is refused
        await studio.publish(json.dumps(seal("bj1-000001", "seal-retained")).encode(), retain=True)

        async def play(loop: TableLoop) -> None:
            await until(lambda: any(e.payload.get("source") == "studio" for e in loop.journal.latest(inputs.ALERT)),
                        "the retained message's refusal", within=20)
            await studio.publish(b"", retain=True)  # cleared
            loop.command("open_round", "dealer")
            await studio.wait(lambda: studio.status()[1] == "open", "the betting leaf says open")
            round_id = studio.betting[-1]["round"]
            assert studio.betting[-1]["remote"] is True and studio.betting[-1]["limits"]["main"] == [100, 100000]
            loop.command("bet", "dealer", box=1, amount=1000, player="A")
            loop.command("close_betting", "dealer")
            await studio.wait(lambda: studio.status() == (round_id, "sealing"), "the betting leaf says sealing")
            await studio.publish(b"not json")  # refused at the edge, never journaled as an input
            await studio.publish(b'{"v":1,"id":"x","type":"seal","round":"' + b"r" * 5000 + b'"}')
            await studio.send(seal(round_id, "seal-1"))
            await studio.wait(lambda: studio.status() == (round_id, "closed"), "the betting leaf says closed")
            assert studio.betting[-1]["sealed"] is True
            loop.command("void_round", "dealer", reason="test over")
            await studio.wait(lambda: any(r["round"] == round_id for r in studio.rounds), "the round record")
            await studio.send(settled(round_id, "settled-1"))
            await studio.send(settled(round_id, "settled-1"))  # a redelivery: handed on once
            await loop.until(lambda core: core.book.records[round_id]["remote"]["settled"] is not None, timeout=20)

        entries = await run_with(remote_table(tmp_path, studio_floor, grace=30), play)
    record = next(r for r in studio.rounds if r["round"] == "bj1-000001")
    assert record["remote"]["sealed"] is True and record["remote"]["seal"]["id"] == "seal-1"
    assert "studio_note" not in record["remote"]["seal"]  # journaled as the model read it
    studio_inputs = [e for e in entries if e.kind == inputs.STUDIO]
    assert [e.payload["id"] for e in studio_inputs] == ["seal-1", "settled-1"]
    assert all(e.source == "studio" for e in studio_inputs)
    (totals,) = [e.payload for e in entries if e.kind == inputs.REMOTE_SETTLED]
    assert totals["drop"] == 0 and totals["win"] == 500 and totals["refunded"] == 500
    refused = [e.payload for e in entries if e.kind == inputs.ALERT and e.payload.get("source") == "studio"]
    assert refused and all(a["code"] == "input.refused" for a in refused)  # counted, one alert a window
    assert "retained studio message" in refused[0]["message"]
    seal_seq = studio_inputs[0].seq
    close = next(e for e in entries if e.kind == inputs.COMMAND and e.payload["command"] == "close_betting")
    assert close.seq < seal_seq  # the felt closed first, the seal closed betting


async def test_no_seal_within_the_grace_closes_without_it_and_a_late_seal_is_an_alert(
        tmp_path: Path, studio_floor: FloorBroker) -> None:
    async with FakeStudio(studio_floor) as studio:
        async def play(loop: TableLoop) -> None:
            loop.command("open_round", "dealer")
            loop.command("bet", "dealer", box=1, amount=1000, player="A")
            loop.command("close_betting", "dealer")
            await studio.wait(lambda: studio.status()[1] == "sealing", "the betting leaf says sealing")
            round_id = studio.betting[-1]["round"]
            await studio.wait(lambda: studio.status() == (round_id, "closed"), "the grace's close")
            assert studio.betting[-1]["sealed"] is False
            await studio.send(seal(round_id, "seal-late"))
            await until(lambda: any(e.payload.get("code") == "studio.seal_late" for e in loop.journal.latest("alert")),
                        "the late seal's alert", within=20)
            loop.command("void_round", "dealer", reason="test over")
            await studio.wait(lambda: any(r["round"] == round_id for r in studio.rounds), "the round record")

        entries = await run_with(remote_table(tmp_path, studio_floor, grace=1), play)
    closes = [e.source for e in entries if e.kind == inputs.COMMAND and e.payload["command"] == "close_betting"]
    assert closes == ["dealer", "timer:seal"]
    alerts = [e.payload for e in entries if e.kind == inputs.ALERT]
    assert [a["severity"] for a in alerts if a["code"] == "studio.seal_missing"] == ["error"]
    assert [a["code"] for a in alerts if a["code"].startswith("studio.")][-1] == "studio.seal_late"
    record = next(r for r in studio.rounds if r["round"] == "bj1-000001")
    assert record["remote"] == {"sealed": False, "seal": None, "settled": None}


async def test_only_the_studio_writes_the_studio_topic_and_it_reads_only_its_leaves(studio_floor: FloorBroker) -> None:
    topic = "croupier/bj1/studio"
    async with watching(studio_floor.client("pit"), "croupier/+/studio", "croupier/bj1/command") as pit:
        for user in ("viewer", "bj1-controller", "bj2-controller", "pit"):
            async with studio_floor.client(user) as other:
                await other.publish(topic, f"from {user}".encode(), qos=1)
        async with studio_floor.client(STUDIO) as studio:
            await studio.publish("croupier/bj2/studio", b"not its table", qos=1)
            await studio.publish("croupier/bj1/command", b"not its topic", qos=1)
            await studio.publish(topic, b"from the studio", qos=1)
        (arrived,) = await take(pit, 1)
        assert (str(arrived.topic), arrived.payload) == (topic, b"from the studio")
    async with watching(studio_floor.client(STUDIO), "croupier/bj1/#") as studio:
        async with studio_floor.client("bj1-controller") as controller:
            for leaf in ("event", "alert", "betting"):
                await controller.publish(f"croupier/bj1/{leaf}", leaf.encode(), qos=1)
        arrived = await take(studio, 2)  # the journal stream (the operators' feed) and betting; no alert
        assert [str(m.topic) for m in arrived] == ["croupier/bj1/event", "croupier/bj1/betting"]
    async with watching(studio_floor.client("bj1-controller"), topic) as controller:
        async with studio_floor.client(STUDIO) as studio:
            await studio.publish(topic, b"seal", qos=1)
        (arrived,) = await take(controller, 1)
        assert str(arrived.topic) == topic
