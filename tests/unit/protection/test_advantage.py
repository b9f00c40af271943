"""The advantage-play watch on journal streams made from real shuffled shoes: counters flagged,
flat and random bettors not. (The same watch over the real table path: tests/integration/protection.)"""

import math
import random
from collections.abc import Iterator
from typing import Any

import pytest

from controller.cards import DECK
from controller.protection.advantage import AdvantageWatch
from controller.protection.hilo import ShoeCount
from controller.protection.styles import bettor
from tests.support import outcomes

TS = "2026-12-01T10:00:00.000Z"

UNIT = 500


def journal(styles: list[str], shoes: int, seed: int) -> Iterator[tuple[str, dict[str, Any], str]]:
    """Entries of a 6-deck table: each player counts what it has seen and bets by its style."""
    rng = random.Random(seed)
    players = [(f"P{i + 1}", i + 1, bettor(style, random.Random(seed * 10 + i))) for i, style in enumerate(styles)]
    counter = ShoeCount(6)
    minute = 0
    for shoe in range(shoes):
        cards = list(DECK) * 6
        rng.shuffle(cards)
        status = ("device", {"type": "shoe_status", "shoe_id": f"s-{shoe}", "n": 0, "state": "READY"}, "")
        counter.apply(*status[:2])
        yield status
        n = 0
        while n < 0.75 * len(cards):
            minute += 1
            ts = f"2026-12-01T{10 + minute // 3600 % 10:02d}:{minute // 60 % 60:02d}:{minute % 60:02d}Z"
            yield "command", {"command": "open_round"}, ts
            for player, box, style in players:
                units = style.units(counter.true_count)
                if units is not None:
                    yield "command", {"command": "bet", "box": box, "amount": units * UNIT, "player": player}, ts
            yield "command", {"command": "close_betting"}, ts
            for _ in range(round(2.7 * (len(players) + 1))):
                n += 1
                entry = ("device", {"type": "card", "card": cards[n - 1], "n": n}, ts)
                counter.apply(*entry[:2])
                yield entry


def watched(styles: list[str], shoes: int, seed: int) -> AdvantageWatch:
    watch = AdvantageWatch(6)
    for kind, payload, ts in journal(styles, shoes, seed):
        watch.apply(kind, payload, ts)
    return watch


def test_a_ramp_counter_is_flagged_and_flat_and_random_bettors_are_not() -> None:
    flags = watched(["flat", "random", "counter-1-8", "counter-1-12", "counter-cover", "wonger"], 12, 1).flags()
    assert not flags["P1"].flagged and math.isnan(flags["P1"].statistic)  # a flat bet correlates with nothing
    assert not flags["P2"].flagged
    for player in ("P3", "P4", "P5"):
        flag = flags[player]
        assert flag.flagged and flag.test == "bet_ramp"
        assert flag.flagged_after is not None and flag.flagged_after <= 300
        assert flag.statistic > 0.3 and flag.ci_low > 0 and flag.p_value < 1e-6
        assert flag.edge_per_hour > 0
    assert flags["P6"].flagged and flags["P6"].test == "wonging"


def test_the_flag_charts_bets_against_the_count_a_counter_ramps_a_flat_bettor_does_not() -> None:
    flags = watched(["flat", "counter-1-8"], 12, 1).flags()
    flat, counter = dict(flags["P1"].bets_by_count), dict(flags["P2"].bets_by_count)
    assert set(flat.values()) == {UNIT}  # the same bet at every count
    assert counter[max(counter)] >= 4 * counter[min(counter)]  # the ramp: high counts, big bets
    assert all(-10 <= step <= 10 for step in counter)
    rounds = sum(1 for kind, payload, _ in journal(["flat", "counter-1-8"], 12, 1)
                 if kind == "command" and payload["command"] == "close_betting")
    assert flags["P1"].rounds == rounds  # each round played is one of the chart's points' rounds
    assert flags["P2"].as_json()["bets_by_count"] == [list(point) for point in flags["P2"].bets_by_count]


@pytest.mark.parametrize("seed", range(3))
def test_flat_and_random_bettors_stay_unflagged_over_a_long_day(seed: int) -> None:
    flags = watched(["flat", "random", "random", "random"], 40, 100 + seed).flags()
    assert not any(flag.flagged for flag in flags.values())
    assert flags["P2"].rounds > 600


def test_edge_per_hour_uses_the_measured_time_when_there_is_enough_of_it() -> None:
    flags = watched(["counter-1-8"], 15, 3).flags()
    flag = flags["P1"]
    # one round a minute in this stream: 60 rounds an hour, the gain per round times 60
    assert flag.rounds > 600 and flag.edge_per_hour > 0


def _round(decisions: list[tuple[str, float]], cards: list[str], dealer: list[str]) -> dict[str, int]:
    """One box's decisions (each with the true count the table had then), then its record."""
    from controller.protection.index_plays import IndexPlays

    plays = IndexPlays()
    for action, count in decisions:
        plays.decision("P", 1, 1, action, count)
    bets = [{"box": 1, "hand": 1, "kind": "main", "player": "P", "stake": 1000, "payout": 0}]
    plays.round_closed({"v": 1, "table": "bj1", "round": "bj1-000001", "game": "blackjack", "opened": TS, "closed": TS,
                        "status": "settled", "dealer": None, "shoe": None, "shoe_round": None,
                        "outcome": outcomes.blackjack(dealer, [(1, cards)]), "bets": bets, "stake_total": 1000,
                        "payout_total": 0, "corrections": []})
    tally = plays.tallies.get("P")
    return tally.as_json() if tally else {}


def test_index_plays_are_read_back_from_the_round_record() -> None:
    # 16 against a ten: standing at a true count of +1 is the index play; at -2 it is against the count
    assert _round([("stand", 1.0)], ["TS", "6H"], ["KD", "8C"]) == {
        "situations": 1, "with_count": 1, "against_count": 0, "missed": 0}
    assert _round([("stand", -2.0)], ["TS", "6H"], ["KD", "8C"])["against_count"] == 1
    # hard 12 against a 2 hit at +3.5 is a missed index play (the count says stand); the bust after is none
    assert _round([("hit", 3.5), ("stand", 3.5)], ["TS", "2H", "QC"], ["2D", "9C"]) == {
        "situations": 1, "with_count": 0, "against_count": 0, "missed": 1}
    # 8, 2 (hard 10 v 2: no index), hit to 12, then stood at +3.5: the index play
    tally = _round([("hit", 3.5), ("stand", 3.5)], ["8S", "2H", "2C"], ["2D", "9C"])
    assert tally == {"situations": 1, "with_count": 1, "against_count": 0, "missed": 0}  # 12 v 2 stood at +3.5
    # insurance at +4 is the play; declined at +4 it is missed; a soft hand is no index situation
    assert _round([("insurance", 4.0)], ["TS", "7H"], ["AD", "9C"])["with_count"] == 1
    assert _round([("no_insurance", 4.0)], ["TS", "7H"], ["AD", "9C"])["missed"] == 1
    assert _round([("stand", 1.0)], ["AS", "5H"], ["KD", "8C"]) == {}
