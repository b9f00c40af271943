"""CSP/1 session: the conversation with one shoe over any ``Transport``.

Two parts. ``Receiver`` is synchronous and I/O-free: it takes decoded frames (and the time) and
says which events to emit and which replies to send, so the card-accounting rules are tested
without a line. ``ShoeSession`` wires it to a transport: reconnects, acknowledges, NAKs readable
bad frames, watches the heartbeat and runs the host's commands with retransmission.

Card accounting, the reason this module exists: every shoe frame is acknowledged (duplicates
again), applied once (by seq, and by ``n`` across a shoe reset), delivered in ``n`` order. A card
that arrives ahead of a missing one is held back; if the missing one has not come after
``gap_timeout`` (longer than the shoe's 20 x 250 ms resend budget) a ``lost_card`` event says so,
and the driver never guesses the missing card.

The shoe's own count vouches for every gap: a count is declared lost only once two STATUS frames
in a row (one a second) say the shoe has dealt at least that many, because a noisy line can
forge a CRC-16-valid frame about once in 65,536 corrupted ones. A held card whose count two later
STATUS frames both deny (the line is FIFO: a real card's STATUS cannot report fewer) is dropped
as corrupt, with one ``Refused``, instead of moving the count far ahead and refusing the real
cards after it.

Bounded state: a frame cannot grow the receiver. Cards more than ``max_ahead`` counts ahead of
the last delivered one are refused, at most one cut card waits for its count, and seqs are
remembered in a fixed window, so a flood of CRC-valid hostile frames (a new seq per ``CUT``)
costs the same per frame as the first (``docs/devices.md``, "Bounded state").

Identity: the shoe's serial number comes in ``HELLO`` (power-up, ``RESET``, plug-in). The first
one seen, or the configured one, is the shoe of this table; a ``HELLO`` with another serial is a
``fault`` and the impostor's frames are acknowledged but never delivered until the right shoe
says ``HELLO`` again. After every open and reconnect the shoe must say ``HELLO`` before anything
it sends is delivered (``online`` included): a silent impostor behind the same port proves
nothing. pyserial empties the input buffer at open, so a ``HELLO`` sent before the host held the
port is lost; the session then asks for one with ``RESET``, once the shoe's ``STATUS`` is in and
once every card it counts has come (or ``identify_settle`` after the connect), and again every
``identify_timeout``. Until the ``HELLO``, cards are acknowledged and kept, not applied: a
``RESET`` clears the shoe's resend queue, so the receiver delivers what it kept once the right
``HELLO`` comes in answer to that ``RESET`` (one said unasked after cards on the same link, as a
shoe swapped in on the same line powers up, does not vouch for them: they are dropped with one
``refused``), and drops it for a wrong one. What was kept outlives a link that drops before the
``HELLO`` (``drivers.shoe.unproven``): acknowledged, it is no longer in the shoe. A shoe still unproven after ``identify_timeout``
is a ``fault`` (code 91), held exactly like a wrong one.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from drivers.clock import SYSTEM_CLOCK, Clock
from drivers.errors import DeviceTimeout, DeviceUnavailable
from drivers.events import DeviceEvent, DeviceOffline, DeviceOnline, Refused
from drivers.link import LinkRunner
from drivers.reconnect import SERIAL_BACKOFF, Backoff
from drivers.shoe import codec
from drivers.shoe.codec import Ack, Decoder, Frame, FrameError, Nak
from drivers.shoe.events import CardDrawn, CutCard, Hello, LostCard, NoRead, ShoeFault, ShoeStatus
from drivers.shoe.seqs import SeqWindow
from drivers.shoe.transport import Transport, TransportClosed
from drivers.shoe.unproven import KeptFrames

log = logging.getLogger(__name__)


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


@dataclass
class SessionStats:
    frames: int = 0
    bad_frames: int = 0
    duplicates: int = 0
    seq_gaps: int = 0
    seq_reuses: int = 0
    naks_sent: int = 0
    lost_cards: int = 0
    connects: int = 0
    retransmissions: int = 0
    refused_frames: int = 0  # frames not applied: beyond the bounds, or from a wrong shoe


#: ``ShoeFault.code`` of a driver-detected identity mismatch (the shoe's own codes are below 90)
IDENTITY_FAULT = 90
#: ``ShoeFault.code`` of a shoe that has not said ``HELLO`` since the link came up
UNPROVEN_FAULT = 91
#: cards an unproven shoe sent that are kept for delivery once its ``HELLO`` proves it (more are
#: left unacknowledged, so the shoe keeps them)
UNPROVEN_KEPT = 512


class CommandFailed(DeviceTimeout):
    """The shoe did not acknowledge a command after every retry."""


@dataclass
class Receiver:
    """Pure receive-side rules: frames in, (events, replies) out."""

    device: str = "shoe"
    gap_timeout: float = 6.0
    dedupe_window: int = 512
    stats: SessionStats = field(default_factory=SessionStats)
    max_ahead: int = 512
    #: the expected serial number (configured, or the first HELLO's)
    identity: str | None = None

    def __post_init__(self) -> None:
        self._seqs = SeqWindow(self.dedupe_window)
        self.delivered_n: int | None = None  # None until a shoe is loaded or first seen
        self._recent: dict[int, str] = {}  # n -> card text or "?" (noread), for duplicate checks
        #: cards ahead of a gap: n -> (frame, the arrival number it came at)
        self._held: dict[int, tuple[codec.Card | codec.NoRead, int]] = {}
        self._arrivals = 0  # frames applied so far: orders held frames against STATUS frames
        #: the last two STATUS frames, as (arrival number, n): the shoe's own count, twice
        self._statuses: deque[tuple[int, int]] = deque(maxlen=2)
        self._cut: int | None = None  # a cut card that came ahead of its count
        self._cut_at = 0  # the arrival number of that cut card
        self._cut_out: int | None = None  # the count the cut card came out at, in this shoe
        self._overflow = False  # a bound was hit: refused once, counted after that
        #: the serial of a HELLO that is not this table's shoe; its frames are not applied
        self.impostor: str | None = None
        #: False from ``connected()`` until this table's shoe says HELLO (a pure receiver, never
        #: connected, trusts what it is given)
        self.proven = True
        #: cards (and the cut card) an unproven shoe sent: acknowledged, not applied yet
        self._kept = KeptFrames(UNPROVEN_KEPT)
        self._last_status: tuple[str, int, str] | None = None
        self._gap_since: float | None = None

    # -- inputs
    def connected(self) -> None:
        """A new link: nothing is delivered until the shoe says HELLO on it (what an earlier
        link kept waits for that HELLO too: it was acknowledged, the shoe has let it go)."""
        self.proven = False
        self._kept.reset()

    def asked(self) -> None:
        """A RESET went out on this link: the HELLO that answers it vouches for the kept cards."""
        self._kept.asked = True

    @property
    def unproven_settled(self) -> bool:
        """An unproven shoe's STATUS count is covered by the cards known on this link: a RESET
        (which clears the shoe's resend queue) loses none of them."""
        return self._kept.settled(self.delivered_n)

    def new_shoe(self) -> None:
        """A new shoe is loaded (host sent SHOE): n restarts at 0."""
        self.delivered_n = 0
        self._recent.clear()
        self._held.clear()
        self._cut = None
        self._cut_out = None
        self._overflow = False
        self._statuses.clear()
        self._gap_since = None

    def on_frame(self, frame: Frame, now: float) -> tuple[list[DeviceEvent], list[codec.Message]]:
        """A valid frame from the shoe: events to emit and replies to send."""
        seen = self._seqs.get(frame.seq)
        if seen is not None and seen != frame.msg:
            # Same seq, other content: the shoe restarted and we missed its HELLO. Forget the
            # old seqs rather than swallow a new frame as a "duplicate"; n guards the cards.
            self.stats.seq_reuses += 1
            self._seqs.forget()
            seen = None
        if isinstance(frame.msg, codec.Hello) and not (seen is not None and frame.seq == self._seqs.last):
            # Power-up or RESET (unless this is the same HELLO repeated at once): the shoe's seq
            # counter restarts, so earlier seqs say nothing about duplicates any more.
            self._seqs.forget()
            seen = None
        if isinstance(frame.msg, (Ack, Nak)):  # answers to host commands: never acknowledged
            if seen is None:
                self._remember(frame)
            return [], []
        if not self.proven and self.impostor is None and not isinstance(frame.msg, codec.Hello):
            return [], self._keep_unproven(frame)
        replies: list[codec.Message] = [Ack(frame.seq)]
        if seen is not None:
            self.stats.duplicates += 1
            return [], replies
        self._remember(frame)
        self._arrivals += 1
        msg = frame.msg
        events: list[DeviceEvent] = []
        if isinstance(msg, codec.Hello):  # n survives a restart in the shoe's memory
            events += self._on_hello(msg, now)
        elif self.impostor is not None:
            self.stats.refused_frames += 1  # acknowledged (the line stays sane), never applied
        elif isinstance(msg, (codec.Card, codec.NoRead)):
            events += self._on_drawn(msg, now)
        elif isinstance(msg, codec.Cut):
            events += self._on_cut(msg)
        elif isinstance(msg, codec.Status):
            events += self._on_status(msg, now)
        elif isinstance(msg, codec.Fault):
            events.append(ShoeFault(device=self.device, code=msg.code, text=msg.text))
        return events, replies

    def restart_gap_timer(self, now: float) -> None:
        """The link was down or silent: a missing card gets a full timeout from now."""
        if self._gap_since is not None:
            self._gap_since = now

    def on_tick(self, now: float) -> list[DeviceEvent]:
        """Declare missing cards lost once they are overdue."""
        if self._gap_since is None or now - self._gap_since < self.gap_timeout:
            return []
        assert self.delivered_n is not None
        if not self._gap_open():
            self._gap_since = None
            return []
        confirmed = self._confirmed()
        if confirmed is None or confirmed <= self.delivered_n:
            return []  # the shoe has not yet vouched for a missing count: wait for its STATUS
        events: list[DeviceEvent] = []
        expected = self.delivered_n + 1
        # Lost up to the first held card, or up to the shoe's own count when that is lower
        got = min(min(self._held, default=confirmed + 1), confirmed + 1)
        self.delivered_n = got - 1
        self.stats.lost_cards += got - expected
        events.append(LostCard(device=self.device, expected_n=expected, got_n=got))
        events += self._drain()
        self._gap_since = now if self._gap_open() else None
        return events

    # -- rules
    def _keep_unproven(self, frame: Frame) -> list[codec.Message]:
        """A frame from a shoe not proven yet: acknowledged, not applied; a card is kept for its
        HELLO (beyond the bound it is left unacknowledged, for the shoe to keep)."""
        if self._kept.keep(frame.msg):
            return [Ack(frame.seq)]
        self.stats.refused_frames += 1
        return []

    def _on_hello(self, msg: codec.Hello, now: float) -> list[DeviceEvent]:
        hello = Hello(device=self.device, model=msg.model, firmware=msg.firmware, serial=msg.serial)
        if self.identity is None:
            self.identity = msg.serial
        if msg.serial != self.identity:
            self.impostor = msg.serial
            self.proven = False
            self._kept.frames.clear()
            text = f"IDENTITY: shoe {msg.serial} is not this table's shoe {self.identity}"
            return [hello, ShoeFault(device=self.device, code=IDENTITY_FAULT, text=text)]
        self.impostor = None
        events: list[DeviceEvent] = [hello]
        if not self.proven:
            self.proven = True
            self._last_status = None  # this table's shoe: its next STATUS clears any fault
            kept = self._kept.take()
            if kept and not (self._kept.asked or self._kept.vouched_unasked):
                self.stats.refused_frames += len(kept)
                raws = " ".join(f"{m.TYPE};{m.n}" for m in kept[:8])
                events.append(Refused(device=self.device, raw=raws, reason=(
                    f"{len(kept)} frame(s) sent before the shoe said HELLO unasked were dropped "
                    f"(an unasked HELLO does not vouch for them)")))
                kept = []
            for card in kept:  # what it sent before proving itself, in the order it came
                events += self._on_cut(card) if isinstance(card, codec.Cut) else self._on_drawn(card, now)
        return events

    def _bound(self, what: str, raw: str) -> list[DeviceEvent]:
        """A frame beyond the receiver's bounds: refused once, then only counted."""
        self.stats.refused_frames += 1
        if self._overflow:
            return []
        self._overflow = True
        return [Refused(device=self.device, reason=what, raw=raw)]

    def _on_cut(self, msg: codec.Cut) -> list[DeviceEvent]:
        """One cut card per shoe: the same one again is a duplicate, another one is refused."""
        if msg.n in (self._cut, self._cut_out):
            self.stats.duplicates += 1
            return []
        ahead = self.delivered_n is not None and msg.n > self.delivered_n
        if self._cut is not None or self._cut_out is not None or (
            ahead and self.delivered_n is not None and msg.n - self.delivered_n > self.max_ahead
        ):
            return self._bound(f"cut card at n={msg.n} refused: one cut card per shoe", f"CUT;{msg.n}")
        if ahead:
            self._cut, self._cut_at = msg.n, self._arrivals
            return []
        self._cut_out = msg.n
        return [CutCard(device=self.device, n=msg.n)]

    def _remember(self, frame: Frame) -> None:
        self.stats.seq_gaps += self._seqs.remember(frame)

    def _on_drawn(self, msg: codec.Card | codec.NoRead, now: float) -> list[DeviceEvent]:
        text = msg.card if isinstance(msg, codec.Card) else "?"
        if self.delivered_n is None:  # attached mid-shoe: the first card seen is the baseline
            self.delivered_n = msg.n - 1
        if msg.n - self.delivered_n > self.max_ahead:
            return self._bound(f"n={msg.n} is more than {self.max_ahead} cards ahead of "
                               f"{self.delivered_n} delivered", f"{msg.TYPE};{text};{msg.n}")
        if msg.n <= self.delivered_n:
            known = self._recent.get(msg.n)
            if known == text:
                self.stats.duplicates += 1
                return []
            why = (
                f"arrived after count {self.delivered_n} was passed (declared lost, or dealt before this session)"
                if known is None
                else f"conflicts with {known}"
            )
            return [Refused(device=self.device, reason=f"n={msg.n} {why}", raw=f"{msg.TYPE};{text};{msg.n}")]
        if msg.n in self._held:
            held, _ = self._held[msg.n]
            if held == msg:
                self.stats.duplicates += 1
                return []
            del self._held[msg.n]  # two reads of one count: neither is trusted, the count is lost
            return [Refused(device=self.device, reason=f"n={msg.n} conflicts with a held frame (both dropped)",
                            raw=f"{msg.TYPE};{text};{msg.n}")]
        self._held[msg.n] = (msg, self._arrivals)
        had_gap = self._gap_since is not None
        events = self._drain()
        if not self._gap_open():
            self._gap_since = None
        elif not had_gap or events:
            self._gap_since = now  # a new gap, or progress: the missing card gets a full timeout
        return events

    def _drain(self) -> list[DeviceEvent]:
        events: list[DeviceEvent] = []
        assert self.delivered_n is not None
        while (nxt := self.delivered_n + 1) in self._held:
            msg, _ = self._held.pop(nxt)
            self.delivered_n = nxt
            if isinstance(msg, codec.Card):
                self._recent[nxt] = msg.card
                events.append(CardDrawn(device=self.device, card=msg.card, n=nxt))
            else:
                self._recent[nxt] = "?"
                events.append(NoRead(device=self.device, n=nxt))
            self._recent.pop(nxt - self.dedupe_window, None)
        if self._cut is not None and self._cut <= self.delivered_n:
            events.append(CutCard(device=self.device, n=self._cut))
            self._cut_out, self._cut = self._cut, None
        if events:
            self._overflow = False  # progress: a new overflow is worth one more refusal
        return events

    def _gap_open(self) -> bool:
        if self.delivered_n is None:
            return False
        return bool(self._held) or bool(self._statuses and self._statuses[-1][1] > self.delivered_n)

    def _on_status(self, msg: codec.Status, now: float) -> list[DeviceEvent]:
        """Reported on change only. No baseline from STATUS: cards dealt before we attached may
        still be on their way (resent until acknowledged); the first card seen sets it."""
        self._statuses.append((self._arrivals, msg.n))
        events = self._drop_forged()
        if self._gap_open() and self._gap_since is None:
            self._gap_since = now
        elif not self._gap_open():
            self._gap_since = None
        key = (msg.state, msg.n, msg.shoe_id)
        if key != self._last_status:
            self._last_status = key
            if self.delivered_n is not None and msg.n < self.delivered_n:
                # A shoe reloaded behind the host's back, or a stale frame: alert, change nothing.
                reason = f"shoe reports {msg.n} cards drawn, {self.delivered_n} already delivered (no new shoe sent)"
                events.append(Refused(device=self.device, reason=reason, raw=f"STATUS;{msg.state};{msg.n};{msg.shoe_id}"))
            events.append(ShoeStatus(device=self.device, state=msg.state, n=msg.n, shoe_id=msg.shoe_id))
        return events

    def _confirmed(self) -> int | None:
        """The count the shoe vouches for: the lower of its last two STATUS counts (one forged
        STATUS cannot move it), or None before two have come."""
        if len(self._statuses) < 2:
            return None
        return min(n for _, n in self._statuses)

    def _drop_forged(self) -> list[DeviceEvent]:
        """Held frames (cards, a cut card) ahead of the count that two STATUS frames sent after
        them both deny: corrupt frames that passed the CRC. One ``Refused`` names them all."""
        confirmed = self._confirmed()
        if confirmed is None:
            return []
        since = self._statuses[0][0]  # the older of the two STATUS frames came after this arrival
        forged = sorted(n for n, (_, at) in self._held.items() if n > confirmed and at < since)
        raws = [self._held.pop(n)[0] for n in forged]
        texts = [f"{m.TYPE};{m.card if isinstance(m, codec.Card) else '?'};{m.n}" for m in raws]
        if self._cut is not None and self._cut > confirmed and self._cut_at < since:
            texts.append(f"CUT;{self._cut}")
            self._cut = None
        if not texts:
            return []
        self.stats.refused_frames += len(texts)
        reason = (f"{len(texts)} frame(s) ahead of the shoe's own count {confirmed} dropped as corrupt "
                  f"(the shoe's STATUS denies them)")
        return [Refused(device=self.device, reason=reason, raw=" ".join(texts[:8]))]


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
                                 self.config.max_ahead, self.config.identity)
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
        return not self.receiver.proven and self.receiver.impostor is None

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
