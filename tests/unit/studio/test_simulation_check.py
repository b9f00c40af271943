"""The simulation's independent reading settles a remote bet from the table's journaled record
without the studio's settlement code, and counts every bet the studio paid otherwise."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from controller.cards import CARDS
from controller.studio.config import TableSection
from controller.studio.rules import TableRules
from controller.studio.simulation.check import JournalReading, differences, owed, player_results
from tests.unit.studio.test_settlement_engines import BLACKJACK, RUSSIAN, THREE_CARD, blackjack_felt, felt_round

ROULETTE = TableSection(game="roulette", preset="european")
SEVENTEEN = {"wheel": "european", "numbers": ["17"], "colours": ["black"], "multipliers": {}, "voids": []}


def record(outcome: dict[str, object], *, sealed: bool = True, status: str = "settled") -> dict[str, object]:
    return {"round": "t1-000001", "status": status, "outcome": outcome, "remote": {"sealed": sealed}}


def test_a_bet_paid_otherwise_than_the_journaled_record_owes_is_a_difference() -> None:
    rules = ROULETTE.game_rules()
    reading = JournalReading(records={"t1-000001": record(SEVENTEEN)})
    right = [("t1-000001", "straight:17", 100, 3600), ("t1-000001", "red", 500, 0)]
    assert differences("roulette", rules, reading, right) == 0
    assert differences("roulette", rules, reading, [("t1-000001", "black", 500, 0)]) == 1  # black won
    assert differences("roulette", rules, reading, [("t1-000002", "red", 500, 0)]) == 1  # a round never closed


def test_a_round_closed_without_the_seal_or_void_owes_every_stake_back() -> None:
    rules = ROULETTE.game_rules()
    assert owed("roulette", rules, "straight:17", 100, record(SEVENTEEN, sealed=False)) == 100
    assert owed("roulette", rules, "straight:17", 100, record(SEVENTEEN, status="void")) == 100


def test_each_players_result_as_the_studio_settled_it_and_as_the_journal_owes_it() -> None:
    rules = ROULETTE.game_rules()
    reading = JournalReading(records={"t1-000001": record(SEVENTEEN)})
    bets = [("p1", "t1-000001", "straight:17", 100, "settled", 3600, "c/p1"),
            ("p1", "t1-000001", "red", 500, "settled", 0, "c/p1"),
            ("p2", "t1-000001", "black", 500, "settled", 500, "c/p2"),  # paid as a loss: black won, 1000 was owed
            ("p3", "t1-000001", "red", 500, "accepted", None, "c/p3"),  # never settled
            ("p4", "t1-000002", "red", 500, "refunded", None, "c/p4")]  # a round the journal never closed
    assert player_results("roulette", rules, reading, bets) == {
        "p1": (3000, 3000), "p2": (0, 500), "p3": (None, -500), "p4": (0, None)}


@given(box=st.integers(1, 3), units=st.integers(1, 5), seed=st.integers(0, 2**32))
def test_the_reading_and_the_studio_agree_on_the_card_games_side_bets(box: int, units: int, seed: int) -> None:
    for table, side in ((THREE_CARD, "ace_plus"), (RUSSIAN, "bonus")):
        outcome, _ = felt_round(table, side, box, units * 100, seed)
        kind = f"{side}@{box}"
        studio = table.payout(kind, units * 100, outcome)
        assert owed(table.game, table.rules, kind, units * 100, record(outcome)) == studio


@given(seed=st.integers(0, 2**32), kind=st.sampled_from(["player", "banker", "tie"]))
def test_the_reading_deals_a_baccarat_coup_as_the_felt_did(seed: int, kind: str) -> None:
    from controller.games.base import CloseBetting, Deal, ExpectKind, PlaceBet

    table = TableRules(TableSection(game="baccarat"))
    shoe = random.Random(seed).sample(sorted(CARDS), 6)
    felt = table.adapter.new_round(table.rules)
    felt.apply(PlaceBet(1, kind, 1000, "felt"))
    felt.apply(CloseBetting())
    while felt.expects().kind is ExpectKind.CARD:
        felt.apply(Deal(shoe.pop(0)))
    (paid,) = [s.payout for s in felt.settlements]
    assert owed("baccarat", table.rules, kind, 1000, record(felt.outcome().model_dump(mode="json"))) == paid


@given(side=st.sampled_from(["perfect_pairs", "21+3"]), box=st.integers(1, 3), seed=st.integers(0, 2**32))
def test_the_reading_and_the_studio_agree_on_blackjacks_side_bets(side: str, box: int, seed: int) -> None:
    outcome, _ = blackjack_felt(side, box, 500, seed)
    kind = f"{side}@{box}"
    assert owed("blackjack", BLACKJACK.rules, kind, 500, record(outcome)) == BLACKJACK.payout(kind, 500, outcome)
    assert owed("blackjack", BLACKJACK.rules, f"{side}@6", 500, record(outcome)) == 500  # a box nobody played


def seated(rows: list[dict[str, object]], refunded: list[int]) -> dict[str, object]:
    return {"round": "t1-000001", "status": "settled", "outcome": {}, "bets": rows,
            "remote": {"sealed": True, "seats": {"refunded": refunded, "decisions": []}}}


ANNA = "casino-a/anna"
ROWS = [{"box": 2, "hand": 1, "kind": "main", "player": ANNA, "stake": 2000, "payout": 4000},
        {"box": 2, "hand": 2, "kind": "main", "player": ANNA, "stake": 1000, "payout": 0},
        {"box": 2, "hand": 1, "kind": "behind_share", "player": ANNA, "stake": 0, "payout": 100},
        {"box": 2, "hand": 1, "kind": "behind", "player": "casino-a/bob", "stake": 1000, "payout": 2000},
        {"box": 2, "hand": 1, "kind": "insurance", "player": "casino-a/bob", "stake": 500, "payout": 0},
        {"box": 4, "hand": 1, "kind": "main", "player": ANNA, "stake": 1000, "payout": 2000}]


def test_a_seated_bet_is_owed_its_players_rows_on_its_box() -> None:
    """A split hand's rows and the owner's share are the seated bet's; another player's rows and
    another box's are not; a box the decision policy refunded returns the stake."""
    rules = TableSection(game="blackjack", preset="am8").game_rules()
    assert owed("blackjack", rules, "main@2", 1000, seated(ROWS, []), ANNA) == 4100
    assert owed("blackjack", rules, "main@2", 1000, seated(ROWS, [2]), ANNA) == 1000
    assert owed("blackjack", rules, "main@2", 1000, seated(ROWS, [4]), ANNA) == 4100
    assert owed("blackjack", rules, "main@6", 1000, seated(ROWS, []), ANNA) == 1000  # no row: not taken


def test_a_bet_behind_is_owed_its_rows_even_on_a_refunded_box() -> None:
    rules = TableSection(game="blackjack", preset="am8").game_rules()
    for record in (seated(ROWS, []), seated(ROWS, [2])):
        assert owed("blackjack", rules, "behind@2+double+insurance", 1000, record, "casino-a/bob") == 2000
    reading = JournalReading(records={"t1-000001": seated(ROWS, [])})
    assert differences("blackjack", rules, reading, [("t1-000001", "behind@2", 1000, 2000, "casino-a/bob"),
                                                     ("t1-000001", "main@4", 1000, 2000, ANNA)]) == 0
    assert differences("blackjack", rules, reading, [("t1-000001", "main@4", 1000, 1000, ANNA)]) == 1


def test_the_reading_counts_the_tables_decisions_by_cause() -> None:
    decided = [{"cause": "player"}, {"cause": "timeout"}, {"cause": "player"}]
    reading = JournalReading(records={"a": {"remote": {"seats": {"decisions": decided}}}, "b": {"remote": None}})
    assert reading.decisions == {"player": 2, "timeout": 1, "disconnect": 0}
