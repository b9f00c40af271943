"""The simulated shoe firmware, byte-for-byte against the codec's golden vectors and hand-worked
timing (a manual clock: resends every 250 ms, FAULT after 20 tries, STATUS every second)."""

import random

import pytest

from controller.shoe import Shoe
from drivers.shoe.codec import (
    Ack,
    Card,
    Cut,
    Decoder,
    Fault,
    Frame,
    Hello,
    Lock,
    Nak,
    NewShoe,
    NoRead,
    Ping,
    Reset,
    Status,
    Unlock,
    encode,
)
from simulators.shoe.firmware import LineFaults, ShoeFirmware


class ManualClock:
    """The injected clock: the test moves ``now``; ``sleep`` advances it at once, no wall time passes."""

    def __init__(self) -> None:
        self.now = 100.0

    def monotonic(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:  # pragma: no cover - not used
        self.now += seconds


STACK = ["QH", "AS", "TD", "2C", "7H"]


def make(**kw):
    clock = ManualClock()
    fw = ShoeFirmware(Shoe(1, random.Random(0), cut_after=3, stacked=STACK), clock=clock, **kw)
    wire = bytearray()
    fw.attach(wire.extend)
    return fw, clock, wire


def frames(wire: bytearray) -> list[Frame]:
    out = [f for f in Decoder("shoe").feed(bytes(wire)) if isinstance(f, Frame)]
    wire.clear()
    return out


def test_power_up_says_hello_then_status_golden_bytes():
    _, _, wire = make()
    assert bytes(wire).startswith(b"#0001;HELLO;CS-1;1.0;SN42*8F1C\r\n")
    assert [f.msg for f in frames(wire)] == [Hello("CS-1", "1.0", "SN42"), Status("READY", 0, "S1")]


def test_cards_cut_and_resend_with_the_same_seq_until_acked():
    fw, clock, wire = make(window=1)
    frames(wire)
    assert fw.draw() == "QH"
    (f,) = frames(wire)
    assert f == Frame(3, Card("QH", 1))
    fw.draw(), fw.draw()
    assert frames(wire) == []  # window of one: the next waits for the ACK
    clock.now += 0.25
    fw.poll()
    assert frames(wire) == [Frame(3, Card("QH", 1))]  # same seq again
    fw.feed(encode(1, Ack(3)))
    assert frames(wire) == [Frame(4, Card("AS", 2))]
    fw.feed(encode(2, Ack(4)))
    assert frames(wire) == [Frame(5, Card("TD", 3))]
    fw.feed(encode(3, Ack(5)))
    assert frames(wire) == [Frame(6, Cut(3))]


def test_a_nak_resends_now_and_twenty_tries_end_in_fault():
    fw, clock, wire = make(window=1)
    frames(wire)
    fw.draw()
    frames(wire)
    fw.feed(encode(1, Nak(3)))
    assert frames(wire) == [Frame(3, Card("QH", 1))]
    for _ in range(25):
        clock.now += 0.25
        fw.poll()
    got = frames(wire)
    assert sum(f.msg == Card("QH", 1) for f in got) == 20 - 2  # 2 already sent
    assert any(f.msg == Fault(30, "NOACK") for f in got)
    assert fw.pending == 0


def test_status_every_second():
    fw, clock, wire = make()
    frames(wire)
    clock.now += 0.99
    fw.poll()
    assert frames(wire) == []
    clock.now += 0.02
    fw.poll()
    assert [f.msg for f in frames(wire)] == [Status("READY", 0, "S1")]


def test_lock_blocks_the_gate_and_commands_are_acked_and_applied_once():
    fw, _, wire = make()
    frames(wire)
    fw.feed(encode(0x10, Lock()))
    assert fw.draw() is None and fw.drawn == []
    assert frames(wire) == [Frame(3, Ack(0x10))]
    fw.feed(encode(0x10, Lock()))  # retransmission: ACKed again, applied once
    fw.feed(encode(0x11, Unlock()))
    assert [f.msg for f in frames(wire)] == [Ack(0x10), Ack(0x11)]
    assert fw.applied == ["LOCK", "UNLOCK"]
    assert fw.draw() == "QH"
    fw.feed(encode(0x10, Lock()))  # a restarted host counting from 0x10 again: a new command
    assert fw.locked and fw.applied == ["LOCK", "UNLOCK", "LOCK"]


def test_ping_status_reset_hello_new_shoe():
    fw, _, wire = make()
    frames(wire)
    fw.draw()
    frames(wire)
    fw.feed(encode(1, Ping()))
    assert [f.msg for f in frames(wire)] == [Ack(1), Status("READY", 1, "S1")]
    fw.feed(encode(2, NewShoe("S2", 2)))
    assert [f.msg for f in frames(wire)] == [Ack(2), Status("READY", 0, "S2")]
    fw.feed(encode(3, Reset()))
    got = frames(wire)
    assert [f.msg for f in got] == [Ack(3), Hello("CS-1", "1.0", "SN42"), Status("READY", 0, "S2")]
    assert got[1].seq == 1  # seq starts over after a reset


def test_bad_host_frame_with_readable_seq_is_naked():
    fw, _, wire = make()
    frames(wire)
    fw.feed(b"#0042;LOCK*0000\r\n")
    assert [f.msg for f in frames(wire)] == [Nak(0x42)]
    assert not fw.locked


def test_noread_injection_and_silence():
    fw, _, wire = make()
    frames(wire)
    fw.noread_next = 1
    fw.draw()
    assert [f.msg for f in frames(wire)] == [NoRead(1)]
    fw.silent = True
    fw.draw()
    assert frames(wire) == []


@pytest.mark.parametrize("seed", range(5))
def test_line_faults_damage_bytes_and_frames(seed):
    faults = LineFaults(random.Random(seed), drop=0.1, corrupt=0.1)
    data = encode(1, Card("QH", 17)) * 50
    out = b"".join(faults.apply(data))
    assert out != data and 0.7 * len(data) < len(out) < 1.05 * len(data)
    scripted = LineFaults(drop_frames=1, duplicate_frames=1)
    assert scripted.apply(b"#abc") == []
    assert scripted.apply(b"#abc") == [b"#abc#abc"]
