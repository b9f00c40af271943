"""CSP/1 session: the conversation with one shoe over any ``Transport``.

Two parts. ``Receiver`` (``drivers.shoe.receiver``) is synchronous and I/O-free: it takes decoded
frames (and the time) and says which events to emit and which replies to send, so the
card-accounting rules (``drivers.shoe.cards``) and the identity rules (``drivers.shoe.identity``)
are tested without a line. ``ShoeSession`` wires it to a transport: reconnects, acknowledges,
NAKs readable bad frames, watches the heartbeat and runs the host's commands with
retransmission.

Identity, the session's part: after every open and reconnect the shoe must say ``HELLO`` before
anything it sends is delivered (``online`` included). pyserial empties the input buffer at open,
so a ``HELLO`` sent before the host held the port is lost; the session then asks for one with
``RESET``, once the shoe's ``STATUS`` is in and once every card it counts has come (or is in
the host's journal already: ``journaled``, a restarted host's), or else ``identify_settle``
after the connect, and again every ``identify_timeout``. A ``RESET`` clears
the shoe's resend queue, so the receiver delivers what it kept once the right ``HELLO`` comes in
answer to it. A shoe still unproven after ``identify_timeout`` is a ``fault`` (code 91), held
exactly like a wrong one.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from drivers.clock import SYSTEM_CLOCK, Clock
from drivers.errors import DeviceTimeout, DeviceUnavailable
from drivers.events import DeviceEvent, DeviceOffline, DeviceOnline
from drivers.link import LinkRunner
from drivers.reconnect import SERIAL_BACKOFF, Backoff
from drivers.shoe import codec
from drivers.shoe.codec import Ack, Decoder, FrameError, Nak
from drivers.shoe.events import ShoeFault
from drivers.shoe.identity import IDENTITY_FAULT, UNPROVEN_FAULT, UNPROVEN_KEPT
from drivers.shoe.receiver import Receiver
from drivers.shoe.stats import SessionStats
from drivers.shoe.transport import Transport, TransportClosed

log = logging.getLogger(__name__)

__all__ = [
    "IDENTITY_FAULT",
    "UNPROVEN_FAULT",
    "UNPROVEN_KEPT",
    "CommandFailed",
    "Receiver",
    "SessionConfig",
    "SessionStats",
    "ShoeSession",
]


@dataclass
class SessionConfig:
    heartbeat_timeout: float = 3.0  # no frame for this long -> offline (STATUS comes every 1 s)
    retry_interval: float = 0.25  # host command retransmission
    command_tries: int = 20
    gap_timeout: float = 6.0  # a missing card is lost after this (shoe gives up after 20 x 250 ms)
    reconnect_delay: float = 0.5  # the longest wait between attempts (the shared backoff's cap)
    tick: float = 0.05  # watchdog resolution
    dedupe_window: int = 512  # seqs remembered for duplicate suppression
    max_ahead: int = 512  # a card this many counts past the last delivered one is refused
    identity: str | None = None  # the shoe's serial number; None: the first HELLO seen
    initial_seq: int | None = None  # host seq to count from; None: random, so a restarted host
    # does not resend the very seq + command the shoe last applied (it would be taken as a repeat)
    identify_timeout: float = 2.0  # no HELLO this long after a connect -> fault 91, RESET again
    identify_settle: float = 0.6  # RESET no sooner, unless every card the shoe counts has come
    # (two resends of a card still on its way, 250 ms apart, and a margin: one may be garbled)
    #: (shoe id, last count) of the cards the host journaled before this process started: a
    #: restarted host whose shoe counts no more asks for HELLO at once, not after identify_settle
    journaled: tuple[str, int] | None = None


class CommandFailed(DeviceTimeout):
    """The shoe did not acknowledge a command after every retry."""


class ShoeSession:
    """Drives one shoe: ``run()`` until cancelled; commands may be awaited meanwhile.

    Events go to ``on_event`` if given, else into the ``events`` queue.
    """

    def __init__(
        self,
        transport: Transport,
        *,
        device: str = "shoe",
        clock: Clock = SYSTEM_CLOCK,
        config: SessionConfig | None = None,
        on_event: Callable[[DeviceEvent], None] | None = None,
    ) -> None:
        self.transport = transport
        self.device = device
        self.clock = clock
        self.config = config or SessionConfig()
        self.stats = SessionStats()
        self.receiver = Receiver(device, self.config.gap_timeout, self.config.dedupe_window, self.stats,
                                 self.config.max_ahead, self.config.identity, self.config.journaled)
        self.events: asyncio.Queue[DeviceEvent] = asyncio.Queue()
        self._emit_cb = on_event
        self._seq = random.randrange(codec.SEQ_MOD) if self.config.initial_seq is None else self.config.initial_seq
        self._connected = False
        self.online = False
        self._last_rx = clock.monotonic()
        #: the driver clock's time of the last valid frame (None: never heard)
        self.last_seen: float | None = None
        #: why the last attempt to open the transport failed (None: it is open, or never tried)
        self.open_error: DeviceUnavailable | None = None
        self._waiting: dict[int, asyncio.Future[bool]] = {}  # host seq -> True on ACK, False on NAK
        self._cmd_lock = asyncio.Lock()
        self._write_lock = asyncio.Lock()
        self._decoder = Decoder("shoe")
        self._connected_at = 0.0
        backoff = Backoff(min(SERIAL_BACKOFF.initial, self.config.reconnect_delay), self.config.reconnect_delay)
        #: the connect -> converse -> lost -> back off cycle, and its state
        self.link = LinkRunner(device, self._attempt, backoff=backoff, clock=clock)
        self.reconnect = self.link.reconnect
        self._opened = False
        #: set once the shoe on the current link proved itself, or was reported unproven
        self.identified = asyncio.Event()
        self._reset_at: float | None = None  # when a RESET last asked an unproven shoe for HELLO
        self._unproven_reported = False

    # -- events
    def _emit(self, event: DeviceEvent) -> None:
        if self._emit_cb is not None:
            self._emit_cb(event)
        else:
            self.events.put_nowait(event)

    def _set_online(self, online: bool, reason: str = "") -> None:
        if online and not self.online:
            self.online = True
            self.receiver.restart_gap_timer(self.clock.monotonic())
            self._emit(DeviceOnline(device=self.device, detail=self.transport.name))
        elif not online and self.online:
            self.online = False
            self._emit(DeviceOffline(device=self.device, reason=reason))

    # -- the link (its loop is the shared ``LinkRunner``)
    async def run(self, *, opened: bool = False) -> None:
        """Connect, converse, reconnect after the link drops; never returns until cancelled.
        ``opened``: the transport is already open (the first connect is skipped)."""
        self._opened = opened
        await self.link.run()

    async def _attempt(self, up: Callable[[], None]) -> str:
        """One connection: open (unless already open), converse until the link drops; why."""
        try:
            if not self._opened:
                await self.transport.open()
            self._opened = False
        except OSError as exc:  # DeviceUnavailable, or a transport's own OSError
            if not isinstance(exc, DeviceUnavailable):
                exc = DeviceUnavailable(f"cannot open {self.transport.name}: {exc}")
            if self.open_error is None or str(self.open_error) != str(exc):
                log.warning("%s", exc)
            self.open_error = exc
            return str(exc)
        self.open_error = None
        up()
        self.stats.connects += 1
        self._connected = True
        self._decoder = Decoder("shoe")
        self._last_rx = self._connected_at = self.clock.monotonic()
        self.receiver.connected()
        self.identified.clear()
        self._reset_at = None
        self._unproven_reported = False
        await self._send(codec.Ping())  # a STATUS at once: state and card count on (re)connect
        reader = asyncio.create_task(self._converse(), name=f"{self.device}-read")
        watchdog = asyncio.create_task(self._watchdog(), name=f"{self.device}-watchdog")
        try:
            done, _ = await asyncio.wait((reader, watchdog), return_when=asyncio.FIRST_COMPLETED)
            reason = (reader if reader in done else watchdog).result()
        finally:
            self._connected = False
            for task in (reader, watchdog):
                task.cancel()
            await asyncio.gather(reader, watchdog, return_exceptions=True)
            await self.transport.close()
        self._set_online(False, reason)
        return reason

    async def _converse(self) -> str:
        """Read until the link drops; why it dropped."""
        try:
            while True:
                data = await self.transport.read()
                await self._on_bytes(data)
        except TransportClosed as exc:
            return str(exc)

    async def _on_bytes(self, data: bytes) -> None:
        for item in self._decoder.feed(data):
            if isinstance(item, FrameError):
                self.stats.bad_frames += 1
                if item.seq is not None:
                    self.stats.naks_sent += 1
                    await self._send(Nak(item.seq))
                continue
            self.stats.frames += 1
            self._last_rx = self.last_seen = self.clock.monotonic()
            msg = item.msg
            if isinstance(msg, (Ack, Nak)):
                fut = self._waiting.get(msg.seq)
                if fut is not None and not fut.done():
                    fut.set_result(isinstance(msg, Ack))
            events, replies = self.receiver.on_frame(item, self.clock.monotonic())
            if self.receiver.proven:
                self._set_online(True)
                self.identified.set()
            for event in events:
                self._emit(event)
            for reply in replies:
                await self._send(reply)
            await self._check_identity(self.clock.monotonic())

    def _unproven(self) -> bool:
        return self.receiver.shoe.awaited

    async def _ask_identity(self) -> None:
        """``RESET``: the shoe restarts and says ``HELLO`` (once per ``identify_timeout``)."""
        now = self.clock.monotonic()
        if self._reset_at is not None and now - self._reset_at < self.config.identify_timeout:
            return
        self._reset_at = now
        self.receiver.asked()
        await self._send(codec.Reset())

    async def _check_identity(self, now: float) -> None:
        """An unproven shoe is asked for HELLO once no card it counts is still on its way (a
        queued HELLO came before its STATUS); past ``identify_timeout``, one fault per connect."""
        if not self._unproven():
            return
        waited = now - self._connected_at
        if self.receiver.unproven_settled or waited >= self.config.identify_settle:
            await self._ask_identity()
        if waited >= self.config.identify_timeout and not self._unproven_reported:
            self._unproven_reported = True
            text = (f"IDENTITY: the shoe at {self.transport.name} has not said HELLO since it connected: "
                    f"its identity is not proven")
            log.warning("%s: %s; nothing it sends is delivered", self.device, text)
            self._emit(ShoeFault(device=self.device, code=UNPROVEN_FAULT, text=text))
            self.identified.set()

    async def _watchdog(self) -> str:
        """Lost cards and the heartbeat. Returns (the link is to be reopened) once no frame came
        for the heartbeat timeout: a tty can stay open yet dead, and reopening the configured
        path, with a fresh PING, reaches a shoe replugged behind the same link while its resend
        budget (20 x 250 ms) still keeps the cards it dealt meanwhile."""
        last = self.clock.monotonic()
        while True:
            await self.clock.sleep(self.config.tick)
            now = self.clock.monotonic()
            slept, last = now - last, now
            if slept > 10 * self.config.tick:
                # This process stalled (GC, an overloaded host): bytes may be waiting unread.
                # Neither the shoe's silence nor a missing card can be judged on this tick.
                self.receiver.restart_gap_timer(now)
                continue
            await self._check_identity(now)
            silent = now - self._last_rx
            if silent > self.config.heartbeat_timeout:
                reason = f"no frame for {silent:.1f} s"
                self._set_online(False, reason)
                return f"{reason}: reopening {self.transport.name}"
            if self.online:  # a silent or absent shoe cannot resend: do not call its cards lost
                for event in self.receiver.on_tick(now):
                    self._emit(event)

    # -- sending
    def _next_seq(self) -> int:
        self._seq = codec.next_seq(self._seq)
        return self._seq

    async def _send(self, msg: codec.Message, seq: int | None = None) -> bool:
        raw = codec.encode(self._next_seq() if seq is None else seq, msg)
        if not self._connected:
            return False
        async with self._write_lock:
            try:
                await self.transport.write(raw)
            except TransportClosed:
                return False  # the reader notices the drop and reconnects
        return True

    async def command(self, msg: codec.HostMessage) -> None:
        """Send a host command and await its ACK, retransmitting (same seq) every
        ``retry_interval``; ``CommandFailed`` after ``command_tries``, or the open error
        (``DeviceNotFound``, ``DeviceBusy`` ...) when the port could not be opened at all."""
        async with self._cmd_lock:
            seq = self._next_seq()
            loop = asyncio.get_running_loop()
            try:
                for attempt in range(self.config.command_tries):
                    if attempt:
                        self.stats.retransmissions += 1
                    fut: asyncio.Future[bool] = loop.create_future()
                    self._waiting[seq] = fut
                    await self._send(msg, seq)
                    timer = asyncio.ensure_future(self.clock.sleep(self.config.retry_interval))
                    waits: list[asyncio.Future[Any]] = [fut, timer]
                    try:
                        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
                    finally:
                        timer.cancel()
                    if fut.done() and fut.result():
                        return
            finally:
                self._waiting.pop(seq, None)
        if self.open_error is not None:
            raise type(self.open_error)(f"{msg.TYPE} not sent: {self.open_error}")
        budget = self.config.command_tries * self.config.retry_interval
        raise CommandFailed(
            f"the shoe at {self.transport.name} did not acknowledge {msg.TYPE} after "
            f"{self.config.command_tries} tries ({budget:g} s): check that it is connected and powered"
        )

    async def lock(self) -> None:
        """Close the card gate: no card can leave the shoe (bets open)."""
        await self.command(codec.Lock())

    async def unlock(self) -> None:
        await self.command(codec.Unlock())

    async def new_shoe(self, shoe_id: str, decks: int) -> None:
        """A new shuffled shoe is loaded: n restarts at 0 (from the moment the command is sent)."""
        self.receiver.new_shoe()
        await self.command(codec.NewShoe(shoe_id, decks))

    async def ping(self) -> None:
        await self.command(codec.Ping())

    async def reset(self) -> None:
        await self.command(codec.Reset())
