"""The soak on the broker: a pit watcher that records what the feed delivered (every ``event``
seq, every ``round``, the last ``ledger``) on a persistent session that outlives broker
restarts, and the publisher of hostile payloads and out-of-turn presses (docs/hil.md).
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from typing import Any

import aiomqtt

from drivers.mqtt import BrokerUrl, PersistentSubscriber

#: bytes a hostile client may send: broken JSON, wrong shapes, wrong types, oversize, deep nesting
HOSTILE: tuple[bytes, ...] = (
    b"", b"{", b"null", b"[]", b"\xff\xfe\x00garbage", b'{"v":1}', b'{"v":2,"command":"void_round"}',
    b'{"v":1,"command":"drop_table; --"}', b'{"v":1,"command":"void_round","id":123}',
    b'{"v":1,"command":"approve_correction","id":"x","sender":"mallory","correction":-1}',
    b'{"v":1,"device":"spot-1","seq":-5,"button":"hit"}', b'{"v":1,"device":"spot-9","seq":1,"button":"bet"}',
    b'{"v":1,"device":"spot-1","seq":1e400,"button":"bet","amount":1e30}',
    b'{"v":1,"device":"spot-1","seq":"1","button":"bet","amount":"500"}',
    b"[" * 5000 + b"]" * 5000, b'{"v":1,"pad":"' + b"A" * 70000 + b'"}',
    json.dumps({"v": 1, "device": "spot-1", "seq": 1, "button": "bet", "amount": 10**13}).encode(),
    '{"v":1,"id":"\u202e\u0000","sender":[],"command":"close_after_round"}'.encode(),
)
#: decision buttons pressed on a box nobody plays: always out of turn
OUT_OF_TURN_BUTTONS = ("hit", "stand", "double", "split", "surrender", "insurance", "even_money")
EMPTY_BOXES = (2, 4, 6)
#: the MQTT client's own complaints (a broker the soak stopped) are expected: not printed
QUIET = logging.getLogger("controller.hil.mqtt.client")
QUIET.addHandler(logging.NullHandler())
QUIET.propagate = False


class PitWatcher:
    """Everything under ``croupier/<table>/`` that the pit would see, kept as counts and seqs."""

    def __init__(self, port: int, table: str) -> None:
        self.port = port
        self.table = table
        self.event_seqs: set[int] = set()
        self.rounds: dict[str, list[dict[str, Any]]] = {}
        self.ledger: dict[str, Any] | None = None
        self._root = f"croupier/{table}/"
        self._subscriber = PersistentSubscriber(BrokerUrl("tcp", "127.0.0.1", port), f"hil-pit-{table}",
                                                (self._root + "#",), self._on_message, backoff_min=0.2,
                                                backoff_max=0.2, logger=QUIET)

    @property
    def connections(self) -> int:
        return self._subscriber.connections

    async def start(self) -> None:
        self._subscriber.runner.start()
        await asyncio.wait_for(self._subscriber.wait_connected(), 10)

    async def stop(self) -> None:
        await self._subscriber.runner.stop()

    def complete(self) -> int:
        """The highest seq with every seq from 1 up to it received."""
        n = 0
        while n + 1 in self.event_seqs:
            n += 1
        return n

    def _on_message(self, message: aiomqtt.Message) -> None:
        """Recorded, then acknowledged (the record is in memory: nothing to commit first)."""
        self._take(str(message.topic).removeprefix(self._root), message.payload)
        self._subscriber.ack(self._subscriber.connection, message.mid, message.qos)

    def _take(self, leaf: str, payload: Any) -> None:
        if leaf not in ("event", "round", "ledger"):
            return  # the command and spot topics carry the soak's own hostile bytes
        try:
            data = json.loads(payload if isinstance(payload, bytes | str) else b"")
        except (ValueError, RecursionError):
            return
        if not isinstance(data, dict):
            return
        if leaf == "event" and isinstance(data.get("seq"), int):
            self.event_seqs.add(data["seq"])
        elif leaf == "round" and isinstance(data.get("round"), str):
            self.rounds.setdefault(data["round"], []).append(data)
        elif leaf == "ledger":
            self.ledger = data


async def publish(port: int, messages: list[tuple[str, bytes]]) -> bool:
    """Publish as an anonymous client; False when the broker is down (the fault waits)."""
    try:
        async with aiomqtt.Client("127.0.0.1", port, identifier=f"hil-mallory-{random.getrandbits(32):08x}",
                                  logger=QUIET) as c:
            for topic, payload in messages:
                await c.publish(topic, payload, qos=1)
        return True
    except aiomqtt.MqttError:
        return False


def hostile_messages(table: str, rng: random.Random) -> list[tuple[str, bytes]]:
    """A burst of hostile payloads on the pit command topic and on bet spots' press topics."""
    out = []
    for _ in range(rng.randint(3, 8)):
        spot = rng.choice((*EMPTY_BOXES, 1, 3, 5, 999))
        topic = rng.choice((f"croupier/{table}/command", f"croupier/{table}/spot/{spot}/press"))
        out.append((topic, rng.choice(HOSTILE)))
    return out


class Presser:
    """Well-formed presses from spots whose boxes nobody plays, with rising seqs per spot."""

    def __init__(self, table: str) -> None:
        self.table = table
        self.seq = dict.fromkeys(EMPTY_BOXES, 0)

    def messages(self, rng: random.Random) -> list[tuple[str, bytes]]:
        out = []
        for _ in range(rng.randint(1, 4)):
            spot = rng.choice(EMPTY_BOXES)
            self.seq[spot] += 1
            body = {"v": 1, "device": f"spot-{spot}", "seq": self.seq[spot], "button": rng.choice(OUT_OF_TURN_BUTTONS)}
            out.append((f"croupier/{self.table}/spot/{spot}/press", json.dumps(body).encode()))
        return out
