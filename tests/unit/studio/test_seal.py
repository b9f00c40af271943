"""The seal's digest is the contract's (canonical JSON of the bets sorted by id), and a seal fits
the table's 4 KiB however many kinds a round has."""

from __future__ import annotations

import hashlib
import json

from hypothesis import given
from hypothesis import strategies as st

from controller.studio.seal import BookBet, digest, seal_body, seal_id

BETS = st.lists(st.builds(BookBet, id=st.text(min_size=1, max_size=12), player=st.text(min_size=1, max_size=8),
                          kind=st.sampled_from(["red", "black", "straight:17", "split:1-2", "banker", "tie"]),
                          amount=st.integers(1, 10**9)), unique_by=lambda b: b.id, max_size=30)


@given(BETS)
def test_the_digest_is_the_contracts_and_ignores_the_order(bets: list[BookBet]) -> None:
    rows = sorted(({"id": b.id, "player": b.player, "kind": b.kind, "amount": b.amount} for b in bets),
                  key=lambda r: str(r["id"]))
    expected = hashlib.sha256(json.dumps(rows, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
                              .encode()).hexdigest()
    assert digest(bets) == expected == digest(list(reversed(bets)))


def test_a_seal_of_a_whole_layout_fits_the_tables_limit() -> None:
    big = 1_234_567  # long amounts: the kinds map is longest
    bets = [BookBet(f"r{n}:0", f"p{n}", f"straight:{n % 37}", big) for n in range(400)]
    bets += [BookBet(f"s{n}:0", f"q{n}", f"split:{n}-{n + 1}", big) for n in range(1, 70)]
    bets += [BookBet(f"t{n}:0", f"q{n}", f"corner:{n}-{n + 1}-{n + 3}-{n + 4}", big) for n in range(1, 33)]
    bets += [BookBet(f"u{n}:0", f"q{n}", f"street:{n}-{n + 1}-{n + 2}", big) for n in range(1, 35)]
    whole = {b.kind: 0 for b in bets}
    for b in bets:
        whole[b.kind] += b.amount
    assert len(json.dumps(whole, separators=(",", ":"))) > 4096  # whole, the kinds would not fit
    body = seal_body("rl-eu-000001", bets)
    envelope = {"v": 1, "id": "0" * 36, "type": "seal", **body}
    assert len(json.dumps(envelope, separators=(",", ":"))) <= 4096
    assert body["count"] == len(bets) and body["stake"] == sum(b.amount for b in bets)
    assert body["kinds"] == {"corner": 32 * big, "split": 69 * big, "straight": 400 * big, "street": 34 * big}
    small = seal_body("rl-eu-000002", bets[:3])
    assert small["kinds"] == {"straight:0": big, "straight:1": big, "straight:2": big}


def test_a_seal_sent_again_has_the_same_id_another_seal_another() -> None:
    """The table's inbox takes an id once: the same seal sent twice is journaled once."""
    bets = [BookBet("r1:0", "p1", "red", 500)]
    body = seal_body("rl-eu-000001", bets)
    assert seal_id("rl-eu", body) == seal_id("rl-eu", seal_body("rl-eu-000001", list(bets)))
    assert seal_id("rl-eu", body) != seal_id("rl-eu", seal_body("rl-eu-000001", [*bets, BookBet("r2:0", "p2", "red", 5)]))
    assert seal_id("rl-eu", body) != seal_id("rl-eu", seal_body("rl-eu-000002", bets))  # an empty book's digest repeats
    assert seal_id("rl-eu", body) != seal_id("bj1", body)
    assert len(seal_id("rl-eu", body)) <= 64
