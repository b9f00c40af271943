"""The one reconnect loop (``drivers/link.py``): its states, its waits on an injected clock, and
that nothing ends it but its owner."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from drivers.link import LinkRunner, retry
from drivers.reconnect import Backoff, LinkState


class StepClock:
    """Time passes only when the runner sleeps; every sleep is recorded."""

    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def monotonic(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds
        await asyncio.sleep(0)


class Script:
    """Attempts that play a script: ``"refuse"`` fails to connect, ``"drop"`` connects then drops,
    ``"crash"`` raises something nobody expected, ``"hold"`` connects and stays up."""

    def __init__(self, steps: list[str]) -> None:
        self.steps = steps
        self.seen: list[LinkState] = []  # the runner's state as each attempt began
        self.up_in: list[LinkState] = []  # its state right after each ``up()``
        self.holding = asyncio.Event()
        self.runner: LinkRunner | None = None

    async def __call__(self, up: Callable[[], None]) -> str:
        assert self.runner is not None
        self.seen.append(self.runner.state)
        step = self.steps.pop(0) if self.steps else "hold"
        if step == "refuse":
            raise ConnectionRefusedError("refused")
        if step == "crash":
            raise KeyError("surprise")
        up()
        self.up_in.append(self.runner.state)
        if step == "drop":
            return "eof"
        self.holding.set()
        await asyncio.Event().wait()
        return "never"


def runner_for(script: Script, clock: StepClock, backoff: Backoff | None = None) -> LinkRunner:
    runner = LinkRunner("test", script, backoff=backoff or Backoff(0.1, 1.0), clock=clock, errors=(OSError,))
    script.runner = runner
    return runner


async def test_states_and_backoff_through_failures_a_drop_and_a_close() -> None:
    clock = StepClock()
    script = Script(["refuse", "refuse", "refuse", "drop", "refuse", "hold"])
    runner = runner_for(script, clock)
    assert runner.state is LinkState.CONNECTING
    runner.start()
    await asyncio.wait_for(script.holding.wait(), 5)
    # three refusals double the wait; a connection resets it, the drop and the refusal after it grow again
    assert clock.sleeps == [0.1, 0.2, 0.4, 0.1, 0.2]
    assert all(state is LinkState.CONNECTING for state in script.seen)
    assert script.up_in == [LinkState.CONNECTED, LinkState.CONNECTED]
    assert runner.connected and runner.reconnect.connects == 2 and runner.reconnect.attempts == 6
    report = runner.diagnostics()
    assert report["state"] == "connected" and report["last_error"] == "refused" and report["down_for_s"] is None
    await runner.stop()
    assert runner.state is LinkState.CLOSED and not runner.running


async def test_the_wait_is_capped_and_the_outage_is_timed() -> None:
    clock = StepClock()
    script = Script(["refuse"] * 12)
    runner = runner_for(script, clock, Backoff(0.1, 1.0))
    runner.start()
    await asyncio.wait_for(script.holding.wait(), 5)
    assert max(clock.sleeps) == 1.0 and clock.sleeps[-4:] == [1.0] * 4
    await runner.stop()


async def test_an_unexpected_error_is_logged_and_retried_not_the_end(caplog: pytest.LogCaptureFixture) -> None:
    clock = StepClock()
    script = Script(["crash", "hold"])
    runner = runner_for(script, clock)
    with caplog.at_level(logging.ERROR, "drivers.link"):
        runner.start()
        await asyncio.wait_for(script.holding.wait(), 5)
    assert "unexpected link failure" in caplog.text
    assert runner.connected and runner.reconnect.last_error == "KeyError('surprise')"
    await runner.stop()


async def test_the_link_may_choose_its_own_wait() -> None:
    clock = StepClock()
    script = Script(["refuse", "refuse"])
    reasons: list[str] = []

    def delay(reason: str) -> float:
        reasons.append(reason)
        runner.reconnect.failed(reason)
        return 7.0

    runner = LinkRunner("test", script, backoff=Backoff(0.1, 1.0), clock=clock, errors=(OSError,), delay=delay)
    script.runner = runner
    runner.start()
    await asyncio.wait_for(script.holding.wait(), 5)
    assert clock.sleeps == [7.0, 7.0] and reasons == ["refused", "refused"]
    await runner.stop()


async def test_down_for_counts_from_the_drop_while_waiting() -> None:
    clock = StepClock()
    script = Script(["drop", "refuse", "refuse", "hold"])
    runner = runner_for(script, clock)
    states: list[tuple[LinkState, float | None]] = []
    real_sleep = clock.sleep

    async def sleep(seconds: float) -> None:
        states.append((runner.state, runner.reconnect.down_for()))
        await real_sleep(seconds)

    clock.sleep = sleep  # type: ignore[method-assign]
    runner.start()
    await asyncio.wait_for(script.holding.wait(), 5)
    assert [s for s, _ in states] == [LinkState.WAITING] * 3
    assert [d for _, d in states] == pytest.approx([0.0, 0.1, 0.3])
    await runner.stop()


def test_a_runner_needs_a_policy() -> None:
    with pytest.raises(ValueError):
        LinkRunner("test", Script([]), clock=StepClock())


@given(initial=st.floats(0.01, 1.0), cap=st.floats(1.0, 60.0), jitter=st.floats(0.0, 0.9),
       draw=st.floats(0.0, 1.0), failures=st.integers(1, 10_000))
def test_jitter_only_shortens_a_capped_wait(initial: float, cap: float, jitter: float, draw: float,
                                            failures: int) -> None:
    plain = Backoff(initial, cap)
    jittered = Backoff(initial, cap, jitter=jitter, random=lambda: draw)
    wait = jittered.delay(failures)
    assert plain.delay(failures) * (1 - jitter) - 1e-9 <= wait <= plain.delay(failures) <= cap


def test_a_jitter_of_one_or_more_is_refused() -> None:
    with pytest.raises(ValueError):
        Backoff(0.1, 1.0, jitter=1.0)


async def test_retry_backs_off_until_the_operation_succeeds_and_returns_its_result() -> None:
    clock = StepClock()
    outcomes: list[BaseException | int] = [ConnectionResetError("down"), ConnectionResetError("down"), 42]
    heard: list[str] = []

    async def write() -> int:
        outcome = outcomes.pop(0)
        if isinstance(outcome, BaseException):
            raise outcome
        return outcome

    result = await retry("db", write, backoff=Backoff(0.1, 0.15), clock=clock, errors=(OSError,),
                         on_failure=lambda exc: heard.append(str(exc)))
    assert result == 42 and clock.sleeps == [0.1, 0.15] and heard == ["down", "down"]


async def test_retry_raises_what_is_not_the_link_failing_at_once() -> None:
    clock = StepClock()

    async def broken() -> int:
        raise ValueError("a bug, not an outage")

    with pytest.raises(ValueError, match="a bug"):
        await retry("db", broken, backoff=Backoff(0.1, 1.0), clock=clock, errors=(OSError,))
    assert clock.sleeps == []


@given(steps=st.lists(st.sampled_from(["refuse", "drop", "crash"]), max_size=30),
       initial=st.floats(0.01, 1.0), cap_factor=st.floats(1.0, 40.0))
def test_every_wait_is_the_backoff_of_the_failures_since_the_last_connection(
        steps: list[str], initial: float, cap_factor: float) -> None:
    """Whatever the link does, the runner waits ``backoff.delay(n)`` after the n-th failure in a
    row (a connection starts the count again), is ``connecting`` at each attempt and ends
    ``closed``."""
    backoff = Backoff(initial, initial * cap_factor)
    expected: list[float] = []
    failures = 0
    for step in steps:
        failures = 1 if step == "drop" else failures + 1
        expected.append(backoff.delay(failures))

    async def play() -> None:
        clock = StepClock()
        script = Script(list(steps))
        runner = runner_for(script, clock, backoff)
        runner.start()
        await asyncio.wait_for(script.holding.wait(), 5)
        assert clock.sleeps == pytest.approx(expected)
        assert all(state is LinkState.CONNECTING for state in script.seen)
        assert runner.reconnect.connects == steps.count("drop") + 1 and runner.reconnect.failures == 0
        await runner.stop()
        assert runner.state is LinkState.CLOSED

    logging.getLogger("drivers.link").disabled = True  # the crashes' tracebacks are expected here
    try:
        asyncio.run(play())
    finally:
        logging.getLogger("drivers.link").disabled = False
