"""The session's card-accounting rules, hand-worked, without a line (Receiver is pure)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from drivers.events import Refused
from drivers.shoe.codec import Ack, Card, Cut, Fault, Frame, Hello, Nak, NoRead, Status
from drivers.shoe.events import CardDrawn, CutCard, LostCard, ShoeFault, ShoeStatus
from drivers.shoe.events import NoRead as NoReadEvent
from drivers.shoe.session import Receiver
from tests.shoe_truth import assert_never_a_wrong_card


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
    feed(r, 3, Status("READY", 18, "S1"), now=10.5)
    feed(r, 4, Status("READY", 18, "S1"), now=11.5)
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
    assert r.on_tick(7.0) == []  # one STATUS is not enough: it may be the forged one
    feed(r, 3, Status("READY", 5, "S1"), now=7.5)
    assert r.on_tick(7.6) == [LostCard(expected_n=5, got_n=6)]


def test_a_gap_is_declared_only_up_to_the_count_two_statuses_vouch_for():
    r = fresh(3)
    feed(r, 1, Card("9H", 9), now=0.0)  # 4..8 missing, or 9 is corrupt
    feed(r, 2, Status("READY", 9, "S1"), now=0.1)  # a forged STATUS would say the same ...
    feed(r, 3, Status("READY", 6, "S1"), now=1.0)  # ... but the next one says 6
    assert r.on_tick(100.0) == [LostCard(expected_n=4, got_n=7)]
    assert r.delivered_n == 6


def test_a_forged_count_far_ahead_is_dropped_and_the_real_cards_go_on():
    """The defect the 1,000-round blackjack soak found: line noise forged a CRC-valid CARD with
    n=237 where 75 was due. The shoe's STATUS frames after it deny the count: the frame is
    dropped with one refusal, only the card the noise ate (75) is lost, and the real cards go on."""
    r = fresh(74)
    assert feed(r, 1, Card("QS", 237), now=0.0)[0] == []
    assert feed(r, 2, Status("READY", 75, "S1"), now=0.5)[0][-1].type == "shoe_status"
    ev, _ = feed(r, 3, Status("READY", 75, "S1"), now=1.5)
    assert len(ev) == 1 and isinstance(ev[0], Refused) and "ahead of the shoe's own count 75" in ev[0].reason
    assert ev[0].raw == "CARD;QS;237" and not ev[0].reason.startswith("n=")  # an alert, not a hold
    assert r.on_tick(100.0) == [LostCard(expected_n=75, got_n=76)]  # 75 was eaten by the noise
    ev, _ = feed(r, 4, Card("2D", 76), now=101.0)
    assert cards(ev) == [("2D", 76)]
    ev, _ = feed(r, 5, Card("KC", 237), now=200.0)  # ... and so is the real 237 when it comes
    assert r.delivered_n == 76 and not [e for e in ev if isinstance(e, Refused)]


def test_a_card_held_behind_a_real_gap_is_never_dropped():
    r = fresh(4)
    feed(r, 1, Card("7H", 6), now=0.0)  # 5 is being resent
    feed(r, 2, Status("READY", 6, "S1"), now=0.5)
    ev, _ = feed(r, 3, Status("READY", 6, "S1"), now=1.5)
    assert not [e for e in ev if isinstance(e, Refused)]
    ev, _ = feed(r, 4, Card("5C", 5), now=1.6)
    assert cards(ev) == [("5C", 5), ("7H", 6)]


def test_a_forged_cut_card_ahead_of_the_count_is_dropped():
    r = fresh(10)
    feed(r, 1, Cut(200))
    feed(r, 2, Status("READY", 10, "S1"))
    ev, _ = feed(r, 3, Status("READY", 10, "S1"))
    assert [e.raw for e in ev if isinstance(e, Refused)] == ["CUT;200"]
    feed(r, 4, Cut(60))  # the real cut card is not refused as a second one
    ev, _ = feed(r, 5, Card("4H", 11))
    assert cards(ev) == [("4H", 11)] and not [e for e in ev if isinstance(e, Refused)]


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
    delivered = assert_never_a_wrong_card(events, truth)
    assert len(delivered) == len(set(delivered))
    assert set(delivered) <= {f.msg.n for f in stream if isinstance(f.msg, Card)}


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_forged_counts_far_ahead_never_yield_a_wrong_card_nor_stall_the_count(data):
    """A real shoe on a FIFO line (cards, late resends, cards eaten by noise, a STATUS a
    second) with CRC-valid forged cards far ahead of the count mixed in: every card delivered
    is the one dealt at its count, and at the end every count is delivered or declared lost."""
    truth = data.draw(st.lists(st.sampled_from(DECK), min_size=1, max_size=40))
    ops = data.draw(st.lists(st.sampled_from(["draw", "draw", "delay", "eat", "status", "forge", "resend"]),
                             max_size=120))
    r, seq, dealt, now = fresh(), 0, 0, 0.0
    delayed: list[Frame] = []
    events: list = []

    def send(msg) -> None:
        nonlocal seq
        seq += 1
        events.extend(r.on_frame(Frame(seq, msg), now)[0])

    for op in ops:
        now += 0.3
        if op in ("draw", "delay", "eat") and dealt < len(truth):
            dealt += 1
            card = Card(truth[dealt - 1], dealt)
            if op == "draw":
                send(card)
            elif op == "delay":
                seq += 1
                delayed.append(Frame(seq, card))
        elif op == "status":
            send(Status("READY", dealt, "S1"))
        elif op == "forge":
            send(Card(data.draw(st.sampled_from(DECK)), dealt + data.draw(st.integers(50, 500))))
        elif op == "resend" and delayed:
            events.extend(r.on_frame(delayed.pop(0), now)[0])
        events.extend(r.on_tick(now))
    for _ in range(2):
        now += 1.0
        send(Status("READY", dealt, "S1"))
    for late in range(1, len(truth) + 2):  # each gap behind a declared one gets its own timeout
        events.extend(r.on_tick(now + 100 * late))
    assert_never_a_wrong_card(events, truth)
    assert r.delivered_n == dealt  # nothing held back, nothing declared beyond the shoe's count


# ------------------------------------------------------------------ identity on a new link
def test_an_unproven_link_delivers_nothing_until_the_hello_that_answers_its_reset():
    r = Receiver(identity="SN42")
    r.new_shoe()
    r.connected()
    ev, rep = feed(r, 1, Status("READY", 2, "S1"))
    assert ev == [] and rep == [Ack(1)] and not r.unproven_settled  # the shoe counts 2, none came yet
    ev, rep = feed(r, 2, Card("AS", 1))
    assert ev == [] and rep == [Ack(2)]  # acknowledged and kept
    feed(r, 3, Card("AS", 1))  # its resend: kept once
    ev, _ = feed(r, 4, Card("KD", 2))
    assert ev == [] and r.unproven_settled  # every card it counts is in: a RESET loses none
    r.asked()
    ev, _ = feed(r, 1, Hello("CS-1", "1.0", "SN42"))
    assert [e.type for e in ev] == ["hello", "card", "card"] and cards(ev) == [("AS", 1), ("KD", 2)]
    assert r.proven


def kept_on_a_link_that_dropped() -> Receiver:
    """A card acknowledged on a link that dropped before its HELLO, and a new link up."""
    r = Receiver(identity="SN42")
    r.new_shoe()
    r.connected()
    ev, rep = feed(r, 7, Card("AS", 1))
    assert ev == [] and rep == [Ack(7)]  # acknowledged: the shoe no longer holds it
    r.connected()  # the bounce: a new link
    return r


def test_what_a_link_kept_outlives_it_when_it_drops_before_the_hello():
    """The adapter bounces as it goes in: the host opens the tty for a moment, acknowledges the
    card dealt while the cable was out (the shoe lets it go) and the tty vanishes before any
    HELLO. That card used to go with the link, gone from both ends; the next link delivers it."""
    r = kept_on_a_link_that_dropped()
    feed(r, 8, Status("READY", 1, "S1"))
    assert r.unproven_settled  # the card the shoe counts is known: a RESET loses nothing
    r.asked()
    ev, _ = feed(r, 1, Hello("CS-1", "1.0", "SN42"))
    assert cards(ev) == [("AS", 1)] and r.proven


def test_a_hello_that_is_a_new_links_first_word_vouches_for_what_earlier_links_kept():
    r = kept_on_a_link_that_dropped()
    ev, _ = feed(r, 1, Hello("CS-1", "1.0", "SN42"))  # said as the shoe came up on the new link
    assert [e.type for e in ev] == ["hello", "card"] and cards(ev) == [("AS", 1)]


def test_a_wrong_hello_drops_what_an_unproven_link_sent():
    r = Receiver(identity="SN42")
    r.new_shoe()
    r.connected()
    feed(r, 1, Card("AS", 1))
    r.asked()
    ev, _ = feed(r, 1, Hello("CS-1", "1.0", "SN99"))
    assert [e.type for e in ev] == ["hello", "fault"] and not cards(ev)
    assert not r.proven and r.impostor == "SN99"
    ev, rep = feed(r, 2, Card("KD", 2))
    assert ev == [] and rep == [Ack(2)]  # the impostor's frames: acknowledged, never applied
    ev, _ = feed(r, 1, Hello("CS-1", "1.0", "SN42"))  # this table's shoe back
    assert r.proven and not cards(ev)
    ev, _ = feed(r, 2, Card("KD", 1))
    assert cards(ev) == [("KD", 1)]


def test_a_receiver_never_connected_trusts_what_it_is_given():
    r = fresh()
    assert r.proven
    ev, _ = feed(r, 1, Card("AS", 1))
    assert cards(ev) == [("AS", 1)]


def test_a_restarted_host_asks_for_hello_as_soon_as_its_journal_holds_every_card_the_shoe_counts():
    """A restarted host knows no card on this link, only its journal's last count: when the shoe
    counts no more (and is the same shoe), nothing is on its way and a RESET may go at once;
    otherwise the host waits for the cards (or ``identify_settle``)."""
    for journaled, settled in ((("S1", 12), True), (("S1", 13), True), (("S1", 11), False), (("S2", 12), False),
                               (None, False)):
        r = Receiver(gap_timeout=6.0, journaled=journaled)
        r.connected()
        assert not r.unproven_settled  # no STATUS yet: the count is not known
        feed(r, 1, Status("READY", 12, "S1"))
        assert not r.proven and r.unproven_settled is settled, journaled
        feed(r, 2, Card("AS", 12))  # the card a journal short of it waited for
        assert r.unproven_settled, journaled
