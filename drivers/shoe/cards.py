"""Card accounting, the reason the shoe driver exists: every card applied once (by ``n``, across
a shoe reset too) and delivered in ``n`` order; the driver never guesses a missing card.

A card that arrives ahead of a missing one is held back; if the missing one has not come after
``gap_timeout`` (longer than the shoe's 20 x 250 ms resend budget) a ``lost_card`` event says so.
The shoe's own count (``drivers.shoe.count``) vouches for every gap: a count is declared lost
only once two STATUS frames in a row say the shoe has dealt at least that many. A held card
whose count two later STATUS frames both deny (the line is FIFO: a real card's STATUS cannot
report fewer) is dropped as corrupt, with one ``Refused``, instead of moving the count far ahead
and refusing the real cards after it.

Bounded state: cards more than ``max_ahead`` counts ahead of the last delivered one are refused,
at most one cut card waits for its count, and the delivered cards remembered for duplicate
checks are a fixed window (``docs/devices.md``, "Bounded state")."""

from __future__ import annotations

from drivers.events import DeviceEvent, Refused
from drivers.shoe import codec
from drivers.shoe.count import ShoeCount
from drivers.shoe.events import CardDrawn, CutCard, LostCard, NoRead
from drivers.shoe.stats import SessionStats

Drawn = codec.Card | codec.NoRead


class CardLedger:
    """Cards and the cut card of the shoe in play: delivered, held ahead of a gap, or lost."""

    def __init__(self, device: str, gap_timeout: float, window: int, max_ahead: int, stats: SessionStats) -> None:
        self.device = device
        self.gap_timeout = gap_timeout
        self.window = window  # delivered counts remembered for duplicate checks
        self.max_ahead = max_ahead
        self.stats = stats
        self.delivered_n: int | None = None  # None until a shoe is loaded or first seen
        self.recent: dict[int, str] = {}  # n -> card text or "?" (noread), for duplicate checks
        #: cards ahead of a gap: n -> (frame, the arrival number it came at)
        self.held: dict[int, tuple[Drawn, int]] = {}
        #: frames applied so far (counted by the receiver): orders held frames against STATUS frames
        self.arrivals = 0
        self.count = ShoeCount(device)
        self._cut: int | None = None  # a cut card that came ahead of its count
        self._cut_at = 0  # the arrival number of that cut card
        self._cut_out: int | None = None  # the count the cut card came out at, in this shoe
        self._overflow = False  # a bound was hit: refused once, counted after that
        self._gap_since: float | None = None

    def new_shoe(self) -> None:
        """A new shoe is loaded (host sent SHOE): n restarts at 0."""
        self.delivered_n = 0
        self.recent.clear()
        self.held.clear()
        self._cut = None
        self._cut_out = None
        self._overflow = False
        self.count.clear()
        self._gap_since = None

    def apply(self, msg: Drawn | codec.Cut, now: float) -> list[DeviceEvent]:
        """A card or the cut card, as the shoe sent it."""
        return self.on_cut(msg) if isinstance(msg, codec.Cut) else self.on_drawn(msg, now)

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
        confirmed = self.count.confirmed()
        if confirmed is None or confirmed <= self.delivered_n:
            return []  # the shoe has not yet vouched for a missing count: wait for its STATUS
        events: list[DeviceEvent] = []
        expected = self.delivered_n + 1
        # Lost up to the first held card, or up to the shoe's own count when that is lower
        got = min(min(self.held, default=confirmed + 1), confirmed + 1)
        self.delivered_n = got - 1
        self.stats.lost_cards += got - expected
        events.append(LostCard(device=self.device, expected_n=expected, got_n=got))
        events += self._drain()
        self._gap_since = now if self._gap_open() else None
        return events

    def _bound(self, what: str, raw: str) -> list[DeviceEvent]:
        """A frame beyond the bounds: refused once, then only counted."""
        self.stats.refused_frames += 1
        if self._overflow:
            return []
        self._overflow = True
        return [Refused(device=self.device, reason=what, raw=raw)]

    def on_cut(self, msg: codec.Cut) -> list[DeviceEvent]:
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
            self._cut, self._cut_at = msg.n, self.arrivals
            return []
        self._cut_out = msg.n
        return [CutCard(device=self.device, n=msg.n)]

    def on_drawn(self, msg: Drawn, now: float) -> list[DeviceEvent]:
        text = msg.card if isinstance(msg, codec.Card) else "?"
        if self.delivered_n is None:  # attached mid-shoe: the first card seen is the baseline
            self.delivered_n = msg.n - 1
        if msg.n - self.delivered_n > self.max_ahead:
            return self._bound(f"n={msg.n} is more than {self.max_ahead} cards ahead of "
                               f"{self.delivered_n} delivered", f"{msg.TYPE};{text};{msg.n}")
        if msg.n <= self.delivered_n:
            return self._behind(msg, text)
        if msg.n in self.held:
            held, _ = self.held[msg.n]
            if held == msg:
                self.stats.duplicates += 1
                return []
            del self.held[msg.n]  # two reads of one count: neither is trusted, the count is lost
            return [Refused(device=self.device, reason=f"n={msg.n} conflicts with a held frame (both dropped)",
                            raw=f"{msg.TYPE};{text};{msg.n}")]
        self.held[msg.n] = (msg, self.arrivals)
        had_gap = self._gap_since is not None
        events = self._drain()
        if not self._gap_open():
            self._gap_since = None
        elif not had_gap or events:
            self._gap_since = now  # a new gap, or progress: the missing card gets a full timeout
        return events

    def _behind(self, msg: Drawn, text: str) -> list[DeviceEvent]:
        """A card at a count already passed: the same card again, or refused."""
        assert self.delivered_n is not None
        known = self.recent.get(msg.n)
        if known == text:
            self.stats.duplicates += 1
            return []
        why = (
            f"arrived after count {self.delivered_n} was passed (declared lost, or dealt before this session)"
            if known is None
            else f"conflicts with {known}"
        )
        return [Refused(device=self.device, reason=f"n={msg.n} {why}", raw=f"{msg.TYPE};{text};{msg.n}")]

    def _drain(self) -> list[DeviceEvent]:
        events: list[DeviceEvent] = []
        assert self.delivered_n is not None
        while (nxt := self.delivered_n + 1) in self.held:
            msg, _ = self.held.pop(nxt)
            self.delivered_n = nxt
            if isinstance(msg, codec.Card):
                self.recent[nxt] = msg.card
                events.append(CardDrawn(device=self.device, card=msg.card, n=nxt))
            else:
                self.recent[nxt] = "?"
                events.append(NoRead(device=self.device, n=nxt))
            self.recent.pop(nxt - self.window, None)
        if self._cut is not None and self._cut <= self.delivered_n:
            events.append(CutCard(device=self.device, n=self._cut))
            self._cut_out, self._cut = self._cut, None
        if events:
            self._overflow = False  # progress: a new overflow is worth one more refusal
        return events

    def _gap_open(self) -> bool:
        if self.delivered_n is None:
            return False
        latest = self.count.latest
        return bool(self.held) or (latest is not None and latest > self.delivered_n)

    def on_status(self, msg: codec.Status, now: float) -> list[DeviceEvent]:
        """No baseline from STATUS: cards dealt before we attached may still be on their way
        (resent until acknowledged); the first card seen sets it."""
        self.count.heard(self.arrivals, msg.n)
        events = self._drop_forged()
        if self._gap_open() and self._gap_since is None:
            self._gap_since = now
        elif not self._gap_open():
            self._gap_since = None
        return events + self.count.report(msg, self.delivered_n)

    def _drop_forged(self) -> list[DeviceEvent]:
        """Held frames (cards, a cut card) ahead of the count that two STATUS frames sent after
        them both deny: corrupt frames that passed the CRC. One ``Refused`` names them all."""
        confirmed = self.count.confirmed()
        if confirmed is None:
            return []
        since = self.count.since
        forged = sorted(n for n, (_, at) in self.held.items() if n > confirmed and at < since)
        raws = [self.held.pop(n)[0] for n in forged]
        texts = [f"{m.TYPE};{m.card if isinstance(m, codec.Card) else '?'};{m.n}" for m in raws]
        texts += self._drop_forged_cut(confirmed, since)
        if not texts:
            return []
        self.stats.refused_frames += len(texts)
        reason = (f"{len(texts)} frame(s) ahead of the shoe's own count {confirmed} dropped as corrupt "
                  f"(the shoe's STATUS denies them)")
        return [Refused(device=self.device, reason=reason, raw=" ".join(texts[:8]))]

    def _drop_forged_cut(self, confirmed: int, since: int) -> list[str]:
        """The cut card held ahead of its count, when two later STATUS frames deny it."""
        if self._cut is None or self._cut <= confirmed or self._cut_at >= since:
            return []
        cut, self._cut = self._cut, None
        return [f"CUT;{cut}"]
