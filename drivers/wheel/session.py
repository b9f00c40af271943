"""The asyncio shell around ``WheelCore``: one serial line at 9600 8N1, reconnecting forever.

It owns only I/O and time: bytes -> ``LineFramer`` -> ``parse_line`` -> core; the core's events go
to ``emit`` (by default the ``events`` queue), its commands (``*R`` after a miss-spin) to the wire.
It polls ``*X`` when the wheel's operating mode lacks automatic status, or when automatic
statuses stop coming (never faster than every 100 ms), matches replies to commands with a timeout,
and when the port vanishes or hits EOF it reports offline, retries opening with the shared
reconnect loop (``drivers.link``) and reports online again. The line is a
``BufferedTransport`` (``drivers.transport``), the serial one by default, as for the shoe.
The commands a caller sends and how their replies are matched are ``drivers.wheel.commands``.

The port is opened exclusively. After every (re)connect the wheel's identity is checked: SS2 has
no serial-number command, so the identity is its ``*V`` banner (the studio sets it per wheel).
The first banner seen, or the configured one, is this table's wheel; another one is a
``fault`` (``identity_mismatch``) and that wheel's events are not delivered until the right
wheel is back, which is reported as ``recovered`` (``docs/devices.md``). A wheel that does not
answer ``*V`` at all is held the same way (``identity_unproven``): a silent impostor behind the
same port proves nothing, so nothing it says reaches the table while ``*V`` is asked again,
every ``identify_retry`` seconds, until this table's banner answers. ``online`` is reported once
the banner matches, not when the port opens.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Literal

from drivers.clock import SYSTEM_CLOCK, Clock
from drivers.errors import DeviceUnavailable
from drivers.events import DeviceEvent, DeviceOffline, DeviceOnline
from drivers.link import LinkRunner
from drivers.reconnect import Backoff
from drivers.serial_transport import SerialTransport
from drivers.transport import BufferedTransport, TransportClosed
from drivers.wheel import codec
from drivers.wheel.commands import MIN_POLL_INTERVAL as MIN_POLL_INTERVAL
from drivers.wheel.commands import WheelCommands
from drivers.wheel.commands import WheelNotConnected as WheelNotConnected
from drivers.wheel.commands import WheelTimeout as WheelTimeout
from drivers.wheel.core import Rules, Step, WheelCore
from drivers.wheel.events import Fault, FaultReason, Recovered

log = logging.getLogger(__name__)

BAUDRATE = 9600
AUTO_STATUS = 128
AUTO_STATUS_MISSED = 1.25
"""Two and a half automatic-status periods without a line: poll even in a mode with bit 128."""

DEFAULT_RULES = Rules()


class WheelSession(WheelCommands):
    """Driver for one Cammegh SS2 wheel at ``url`` (a tty path or any pyserial URL)."""

    def __init__(
        self,
        line: str | BufferedTransport,
        *,
        device: str = "wheel",
        clock: Clock = SYSTEM_CLOCK,
        rules: Rules = DEFAULT_RULES,
        emit: Callable[[DeviceEvent], None] | None = None,
        mode: int | None = None,
        poll_interval: float = 0.2,
        reply_timeout: float = 1.0,
        backoff: tuple[float, float] = (0.1, 5.0),
        identity: str | None = None,
        identify_retry: float = 5.0,
    ) -> None:
        #: the serial line (a tty path or pyserial URL is opened at the SS2's 9600 8N1)
        self.transport: BufferedTransport = SerialTransport(line, BAUDRATE) if isinstance(line, str) else line
        self.url = self.transport.name
        self.device = device
        self.clock = clock
        self.core = WheelCore(device, rules)
        self.events: asyncio.Queue[DeviceEvent] = asyncio.Queue()
        self._sink = emit or self.events.put_nowait
        self._present: bool | None = None
        self.mode = mode
        """Operating mode; None until ``*O`` answers at connect (then polling stays on if it never does)."""
        self.poll_interval = max(poll_interval, MIN_POLL_INTERVAL)
        self.reply_timeout = reply_timeout
        #: the open -> talk -> lost -> back off cycle, and its state
        self.link = LinkRunner(device, self._attempt, backoff=Backoff(*backoff), clock=clock)
        self.reconnect = self.link.reconnect
        self._opened = False
        self.connected = asyncio.Event()
        self._framer = codec.LineFramer()
        self._replies: list[tuple[Callable[[codec.WheelMessage], bool], asyncio.Future[codec.WheelMessage]]] = []
        self._event_waiters: list[tuple[Callable[[DeviceEvent], bool], asyncio.Future[DeviceEvent]]] = []
        self._lock = asyncio.Lock()
        self._wake = asyncio.Event()
        self._ticker_target: float | None = None
        #: this table's wheel (its ``*V`` banner): configured, or the first one seen
        self.identity = identity
        #: the banner of a connected wheel that is not this table's; its events are held back
        self.impostor: str | None = None
        #: why the connected wheel's identity is not proven (it did not answer ``*V``); held back too
        self.unproven: str | None = None
        self.identify_retry = identify_retry
        #: set once the wheel on the current line was checked: proven, or held (mismatch, no answer)
        self.identified = asyncio.Event()
        #: why the port could not be opened (None: open, or never tried)
        self.open_error: DeviceUnavailable | None = None
        self._unverified: list[Step] | None = None  # steps held back until the banner is checked

    # -- lifecycle ------------------------------------------------------------------------------

    async def __aenter__(self) -> WheelSession:
        self.link.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.link.stop()

    def emit_to(self, sink: Callable[[DeviceEvent], None]) -> None:
        """Deliver events to ``sink`` from now on (the device built around this session)."""
        self._sink = sink

    async def run(self, opened: bool = False) -> None:
        """Open, talk, and on any loss reopen with backoff; runs until cancelled. ``opened``: the
        transport is already open (the first open is skipped)."""
        self._opened = opened
        await self.link.run()

    async def _attempt(self, up: Callable[[], None]) -> str:
        """One connection (the shared ``LinkRunner`` repeats it): open, talk until the line
        drops; why it dropped."""
        try:
            if not self._opened:
                await self.transport.open()
            self._opened = False
        except DeviceUnavailable as exc:
            if self.open_error is None or str(exc) != str(self.open_error):
                log.warning("%s", exc)
            self.open_error = exc
            self._emit(DeviceOffline(device=self.device, reason=str(exc)))
            return str(exc)
        self.open_error = None
        up()
        self._unverified = []
        self.identified.clear()
        self.connected.set()  # commands may go out; events wait for the banner (online included)
        reason = "eof"
        try:
            reason = await self._talk()
        except OSError as exc:
            reason = f"i/o error: {exc}"
        finally:
            self.connected.clear()
            await self.transport.close()  # the exclusive lock goes with the descriptor
            self._framer.reset()
            self.core.link_lost()
            self._fail_waiters()
        self._emit(DeviceOffline(device=self.device, reason=reason))
        return reason

    async def _talk(self) -> str:
        """Until the line drops; why it dropped."""
        tasks = [
            asyncio.create_task(self._read_loop()),
            asyncio.create_task(self._tick_loop()),
            asyncio.create_task(self._poll_loop()),
        ]
        try:
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                task.result()
            return "eof"
        except TransportClosed as exc:
            return str(exc)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    # -- the three loops --------------------------------------------------------------------------

    async def _read_loop(self) -> None:
        while True:
            data = await self.transport.read()
            for line in self._framer.feed(data):
                message = codec.parse_line(line)
                now = self.clock.monotonic()
                self._apply(self.core.receive(message, now))
                self._match_reply(message)
                self._maybe_wake()

    async def _tick_loop(self) -> None:
        while True:
            deadline = self.core.next_deadline()
            self._ticker_target = deadline
            wait = 1.0 if deadline is None else max(deadline - self.clock.monotonic(), 0.0)
            self._wake.clear()
            await self._race(self.clock.sleep(wait), self._wake.wait())
            self._apply(self.core.tick(self.clock.monotonic()))

    async def _poll_loop(self) -> None:
        proven = await self._check_identity()
        if self.mode is None:
            try:
                self.mode = (await self._request(codec.GetOperating(), codec.Operating)).mode
            except (WheelTimeout, WheelNotConnected):
                log.info("%s: no *O answer; polling *X", self.device)
        next_check = self.clock.monotonic() + self.identify_retry
        while True:
            now = self.clock.monotonic()
            if not proven and now >= next_check:
                proven = await self._check_identity()
                next_check = self.clock.monotonic() + self.identify_retry
            last = self.core.last_rx
            quiet = last is None or now - last > AUTO_STATUS_MISSED
            if self.mode is None or not self.mode & AUTO_STATUS or quiet:
                self._send(codec.Poll())  # also when automatic statuses stop coming
            await self.clock.sleep(self.poll_interval)

    async def _check_identity(self) -> bool:
        """Ask the banner (``*V``) and compare it with this table's wheel; True once it is."""
        try:
            # no command_timeout warning: an unanswered *V is the identity_unproven fault below
            banner = (await self._request(codec.GetBanner(), codec.Banner, warn=False)).text
        except WheelNotConnected:
            return False  # the line went: the next connect asks again
        except WheelTimeout:
            self._hold("unproven", f"the wheel at {self.url} does not answer *V: its identity is not proven")
            return False
        if self.identity is None:
            self.identity = banner
        if banner != self.identity:
            self._hold("mismatch", f"wheel {banner!r} is not this table's wheel {self.identity!r}", banner)
            return False
        was_held = self.impostor is not None or self.unproven is not None
        self.impostor = self.unproven = None
        self._emit(DeviceOnline(device=self.device, detail=self.url))
        if was_held:
            status = self.core.status
            self._sink(Recovered(device=self.device, spin=status.spin if status is not None else 0))
        self._release(deliver=True)
        self.identified.set()
        return True

    def _hold(self, why: Literal["mismatch", "unproven"], detail: str, banner: str | None = None) -> None:
        """Hold back everything this wheel says, with one ``fault`` per held stretch."""
        held = "mismatch" if self.impostor is not None else "unproven" if self.unproven is not None else None
        self.impostor, self.unproven = (banner, None) if why == "mismatch" else (None, detail)
        if held != why:
            log.warning("%s: %s; its events are held back", self.device, detail)
            reason: FaultReason = "identity_mismatch" if why == "mismatch" else "identity_unproven"
            self._sink(Fault(device=self.device, reason=reason, detail=detail))
        self._release(deliver=False)
        self.identified.set()

    def _release(self, deliver: bool) -> None:
        held, self._unverified = self._unverified or [], None
        if deliver:
            for step in held:
                self._apply(step)

    # -- plumbing -------------------------------------------------------------------------------

    def _emit(self, event: DeviceEvent) -> None:
        """To the sink, minus repeated presence (a silence then a hang-up is one ``offline``)."""
        if event.type in ("online", "offline"):
            present = event.type == "online"
            if present == self._present:
                return
            self._present = present
        self._sink(event)

    def _apply(self, step: Step) -> None:
        if self._unverified is not None:
            self._unverified.append(step)  # until *V says which wheel this is (one reply: a few lines)
            return
        if self.impostor is not None or self.unproven is not None:
            return  # not (proven to be) this table's wheel: nothing it says is delivered or acted on
        for event in step.events:
            self._emit(event)
            for waiter in list(self._event_waiters):
                if not waiter[1].done() and waiter[0](event):
                    waiter[1].set_result(event)
                    self._event_waiters.remove(waiter)
        for command in step.commands:
            self._send(command)

    def _match_reply(self, message: codec.WheelMessage) -> None:
        for waiter in self._replies:
            if not waiter[1].done() and waiter[0](message):
                waiter[1].set_result(message)
                self._replies.remove(waiter)
                return

    def _maybe_wake(self) -> None:
        deadline = self.core.next_deadline()
        if deadline is not None and (self._ticker_target is None or deadline < self._ticker_target):
            self._wake.set()

    def _send(self, command: codec.Command) -> None:
        if not self.connected.is_set():
            raise WheelNotConnected(f"{self.device}: port {self.url} is not open")
        try:
            self.transport.write_nowait(codec.encode(command))
        except TransportClosed as exc:
            raise WheelNotConnected(f"{self.device}: {exc}") from None
        self.core.sent(command, self.clock.monotonic())
        self._maybe_wake()

    def _fail_waiters(self) -> None:
        for _, future in self._replies + self._event_waiters:
            if not future.done():
                future.set_exception(WheelNotConnected(f"{self.device}: port closed"))
        self._replies.clear()
        self._event_waiters.clear()
