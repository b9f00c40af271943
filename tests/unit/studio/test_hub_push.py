"""A push to the table is written to each player's socket at once where the server offers a frame
write, one frame's bytes for every player; a connection that cannot take it now gets it through
its bounded outbox, and nothing is written past a message still queued or being sent."""

from __future__ import annotations

import json

from websockets.frames import Frame, Opcode
from websockets.streams import StreamReader

from controller.studio.book import Player
from controller.studio.hub import OUTBOX, Encoded, Hub, Seat

RESULT = {"v": 1, "type": "result", "table": "rl-eu", "round": "r1", "status": "settled", "outcome": {"numbers": ["17"]}}


class Socket:
    """A connection's frame write: takes frames while ``open``."""

    def __init__(self, open: bool = True) -> None:
        self.open = open
        self.frames: list[bytes] = []

    def write(self, frame: bytes) -> bool:
        if self.open:
            self.frames.append(frame)
        return self.open


def text_of(frame: bytes) -> str:
    """The frame's text, read back as a client reads it (unmasked, as a server sends it)."""
    reader = StreamReader()
    reader.feed_data(frame)
    parser = Frame.parse(reader.read_exact, mask=False)
    try:
        next(parser)
    except StopIteration as done:
        parsed: Frame = done.value
    assert parsed.opcode is Opcode.TEXT and parsed.fin
    return bytes(parsed.data).decode()


def seated(hub: Hub, n: int, socket: Socket | None) -> Seat:
    seat = Seat(write=socket.write if socket is not None else None)
    hub.seat(seat, "rl-eu", Player("casino-a", f"p{n}", f"P{n}", "EUR"))
    return seat


def test_a_push_is_written_to_every_socket_at_once_the_same_frame() -> None:
    hub = Hub()
    sockets = [Socket() for _ in range(100)]
    seats = [seated(hub, n, s) for n, s in enumerate(sockets)]
    hub.to_table("rl-eu", RESULT)
    assert all(seat.outbox.empty() for seat in seats)  # no writer task to wake
    frames = [s.frames for s in sockets]
    assert all(len(f) == 1 and f[0] is frames[0][0] for f in frames)  # encoded once for the table
    assert json.loads(text_of(frames[0][0])) == RESULT


def test_a_socket_that_cannot_take_it_now_gets_it_through_its_outbox_in_order() -> None:
    hub, full = Hub(), Socket(open=False)
    seat = seated(hub, 1, full)
    hub.to_table("rl-eu", RESULT)
    queued = seat.outbox.get_nowait()
    assert isinstance(queued, Encoded) and json.loads(queued.text) == RESULT
    hub.to_table("rl-eu", {**RESULT, "round": "r2"})
    full.open = True  # its buffer drained: still nothing goes past the message queued before
    hub.to_player("rl-eu", "casino-a", "p1", {"v": 1, "type": "balance"})
    assert full.frames == []
    pushed, answered = seat.outbox.get_nowait(), seat.outbox.get_nowait()
    assert isinstance(pushed, Encoded) and json.loads(pushed.text)["round"] == "r2"
    assert answered == {"v": 1, "type": "balance"}


def test_nothing_is_written_past_the_message_the_writer_is_sending() -> None:
    hub, socket = Hub(), Socket()
    seat = seated(hub, 1, socket)
    seat.busy = True  # the writer took a message from the outbox and waits for the socket
    hub.to_table("rl-eu", RESULT)
    assert socket.frames == [] and not seat.outbox.empty()
    seat.busy = False
    seat.outbox.get_nowait()
    hub.to_table("rl-eu", RESULT)
    assert len(socket.frames) == 1


def test_a_socket_that_stays_full_overflows_its_bounded_outbox_and_is_closed() -> None:
    hub = Hub()
    seat = seated(hub, 1, Socket(open=False))
    for n in range(OUTBOX + 10):
        hub.to_table("rl-eu", {**RESULT, "round": f"r{n}"})
    assert seat.overflowed and seat.outbox.qsize() == 1 and seat.outbox.get_nowait() is None


def test_without_a_frame_write_every_message_goes_through_the_outbox() -> None:
    hub = Hub()
    seat = seated(hub, 1, None)
    hub.to_table("rl-eu", RESULT)
    hub.to_player("rl-eu", "casino-a", "p1", {"v": 1, "type": "balance"})
    first, second = seat.outbox.get_nowait(), seat.outbox.get_nowait()
    assert isinstance(first, Encoded) and json.loads(first.text) == RESULT and second == {"v": 1, "type": "balance"}
