"""A push to the table through the real server (frames written to each player's socket at once):
a player who stops reading gets what the bounds hold, in order, and is then closed; the others
get every message, in order, meanwhile."""

from __future__ import annotations

import json

import pytest
import websockets

from controller.studio.server import StudioServer
from tests.integration.studio.conftest import Client, token

PAD = "x" * 60_000  # a big push fills the stalled player's socket in a few hundred
PUSHES = 2000


async def next_push(client: Client) -> int:
    assert client.ws is not None
    while True:
        message = json.loads(await client.ws.recv())
        if message.get("type") == "push":
            return int(message["n"])


async def test_a_player_who_stops_reading_is_closed_and_the_others_get_every_push(studio: StudioServer) -> None:
    hub = studio.studio.hub
    async with Client(studio.url) as stalled, Client(studio.url) as reader:
        await stalled.join(token("p1"))
        await reader.join(token("p2"))
        seat = next(s for s in hub.seats_at("rl-eu") if s.player is not None and s.player.player == "p1")
        assert seat.write is not None, "the studio's server no longer offers the frame write (uvicorn changed?)"
        pushed = 0
        while not seat.overflowed:  # the stalled client reads nothing: its socket, then its outbox fill
            assert pushed < PUSHES, "the stalled player's outbox never overflowed"
            hub.to_table("rl-eu", {"v": 1, "type": "push", "n": pushed, "pad": PAD})
            assert await next_push(reader) == pushed
            pushed += 1
        got = []
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:
                got.append(await next_push(stalled))
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        assert got == list(range(len(got))) and 0 < len(got) < pushed  # in order, up to what the bounds held
        hub.to_table("rl-eu", {"v": 1, "type": "push", "n": pushed, "pad": ""})
        assert await next_push(reader) == pushed
