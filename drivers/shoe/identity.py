"""Which shoe is talking, and whether it has proven it on this link.

The shoe's serial number comes in ``HELLO`` (power-up, ``RESET``, plug-in). The first one seen,
or the configured one, is the shoe of this table; a ``HELLO`` with another serial is a ``fault``
and the impostor's frames are acknowledged but never delivered until the right shoe says
``HELLO`` again. After every open and reconnect the shoe must say ``HELLO`` before anything it
sends is delivered: a silent impostor behind the same port proves nothing. Until then its cards
are acknowledged and kept (``drivers.shoe.unproven``), and delivered once the right ``HELLO``
comes in answer to the session's ``RESET`` (one said unasked after cards on the same link, as a
shoe swapped in on the same line powers up, does not vouch for them: they are dropped with one
``refused``); a wrong one drops them."""

from __future__ import annotations

from drivers.events import DeviceEvent, Refused
from drivers.shoe import codec
from drivers.shoe.events import Hello, ShoeFault
from drivers.shoe.stats import SessionStats
from drivers.shoe.unproven import Kept, KeptFrames

#: ``ShoeFault.code`` of a driver-detected identity mismatch (the shoe's own codes are below 90)
IDENTITY_FAULT = 90
#: ``ShoeFault.code`` of a shoe that has not said ``HELLO`` since the link came up
UNPROVEN_FAULT = 91
#: cards an unproven shoe sent that are kept for delivery once its ``HELLO`` proves it (more are
#: left unacknowledged, so the shoe keeps them)
UNPROVEN_KEPT = 512


class ShoeIdentity:
    """The expected serial, an impostor's, and what an unproven shoe sent."""

    def __init__(self, device: str, serial: str | None, stats: SessionStats) -> None:
        self.device = device
        #: the expected serial number (configured, or the first HELLO's)
        self.serial = serial
        self.stats = stats
        #: the serial of a HELLO that is not this table's shoe; its frames are not applied
        self.impostor: str | None = None
        #: False from ``connected()`` until this table's shoe says HELLO (a pure receiver, never
        #: connected, trusts what it is given)
        self.proven = True
        #: cards (and the cut card) an unproven shoe sent: acknowledged, not applied yet
        self.kept = KeptFrames(UNPROVEN_KEPT)

    def connected(self) -> None:
        """A new link: nothing is delivered until the shoe says HELLO on it (what an earlier
        link kept waits for that HELLO too: it was acknowledged, the shoe has let it go)."""
        self.proven = False
        self.kept.reset()

    def asked(self) -> None:
        """A RESET went out on this link: the HELLO that answers it vouches for the kept cards."""
        self.kept.asked = True

    @property
    def awaited(self) -> bool:
        """This link's shoe has not said HELLO yet, nor named itself as another shoe."""
        return not self.proven and self.impostor is None

    def keep(self, msg: codec.Message) -> bool:
        """A frame from a shoe not proven yet: False when it is beyond the bound (left
        unacknowledged, for the shoe to keep), counted as refused."""
        if self.kept.keep(msg):
            return True
        self.stats.refused_frames += 1
        return False

    def on_hello(self, msg: codec.Hello) -> tuple[list[DeviceEvent], list[Kept] | None]:
        """The events a HELLO brings, and, when it just proved this table's shoe, what it sent
        before to apply now, in the order it came (None: nothing was just proven)."""
        hello = Hello(device=self.device, model=msg.model, firmware=msg.firmware, serial=msg.serial)
        if self.serial is None:
            self.serial = msg.serial
        if msg.serial != self.serial:
            self.impostor = msg.serial
            self.proven = False
            self.kept.frames.clear()
            text = f"IDENTITY: shoe {msg.serial} is not this table's shoe {self.serial}"
            return [hello, ShoeFault(device=self.device, code=IDENTITY_FAULT, text=text)], None
        self.impostor = None
        if self.proven:
            return [hello], None
        self.proven = True
        kept = self.kept.take()
        if kept and not (self.kept.asked or self.kept.vouched_unasked):
            self.stats.refused_frames += len(kept)
            raws = " ".join(f"{m.TYPE};{m.n}" for m in kept[:8])
            return [hello, Refused(device=self.device, raw=raws, reason=(
                f"{len(kept)} frame(s) sent before the shoe said HELLO unasked were dropped "
                f"(an unasked HELLO does not vouch for them)"))], []
        return [hello], kept
