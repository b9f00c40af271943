"""Driver against the simulated wheel over a real pty, protocol time 4x faster (ScaledClock).

Grace boundaries: the driver starts a grace at the first status that shows the condition and the
polled status is at most ~0.1 s old, so a flag that lasts 0.5 s less than the grace must never
void and one that lasts 0.6 s more always must; the rest of the margin absorbs scheduling jitter
on a loaded machine (0.5 s here is 125 ms of wall time). The exact boundaries (2.999 s / 3.0 s)
are pinned in tests/unit/wheel/test_core.py on hand-worked times."""

from __future__ import annotations

import os

import pytest

from drivers.clock import ScaledClock
from drivers.wheel.events import Void
from drivers.wheel.session import WheelSession, WheelTimeout
from simulators.pty_port import PtyPort
from simulators.wheel import WheelFault
from tests.support.waiting import until

from .conftest import Rig, RigFactory

pytestmark = pytest.mark.timeout(60)


def verdicts(rig) -> list[tuple[str, str]]:
    return [(e.type, e.reason) for e in rig.log if e.type in ("void", "fault")]


async def test_clean_game_polled(make_rig) -> None:
    async with make_rig(mode=0, results=["27", "0"]) as rig:
        assert (await rig.next("online")).device == "wheel"
        spin = (await rig.next("place_bets")).spin
        await rig.next("ball_in_rim")
        await rig.next("no_more_bets")
        first = await rig.next("winning_number")
        second = await rig.next("winning_number")
        assert (first.number, first.spin) == ("27", spin)
        assert (second.number, second.spin) == ("0", spin + 1)
        assert verdicts(rig) == []
        assert "*X" in rig.sim.received


async def test_clean_game_automatic_status_does_not_poll(make_rig) -> None:
    async with make_rig(mode=128 + 1024, results=["36"]) as rig:
        assert (await rig.next("winning_number")).number == "36"
        # a game of ~12.5 s would take ~120 polls; only a stalled line (a loaded machine) may cause one
        assert rig.sim.received.count("*X") <= 2
        assert rig.session.mode == 1152


async def test_mode_2_waits_for_start_game(make_rig) -> None:
    async with make_rig(mode=2, results=["5"]) as rig:
        await rig.next("place_bets")
        await rig.idle(3.0)
        assert rig.sim.state == 2
        await rig.session.start_game()
        assert (await rig.next("winning_number")).number == "5"


@pytest.mark.parametrize(("duration", "voided"), [(2.5, False), (3.6, True)])
async def test_launch_failed_in_rim_at_the_3_s_boundary(make_rig, duration: float, voided: bool) -> None:
    async with make_rig(results=["9"]) as rig:
        rig.sim.inject(WheelFault("launch_fail", state=3, duration=duration))
        await rig.next("ball_in_rim")
        await rig.next("no_more_bets")
        assert verdicts(rig) == ([("void", "launch_failed")] if voided else [])
        assert [e.code for e in rig.of_type("warning")] == ["launch_retry"]
        if not voided:
            assert (await rig.next("winning_number")).number == "9"


@pytest.mark.parametrize(("duration", "voided"), [(2.5, False), (3.6, True), (None, True)])
async def test_misfire_in_state_2_at_the_3_s_boundary(make_rig, duration: float | None, voided: bool) -> None:
    async with make_rig(results=["9"]) as rig:
        rig.sim.inject(WheelFault("launch_fail", state=2, duration=duration))
        await rig.next("place_bets")
        if duration is None:
            event = await rig.next("void")
            assert (event.reason, event.state) == ("launch_failed", 2)
            return
        await rig.next("ball_in_rim")
        assert verdicts(rig) == ([("void", "launch_failed")] if voided else [])
        number = await rig.next(lambda e: e.type in ("winning_number", "warning") and getattr(e, "code", "") != "launch_retry")
        if voided:
            assert number.code == "result_of_void_game"
        else:
            assert number.number == "9"


async def test_miss_spin_voids_sends_restart_and_the_game_is_spun_again(make_rig) -> None:
    async with make_rig(results=["14"]) as rig:
        rig.sim.inject(WheelFault("miss_spin", at=0.5))
        spin = (await rig.next("place_bets")).spin
        void = await rig.next("void")
        assert isinstance(void, Void) and (void.reason, void.spin, void.state) == ("miss_spin", spin, 3)
        await rig.next("place_bets")
        assert "*R" in rig.sim.received
        result = await rig.next("winning_number")
        assert (result.number, result.spin) == ("14", spin)
        assert verdicts(rig) == [("void", "miss_spin")]


@pytest.mark.parametrize(("duration", "voided"), [(4.5, False), (5.6, True)])
async def test_ball_not_sensed_at_the_5_s_boundary(make_rig, duration: float, voided: bool) -> None:
    async with make_rig(results=["22"]) as rig:
        rig.sim.inject(WheelFault("ball_not_sensed", at=0.3, duration=duration))
        await rig.next("no_more_bets")
        outcome = await rig.next(lambda e: e.type == "winning_number" or getattr(e, "code", "") == "result_of_void_game")
        assert verdicts(rig) == ([("void", "ball_not_sensed")] if voided else [])
        assert outcome.type == ("warning" if voided else "winning_number")


async def test_ball_never_sensed_voids_then_the_wheel_stops_itself(make_rig) -> None:
    async with make_rig() as rig:
        rig.sim.inject(WheelFault("ball_not_sensed", at=0.3, duration=None))
        await rig.next("void")
        await rig.next("table_closed")
        assert verdicts(rig) == [("void", "ball_not_sensed"), ("fault", "state_6")]


async def test_sensor_fault_then_repower(make_rig) -> None:
    async with make_rig(results=["3"]) as rig:
        rig.sim.inject(WheelFault("sensor_fault", at=0.5))
        fault = await rig.next("fault")
        assert (fault.reason, fault.state) == ("sensor_fault", 4)
        await rig.next("table_closed")
        assert rig.session.core.needs_repower
        assert await rig.session.power(True) is True
        await rig.next("recovered")
        await rig.next("place_bets")
        assert (await rig.next("winning_number")).number == "3"
        assert verdicts(rig) == [("fault", "sensor_fault")]


async def test_state_6_mid_game_then_repower(make_rig) -> None:
    async with make_rig(results=["11"]) as rig:
        rig.sim.inject(WheelFault("state_6", state=3, at=0.5))
        await rig.next("ball_in_rim")
        fault = await rig.next("fault")
        assert (fault.reason, fault.state) == ("state_6", 6)
        assert await rig.session.power(False) is False  # already down: *P NO
        assert await rig.session.power(True) is True
        await rig.next("recovered")
        assert (await rig.next("winning_number")).number == "11"


async def test_commanded_power_off_mid_game_is_no_fault(make_rig) -> None:
    async with make_rig() as rig:
        await rig.next("ball_in_rim")
        assert await rig.session.power(False) is True
        await rig.next("table_closed")
        assert verdicts(rig) == []
        assert await rig.session.power(True) is True
        await rig.next("place_bets")


async def test_commands_answer_like_the_wheel(make_rig) -> None:
    async with make_rig(pockets=37, results=[]) as rig:
        await rig.next("place_bets")
        assert await rig.session.power(True) is False  # already on
        assert await rig.session.set_mode(0) is False  # *o BUSY during a game
        busy = await rig.session.self_test()
        assert busy.busy and not busy.passed
        assert await rig.session.power(False) is True
        await rig.next("table_closed")
        assert await rig.session.set_mode(0) is True
        assert (await rig.session.self_test()).passed
        rig.sim.self_test_codes = [5, 21]
        result = await rig.session.self_test()
        assert (result.passed, result.codes) == (False, (5, 21))
        assert rig.of_type("self_test")[-1] == result
        assert (await rig.session.operating()).state == 6
        assert await rig.session.version() == "V2.50"
        assert (await rig.session.wheel_clock()).year >= 2025
        await rig.session.set_setting("z", "38")
        assert await rig.session.setting("z") == ("38",)
        rig.sim.queue_results("00")
        assert await rig.session.power(True) is True
        assert (await rig.next("winning_number")).number == "00"


async def test_noise_on_the_line_is_ignored(make_rig) -> None:
    async with make_rig(results=["8"]) as rig:
        await rig.next("ball_in_rim")
        rig.sim.noise(b"00;0\r\n*\r\n\xff\xfe\x00garbage\r\n*T g 0\r\n*X;4;0")
        rig.sim.noise(b"\r\n")
        assert (await rig.next("winning_number")).number == "8"
        assert rig.session.core.noise >= 5
        assert verdicts(rig) == []


async def test_unplug_goes_offline_and_replug_comes_back(tmp_path) -> None:
    link = tmp_path / "ttyWHEEL"
    factory = RigFactory(results=["1"])
    await factory.sim.start()
    os.symlink(factory.sim.path, link)
    rig = Rig(factory.sim, None, factory.clock)  # type: ignore[arg-type]
    rig.session = WheelSession(str(link), clock=factory.clock, emit=rig.record, poll_interval=0.1, backoff=(0.1, 0.4))
    async with rig.session:
        await rig.next("place_bets")
        factory.sim.unplug()
        offline = await rig.next("offline")
        # the port and what happened to it (the serial transport's words, as for the shoe)
        assert offline.reason.startswith(str(link)) and ("i/o error" in offline.reason or "end of file" in offline.reason)
        replug = RigFactory(results=["2"], clock=factory.clock)
        await replug.sim.start()
        os.unlink(link)
        os.symlink(replug.sim.path, link)
        await rig.next("online")
        assert (await rig.next("winning_number")).number == "2"
        await replug.sim.stop()
    await factory.sim.stop()


async def test_no_answer_is_a_timeout_not_a_hang(tmp_path) -> None:
    async with PtyPort() as mute:
        clock = ScaledClock(4)
        async with WheelSession(mute.path, clock=clock, reply_timeout=0.5) as session:
            await session.connected.wait()
            with pytest.raises(WheelTimeout):
                await session.power(True)


async def test_spin_counter_wraps_after_256_and_mode_1_alternates_direction(make_rig) -> None:
    async with make_rig(mode=1, spin=256, results=["4", "5"]) as rig:
        first = await rig.next("winning_number")
        assert first.spin == 256
        assert (await rig.next("place_bets")).spin == 1
        assert (await rig.next("winning_number")).spin == 1
        assert {e.direction for e in rig.of_type("rotor")} == {"clockwise", "anticlockwise"}


async def test_missing_port_is_reported_once_while_retrying(tmp_path) -> None:
    log: list = []
    async with WheelSession(str(tmp_path / "ttyNONE"), clock=ScaledClock(4), emit=log.append,
                            backoff=(0.1, 0.2)) as session:
        await until(lambda: session.reconnect.failures >= 10, "ten failed opens")
    assert [e.type for e in log] == ["offline"]
    assert "cannot open" in log[0].reason
