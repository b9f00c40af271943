"""The shoe's receive side, synchronous and I/O-free: decoded frames (and the time) in, the
events to emit and the replies to send out, so the rules are tested without a line.

This module admits frames: every shoe frame is acknowledged (duplicates again, by seq: a fixed
window, ``drivers.shoe.seqs``) and handed to the one job it concerns: who the shoe is
(``drivers.shoe.identity``), the cards (``drivers.shoe.cards``), the shoe's count
(``drivers.shoe.count``). A flood of CRC-valid hostile frames (a new seq per ``CUT``) costs the
same per frame as the first (``docs/devices.md``, "Bounded state")."""

from __future__ import annotations

from drivers.events import DeviceEvent
from drivers.shoe import codec
from drivers.shoe.cards import CardLedger
from drivers.shoe.codec import Ack, Frame, Nak
from drivers.shoe.events import ShoeFault
from drivers.shoe.identity import ShoeIdentity
from drivers.shoe.seqs import SeqWindow
from drivers.shoe.stats import SessionStats


class Receiver:
    """Pure receive-side rules: frames in, (events, replies) out."""

    def __init__(self, device: str = "shoe", gap_timeout: float = 6.0, dedupe_window: int = 512,
                 stats: SessionStats | None = None, max_ahead: int = 512, identity: str | None = None,
                 journaled: tuple[str, int] | None = None) -> None:
        self.device = device
        #: the shoe id and last count the host's journal holds, from before this process
        self.journaled = journaled
        self.stats = SessionStats() if stats is None else stats
        self.seqs = SeqWindow(dedupe_window)
        self.shoe = ShoeIdentity(device, identity, self.stats)
        self.cards = CardLedger(device, gap_timeout, dedupe_window, max_ahead, self.stats)

    # -- what the session and the tests read
    @property
    def delivered_n(self) -> int | None:
        """The last count delivered (None until a shoe is loaded or first seen)."""
        return self.cards.delivered_n

    @delivered_n.setter
    def delivered_n(self, n: int | None) -> None:
        self.cards.delivered_n = n

    @property
    def identity(self) -> str | None:
        """The expected serial number (configured, or the first HELLO's)."""
        return self.shoe.serial

    @property
    def impostor(self) -> str | None:
        return self.shoe.impostor

    @property
    def proven(self) -> bool:
        return self.shoe.proven

    @property
    def unproven_settled(self) -> bool:
        """An unproven shoe's STATUS count is covered by the cards known on this link: a RESET
        (which clears the shoe's resend queue) loses none of them."""
        return self.shoe.kept.settled(self.cards.delivered_n, self.journaled)

    def sizes(self) -> dict[str, int]:
        """Entries in every container the receiver and its parts hold, by dotted name (found,
        not listed: a new one is measured too): what its bounds are checked and benched by."""
        return _sizes(self, "")

    # -- inputs
    def connected(self) -> None:
        """A new link: nothing is delivered until the shoe says HELLO on it."""
        self.shoe.connected()

    def asked(self) -> None:
        """A RESET went out on this link: the HELLO that answers it vouches for the kept cards."""
        self.shoe.asked()

    def new_shoe(self) -> None:
        """A new shoe is loaded (host sent SHOE): n restarts at 0."""
        self.cards.new_shoe()

    def restart_gap_timer(self, now: float) -> None:
        """The link was down or silent: a missing card gets a full timeout from now."""
        self.cards.restart_gap_timer(now)

    def on_tick(self, now: float) -> list[DeviceEvent]:
        """Declare missing cards lost once they are overdue."""
        return self.cards.on_tick(now)

    def on_frame(self, frame: Frame, now: float) -> tuple[list[DeviceEvent], list[codec.Message]]:
        """A valid frame from the shoe: events to emit and replies to send."""
        seen = self._seen(frame)
        if isinstance(frame.msg, (Ack, Nak)):  # answers to host commands: never acknowledged
            if seen is None:
                self._remember(frame)
            return [], []
        if self.shoe.awaited and not isinstance(frame.msg, codec.Hello):
            # acknowledged and kept, not applied; beyond the bound left for the shoe to keep
            return [], [Ack(frame.seq)] if self.shoe.keep(frame.msg) else []
        replies: list[codec.Message] = [Ack(frame.seq)]
        if seen is not None:
            self.stats.duplicates += 1
            return [], replies
        self._remember(frame)
        self.cards.arrivals += 1
        return self._apply(frame.msg, now), replies

    # -- rules
    def _seen(self, frame: Frame) -> codec.Message | None:
        """What this seq carried before, if it still says anything about duplicates."""
        seen = self.seqs.get(frame.seq)
        if seen is not None and seen != frame.msg:
            # Same seq, other content: the shoe restarted and we missed its HELLO. Forget the
            # old seqs rather than swallow a new frame as a "duplicate"; n guards the cards.
            self.stats.seq_reuses += 1
            self.seqs.forget()
            seen = None
        if isinstance(frame.msg, codec.Hello) and not (seen is not None and frame.seq == self.seqs.last):
            # Power-up or RESET (unless this is the same HELLO repeated at once): the shoe's seq
            # counter restarts, so earlier seqs say nothing about duplicates any more.
            self.seqs.forget()
            seen = None
        return seen

    def _remember(self, frame: Frame) -> None:
        self.stats.seq_gaps += self.seqs.remember(frame)

    def _apply(self, msg: codec.Message, now: float) -> list[DeviceEvent]:
        """A new frame, to the job it concerns."""
        if isinstance(msg, codec.Hello):  # n survives a restart in the shoe's memory
            return self._on_hello(msg, now)
        if self.shoe.impostor is not None:
            self.stats.refused_frames += 1  # acknowledged (the line stays sane), never applied
            return []
        if isinstance(msg, (codec.Card, codec.NoRead, codec.Cut)):
            return self.cards.apply(msg, now)
        if isinstance(msg, codec.Status):
            return self.cards.on_status(msg, now)
        if isinstance(msg, codec.Fault):
            return [ShoeFault(device=self.device, code=msg.code, text=msg.text)]
        return []

    def _on_hello(self, msg: codec.Hello, now: float) -> list[DeviceEvent]:
        events, kept = self.shoe.on_hello(msg)
        if kept is not None:  # this table's shoe just proved itself
            self.cards.count.report_again()  # its next STATUS clears any fault
            for card in kept:  # what it sent before proving itself, in the order it came
                events += self.cards.apply(card, now)
        return events


def _sizes(holder: object, prefix: str) -> dict[str, int]:
    found: dict[str, int] = {}
    for name, value in vars(holder).items():
        if hasattr(value, "__len__") and not isinstance(value, str):
            found[prefix + name] = len(value)
        if type(value).__module__.startswith("drivers.shoe.") and hasattr(value, "__dict__"):
            found |= _sizes(value, f"{prefix}{name}.")  # a part of the receiver's own
    return found
