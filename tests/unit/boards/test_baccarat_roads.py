"""Baccarat's roads against shoes worked by hand (notation in ``roads.py``).

Every expected grid below was worked out on paper from the rules in
``controller/games/baccarat/board.py``'s docstring, not copied from the code's output.
"""

from __future__ import annotations

import pytest

from controller.games.baccarat.board import BaccaratBoards, from_coups
from tests.unit.boards.roads import derived_token, parse_grid, render, road_token, shoe


def big_road(boards: BaccaratBoards) -> list[list[str]]:
    return render(boards.big_road.cells, road_token, boards.big_road.width)


def derived(boards: BaccaratBoards, name: str, first: int | None = None) -> list[list[str]]:
    road = getattr(boards, name)
    cells = road.cells[:first]
    return render(cells, derived_token, max(c.col for c in cells) + 1)


# ------------------------------------------------------------------ ties
def test_a_shoe_opening_with_ties_counts_them_on_the_first_cell():
    boards = from_coups(shoe("TT BB P T P"))
    assert boards.big_road.leading_ties == 2
    assert big_road(boards) == parse_grid("""
        B2 P1
        B  P
        .  .
        .  .
        .  .
        .  .
    """)


def test_ties_only_are_a_leading_count_with_no_cell():
    boards = from_coups(shoe("TTT"))
    assert (boards.big_road.leading_ties, boards.big_road.cells, boards.big_road.width) == (3, (), 0)
    assert boards.counts.tie == 3 and boards.counts.hands == 3
    assert len(boards.bead_plate.cells) == 3
    assert all(not getattr(boards, n).cells for n in ("big_eye_boy", "small_road", "cockroach_pig"))


def test_two_and_three_ties_stack_on_one_cell_with_their_count():
    boards = from_coups(shoe("B TT P TTT P B"))
    assert boards.big_road.leading_ties == 0
    assert big_road(boards) == parse_grid("""
        B2 P3 B
        .  P  .
        .  .  .
        .  .  .
        .  .  .
        .  .  .
    """)


def test_a_tie_after_a_leading_tie_adds_to_the_same_first_cell():
    boards = from_coups(shoe("T P T"))
    assert boards.big_road.leading_ties == 1
    assert [c.ties for c in boards.big_road.cells] == [2]


def test_ties_change_no_derived_road():
    plain, tied = from_coups(shoe("BBPPBPPPB")), from_coups(shoe("BTBPTTPBPPTPB"))
    for name in ("big_eye_boy", "small_road", "cockroach_pig"):
        assert getattr(plain, name) == getattr(tied, name)
    assert plain.big_road.columns == tied.big_road.columns


# ------------------------------------------------------------------ dragon tails
def test_a_banker_streak_of_nine_turns_into_a_dragon_tail():
    boards = from_coups(shoe("BBBBBBBBB P"))
    assert boards.big_road.columns == (9, 1)
    assert big_road(boards) == parse_grid("""
        B P . .
        B . . .
        B . . .
        B . . .
        B . . .
        B B B B
    """)


def test_a_tail_blocked_by_an_earlier_tail_turns_a_row_higher():
    # Banker 8 tails on the bottom row; Player 7 meets that tail and turns on row 4; Banker 7
    # meets the Player's tail and turns on row 3 (an L inside an L inside an L).
    boards = from_coups(shoe("BBBBBBBB PPPPPPP BBBBBBB"))
    assert big_road(boards) == parse_grid("""
        B P B . . .
        B P B . . .
        B P B . . .
        B P B B B B
        B P P P . .
        B B B . . .
    """)


def test_a_staircase_of_tails_pushes_a_column_along_the_top_row():
    # Each column meets the tail of the one before a row higher, until Player 3 can't go down
    # at all and tails along row 0; the last Banker's start cell is then taken, so it starts at
    # the first free cell of row 0.
    boards = from_coups(shoe("BBBBBBBB PPPPPPP BBBBBB PPPPP BBBB PPP B"))
    assert big_road(boards) == parse_grid("""
        B P B P B P P P B
        B P B P B B B . .
        B P B P P P . . .
        B P B B B . . . .
        B P P P . . . . .
        B B B . . . . . .
    """)


# ------------------------------------------------------------------ a full shoe
# 70 hands, 27 big-road columns. Column lengths (Banker first, alternating):
#   3 1 2 2 1 4 1 1 3 2 7 1 2 6 1 3 2 1 4 2 1 2 3 1 2 1 2
FULL_SHOE = (
    "T BBB P B TT B PP B PPPP T B P BBB PP BBB T BBBB P BB PP TT PPPP B PPP BB P B T BBB PP B PP "
    "BBB P BB P BB T"
)

FULL_BIG_ROAD = """
    B1 P B2 P  B P  B P B P B  P B P  B P B P B1 P B P B P B P B
    B  . B  P  . P  . . B P B  . B P2 . P B . B  P . P B . B . B1
    B  . .  .  . P  . . B . B1 . . P  . P . . B  . . . B . . . .
    .  . .  .  . P1 . . . . B  . . P  . . . . B  . . . . . . . .
    .  . .  .  . .  . . . . B  . . P  . . . . .  . . . . . . . .
    .  . .  .  . .  . . . . B  B . P  . . . . .  . . . . . . . .
"""

# Big eye boy (one column back), its first 23 entries, worked cell by cell (cNrM = big-road
# column N, row M; column 1 has one cell, so the road starts at column 2):
#   c2r0 B, c2r1 B, c3r0 B, c3r1 R, c4r0 R, c5r0 B, c5r1 B, c5r2 R, c5r3 R,
#   c6 B, c7 B, c8r0 R, c8r1 B, c8r2 R, c9r0 B, c9r1 R, c10r0 B, c10r1 R, c10r2 B, c10r3-6 R R R R
FULL_BIG_EYE_BOY_23 = """
    B R B R B R B R B R B R B R
    B R B R B . . . . . . . . R
    B . . . . . . . . . . . . R
    . . . . . . . . . . . . . R
    . . . . . . . . . . . . . .
    . . . . . . . . . . . . . .
"""

# Small road (two columns back), first 22: c2r1 R; c3r0 B, c3r1 B; c4 B; c5r0 B, c5r1 R, c5r2 B,
# c5r3 R; c6 B; c7 R; c8r0 B, c8r1 B, c8r2 R; c9r0 B, c9r1 B; c10r0 B, c10r1 R, c10r2 R, c10r3 B,
# c10r4-6 R R R
FULL_SMALL_ROAD_22 = """
    R B R B R B R B R B R B R
    . B . . . . . B . B R . R
    . B . . . . . . . B . . R
    . B . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
"""

# Cockroach pig (three columns back), first 20: c3r1 R; c4 B; c5r0 R, c5r1 R, c5r2 B, c5r3 R;
# c6 B; c7 B; c8r0 R, c8r1 R, c8r2 R; c9r0 B, c9r1 B; c10r0 B, c10r1 B, c10r2-6 R R R R R
FULL_COCKROACH_PIG_20 = """
    R B R B R B R B R
    . . R . . B R B R
    . . . . . . R B R
    . . . . . . . B R
    . . . . . . . . R
    . . . . . . . . .
"""


@pytest.fixture(scope="module")
def full() -> BaccaratBoards:
    return from_coups(shoe(FULL_SHOE))


def test_full_shoe_counts(full: BaccaratBoards):
    c = full.counts
    assert (c.hands, c.banker, c.player, c.tie) == (70, 34, 27, 9)
    assert full.big_road.columns == (3, 1, 2, 2, 1, 4, 1, 1, 3, 2, 7, 1, 2, 6, 1, 3, 2, 1, 4, 2, 1, 2, 3, 1, 2, 1, 2)


def test_full_shoe_big_road(full: BaccaratBoards):
    assert full.big_road.leading_ties == 1
    assert big_road(full) == parse_grid(FULL_BIG_ROAD)


def test_full_shoe_big_eye_boy(full: BaccaratBoards):
    assert derived(full, "big_eye_boy", 23) == parse_grid(FULL_BIG_EYE_BOY_23)
    # and the next nine: c11 B; c12r0 B, c12r1 B; c13r0 B, c13r1 R, c13r2 B, c13r3-5 R R R
    nine = [c.colour[0] for c in full.big_eye_boy.cells[23:32]]
    assert "".join(nine) == "bbbbrbrrr"


def test_full_shoe_small_road(full: BaccaratBoards):
    assert derived(full, "small_road", 22) == parse_grid(FULL_SMALL_ROAD_22)
    # c11 B; c12r0 B, c12r1 R
    assert "".join(c.colour[0] for c in full.small_road.cells[22:25]) == "bbr"


def test_full_shoe_cockroach_pig(full: BaccaratBoards):
    assert derived(full, "cockroach_pig", 20) == parse_grid(FULL_COCKROACH_PIG_20)
    # c11 B; c12r0 B, c12r1 R
    assert "".join(c.colour[0] for c in full.cockroach_pig.cells[20:23]) == "bbr"


def test_full_shoe_asks_what_the_next_coup_would_draw(full: BaccaratBoards):
    # last column: Banker, 2 cells. Banker next is row 2 of column 26: k=1 column 25 has 1 cell
    # -> red; k=2 column 24 has exactly 2 -> blue; k=3 column 23 has 1 -> red. Player next opens
    # column 27: k=1 26 vs 25 (2, 1) blue; k=2 26 vs 24 (2, 2) red; k=3 26 vs 23 (2, 1) blue.
    assert full.ask == {
        "banker": {"big_eye_boy": "red", "small_road": "blue", "cockroach_pig": "red"},
        "player": {"big_eye_boy": "blue", "small_road": "red", "cockroach_pig": "blue"},
    }


def test_derived_roads_start_where_the_compared_column_first_exists():
    # B P: no derived entry yet (column 1's first cell compares columns 0 and -1).
    assert not from_coups(shoe("BP")).big_eye_boy.cells
    # B PP: column 1's second cell starts the big eye boy (column 0 has 1 cell: blue).
    assert [c.colour for c in from_coups(shoe("BPP")).big_eye_boy.cells] == ["blue"]
    # B P B: column 2's first cell starts it (columns 1 and 0 both 1 long: red).
    assert [c.colour for c in from_coups(shoe("BPB")).big_eye_boy.cells] == ["red"]
    # small road: from column 2's second cell or column 3's first
    assert not from_coups(shoe("BPPB")).small_road.cells
    assert [c.colour for c in from_coups(shoe("BPBB")).small_road.cells] == ["blue"]
    assert [c.colour for c in from_coups(shoe("BPBP")).small_road.cells] == ["red"]
    # cockroach pig: from column 3's second cell or column 4's first
    assert not from_coups(shoe("BPBP")).cockroach_pig.cells
    assert [c.colour for c in from_coups(shoe("BPBPP")).cockroach_pig.cells] == ["blue"]
    assert [c.colour for c in from_coups(shoe("BPBPB")).cockroach_pig.cells] == ["red"]


def test_an_empty_shoe_asks_nothing():
    boards = from_coups([])
    assert boards.ask == {"banker": {}, "player": {}}
    assert boards.bead_plate.width == 0 and boards.big_road.width == 0


def test_a_derived_road_gets_its_own_dragon_tail():
    # Columns of one cell each: from column 2 every big eye boy entry is red (1 == 1): a run of
    # 8 reds in one column, tailing right on the bottom row.
    boards = from_coups(shoe("BPBPBPBPBP"))
    assert derived(boards, "big_eye_boy") == parse_grid("""
        R . .
        R . .
        R . .
        R . .
        R . .
        R R R
    """)
