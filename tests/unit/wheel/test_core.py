"""The vendor's exception rules in the pure core, at hand-worked times (seconds on a fake clock).

Each scenario is a script of (time, wire line) pairs; "TX ..." lines are what the host sent."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from drivers.events import DeviceEvent
from drivers.wheel import codec
from drivers.wheel.core import Rules, WheelCore


def run(script: list[tuple[float, str]], rules: Rules | None = None) -> tuple[WheelCore, list[DeviceEvent], list[str]]:
    core = WheelCore(rules=rules or Rules())
    events: list[DeviceEvent] = []
    sent: list[str] = []
    for now, line in script:
        while (deadline := core.next_deadline()) is not None and deadline <= now:
            events += core.tick(deadline).events
        if line.startswith("TX "):
            command = codec.parse_command(line[3:])
            assert not isinstance(command, codec.Unknown)
            core.sent(command, now)
            continue
        step = core.receive(codec.parse_line(line), now)
        events += step.events
        sent += [c.line() for c in step.commands]
    return core, events, sent


def status(state: int, flags: int = 0, spin: int = 7, win: str = "  ") -> str:
    return f"*X;{state};{spin:03d};{win};{flags:X};150;1"


def verdicts(events: list[DeviceEvent]) -> list[tuple[str, str]]:
    return [(e.type, e.reason) for e in events if e.type in ("void", "fault")]


def every(start: float, stop: float, step: float, line: str) -> list[tuple[float, str]]:
    out, t = [], start
    while t <= stop + 1e-9:
        out.append((round(t, 3), line))
        t += step
    return out


def test_clean_game_reports_each_state_and_the_number_once() -> None:
    _, events, _ = run(
        [(0, status(2)), (1, status(3)), (2, status(4)), (3, "17"), (3.1, status(5, win="17")), (4, status(2, spin=8, win="17"))]
    )
    kinds = [(e.type, getattr(e, "spin", None)) for e in events if e.type != "rotor"]
    assert kinds == [("place_bets", 7), ("ball_in_rim", 7), ("no_more_bets", 7), ("winning_number", 7), ("place_bets", 8)]
    assert [e.number for e in events if e.type == "winning_number"] == ["17"]


def test_without_number_line_the_state_5_status_reports_the_result() -> None:
    _, events, _ = run([(0, status(4)), (1, status(5, win=" 0"))])
    assert [(e.number, e.spin) for e in events if e.type == "winning_number"] == [("0", 7)]


def test_launch_failed_in_rim_is_ignored_for_the_first_3_s_of_state_3() -> None:
    # state 3 entered at 10.0; flag 8 from 11.0
    base = [(10.0, status(3))] + every(11.0, 12.9, 0.1, status(3, 8))
    assert verdicts(run(base + [(12.999, status(3, 8)), (13.1, status(3))])[1]) == []
    assert verdicts(run(base + [(13.0, status(3, 8))])[1]) == [("void", "launch_failed")]


def test_launch_failed_appearing_after_the_first_3_s_voids_at_once() -> None:
    _, events, _ = run([(10.0, status(3)), (13.5, status(3, 8))])
    assert verdicts(events) == [("void", "launch_failed")]


def test_misfire_in_state_2_counts_from_the_first_flagged_status() -> None:
    base = [(0.0, status(2)), (5.0, status(2, 8))]
    _, events, _ = run(base + [(7.99, status(2, 8)), (8.5, status(2))])
    assert verdicts(events) == []
    assert [e.code for e in events if e.type == "warning"] == ["launch_retry"]
    _, events, _ = run(base + [(8.0, status(2, 8)), (8.5, status(2, 8))])
    assert verdicts(events) == [("void", "launch_failed")]  # once, not per status


def test_miss_spin_voids_at_once_and_sends_restart_once() -> None:
    _, events, sent = run([(0, status(3)), (0.5, status(3, 2)), (1.0, status(3, 2)), (1.1, "*R OK"), (1.5, status(2))])
    assert verdicts(events) == [("void", "miss_spin")]
    assert sent == ["*R"]
    assert events[-1].type == "place_bets"  # the re-spin is a new, clean game


def test_wrong_way_outside_state_3_is_only_a_warning() -> None:
    _, events, sent = run([(0, status(4)), (0.5, status(4, 2))])
    assert verdicts(events) == [] and sent == []
    assert [e.code for e in events if e.type == "warning"] == ["wrong_way"]


def test_ball_not_sensed_is_ignored_for_5_s_then_voids() -> None:
    base = [(20.0, status(4))] + every(21.0, 25.9, 0.5, status(4, 1))
    assert verdicts(run(base + [(25.999, status(4, 1)), (26.1, status(4))])[1]) == []
    assert verdicts(run(base + [(26.0, status(4, 1))])[1]) == [("void", "ball_not_sensed")]


def test_ball_not_sensed_flicker_restarts_the_grace() -> None:
    script = [(0.0, status(4))]
    for k in range(8):  # 4 s on, 0.5 s off, repeatedly: never 5 s in a row
        script += every(1 + 4.5 * k, 1 + 4.5 * k + 4.0, 0.5, status(4, 1)) + [(1 + 4.5 * k + 4.25, status(4))]
    assert verdicts(run(script)[1]) == []


def test_result_of_a_void_game_is_not_reported() -> None:
    _, events, _ = run([(0, status(4)), (1, status(4, 1)), (6, status(4, 1)), (7, "12"), (7.1, status(5, win="12"))])
    assert verdicts(events) == [("void", "ball_not_sensed")]
    assert not [e for e in events if e.type == "winning_number"]
    assert [e.code for e in events if e.type == "warning"][-1] == "result_of_void_game"


def test_flag_4_is_a_fault_once_then_repower_recovers() -> None:
    core, events, _ = run(
        [(0, status(4)), (1, status(4, 4)), (1.5, status(4, 4)), (2, status(6, 4)), (3, "TX *P 1"), (3.1, "*P OK"),
         (3.5, status(1)), (4.0, status(2))]
    )
    assert verdicts(events) == [("fault", "sensor_fault")]
    assert [e.type for e in events if e.type in ("recovered", "place_bets")] == ["recovered", "place_bets"]
    assert not core.needs_repower


def test_state_6_mid_game_is_a_fault_unless_powered_off() -> None:
    assert verdicts(run([(0, status(3)), (0.5, status(6))])[1]) == [("fault", "state_6")]
    assert verdicts(run([(0, status(3)), (0.1, "TX *P 0"), (0.2, "*P OK"), (4.5, status(6))])[1]) == []
    assert verdicts(run([(0, status(1)), (0.5, status(6))])[1]) == []


def test_state_2_without_repower_is_flagged() -> None:
    _, events, _ = run([(0, status(3)), (0.5, status(6)), (1, status(1)), (1.5, status(2))])
    assert [e.code for e in events if e.type == "warning"] == ["not_repowered"]


def test_stray_number_line_is_never_a_result() -> None:
    _, events, _ = run([(0, status(3)), (0.2, "31"), (0.5, status(4)), (1, status(5, win="17"))])
    assert [e.number for e in events if e.type == "winning_number"] == ["17"]
    assert "result_out_of_turn" in [e.code for e in events if e.type == "warning"]


def test_number_line_contradicted_by_status_is_a_fault() -> None:
    _, events, _ = run([(0, status(4)), (1, "17"), (1.1, status(5, win="18"))])
    assert verdicts(events) == [("fault", "result_mismatch")]


def test_silence_goes_offline_and_no_transition_is_inferred_across_it() -> None:
    _, events, _ = run([(0, status(3)), (0.5, status(3)), (10, status(6))])
    assert [e.type for e in events if e.type in ("offline", "online")] == ["offline", "online"]
    assert verdicts(events) == []  # 3 -> 6 across a gap: not seen, not judged


def test_unsolicited_self_test_code_is_a_reported_fault_and_self_test_collects_codes() -> None:
    _, events, _ = run([(0, status(4)), (1, "*F 5")])
    assert [(e.reason, e.code) for e in events if e.type == "fault"] == [("reported", 5)]
    _, events, _ = run([(0, status(6)), (0.1, "TX *F"), (3, "*F 5"), (3.05, "*F 21"), (4, status(6))])
    results = [e for e in events if e.type == "self_test"]
    assert [(r.passed, r.codes) for r in results] == [(False, (5, 21))]
    _, events, _ = run([(0, status(6)), (0.1, "TX *F"), (3, "*F 0")])
    assert [(e.passed, e.codes) for e in events if e.type == "self_test"] == [(True, ())]


def test_noise_is_counted_and_changes_nothing() -> None:
    core, events, _ = run([(0, status(2)), (0.1, "00;0"), (0.2, "*T g 0"), (0.3, "*"), (0.5, status(2))])
    assert core.noise == 3
    assert [e.type for e in events] == ["place_bets", "rotor"]


LINES = [status(s, f) for s in range(1, 7) for f in (0, 1, 2, 4, 8)] + [
    "17", " 0", "00", "*P OK", "*P NO", "*R OK", "*u OK", "*F 0", "*F 5", "*F BUSY", "00;0", "*", "TX *P 1",
    "TX *P 0", "TX *F", "TX *R",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 8), st.sampled_from(LINES)), max_size=60))
def test_fuzz_any_sequence_of_lines_and_gaps_never_raises(script: list[tuple[float, str]]) -> None:
    now, timed = 0.0, []
    for gap, line in script:
        now += gap
        timed.append((now, line))
    _, events, sent = run(timed)
    assert all(e.type for e in events)
    assert set(sent) <= {"*R"}


def test_noise_is_logged(caplog) -> None:
    with caplog.at_level("WARNING", logger="drivers.wheel.core"):
        run([(0, status(2)), (0.1, "00;0")])
    assert "'00;0'" in caplog.text
