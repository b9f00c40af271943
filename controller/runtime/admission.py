"""Rate limits per input source, and refusals counted instead of journaled one by one.

Every source that people or other machines drive (a bet spot, the pit's command topic, the
dealer's keyboard, a console user) has a token bucket on the injected clock: ``rate`` inputs a
second on average, ``burst`` at once. An input over the limit is dropped *before* anything is
journaled or parsed, and counted. Refusals (over the limit, malformed, invalid) are aggregated
per source and window: the first refusal of a window is journaled at once as one ``alert``
(code ``input.refused``), the rest of that window become one more alert with their count by
code when the window ends. A flood of any size therefore costs a handful of journal rows, and
the pit still sees who flooded and how much (docs/security.md, "Rate limits").

Devices whose rate is physical (the shoe, the wheel) are not limited: dropping a card would be
worse than any flood. The pit's sender is the pit client's own claim, so all pit commands share
one bucket (a flooder cannot mint fresh buckets by inventing senders).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from controller.table.holds import WARNING, alert
from drivers.clock import SYSTEM_CLOCK, Clock

REFUSED = "input.refused"
RATE_LIMITED = "input.rate_limited"


@dataclass(frozen=True, slots=True)
class Policy:
    """``rate`` inputs a second, ``burst`` at once; ``shared``: one bucket for the whole class."""

    rate: float
    burst: float
    shared: bool = False


#: limits by source class (the part of the source before ``:``); other sources are not limited
POLICIES: dict[str, Policy] = {
    "spot": Policy(rate=10.0, burst=20.0),  # a player presses a few times a second at most
    "spots": Policy(rate=10.0, burst=20.0),  # the spots driver's own events (broker up/down)
    "pit": Policy(rate=5.0, burst=20.0, shared=True),
    "dealer": Policy(rate=20.0, burst=40.0),
    "console": Policy(rate=20.0, burst=40.0),
}
WINDOW = 10.0  # seconds per aggregated refusal alert and source
MAX_SOURCES = 4096  # buckets and windows kept (least recently used dropped beyond it)


@dataclass(slots=True)
class Bucket:
    tokens: float
    stamp: float

    def take(self, policy: Policy, now: float) -> bool:
        self.tokens = min(policy.burst, self.tokens + (now - self.stamp) * policy.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


@dataclass(slots=True)
class Window:
    """Refusals of one source since ``start``; ``counts`` holds those not yet journaled."""

    start: float
    counts: Counter[str] = field(default_factory=Counter)
    last: str = ""


def source_class(source: str) -> str:
    return source.partition(":")[0]


class Admission:
    """``admit(source)`` before an input is parsed or journaled; ``refused(...)`` for every
    input refused at the edge. ``write`` journals one alert payload (the table loop's)."""

    def __init__(self, write: Callable[[dict[str, object]], None] | None = None, *, clock: Clock = SYSTEM_CLOCK,
                 policies: dict[str, Policy] | None = None, window: float = WINDOW,
                 max_sources: int = MAX_SOURCES) -> None:
        self.write = write
        self.clock = clock
        self.policies = POLICIES if policies is None else policies
        self.window = window
        self.max_sources = max_sources
        self._buckets: OrderedDict[str, Bucket] = OrderedDict()
        self._windows: OrderedDict[str, Window] = OrderedDict()
        self._flusher: asyncio.Task[None] | None = None
        #: totals since start, by source and by code (for metrics and tests)
        self.admitted: Counter[str] = Counter()
        self.dropped: Counter[str] = Counter()
        self.alerts_written = 0

    # ------------------------------------------------------------------ limits
    def admit(self, source: str) -> bool:
        """True if ``source`` is within its limit (a token is spent); else counted as refused."""
        kind = source_class(source)
        policy = self.policies.get(kind)
        if policy is None:
            return True
        key = kind if policy.shared else source
        now = self.clock.monotonic()
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = Bucket(policy.burst, now)
            self._trim(self._buckets)
        else:
            self._buckets.move_to_end(key)
        if bucket.take(policy, now):
            self.admitted[key] += 1
            return True
        self.refused(key, RATE_LIMITED, f"more than {policy.rate:g} inputs a second (burst {policy.burst:g})")
        return False

    # ------------------------------------------------------------------ refusals
    def refused(self, source: str, code: str, message: str) -> None:
        """Count one refused input; journal it now if it is the first of its window."""
        self.dropped[code] += 1
        now = self.clock.monotonic()
        window = self._windows.get(source)
        if window is not None and now - window.start < self.window:
            window.counts[code] += 1
            window.last = message
            self._windows.move_to_end(source)
            self._schedule()
            return
        if window is not None:
            self._report(source, window)
        self._windows[source] = Window(now)
        self._trim(self._windows, report=True)
        self._emit(source, f"{source}: input refused ({code}): {message}", Counter({code: 1}))

    def flush(self, *, everything: bool = False) -> None:
        """Journal the counts of every window that ended (``everything``: of every window)."""
        now = self.clock.monotonic()
        for source, window in list(self._windows.items()):
            if window.counts and (everything or now - window.start >= self.window):
                self._report(source, window)

    def pending(self) -> int:
        """Refusals counted but not journaled yet."""
        return sum(sum(w.counts.values()) for w in self._windows.values())

    def _report(self, source: str, window: Window) -> None:
        if not window.counts:
            return
        total = sum(window.counts.values())
        by_code = ", ".join(f"{code} {n}" for code, n in window.counts.most_common())
        self._emit(source, f"{source}: {total} more inputs refused in {self.window:g} s ({by_code}); "
                           f"last: {window.last}", window.counts.copy())
        window.counts.clear()

    def _emit(self, source: str, message: str, counts: Counter[str]) -> None:
        if self.write is None:
            return
        self.alerts_written += 1
        self.write(alert(WARNING, REFUSED, message[:500], 0, source=source, count=sum(counts.values()),
                         codes=dict(counts)))

    def _trim(self, table: OrderedDict[str, Bucket] | OrderedDict[str, Window], report: bool = False) -> None:
        while len(table) > self.max_sources:
            source, old = table.popitem(last=False)
            if report and isinstance(old, Window):
                self._report(source, old)

    def _schedule(self) -> None:
        """A task that journals the counts when their window ends, if nothing else does first."""
        if self._flusher is not None and not self._flusher.done():
            return
        with contextlib.suppress(RuntimeError):  # no running event loop: ``flush`` by hand
            self._flusher = asyncio.get_running_loop().create_task(self._flush_later(), name="admission-flush")

    async def _flush_later(self) -> None:
        while self.pending():
            await self.clock.sleep(self.window)
            self.flush()

    async def close(self) -> None:
        """Journal what is still counted and stop the flusher."""
        if self._flusher is not None:
            self._flusher.cancel()
            await asyncio.gather(self._flusher, return_exceptions=True)
        self.flush(everything=True)
