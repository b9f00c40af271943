"""The soak's dealer at its shoe: pulls the next card through the gate when the table's round,
recomputed from the journal, asks for one (docs/hil.md).

One card at a time: the next is drawn only once the last one is in the journal (or it is known
lost: the table journaled it lost after it was drawn, ``shoe.lost_card``, or its frame went
with the shoe's power, or its frame was acknowledged by a controller that died before journaling
it, or it was drawn for a controller that died and the next one's driver, online a moment, never
delivered it (its RESET clears the shoe's resend queue), or it is given up after ``LOST_AFTER``
seconds; in each case the shoe holding no frame to send again), the shoe is plugged in and the
controller that will read it has started, so a card is never drawn for a table that is not there
to take it.
"""

from __future__ import annotations

import time

from controller.hil.rig import DrawnCard, ShoeRig
from controller.hil.tail import LiveTable

LOST_AFTER = 20.0
#: a restarted controller delivers the cards its driver kept at once when it says the shoe online
ONLINE_GRACE = 1.0


class Dealer:
    def __init__(self, rig: ShoeRig, live: LiveTable) -> None:
        self.rig = rig
        self.live = live
        self.waiting: DrawnCard | None = None
        self.since = 0.0
        self.drawn_at = 0  # the journal's last seq when the card waited for was drawn
        self.lost: list[DrawnCard] = []
        self.dealt = 0
        self.ready = False  # set by the soak once the controller it started has journaled its start

    def controller_gone(self) -> None:
        """The controller is gone (killed, or exited) and its journal read to the end: a card its
        driver acknowledged (the shoe holds no frame to send again) but did not journal went with
        it. No later start hears of it, so it is lost now, not after ``LOST_AFTER``."""
        if self.waiting is not None and self.live.last_card_n != self.waiting.n and self.rig.firmware.pending == 0:
            self.lost.append(self.waiting)
            self.waiting = None

    def _not_delivered_after_restart(self) -> bool:
        """Drawn before the running controller started, whose shoe has been online (HELLO heard,
        what its driver kept delivered) for ``ONLINE_GRACE`` without this card: it is not coming."""
        live = self.live
        return (self.drawn_at < live.last_started_seq < live.shoe_online_seq
                and time.monotonic() - live.shoe_online_at > ONLINE_GRACE)

    def step(self) -> None:
        """Call after each ``live.poll()``."""
        if self.waiting is not None:
            lost = self.live.lost
            if self.live.last_card_n == self.waiting.n:
                self.waiting = None
            elif self.rig.firmware.pending == 0 and (
                    (lost is not None and lost.covers(self.waiting.n, self.drawn_at))
                    or (self.waiting.epoch, self.waiting.n) in self.rig.lost_in_power_loss
                    or self._not_delivered_after_restart()
                    or time.monotonic() - self.since > LOST_AFTER):
                self.lost.append(self.waiting)
                self.waiting = None
            else:
                return
        r = self.live.round
        # whether the table journaled the shoe online is not the dealer's business: a card drawn
        # while the driver is away waits in the shoe (unacknowledged) until it reconnects
        if not (self.ready and self.rig.plugged and r is not None and r.wants_card()):
            return
        drawn = self.rig.draw()
        if drawn is not None:
            self.dealt += 1
            self.waiting = drawn
            self.since = time.monotonic()
            self.drawn_at = self.live.tail.seq
