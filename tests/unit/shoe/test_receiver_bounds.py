"""Issue 9, defect 10: CRC-valid hostile frames do not grow the shoe receiver. 100,000 frames,
each with a new seq, through the decoder and the receiver as the session feeds them: a CUT
per frame, cards far ahead of the count, cards just ahead that never close their gap. Every
container stays under its bound, and the table hears one refusal per flood, not 100,000."""

from __future__ import annotations

import sys

from drivers.shoe import codec
from drivers.shoe.codec import Decoder, Frame
from drivers.shoe.session import Receiver

FLOOD = 100_000
DEDUPE = 512
AHEAD = 512


def receiver() -> Receiver:
    r = Receiver(dedupe_window=DEDUPE, max_ahead=AHEAD)
    r.new_shoe()
    return r


def frame(seq: int, message: codec.Message) -> bytes:
    """One CRC-valid frame, built by hand (as an attacker would) rather than by the encoder."""
    fields = [f"{getattr(message, 'card', '')}"] if isinstance(message, codec.Card) else []
    body = ";".join([f"{seq % codec.SEQ_MOD:04X}", message.TYPE, *fields, str(message.n)]).encode()  # type: ignore[union-attr]
    return b"#" + body + f"*{codec.crc16(body):04X}\r\n".encode()


def wire(messages: list[codec.Message], first_seq: int = 1) -> bytes:
    return b"".join(frame(first_seq + i, m) for i, m in enumerate(messages))


def flood(r: Receiver, messages: list[codec.Message]) -> list[str]:
    decoder = Decoder("shoe")
    kinds: list[str] = []
    data = wire(messages)
    for start in range(0, len(data), 4096):
        for item in decoder.feed(data[start:start + 4096]):
            assert isinstance(item, Frame)
            events, replies = r.on_frame(item, 0.0)
            assert replies == [codec.Ack(item.seq)]  # every valid frame is still acknowledged
            kinds += [e.type for e in events]
    return kinds


def assert_bounded(r: Receiver) -> None:
    for name, size in r.sizes().items():
        assert size <= max(DEDUPE, AHEAD) + 1, f"{name} holds {size} entries"


def test_a_cut_card_per_frame_does_not_grow_the_receiver() -> None:
    r = receiver()
    assert flood(r, [codec.Card("AS", 1)]) == ["card"]
    kinds = flood(r, [codec.Cut(n) for n in range(2, FLOOD + 2)])
    assert_bounded(r)
    assert kinds == ["refused"]  # the first one waits for its count; the flood is refused once
    assert r.stats.refused_frames == FLOOD - 1


def test_cut_cards_at_counts_already_dealt_are_one_cut_card() -> None:
    r = receiver()
    flood(r, [codec.Card("AS", n) if n == 1 else codec.NoRead(n) for n in range(1, 101)])
    kinds = flood(r, [codec.Cut(1 + n % 100) for n in range(FLOOD)])
    assert_bounded(r)
    assert kinds.count("cut") == 1 and kinds.count("refused") == 1


def test_cards_far_ahead_of_the_count_are_refused_once() -> None:
    r = receiver()
    kinds = flood(r, [codec.Card("KD", AHEAD + 1 + n) for n in range(FLOOD)])
    assert_bounded(r)
    assert kinds == ["refused"] and r.delivered_n == 0


def test_cards_just_ahead_that_never_close_their_gap_stay_within_the_window() -> None:
    r = receiver()
    kinds = flood(r, [codec.Card("KD", 2 + n % (AHEAD + 100)) for n in range(FLOOD)])
    assert_bounded(r)
    assert len(r.cards.held) == AHEAD - 1  # counts 2..512 wait for card 1; the rest are refused
    assert kinds == ["refused"]


def test_hand_built_frames_are_the_encoder_s() -> None:
    assert frame(0x2A, codec.Card("QH", 17)) == b"#002A;CARD;QH;17*5EE8\r\n"  # the protocol's own vector
    assert frame(5, codec.Cut(40)) == codec.encode(5, codec.Cut(40))


def test_the_size_check_sees_every_container() -> None:
    r = receiver()
    assert {"seqs", "shoe.kept", "cards.recent", "cards.held", "cards.count._statuses"} <= set(r.sizes())
    assert sys.getsizeof(r.cards.held) < 64 * 1024
