"""The bead plate, pairs and naturals, read from round records of coups the real engine dealt."""

from __future__ import annotations

import json

from controller.games.baccarat import BaccaratOutcome, BaccaratRound, baccarat_rules
from controller.games.baccarat.board import from_outcomes, from_records

RULES = baccarat_rules()


def dealt(cards: str) -> BaccaratOutcome:
    """A coup dealt from ``cards`` (Player, Banker, Player, Banker, then the third cards)."""
    game = BaccaratRound(RULES)
    game.close_betting()
    for card in cards.split():
        game.deal(card)
    assert game.over
    return game.outcome()


def test_the_third_card_coups_read_as_worked_by_hand():
    # Player A,3 = 4 draws a 5 -> 9; Banker 2,4 = 6 draws on a Player third card of 6-7 only,
    # so stands: Player 9 against 6.
    outcome = dealt("AS 2H 3D 4C 5S")
    assert (outcome.winner, outcome.natural, outcome.player.total, outcome.banker.total) == ("player", False, 9, 6)
    # Player 7, Banker 6,2 = 8: a Banker natural.
    outcome = dealt("7S 6H QD 2C")
    assert (outcome.winner, outcome.natural) == ("banker", True)


# Worked by hand: (cards dealt Player, Banker, Player, Banker..., winner, natural, player pair,
# banker pair); a pair is a hand's first two cards of one rank.
WORKED = [
    ("4S 9H 4D TC", "banker", True, True, False),
    ("2S 3H 5D 3C", "player", False, False, True),
    ("TS TH 8D 8C", "tie", True, False, False),
    ("4S 4H 4D 4C", "tie", True, True, True),
    ("AS 2H 3D 4C 5S", "player", False, False, False),
    ("9S 8H TD 3C", "player", True, False, False),
    ("7S 6H QD 2C", "banker", True, False, False),
]


def records(rows: list[tuple[str, ...]], shoe: str = "s1") -> list[dict[str, object]]:
    return [{"v": 1, "game": "baccarat", "round": f"r{i}", "status": "settled", "shoe": shoe, "shoe_round": i,
             "outcome": {**dealt(cards).record(), "burned": []}}
            for i, (cards, *_) in enumerate(rows, 1)]


def test_bead_plate_marks_winner_natural_and_pairs_from_the_records():
    boards = from_records(records(WORKED))
    got = [(c.col, c.row, c.winner, c.natural, c.player_pair, c.banker_pair) for c in boards.bead_plate.cells]
    want = [(i // 6, i % 6, w, n, pp, bp) for i, (_, w, n, pp, bp) in enumerate(WORKED)]
    assert got == want
    assert boards.bead_plate.width == 2 and boards.bead_plate.rows == 6


def test_counts_of_wins_pairs_and_naturals():
    c = from_records(records(WORKED)).counts
    assert (c.hands, c.banker, c.player, c.tie) == (7, 2, 3, 2)
    assert (c.player_pairs, c.banker_pairs, c.naturals) == (2, 2, 5)


def test_a_naturals_column_keeps_each_cells_marks_and_the_ties_on_it():
    # Banker naturals three in a row, a natural tie on the second: one column of three cells.
    rows = [("4S 9H 4D TC",), ("TS TH 8D 8C",), ("2S 9H 3D TC",), ("TS TH 8D 8C",), ("TS 8H 5D QC",),
            ("QS 9H 5D TC",)]
    road = from_records(records(rows)).big_road
    # coups: B(nat, player pair), T, B(nat: P 5 vs B 9), T, B(nat: P 5 vs B 8), B(nat: P 5 vs B 9)
    assert [(c.col, c.row, c.winner, c.natural, c.ties, c.player_pair) for c in road.cells] == [
        (0, 0, "banker", True, 1, True), (0, 1, "banker", True, 1, False), (0, 2, "banker", True, 0, False),
        (0, 3, "banker", True, 0, False)]


def test_void_records_and_unfinished_coups_are_no_result():
    rows = records(WORKED[:3])
    rows[1]["status"] = "void"
    unfinished = BaccaratRound(RULES)
    unfinished.close_betting()
    unfinished.deal("2S")
    rows.append({"game": "baccarat", "status": "settled", "outcome": unfinished.outcome().record()})
    rows.append({"game": "baccarat", "status": "settled", "outcome": {"something": "else"}})
    boards = from_records(rows)
    assert [c.winner for c in boards.bead_plate.cells] == ["banker", "tie"]


def test_from_outcomes_reads_the_models():
    outcomes = [dealt(cards) for cards, *_ in WORKED]
    assert from_outcomes(outcomes) == from_records(records(WORKED))


def test_the_boards_are_plain_json_with_no_null():
    data = from_records(records(WORKED)).as_json()
    text = json.dumps(data)
    assert json.loads(text) == data and "null" not in text
    assert set(data) == {"game", "counts", "bead_plate", "big_road", "big_eye_boy", "small_road", "cockroach_pig",
                         "ask"}
    assert data["big_road"]["cells"][0] == {"col": 0, "row": 0, "winner": "banker", "ties": 0, "natural": True,
                                            "player_pair": True, "banker_pair": False}
