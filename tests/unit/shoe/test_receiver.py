"""The session's card-accounting rules, hand-worked, without a line (Receiver is pure)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from drivers.events import Refused
from drivers.shoe.codec import Ack, Card, Cut, Fault, Frame, Hello, Nak, NoRead, Status
from drivers.shoe.events import CardDrawn, CutCard, LostCard, ShoeFault, ShoeStatus
from drivers.shoe.events import NoRead as NoReadEvent
from drivers.shoe.session import Receiver


def fresh(delivered: int | None = 0) -> Receiver:
    r = Receiver(gap_timeout=6.0)
    if delivered is not None:
        r.new_shoe()
        r.delivered_n = delivered
    return r


def feed(r: Receiver, seq: int, msg, now: float = 0.0):
    return r.on_frame(Frame(seq, msg), now)


def cards(events):
    return [(e.card, e.n) for e in events if isinstance(e, CardDrawn)]


def test_in_order_cards_are_delivered_and_each_frame_acked():
    r = fresh()
    ev, rep = feed(r, 1, Card("AS", 1))
    assert cards(ev) == [("AS", 1)] and rep == [Ack(1)]
    ev, rep = feed(r, 2, NoRead(2))
    assert ev == [NoReadEvent(n=2)] and rep == [Ack(2)]


def test_duplicate_seq_is_acked_again_and_applied_once():
    r = fresh()
    feed(r, 7, Card("QH", 1))
    ev, rep = feed(r, 7, Card("QH", 1))
    assert ev == [] and rep == [Ack(7)]
    assert r.stats.duplicates == 1


def test_duplicate_by_n_after_a_shoe_restart_is_applied_once():
    r = fresh()
    feed(r, 9, Card("QH", 1))
    ev, _ = feed(r, 1, Hello("CS-1", "1.0", "SN42"))
    assert [e.type for e in ev] == ["hello"]
    ev, rep = feed(r, 9, Card("QH", 1))  # same seq reused after HELLO: n says it is the same card
    assert ev == [] and rep == [Ack(9)]


def test_every_restart_is_reported_even_with_the_same_seq_but_a_repeat_is_not():
    r = fresh()
    assert [e.type for e in feed(r, 1, Hello("CS-1", "1.0", "SN42"))[0]] == ["hello"]
    assert feed(r, 1, Hello("CS-1", "1.0", "SN42"))[0] == []  # the line repeated it
    feed(r, 2, Status("READY", 0, "S1"))
    assert [e.type for e in feed(r, 1, Hello("CS-1", "1.0", "SN42"))[0]] == ["hello"]  # a second reset
    assert r.stats.seq_gaps == 0


def test_a_conflicting_card_for_a_delivered_n_is_refused_never_delivered():
    r = fresh()
    feed(r, 1, Card("QH", 1))
    ev, _ = feed(r, 2, Card("2C", 1))
    assert len(ev) == 1 and isinstance(ev[0], Refused) and "conflicts with QH" in ev[0].reason


def test_out_of_order_cards_are_held_and_released_in_n_order():
    r = fresh()
    ev, rep = feed(r, 2, Card("KD", 2))
    assert ev == [] and rep == [Ack(2)]  # held, but acknowledged: it is stored
    ev, _ = feed(r, 3, Card("5S", 3))
    assert ev == []
    ev, _ = feed(r, 1, Card("AS", 1))
    assert cards(ev) == [("AS", 1), ("KD", 2), ("5S", 3)]


def test_missing_card_becomes_lost_card_after_the_timeout_then_delivery_goes_on():
    r = fresh(16)
    feed(r, 1, Card("9H", 18), now=10.0)
    assert r.on_tick(15.9) == []
    ev = r.on_tick(16.0)
    assert ev[0] == LostCard(expected_n=17, got_n=18)
    assert cards(ev[1:]) == [("9H", 18)]
    assert r.stats.lost_cards == 1
    ev, _ = feed(r, 2, Card("4C", 17), now=17.0)  # too late: refused, never slotted in
    assert isinstance(ev[0], Refused) and "declared lost" in ev[0].reason


def test_status_ahead_of_the_cards_starts_the_gap_clock():
    r = fresh(3)
    ev, _ = feed(r, 1, Status("READY", 5, "S1"), now=0.0)
    assert ev == [ShoeStatus(state="READY", n=5, shoe_id="S1")]
    ev, _ = feed(r, 2, Card("2D", 4), now=1.0)  # progress restarts the clock
    assert cards(ev) == [("2D", 4)]
    assert r.on_tick(6.5) == []
    assert r.on_tick(7.0) == [LostCard(expected_n=5, got_n=6)]


def test_cut_is_reported_after_the_card_it_follows():
    r = fresh(4)
    ev, _ = feed(r, 2, Cut(5))
    assert ev == []
    ev, _ = feed(r, 1, Card("JC", 5))
    assert [e.type for e in ev] == ["card", "cut"] and ev[1] == CutCard(n=5)


def test_new_shoe_restarts_n():
    r = fresh()
    feed(r, 1, Card("AS", 1))
    feed(r, 2, Card("AH", 2))
    r.new_shoe()
    ev, _ = feed(r, 3, Card("7D", 1))
    assert cards(ev) == [("7D", 1)]


def test_mid_shoe_attach_takes_the_first_count_as_baseline():
    r = fresh(None)
    ev, _ = feed(r, 40, Card("8S", 57))
    assert cards(ev) == [("8S", 57)]
    r2 = fresh(None)  # a STATUS is no baseline: unacknowledged earlier cards may still come
    feed(r2, 1, Status("READY", 57, "S1"))
    assert r2.on_tick(100.0) == []
    ev, _ = feed(r2, 2, Card("8S", 55))
    assert cards(ev) == [("8S", 55)]
    ev, _ = feed(r2, 3, Card("4S", 56))
    assert cards(ev) == [("4S", 56)]


def test_status_is_reported_on_change_only_and_faults_always():
    r = fresh()
    assert len(feed(r, 1, Status("READY", 0, "S1"))[0]) == 1
    assert feed(r, 2, Status("READY", 0, "S1"))[0] == []
    assert feed(r, 3, Status("LOCKED", 0, "S1"))[0] == [ShoeStatus(state="LOCKED", n=0, shoe_id="S1")]
    assert feed(r, 4, Fault(21, "OPTICAL"))[0] == [ShoeFault(code=21, text="OPTICAL")]


def test_acks_from_the_shoe_are_not_acknowledged_and_seq_gaps_are_counted():
    r = fresh()
    assert feed(r, 1, Ack(5)) == ([], [])
    assert feed(r, 2, Nak(6)) == ([], [])
    feed(r, 5, Card("AS", 1))
    assert r.stats.seq_gaps == 1


# ------------------------------------------------------------------ property: never a wrong card


DECK = [r + s for r in "23456789TJQKA" for s in "SHDC"]


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_any_reordering_duplication_or_loss_never_yields_a_wrong_card(data):
    truth = data.draw(st.lists(st.sampled_from(DECK), min_size=1, max_size=25))
    frames = [Frame(i + 1, Card(c, i + 1)) for i, c in enumerate(truth)]
    frames += [Frame(100 + i, Status("READY", i, "S1")) for i in range(len(truth) + 1)]
    stream = data.draw(st.lists(st.sampled_from(frames), max_size=80))
    r = fresh()
    now, events = 0.0, []
    for f in stream:
        now += data.draw(st.floats(0, 4))
        ev, rep = r.on_frame(f, now)
        assert rep == [Ack(f.seq)]
        events += ev + r.on_tick(now)
    events += r.on_tick(now + 100)
    expected = 1
    for e in events:
        if isinstance(e, LostCard):
            assert e.expected_n == expected and e.got_n > expected
            expected = e.got_n
        elif isinstance(e, CardDrawn):
            assert (e.n, e.card) == (expected, truth[e.n - 1])
            expected += 1
    delivered = [e.n for e in events if isinstance(e, CardDrawn)]
    assert len(delivered) == len(set(delivered))
    assert set(delivered) <= {f.msg.n for f in stream if isinstance(f.msg, Card)}
