"""The wheel's self-test (``*F``), as the host ran it: the wheel answers one ``*F <code>`` line per
fault and no terminator, so the result is in once no line came for ``settle`` after the last
one, or ``timeout`` after the host asked (no answer at all fails with code 100)."""

from __future__ import annotations

from drivers.wheel.events import SelfTestResult


class SelfTestRun:
    """The self-test in progress, if any: when it is over, and the fault codes so far."""

    def __init__(self, device: str, timeout: float, settle: float) -> None:
        self.device = device
        self.timeout = timeout
        self.settle = settle
        self.until: float | None = None  # None: no self-test running
        self._codes: list[int] = []

    @property
    def running(self) -> bool:
        return self.until is not None

    def started(self, now: float) -> None:
        """The host sent ``*F``."""
        self.until = now + self.timeout
        self._codes = []

    def answer(self, code: int | None, now: float) -> SelfTestResult | None:
        """A ``*F`` line of the running test: busy (no code), passed (a lone 0), or a fault code
        (more may follow, until ``settle``)."""
        if code is None:
            self.until = None
            return SelfTestResult(device=self.device, passed=False, busy=True)
        if code == 0 and not self._codes:
            self.until = None
            return SelfTestResult(device=self.device, passed=True)
        if code:
            self._codes.append(code)
        self.until = now + self.settle
        return None

    def expired(self, now: float) -> SelfTestResult | None:
        """The test is over by time: failed with the codes it gave (100: none at all)."""
        if self.until is None or now < self.until:
            return None
        self.until = None
        return SelfTestResult(device=self.device, passed=False, codes=tuple(self._codes) or (100,))
