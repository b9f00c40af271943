"""The feed's acknowledgement counts (entries in flight, retained topics in flight) are kept as
messages are sent and settled; they must equal what a walk of the messages still unacknowledged
says, whatever the order of sends and acknowledgements."""

from hypothesis import given
from hypothesis import strategies as st

from controller.feed.acks import AckTracker

SEND = st.tuples(st.just("send"), st.one_of(st.none(), st.integers(1, 10**6)), st.sampled_from([None, "state", "prompt"]))
ACK = st.tuples(st.just("ack"), st.integers(0, 5), st.none())


@given(st.lists(st.one_of(SEND, ACK), max_size=80))
def test_counts_match_the_unacknowledged_messages(steps):
    acks = AckTracker()
    outbox: list[tuple[int | None, str | None]] = []  # what the link still holds, oldest first
    for step, a, b in steps:
        if step == "send":
            seq, retained = (a, None) if b is None else (None, b)
            acks.sent(seq=seq, retained=retained)
            outbox.append((seq, retained))
        else:
            del outbox[:a]  # the broker acknowledged the oldest ``a``
            acks.settle(len(outbox))
        unacked = list(acks._sent)
        assert acks.entries_in_flight == sum(1 for s in unacked if s.seq is not None)
        assert acks.retained_in_flight == {s.retained for s in unacked if s.retained is not None}
        assert len(acks) == len(unacked)
