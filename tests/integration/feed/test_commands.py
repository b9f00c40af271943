"""Pit-boss commands: valid ones reach the table once, malformed ones are refused with an alert
that reaches the pit, and only the pit's credentials can publish them at all."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiomqtt

from controller.feed import PitCommand
from controller.journal import Journal
from tests.fixtures.mosquitto import Credentials, MosquittoBroker
from tests.integration.feed.conftest import NODELAY, TABLE, Commands, Pit, make_feed
from tests.support.waiting import until

TOPIC = f"croupier/{TABLE}/command"


def client(broker: MosquittoBroker, who: Credentials) -> aiomqtt.Client:
    return aiomqtt.Client("127.0.0.1", broker.port, username=who.username, password=who.password,
                          socket_options=NODELAY)


def command(ident: str, name: str, **fields: Any) -> bytes:
    return json.dumps({"v": 1, "id": ident, "sender": "pitboss-maria", "command": name, **fields}).encode()


async def test_valid_commands_reach_the_table_once_and_malformed_ones_are_refused(
    mosquitto: MosquittoBroker, journal: Journal, pit: Pit
) -> None:
    table = Commands()
    sent = [
        command("c1", "close_after_round"),
        b"not json",
        command("c2", "void_round", round="r17"),
        command("c2", "void_round", round="r17"),  # a redelivery: same id
        command("c3", "void_round"),  # no round to void
        command("c4", "launch_missiles"),
        command("c5", "acknowledge_alert", alert="12"),  # a string where the alert's seq belongs
        json.dumps({"v": 2, "id": "c6", "sender": "x", "command": "close_after_round"}).encode(),
        command("c7", "close_after_round", table="bj2"),  # an unknown field
        command("c8", "acknowledge_alert", alert=12),
        command("c9", "approve_correction", correction="k1", round="r16"),
        b"x" * 5000,
    ]
    async with client(mosquitto, mosquitto.pit) as boss:
        # Retained: a subscriber gets it (flagged retained) on every subscription, hours later.
        await boss.publish(TOPIC, command("c0", "close_after_round"), qos=1, retain=True)
        async with make_feed(mosquitto, journal, table) as feed:
            await pit.wait_for(lambda: len(pit.on("alert")) == 1)
            await boss.publish(TOPIC, b"", qos=1, retain=True)  # cleared again
            for payload in sent:
                await boss.publish(TOPIC, payload, qos=1)
            await pit.wait_for(lambda: len(pit.on("alert")) == 8)
            await feed.wait_caught_up()
            stats = feed.stats

    assert [(c.id, c.command) for c in table.received] == [
        ("c1", "close_after_round"), ("c2", "void_round"), ("c8", "acknowledge_alert"), ("c9", "approve_correction")
    ]
    assert table.received[1] == PitCommand(v=1, id="c2", sender="pitboss-maria", command="void_round", round="r17")
    assert table.received[2].alert == 12 and table.received[3].correction == "k1"
    assert table.received[0].journal_payload() == {"v": 1, "id": "c1", "sender": "pitboss-maria",
                                                   "command": "close_after_round"}
    assert (stats.commands_delivered, stats.commands_duplicate, stats.commands_refused) == (4, 1, 8)

    alerts = pit.on("alert")
    assert [a["code"] for a in alerts] == ["command_refused"] * 8
    assert all(a["severity"] == "warning" and a["table"] == TABLE for a in alerts)
    assert [a.get("id") for a in alerts] == ["c0", None, "c3", "c4", "c5", "c6", "c7", None]
    reasons = [a["reason"] for a in alerts]
    assert "retained" in reasons[0] and reasons[1].startswith("not JSON")
    assert "void_round needs 'round'" in reasons[2]
    assert "command:" in reasons[3] and "alert:" in reasons[4] and "v:" in reasons[5]
    assert "table: Extra inputs" in reasons[6] and "exceeds 4096" in reasons[7]
    assert alerts[4]["sender"] == "pitboss-maria" and alerts[4]["raw"].startswith('{"v": 1, "id": "c5"')
    # Each refusal is journaled (so it survives a broker outage) and went out on event too, by seq.
    journaled = [e for e in journal.entries() if e.kind == "alert"]
    assert [e.seq for e in journaled] == [a["seq"] for a in alerts] == [e["seq"] for e in pit.on("event")]
    assert all(e.source == "pit-command" for e in journaled)


async def test_only_the_pit_may_command(mosquitto: MosquittoBroker, journal: Journal, pit: Pit) -> None:
    table = Commands()
    async with make_feed(mosquitto, journal, table) as feed:
        await asyncio.wait_for(feed.link.wait_connected(), 5)
        async with client(mosquitto, mosquitto.spot(2)) as spot:  # the broker drops it silently
            await spot.publish(TOPIC, command("s1", "void_round", round="r1"), qos=1)
        async with client(mosquitto, mosquitto.pit) as boss:  # a marker after it, on the same topic
            await boss.publish(TOPIC, command("p1", "close_after_round"), qos=1)
        # the dropped command went before the marker: once the marker is in, it would be too
        await until(lambda: any(c.id == "p1" for c in table.received), "the pit's marker command",
                    within=5, arrived=table.arrived)
    assert [c.id for c in table.received] == ["p1"]
    assert feed.stats.commands_refused == 0 and pit.on("alert") == []


async def test_a_command_journaled_before_a_restart_is_not_handed_on_again(
    mosquitto: MosquittoBroker, journal: Journal
) -> None:
    journal.append("pit_command", {"v": 1, "id": "c1", "sender": "boss", "command": "close_after_round"},
                   source="pit:boss")
    table = Commands()
    async with make_feed(mosquitto, journal, table) as feed:
        await asyncio.wait_for(feed.link.wait_connected(), 5)
        async with client(mosquitto, mosquitto.pit) as boss:
            await boss.publish(TOPIC, command("c1", "close_after_round"), qos=1)  # redelivered after the restart
            await boss.publish(TOPIC, command("c2", "close_after_round"), qos=1)
        # the redelivered c1 goes before c2: once c2 is in, c1 was weighed too
        await until(lambda: any(c.id == "c2" for c in table.received) and feed.stats.commands_duplicate > 0,
                    "c2 handed on and the redelivered c1 counted", within=5, arrived=table.arrived)
    assert [c.id for c in table.received] == ["c2"] and feed.stats.commands_duplicate == 1


async def test_commands_sent_while_the_feed_was_down_arrive_when_it_is_back(
    mosquitto: MosquittoBroker, journal: Journal
) -> None:
    """The feed's client id and persistent session make the broker hold them (QoS 1)."""
    async with make_feed(mosquitto, journal) as feed:
        await asyncio.wait_for(feed.link.wait_connected(), 5)
    async with client(mosquitto, mosquitto.pit) as boss:
        await boss.publish(TOPIC, command("late", "void_round", round="r3"), qos=1)
    table = Commands()
    async with make_feed(mosquitto, journal, table) as feed:
        await asyncio.wait_for(table.arrived.wait(), 5)
    assert [c.id for c in table.received] == ["late"]
