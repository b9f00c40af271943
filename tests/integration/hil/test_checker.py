"""The soak's verdict is its own: hand-worked roulette rounds where the table's record and the
soak's recomputation agree, and each way they can disagree (a payout off by a cent, a bet
missing from the record, a round closed twice, a number the wheel never spun, a pit that missed
an event) is caught and named."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from controller.config import load
from controller.feed.ledger import Ledger
from controller.games.blackjack.engine import BlackjackRound
from controller.games.blackjack.rules import blackjack_rules
from controller.games.roulette.engine import RouletteRound
from controller.hil.checker import check
from controller.hil.mqtt import PitWatcher
from controller.hil.replay import CardTruth, SpinTruth
from controller.hil.rig import DrawnCard, Spin
from controller.hil.tail import Row
from controller.journal import Entry

ROOT = Path(__file__).resolve().parents[3]
RULES = load(ROOT / "config" / "roulette-european.toml").game_rules()


def engine() -> RouletteRound:
    return RouletteRound(RULES)  # type: ignore[arg-type]


def bet(kind: str, amount: int, payout: int, box: int = 1, player: str = "P1") -> dict[str, Any]:
    return {"box": box, "hand": 1, "kind": kind, "player": player, "stake": amount, "payout": payout}


def journal(number: str = "17") -> list[Row]:
    """One spin: 100 on straight 17 and 500 on black by P1, the wheel says ``number`` at spin 1.
    17 is black: straight pays 35:1 (3600 back), black 1:1 (1000 back)."""
    rid = "rl-000001"
    bets = [bet("straight:17", 100, 3600), bet("black", 500, 1000)]
    payloads: list[tuple[str | None, str, dict[str, Any]]] = [
        (None, "command", {"command": "open_round"}),
        (rid, "command", {"command": "bet", "box": 1, "kind": "straight:17", "amount": 100, "player": "P1"}),
        (rid, "command", {"command": "bet", "box": 1, "kind": "black", "amount": 500, "player": "P1"}),
        (rid, "device", {"device": "wheel", "type": "no_more_bets", "spin": 1}),
        (rid, "device", {"device": "wheel", "type": "winning_number", "spin": 1, "number": number}),
        (rid, "round_closed", {"round": rid, "status": "settled", "bets": bets, "stake_total": 600,
                               "payout_total": 4600}),
    ]
    return [Row(seq, r, kind, "test", p) for seq, (r, kind, p) in enumerate(payloads, 1)]


def pit_with(rows: list[Row], *, ledger: tuple[int, int, int, int] = (1, 0, 600, 4600)) -> PitWatcher:
    pit = PitWatcher(0, "rl")
    pit.event_seqs = {r.seq for r in rows}
    for r in rows:
        if r.kind == "round_closed":
            pit.rounds.setdefault(str(r.round_id), []).append(r.payload)
    pit.ledger = dict(zip(("rounds_settled", "rounds_void", "stake_total", "payout_total"), ledger, strict=True))
    return pit


def verdict(rows: list[Row], spun: str = "17", pit: PitWatcher | None = None) -> Any:
    return check(rows, engine, SpinTruth([Spin(1, spun)]), pit or pit_with(rows))


def test_a_round_the_table_settled_right_passes() -> None:
    v = verdict(journal())
    assert (v.rounds_settled, v.stake_total, v.payout_total) == (1, 600, 4600)
    assert (v.lost_bets, v.double_settled, v.payout_mismatches, v.card_mismatches) == (0, 0, 0, 0)
    assert v.ledger_balanced and v.feed_complete and not v.examples


def test_a_payout_one_cent_off_is_a_mismatch_and_unbalances_the_ledger() -> None:
    rows = journal()
    rows[-1].payload["bets"][0]["payout"] = 3599
    rows[-1].payload["payout_total"] = 4599
    v = verdict(rows)
    assert v.payout_mismatches == 1 and not v.ledger_balanced


def test_a_bet_missing_from_the_record_is_lost() -> None:
    rows = journal()
    rows[-1].payload["bets"] = rows[-1].payload["bets"][:1]
    rows[-1].payload["stake_total"], rows[-1].payload["payout_total"] = 100, 3600
    assert verdict(rows).lost_bets == 1


def test_a_round_never_closed_loses_its_bets() -> None:
    assert verdict(journal()[:-1]).lost_bets == 2


def test_a_round_closed_twice_is_double_settled() -> None:
    rows = journal()
    again = Row(7, rows[-1].round_id, "round_closed", "table", copy.deepcopy(rows[-1].payload))
    assert verdict([*rows, again]).double_settled == 1


def test_the_wheel_number_comes_from_the_rig_not_the_table() -> None:
    # the table read 17, the rig spun 18 (red): the soak pays what the rig spun
    v = verdict(journal(), spun="18")
    assert v.card_mismatches == 1 and v.payout_mismatches == 1


def test_a_pit_that_missed_an_event_or_a_ledger_is_incomplete() -> None:
    rows = journal()
    pit = pit_with(rows)
    pit.event_seqs.discard(3)
    assert not verdict(rows, pit=pit).feed_complete
    assert not verdict(rows, pit=pit_with(rows, ledger=(1, 0, 600, 4601))).ledger_balanced


def test_a_round_still_open_at_the_end_counts_its_bets_as_lost_before_the_result() -> None:
    assert verdict(journal()[:-2]).lost_bets == 2  # bets in, no more bets, no number, never closed


def test_a_void_round_counts_its_bets_that_stood_as_the_pit_ledger_counts_them() -> None:
    """bj-ru6-000826 of the seed-31 soak, in small: a round voided after one bet was settled
    (a blackjack paid at once: 500 staked, 1250 paid, it stands) and another returned (300). The
    pit's ledger (the feed's own fold) and the soak's reading of the journal must agree on it."""
    rows = journal()
    rows[-1].payload.update(
        status="void", stake_total=800, payout_total=1550,
        bets=[bet("straight:17", 500, 1250), bet("black", 300, 300)],
        outcome={"void": {"reason": "lost card", "returned": [1], "stands": [0], "returned_total": 300,
                          "stands_payout_total": 1250}})
    ledger = Ledger()
    closed = rows[-1]
    ledger.apply(Entry(closed.seq, "2026-01-01T00:00:00Z", closed.round_id, "round_closed", "table", closed.payload))
    t = ledger.totals
    assert (t.rounds_settled, t.rounds_void, t.stake_total, t.payout_total) == (0, 1, 500, 1250)
    v = verdict(rows, pit=pit_with(rows, ledger=(t.rounds_settled, t.rounds_void, t.stake_total, t.payout_total)))
    assert (v.rounds_void, v.stake_total, v.payout_total) == (1, 500, 1250)
    assert not [n for n in v.examples if n.startswith("pit ledger")]


def lost_card_round(*lost: tuple[str, dict[str, Any]]) -> Any:
    """A blackjack round (ru6, P1 500 on box 1: TS 9H 8S, stands) whose dealer card is lost as
    ``lost`` journals it; the table holds, voids the round and returns the 500. The verdict."""
    rid = "bj-ru6-000001"
    payloads: list[tuple[str | None, str, dict[str, Any]]] = [
        (None, "command", {"command": "open_round"}),
        (rid, "command", {"command": "bet", "box": 1, "kind": "main", "amount": 500, "player": "P1"}),
        (rid, "command", {"command": "close_betting"}),
        (rid, "device", {"device": "shoe", "type": "card", "card": "TS", "n": 1}),
        (rid, "device", {"device": "shoe", "type": "card", "card": "9H", "n": 2}),
        (rid, "device", {"device": "shoe", "type": "card", "card": "8S", "n": 3}),
        (rid, "command", {"command": "decide", "box": 1, "hand": 1, "action": "stand", "player": "P1"}),
        *((rid, kind, p) for kind, p in lost),
        (rid, "command", {"command": "void_round", "reason": "shoe.lost_card"}),
        (rid, "round_closed", {"round": rid, "status": "void", "stake_total": 500, "payout_total": 500,
                               "bets": [bet("main", 500, 500)],
                               "outcome": {"void": {"returned": [0], "stands": [], "returned_total": 500}}}),
    ]
    rows = [Row(seq, r, kind, "test", p) for seq, (r, kind, p) in enumerate(payloads, 1)]
    drawn = [DrawnCard(1, n, c) for n, c in enumerate(["TS", "9H", "8S", "2C", "KD"], 1)]
    return check(rows, lambda: BlackjackRound(blackjack_rules("ru6")), CardTruth(drawn),
                 pit_with(rows, ledger=(0, 1, 0, 0)))


def test_a_card_past_a_gap_is_not_dealt_in_the_recomputation_as_the_table_holds_on_it() -> None:
    """bj-ru6-000955 of a 1,000-round soak, in small: after a restart the shoe's card 4 never
    arrived and card 5 did; the table held on it (``shoe.lost_card``, cards 4..4 never arrived),
    dealt nothing and voided the round, returning the 500 still riding. The recomputation deals
    card 5 neither (it used to give it to the dealer, and pay the box as lost)."""
    v = lost_card_round(
        ("device", {"device": "shoe", "type": "card", "card": "KD", "n": 5}),
        ("alert", {"code": "shoe.lost_card", "hold": True, "cards": ["?", "KD"], "severity": "error"}))
    assert (v.payout_mismatches, v.card_mismatches, v.lost_bets) == (0, 0, 0), v.examples
    assert v.ledger_balanced


def test_a_card_journaled_before_the_lost_card_hold_alert_is_set_aside_too() -> None:
    """bj-ru6-000079 of a 100-round soak: the shoe reported card 4 lost, card 5 came at once and
    was journaled before the hold's alert; the table held from the report on and set card 5
    aside. The recomputation holds from the report too."""
    v = lost_card_round(
        ("device", {"device": "shoe", "type": "lost_card", "expected_n": 4, "got_n": 5}),
        ("device", {"device": "shoe", "type": "card", "card": "KD", "n": 5}),
        ("alert", {"code": "shoe.lost_card", "hold": True, "cards": ["?"], "severity": "error"}),
        ("alert", {"code": "table.card_during_hold", "hold": True, "card": "KD", "severity": "error"}))
    assert (v.payout_mismatches, v.card_mismatches, v.lost_bets) == (0, 0, 0), v.examples
    assert v.ledger_balanced
