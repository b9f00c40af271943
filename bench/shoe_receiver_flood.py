"""Per-frame cost of the shoe receiver under a flood of CRC-valid hostile frames (issue 9,
defect 10): a new seq per CUT, each ahead of the card count, with a genuine card every 100
frames (the shoe keeps dealing). Prints the mean cost of the first and the last 10,000 frames
of ``--frames`` and the receiver's largest container.

    .venv/bin/python bench/shoe_receiver_flood.py [--frames 100000] [--json]
"""

from __future__ import annotations

import argparse
import json
import time

from drivers.shoe import codec
from drivers.shoe.codec import Decoder, Frame
from drivers.shoe.session import Receiver


def frame(seq: int, body_tail: str) -> bytes:
    body = f"{seq % codec.SEQ_MOD:04X};{body_tail}".encode()
    return b"#" + body + f"*{codec.crc16(body):04X}\r\n".encode()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--frames", type=int, default=100_000)
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args()
    frames = args.frames
    receiver = Receiver()
    receiver.new_shoe()
    decoder = Decoder("shoe")
    for item in decoder.feed(frame(1, "CARD;AS;1")):
        assert isinstance(item, Frame)
        receiver.on_frame(item, 0.0)
    raw = [frame(2 + i, f"CARD;KD;{2 + i // 100}" if i % 100 == 99 else f"CUT;{10_000 + i}") for i in range(frames)]
    costs: list[float] = []
    for data in raw:
        began = time.perf_counter()
        for item in decoder.feed(data):
            assert isinstance(item, Frame)
            receiver.on_frame(item, 0.0)
        costs.append(time.perf_counter() - began)
    window = min(10_000, frames // 2)
    first = sum(costs[:window]) / window * 1e6
    last = sum(costs[-window:]) / window * 1e6
    largest = max((size, name) for name, size in receiver.sizes().items())
    if args.json:
        print(json.dumps({"frames": frames, "window": window, "first_us": round(first, 2), "last_us": round(last, 2),
                          "largest_container": largest[1], "largest_entries": largest[0]}))
        return
    print(f"frames: {frames}")
    print(f"per frame, first {window}: {first:.1f} us")
    print(f"per frame, last {window}:  {last:.1f} us")
    print(f"largest container: {largest[1]} ({largest[0]} entries)")


if __name__ == "__main__":
    main()
