"""The CSP/1 shoe's firmware in software, shared by the pty runner and the pyusb backend.

It deals from whatever ``DealOrder`` the caller gives it (the table's own shuffled or stacked
shoe, or a plain ``ShuffledDeck``) and reshuffles through the caller's ``reshuffle``; it keeps every
CARD/NOREAD/CUT frame until acknowledged and resends it (same seq) every 250 ms, gives up after
20 tries with a FAULT, sends STATUS every second and on PING, HELLO at power-up and RESET, and
ACKs/NAKs host frames. Its only link to the outside is ``attach(write)`` / ``feed(bytes)``, so a
test can break the line in any way: ``LineFaults`` drops, corrupts, duplicates and splits bytes
or whole frames, by probability or by script.

Only the codec is shared with the driver; the golden vectors pin it (``docs/devices.md``).
"""

from __future__ import annotations

import asyncio
import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from drivers.clock import SYSTEM_CLOCK, Clock
from drivers.shoe import codec
from drivers.shoe.codec import Decoder, FrameError
from simulators.shoe.deck import DealOrder, Reshuffle, shuffler

FAULT_NO_ACK = (30, "NOACK")


@dataclass
class LineFaults:
    """Damage applied to bytes on one direction of the line (probabilities are per byte;
    the ``*_frames`` counters damage the next frames written, for scripted tests)."""

    rng: random.Random = field(default_factory=lambda: random.Random(0))
    drop: float = 0.0
    corrupt: float = 0.0
    duplicate: float = 0.0
    split: float = 0.0  # per write: deliver it in two pieces, the second a moment later
    drop_frames: int = 0
    corrupt_frames: int = 0
    duplicate_frames: int = 0
    split_frames: int = 0

    def apply(self, data: bytes) -> list[bytes]:
        """The pieces actually delivered for one write (possibly none)."""
        if self.drop_frames:
            self.drop_frames -= 1
            return []
        out = bytearray()
        if self.corrupt_frames and len(data) > 2:
            self.corrupt_frames -= 1
            damaged = bytearray(data)
            i = self.rng.randrange(1, len(damaged) - 2)
            damaged[i] ^= 1 << self.rng.randrange(7)
            data = bytes(damaged)
        if self.drop or self.corrupt or self.duplicate:
            for b in data:
                r = self.rng.random()
                if r < self.drop:
                    continue
                if r < self.drop + self.corrupt:
                    b = (b + self.rng.randrange(1, 256)) & 0xFF
                out.append(b)
                if self.rng.random() < self.duplicate:
                    out.append(b)
        else:
            out += data
        if self.duplicate_frames:
            self.duplicate_frames -= 1
            out = out * 2
        forced = self.split_frames > 0
        if forced:
            self.split_frames -= 1
        if len(out) > 1 and (forced or (self.split and self.rng.random() < self.split)):
            cut = self.rng.randrange(1, len(out))
            return [bytes(out[:cut]), bytes(out[cut:])]
        return [bytes(out)] if out else []


@dataclass
class _Pending:
    seq: int
    raw: bytes
    tries: int = 0
    due: float = 0.0


class ShoeFirmware:
    """One shoe. Call ``draw()`` to pull a card through the gate; run ``run()`` for its timers."""

    def __init__(
        self,
        shoe: DealOrder | None = None,
        *,
        decks: int = 6,
        rng: random.Random | None = None,
        reshuffle: Reshuffle | None = None,
        shoe_id: str = "S1",
        clock: Clock = SYSTEM_CLOCK,
        window: int = 4,
        resend_interval: float = 0.25,
        max_tries: int = 20,
        status_interval: float = 1.0,
        tick: float = 0.02,
        model: str = "CS-1",
        version: str = "1.0",
        serial: str = "SN42",
        tx_faults: LineFaults | None = None,
        rx_faults: LineFaults | None = None,
        cut_sent: bool = False,
    ) -> None:
        self.rng = rng or random.Random()
        self.reshuffle = reshuffle or shuffler(self.rng)
        self.shoe: DealOrder = shoe if shoe is not None else self.reshuffle(decks)
        self.shoe_id = shoe_id
        self.clock = clock
        self.window = window
        self.resend_interval = resend_interval
        self.max_tries = max_tries
        self.status_interval = status_interval
        self.tick = tick
        self.model, self.version, self.serial = model, version, serial
        self.tx_faults = tx_faults or LineFaults()
        self.rx_faults = rx_faults or LineFaults()
        self.locked = False
        self.silent = False  # a hung shoe: transmits nothing
        self.says_hello = True  # False: a silent impostor that never says who it is
        self.fault: tuple[int, str] | None = None
        self.noread_next = 0  # the next N cards leave unread
        self.drawn: list[str] = []  # every card that left the shoe, the truth for tests
        self.last_command: codec.Frame | None = None
        self.applied: list[str] = []  # host commands applied (once each), for tests
        self.tap: Callable[[bytes], None] | None = None  # sees each write after it left (benchmarks)
        self._seq = 0
        self._pending: deque[_Pending] = deque()
        self._write: Callable[[bytes], None] | None = None
        self._decoder = Decoder("host")
        self._next_status = 0.0
        self._cut_sent = cut_sent  # resuming a shoe whose CUT already reached the host

    # -- link
    @property
    def attached(self) -> bool:
        return self._write is not None

    def attach(self, write: Callable[[bytes], None]) -> None:
        """The link came up (power-up for a USB shoe, cable in for serial): HELLO first."""
        self._write = write
        self._decoder = Decoder("host")
        self._hello()
        self._send_status()
        for p in self._pending:
            p.due = 0.0  # resend what is still unacknowledged at once

    def _hello(self) -> None:
        if self.says_hello:
            self._send(codec.Hello(self.model, self.version, self.serial))

    def detach(self) -> None:
        self._write = None

    @property
    def state(self) -> str:
        if self.fault is not None:
            return "FAULT"
        if self.shoe.remaining == 0:
            return "EMPTY"
        return "LOCKED" if self.locked else "READY"

    @property
    def pending(self) -> int:
        return len(self._pending)

    # -- dealing
    def draw(self) -> str | None:
        """A card is pulled through the gate: None (nothing leaves) when locked or empty."""
        if self.locked or self.shoe.remaining == 0:
            return None
        card = self.shoe.draw()
        self.drawn.append(card)
        n = self.shoe.dealt
        if self.noread_next:
            self.noread_next -= 1
            self._queue(codec.NoRead(n))
        else:
            self._queue(codec.Card(card, n))
        if self.shoe.cut_reached and not self._cut_sent:
            self._cut_sent = True
            self._queue(codec.Cut(n))
        return card

    async def deal(self, pace: float, count: int | None = None, on_card: Callable[[str, int], None] | None = None) -> None:
        """A scripted dealer: pull a card every ``pace`` seconds (when the gate is open)."""
        dealt = 0
        while count is None or dealt < count:
            await self.clock.sleep(pace)
            card = self.draw()
            if card is not None:
                dealt += 1
                if on_card is not None:
                    on_card(card, self.shoe.dealt)

    def inject_fault(self, code: int, text: str) -> None:
        self.fault = (code, text)
        self._send(codec.Fault(code, text))

    def clear_fault(self) -> None:
        self.fault = None

    # -- frames
    def _next_seq(self) -> int:
        self._seq = codec.next_seq(self._seq)
        return self._seq

    def _send(self, msg: codec.Message, seq: int | None = None) -> int:
        seq = self._next_seq() if seq is None else seq
        self._transmit(codec.encode(seq, msg))
        return seq

    def _transmit(self, raw: bytes) -> None:
        if self._write is None or self.silent:
            return
        pieces = self.tx_faults.apply(raw)
        if not pieces:
            return
        self._write(pieces[0])
        if self.tap is not None:
            self.tap(pieces[0])
        if len(pieces) > 1:
            asyncio.get_running_loop().call_later(0.002, self._write_late, pieces[1])

    def _write_late(self, data: bytes) -> None:
        if self._write is not None and not self.silent:
            self._write(data)

    def _queue(self, msg: codec.Message) -> None:
        seq = self._next_seq()
        self._pending.append(_Pending(seq, codec.encode(seq, msg)))
        self._pump()

    def _pump(self) -> None:
        """(Re)send what is in the window and due; give up after ``max_tries``."""
        now = self.clock.monotonic()
        for i, p in enumerate(list(self._pending)):
            if i >= self.window:
                break
            if p.due > now:
                continue
            if p.tries >= self.max_tries:
                self._pending.remove(p)
                self.inject_fault(*FAULT_NO_ACK)
                self.fault = None  # reported; the shoe goes on dealing
                continue
            if self._write is None or self.silent:
                continue
            p.tries += 1
            p.due = now + self.resend_interval
            self._transmit(p.raw)

    def _send_status(self) -> None:
        self._next_status = self.clock.monotonic() + self.status_interval
        self._send(codec.Status(self.state, self.shoe.dealt, self.shoe_id))

    def feed(self, data: bytes) -> None:
        """Bytes from the host."""
        for piece in self.rx_faults.apply(data):
            for item in self._decoder.feed(piece):
                if isinstance(item, FrameError):
                    if item.seq is not None:
                        self._send(codec.Nak(item.seq))
                    continue
                self._on_frame(item)

    def _on_frame(self, frame: codec.Frame) -> None:
        msg = frame.msg
        if isinstance(msg, codec.Ack):
            for p in self._pending:
                if p.seq == msg.seq:
                    self._pending.remove(p)
                    break
            self._pump()
            return
        if isinstance(msg, codec.Nak):
            for p in self._pending:
                if p.seq == msg.seq:
                    p.due = 0.0
            self._pump()
            return
        self._send(codec.Ack(frame.seq))
        if self.last_command == frame:
            return  # a retransmission whose ACK was lost: acknowledged again, applied once
        # The host has one command in flight at a time, so only the last one can come again;
        # remembering more seqs would swallow a restarted host's new command with an old seq.
        self.last_command = frame
        self.applied.append(msg.TYPE)
        if isinstance(msg, codec.Lock):
            self.locked = True
        elif isinstance(msg, codec.Unlock):
            self.locked = False
        elif isinstance(msg, codec.NewShoe):
            self.shoe = self.reshuffle(msg.decks)
            self.shoe_id = msg.shoe_id
            self._cut_sent = False
            self._send_status()
        elif isinstance(msg, codec.Ping):
            self._send_status()
        elif isinstance(msg, codec.Reset):
            self.reset()

    def reset(self) -> None:
        """Firmware restart: unacknowledged frames are lost with the RAM, seq starts over."""
        self._pending.clear()
        self._seq = 0
        self.last_command = None
        self.fault = None
        self._hello()
        self._send_status()

    # -- timers
    async def run(self) -> None:
        """Resend timers and the 1 s STATUS; runs until cancelled."""
        while True:
            await self.clock.sleep(self.tick)
            self.poll()

    def poll(self) -> None:
        """One timer step: resends that are due, and STATUS when its second is up."""
        if self._write is None:
            return
        self._pump()
        if self.clock.monotonic() >= self._next_status:
            self._send_status()
