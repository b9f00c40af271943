"""Every parser that reads bytes from outside the process, with the one error type each may
raise and valid seed inputs to mutate: used by the hypothesis fuzz tests (tests/fuzz) and by
``bench/fuzz.py``. Anything else escaping a parser is a defect."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass

from controller.backoffice import records
from controller.commands.parse import parse_order
from controller.feed.commands import parse_command
from controller.jsonbound import check_json
from controller.table.inputs import InputRefused
from controller.terminal.keyboard import parse_line as parse_dealer_line
from drivers.shoe import codec as csp1
from drivers.spots.session import SpotTracker
from drivers.wheel import codec as ss2
from tests.support import outcomes
from tests.unit.pit.feed_fuzz import SEEDS as DASHBOARD_FEED_SEEDS
from tests.unit.pit.feed_fuzz import dashboard_feed


@dataclass(frozen=True)
class Parser:
    name: str
    parse: Callable[[bytes], object]
    allowed: tuple[type[BaseException], ...]
    seeds: tuple[bytes, ...]


def _ss2(raw: bytes) -> object:
    return ss2.parse_line(raw)


def _csp1(raw: bytes) -> object:
    return csp1.Decoder().feed(raw)


_TRACKER = SpotTracker("t1", range(1, 8))


def _spot_press(raw: bytes) -> object:
    return _TRACKER.handle("croupier/t1/spot/3/press", raw, False)


def _console(raw: bytes) -> object:
    return parse_order(check_json(raw)).journal_form()


def _dealer(raw: bytes) -> object:
    payload = parse_dealer_line(raw.decode("utf-8", "replace"))
    return parse_order(payload).journal_form() if payload is not None else None


def _backoffice_feed(raw: bytes) -> object:
    """The back office's reading of a feed message, on the leaf the input's length picks (so
    mutations reach every leaf's model)."""
    leaf = records.LEAVES[len(raw) % len(records.LEAVES)]
    return records.parse(f"croupier/bj1/{leaf}", raw)


_ROUND = {"v": 1, "table": "bj1", "round": "bj1-000001", "ts": "2026-12-01T12:00:40.000Z", "seq": 10,
          "game": "blackjack", "opened": "2026-12-01T12:00:00.000Z", "closed": "2026-12-01T12:00:40.000Z",
          "status": "settled", "dealer": "maria", "shoe": "S-1", "shoe_round": 1,
          "outcome": outcomes.blackjack(boxes=[(1, ("TS", "QH"))]),
          "bets": [{"box": 1, "hand": 1, "kind": "main", "player": "p1", "stake": 1000, "payout": 2000}],
          "stake_total": 1000, "payout_total": 2000, "corrections": []}
_CORRECTED = {**_ROUND, "seq": 14, "corrections": [
    {"seq": 12, "reason": "paid short", "requested_by": "dealer", "requested": "2026-12-01T12:00:50.000Z",
     "approved_by": "anna", "approved": "2026-12-01T12:01:00.000Z", "approval": 13,
     "changes": [{"box": 1, "hand": 1, "kind": "main", "player": "p1", "stake": 1000, "before": 0, "after": 2000}],
     "payout_total_before": 0, "payout_total_after": 2000}],
    "journal": {"prev": "0" * 64, "rows": [
        {"seq": 13, "ts": "2026-12-01T12:01:00.000Z", "round": None, "kind": "pit_command", "source": "pit:anna",
         "payload": '{"command":"approve_correction","correction":12}', "hash": "a" * 64, "mac": None},
        {"seq": 14, "ts": "2026-12-01T12:01:00.001Z", "round": "bj1-000001", "kind": "round_closed",
         "source": "table", "payload": "{}", "hash": "b" * 64, "mac": "c" * 64}]}}
BACKOFFICE_FEED_SEEDS = tuple(json.dumps(body, separators=(",", ":")).encode() for body in (
    _ROUND, _CORRECTED,
    {"v": 1, "table": "bj1", "round": None, "ts": "2026-12-01T12:00:00.000Z", "seq": 9, "severity": "error",
     "code": "blackjack.dealer.stands", "message": "dealer drew on 17", "hold": True},
    {"v": 1, "table": "bj1", "round": None, "ts": "2026-12-01T12:00:00.000Z", "seq": 11, "kind": "pit_command",
     "source": "pit:anna", "payload": {"v": 1, "id": "pit-1", "sender": "anna", "command": "acknowledge_alert",
                                       "alert": 9}},
    {"v": 1, "table": "bj1", "seq": 12, "hash": "ab" * 32, "ts": "2026-12-01T12:00:00.000Z"},
    {"v": 1, "table": "bj1", "round": None, "ts": "2026-12-01T12:00:00.000Z", "game": "blackjack", "preset": "ru6",
     "currency": "EUR", "currency_digits": 2, "pace": {"rounds_per_hour": 52.0, "target": 60, "window_s": 900}}))


def _press(seq: int, button: str = "hit", **extra: object) -> bytes:
    return json.dumps({"v": 1, "device": "spot-3", "seq": seq, "button": button, **extra}).encode()


PARSERS: tuple[Parser, ...] = (
    Parser("ss2", _ss2, (ss2.CodecError,), (
        b"*X;5;011;25;0;165;1\r\n", b"*X;2;001;  ;0;174;0\r\n", b"*Z;1;17;00\r\n", b"*V;SS2;1.04\r\n")),
    Parser("csp1", _csp1, (), (
        csp1.encode(1, csp1.Card(card="AH", n=1)), csp1.encode(2, csp1.Card(card="TS", n=2)),
        b"#0003;NOREAD;3*0000\r\n#0004;CUT;4*FFFF\r\n")),
    Parser("spot_press", _spot_press, (), (
        _press(5), _press(6, "bet", amount=500, kind="perfect_pairs"), _press(7, "bet", amount=100, kind="straight:17"),
        b'{"v":1,"device":"spot-3x","seq":1,"button":"hit"}')),
    Parser("pit_command", parse_command, (), (
        b'{"v":1,"id":"c1","sender":"pit-boss-anna","command":"close_after_round"}',
        b'{"v":1,"id":"c2","sender":"pit-boss-anna","command":"acknowledge_alert","alert":12}',
        b'{"v":1,"id":"c3","sender":"p","command":"void_round","round":"t1-000004"}')),
    Parser("console_request", _console, (InputRefused,), (
        b'{"command":"bet","box":1,"amount":500,"player":"A"}', b'{"command":"decide","box":2,"action":"hit"}',
        b'{"command":"correct","round":"t1-000004","reason":"misread","changes":'
        b'[{"box":1,"hand":1,"kind":"main","payout":2500}]}', b'{"command":"sign_in","dealer":"anna.k"}')),
    Parser("dealer_line", _dealer, (ValueError,), (
        b"bet box=1 amount=500 player=A", b"decide box=1 action=hit", b"key_card card=10H",
        b"correct round=t1-000004 changes='[{\"box\":1,\"hand\":1,\"kind\":\"main\",\"payout\":2500}]' reason=\"x y\"")),
    Parser("dashboard_feed", dashboard_feed, (), DASHBOARD_FEED_SEEDS),
    Parser("backoffice_feed", _backoffice_feed, (), BACKOFFICE_FEED_SEEDS),
)
BY_NAME = {p.name: p for p in PARSERS}


def mutate(rng: random.Random, seed: bytes) -> bytes:
    """One hostile variant of ``seed``: bytes flipped, cut, repeated, nested or random."""
    data = bytearray(seed)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(7)
        at = rng.randrange(len(data) + 1)
        if op == 0 and data:
            data[at % len(data)] = rng.randrange(256)
        elif op == 1:
            del data[at:at + rng.randint(1, 8)]
        elif op == 2:
            data[at:at] = rng.randbytes(rng.randint(1, 8))
        elif op == 3:
            depth = rng.choice((3, 50, 2000))
            data[at:at] = b"[" * depth + b"1" + b"]" * depth
        elif op == 4:
            data[at:at] = rng.choice((b'"', b"\\", b"{", b"}", b";", b"*", b"#", b"\r\n", b"=", b"'", b"1e999", b"-0",
                                      b"1050.5", b"null", b"true", b"\xff\xfe"))
        elif op == 5:
            data = data[:at] + data[at:] * rng.randint(2, 20)
        else:
            data = bytearray(rng.randbytes(rng.randint(0, 80)))
    return bytes(data)
