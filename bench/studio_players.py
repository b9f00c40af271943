"""The players of ``bench/studio.py``: one WebSocket each to a studio instance, one bet request a
round at a random moment of the betting time, and the times the bench reports (accept, the
result and the ``settled`` on the page).

Kept lean, so that the figures are the studio's and not the clients': a player is one asyncio
``Protocol`` on its socket (``Socket``, a minimal WebSocket client: the handshake, its text frames
out masked, the server's frames parsed as they come), with no task or queue of its own; its bet is
a timer, and its request is one formatted string. With ``--client-procs N`` (``bench/studio.py``)
the players are spread over N processes of their own (``python bench/studio_players.py --child``):
each reports its counts as they grow (the bench waits on them) and its times at the end.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import json
import os
import random
import sys
import time
import uuid
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

import jwt

ISSUER, AUDIENCE = "casino-a", "croupier-studio"
#: connections being opened at once (a burst far past the listen backlog only waits in SYN retries)
CONNECTING = 200
#: how often a client process reports its counts (the bench waits on them between rounds)
REPORT_S = 0.02
GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
TEXT, CLOSE, PING, PONG = 0x1, 0x8, 0x9, 0xA
#: what a player's request says, but for its id, round and bet kind
BET = '{{"v":1,"type":"bet","request":"{}","round":"{}","bets":[{{"kind":"{}","amount":500}}]}}'
KINDS = ("red", "black", "even", "odd")


@dataclass
class Times:
    """What the bench reports, gathered by every player (the machine's monotonic clock: the same
    in every process)."""

    accept_ms: list[float] = field(default_factory=list)
    refused: dict[str, int] = field(default_factory=dict)
    #: per round: when the table published the result (the bench's table), and when each player
    #: saw it / its settled
    published: dict[str, float] = field(default_factory=dict)
    result_at: dict[str, list[float]] = field(default_factory=dict)
    settled_at: dict[str, list[float]] = field(default_factory=dict)
    #: per round: players who sent a bet, whose bet was answered, accepted, and credited
    betting: dict[str, int] = field(default_factory=dict)
    answered: dict[str, int] = field(default_factory=dict)
    accepted: dict[str, int] = field(default_factory=dict)
    credited: dict[str, int] = field(default_factory=dict)

    COUNTS = ("betting", "answered", "accepted", "credited")

    def counts(self) -> dict[str, dict[str, int]]:
        return {name: getattr(self, name) for name in self.COUNTS}

    def add(self, other: dict[str, Any]) -> None:
        """Another process's times (its ``asdict``) added to these, its counts included."""
        self.accept_ms.extend(other["accept_ms"])
        for reason, n in other["refused"].items():
            self.refused[reason] = self.refused.get(reason, 0) + n
        for name in ("result_at", "settled_at"):
            for round_id, seen in other[name].items():
                getattr(self, name).setdefault(round_id, []).extend(seen)


def _bump(counts: dict[str, int], key: str) -> None:
    counts[key] = counts.get(key, 0) + 1


def launch_token(player: str, secret: str) -> str:
    now = datetime.now(UTC)
    return jwt.encode({"iss": ISSUER, "aud": AUDIENCE, "sub": player, "name": player, "currency": "EUR",
                       "jti": uuid.uuid4().hex, "exp": now + timedelta(hours=2)}, secret, algorithm="HS256")


def _masked(payload: bytes, key: bytes) -> bytes:
    n = len(payload)
    mask = (key * (n // 4 + 1))[:n]
    return (int.from_bytes(payload, "big") ^ int.from_bytes(mask, "big")).to_bytes(n, "big")


class Socket(asyncio.Protocol):
    """A WebSocket client connection reduced to what the bench needs (RFC 6455): text frames out,
    masked; text frames in (fragmented too), handed to ``on_text`` with their arrival time; a
    ping answered; a close answered and the socket closed."""

    def __init__(self, host: str, path: str, on_text: Callable[[str, float], None]) -> None:
        self.host, self.path, self.on_text = host, path, on_text
        self.key = base64.b64encode(os.urandom(16))
        loop = asyncio.get_running_loop()
        self.upgraded: asyncio.Future[None] = loop.create_future()
        self.closed: asyncio.Future[None] = loop.create_future()
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.fragments: list[bytes] = []

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        transport.write(f"GET {self.path} HTTP/1.1\r\nHost: {self.host}\r\nUpgrade: websocket\r\n"
                        f"Connection: Upgrade\r\nSec-WebSocket-Key: {self.key.decode()}\r\n"
                        "Sec-WebSocket-Version: 13\r\n\r\n".encode())

    def data_received(self, data: bytes) -> None:
        now = time.monotonic()
        self.buffer += data
        if not self.upgraded.done() and not self._upgrade():
            return
        buf = self.buffer
        while len(buf) >= 2:
            length, at = buf[1] & 0x7F, 2
            if length == 126:
                if len(buf) < 4:
                    return
                length, at = int.from_bytes(buf[2:4], "big"), 4
            elif length == 127:
                if len(buf) < 10:
                    return
                length, at = int.from_bytes(buf[2:10], "big"), 10
            if len(buf) < at + length:
                return
            first, payload = buf[0], bytes(buf[at:at + length])  # a server's frames are not masked
            del buf[:at + length]
            self._frame(first & 0x0F, bool(first & 0x80), payload, now)

    def _upgrade(self) -> bool:
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0:
            return False
        head = bytes(self.buffer[:end]).decode("latin-1").split("\r\n")
        del self.buffer[:end + 4]
        accept = base64.b64encode(hashlib.sha1(self.key + GUID).digest()).decode()
        headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in head[1:])}
        if head[0].split(" ")[1:2] != ["101"] or headers.get("sec-websocket-accept") != accept:
            self.upgraded.set_exception(ConnectionError(f"no WebSocket upgrade: {head[0]}"))
            self.close()
            return False
        self.upgraded.set_result(None)
        return True

    def _frame(self, opcode: int, fin: bool, payload: bytes, now: float) -> None:
        if opcode == PING:
            self._send(PONG, payload)
        elif opcode == CLOSE:
            self._send(CLOSE, payload[:2])
            self.close()
        elif opcode in (TEXT, 0x0):  # a text frame, or the continuation of one
            self.fragments.append(payload)
            if fin:
                text = b"".join(self.fragments).decode()
                self.fragments = []
                self.on_text(text, now)

    def _send(self, opcode: int, payload: bytes) -> None:
        if self.transport is None or self.transport.is_closing():
            return
        n = len(payload)
        head = bytes((0x80 | opcode,)) + (bytes((0x80 | n,)) if n < 126 else bytes((0x80 | 126,)) + n.to_bytes(2, "big")
                                         if n < 65536 else bytes((0x80 | 127,)) + n.to_bytes(8, "big"))
        key = os.urandom(4)
        self.transport.write(head + key + _masked(payload, key))

    def send_text(self, text: str) -> None:
        self._send(TEXT, text.encode())

    def close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self._send(CLOSE, (1000).to_bytes(2, "big"))
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.upgraded.done():
            self.upgraded.set_exception(ConnectionError("closed before the upgrade"))
        if not self.closed.done():
            self.closed.set_result(None)


async def open_socket(url: str, on_text: Callable[[str, float], None], timeout: float) -> Socket:
    parts = urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    loop = asyncio.get_running_loop()
    _, socket = await asyncio.wait_for(
        loop.create_connection(lambda: Socket(f"{host}:{port}", parts.path or "/", on_text), host, port), timeout)
    try:
        await asyncio.wait_for(asyncio.shield(socket.upgraded), timeout)
    except BaseException:
        socket.close()
        raise
    return socket


class BenchPlayer:
    """One player: joins, then bets once on each round it sees open, ``within_s`` after at most."""

    def __init__(self, n: int, urls: list[str], secret: str, times: Times, seed: int, within_s: float) -> None:
        self.player = f"bench-{n}"
        self.urls = urls
        self.home = n % len(urls)
        self.secret, self.times, self.within_s = secret, times, within_s
        self.rng = random.Random(f"{seed}:{n}")
        self.ws: Socket | None = None
        self.joined: asyncio.Future[dict[str, Any]] | None = None
        self.bet_round: str | None = None
        #: the request waiting for its answer, its round, and when it was sent
        self.request: tuple[str, str, float] | None = None

    async def connect(self, gate: asyncio.Semaphore) -> None:
        """Connect and join (a new launch token each time), to the home instance or the next one."""
        for attempt in range(len(self.urls) * 20):
            url = self.urls[(self.home + attempt) % len(self.urls)]
            self.joined = asyncio.get_running_loop().create_future()
            try:
                async with gate:
                    ws = await open_socket(url, self._on_text, 30)
                    ws.send_text(json.dumps({"v": 1, "type": "join", "token": launch_token(self.player, self.secret),
                                             "table": "rl-eu"}))
                    joined = await asyncio.wait_for(self.joined, 30)
            except (OSError, TimeoutError):
                await asyncio.sleep(0.2)
                continue
            if joined.get("type") != "joined":
                raise RuntimeError(f"{self.player} not joined: {joined}")
            self.home = (self.home + attempt) % len(self.urls)
            self.ws = ws
            return
        raise RuntimeError(f"{self.player} could not connect to any studio")

    def _on_text(self, text: str, now: float) -> None:
        message = json.loads(text)
        kind = message.get("type")
        times = self.times
        if kind == "betting":
            round_id = message.get("round")
            if message.get("status") == "open" and round_id is not None and round_id != self.bet_round:
                self.bet_round = round_id
                _bump(times.betting, round_id)
                asyncio.get_running_loop().call_later(self.rng.uniform(0, self.within_s), self._bet, round_id)
        elif kind == "result":
            times.result_at.setdefault(str(message.get("round")), []).append(now)
        elif kind == "settled":
            round_id = str(message.get("round"))
            times.settled_at.setdefault(round_id, []).append(now)
            if message.get("balance") is not None:
                _bump(times.credited, round_id)
        elif kind in ("accepted", "refused") and self.request is not None \
                and message.get("request") == self.request[0]:
            _, round_id, sent = self.request
            self.request = None
            _bump(times.answered, round_id)
            if kind == "accepted":
                times.accept_ms.append((now - sent) * 1000)
                _bump(times.accepted, round_id)
            else:
                reason = str(message.get("reason"))
                times.refused[reason] = times.refused.get(reason, 0) + 1
        elif self.joined is not None and not self.joined.done() and kind in ("joined", "refused"):
            self.joined.set_result(message)

    def _bet(self, round_id: str) -> None:
        if self.ws is None:
            return
        request = uuid.uuid4().hex
        self.request = (request, round_id, time.monotonic())
        self.ws.send_text(BET.format(request, round_id, self.rng.choice(KINDS)))

    async def close(self) -> None:
        if self.ws is not None:
            self.ws.close()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.ws.closed, 10)


async def connect_all(players: list[BenchPlayer], connecting: int = CONNECTING) -> None:
    gate = asyncio.Semaphore(connecting)
    await asyncio.gather(*(p.connect(gate) for p in players))


async def wait_for(done: Callable[[], bool], within: float, step: float = 0.01) -> bool:
    """Poll ``done`` (counters filled by the players) until true or ``within`` s."""
    end = time.monotonic() + within
    while not done():
        if time.monotonic() > end:
            return False
        await asyncio.sleep(step)
    return True


class Clients:
    """The bench's players, in this process (``procs`` 0) or spread over ``procs`` processes:
    ``times`` has their counts as they grow either way, and every time once ``close`` returns."""

    def __init__(self, players: int, urls: list[str], secret: str, times: Times, seed: int, within_s: float,
                 procs: int) -> None:
        self.times = times
        self.config = {"urls": urls, "secret": secret, "seed": seed, "within_s": within_s}
        self.players = [BenchPlayer(n, urls, secret, times, seed, within_s) for n in range(players)] if procs <= 0 \
            else []
        share = -(-players // max(1, procs))
        self.shares = [range(first, min(players, first + share)) for first in range(0, players, share)] \
            if procs > 0 else []
        self.children: list[asyncio.subprocess.Process] = []
        self.readers: list[asyncio.Task[None]] = []
        self.snapshots: list[dict[str, dict[str, int]]] = []
        self.finals: list[asyncio.Future[dict[str, Any]]] = []

    async def connect(self) -> None:
        if self.players:
            await connect_all(self.players)
            return
        connecting = max(20, CONNECTING // len(self.shares))
        loop = asyncio.get_running_loop()
        ready: list[asyncio.Future[None]] = []
        for n, share in enumerate(self.shares):
            config = {**self.config, "first": share.start, "count": len(share), "connecting": connecting}
            child = await asyncio.create_subprocess_exec(
                sys.executable, __file__, "--child", json.dumps(config), stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE, limit=2**28)
            self.children.append(child)
            self.snapshots.append({})
            self.finals.append(loop.create_future())
            ready.append(loop.create_future())
            self.readers.append(asyncio.create_task(self._read(n, child, ready[-1])))
        await asyncio.gather(*ready)

    async def _read(self, n: int, child: asyncio.subprocess.Process, ready: asyncio.Future[None]) -> None:
        """The child's lines: ``ready`` once its players joined, its ``counts``, its ``final`` times."""
        assert child.stdout is not None
        while line := await child.stdout.readline():
            kind, _, body = line.decode().strip().partition(" ")
            if kind == "ready":
                ready.set_result(None)
            elif kind == "counts":
                self.snapshots[n] = json.loads(body)
                self._sum()
            elif kind == "final":
                self.finals[n].set_result(json.loads(body))
        error = RuntimeError(f"a client process ended (exit {await child.wait()})")
        for future in (ready, self.finals[n]):
            if not future.done():
                future.set_exception(error)

    def _sum(self) -> None:
        for name in Times.COUNTS:
            total: dict[str, int] = {}
            for snapshot in self.snapshots:
                for round_id, count in snapshot.get(name, {}).items():
                    total[round_id] = total.get(round_id, 0) + count
            getattr(self.times, name).update(total)

    async def close(self) -> None:
        if self.players:
            await asyncio.gather(*(p.close() for p in self.players))
            return
        for child in self.children:
            if child.stdin is not None:
                child.stdin.write(b"stop\n")
                await child.stdin.drain()
        try:
            for final in await asyncio.wait_for(asyncio.gather(*self.finals), 120):
                self.times.add(final)
        finally:
            for child in self.children:
                if child.returncode is None:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(child.wait(), 30)
                if child.returncode is None:
                    child.kill()
                    await child.wait()
            await asyncio.gather(*self.readers, return_exceptions=True)

    def kill(self) -> None:
        """The client processes stopped at once (the bench failed)."""
        for child in self.children:
            if child.returncode is None:
                child.kill()


async def _child(config: dict[str, Any]) -> None:
    """A client process: its share of the players, its counts on stdout as they grow, its times
    at the end (when the bench writes ``stop``)."""
    times = Times()
    players = [BenchPlayer(n, config["urls"], config["secret"], times, config["seed"], config["within_s"])
               for n in range(config["first"], config["first"] + config["count"])]
    await connect_all(players, config["connecting"])
    out = sys.stdout
    out.write("ready\n")
    out.flush()
    stop = asyncio.get_running_loop().create_future()

    def report() -> None:
        out.write("counts " + json.dumps(times.counts()) + "\n")
        out.flush()

    async def reporting() -> None:
        last = ""
        while not stop.done():
            now = json.dumps(times.counts())
            if now != last:
                report()
                last = now
            await asyncio.sleep(REPORT_S)

    reporter = asyncio.create_task(reporting())
    await asyncio.to_thread(sys.stdin.readline)
    stop.set_result(None)
    await reporter
    report()
    await asyncio.gather(*(p.close() for p in players))
    out.write("final " + json.dumps(asdict(times)) + "\n")
    out.flush()


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        asyncio.run(_child(json.loads(sys.argv[2])))
