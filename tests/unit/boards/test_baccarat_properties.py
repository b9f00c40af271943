"""Invariants of baccarat's boards over any shoe (Hypothesis)."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from controller.boards.grid import ROWS, place
from controller.games.baccarat.board import DERIVED, BaccaratBoards, Coup, from_coups

coups = st.lists(
    st.builds(Coup, winner=st.sampled_from(["banker", "player", "tie"]), natural=st.booleans(),
              player_pair=st.booleans(), banker_pair=st.booleans()),
    max_size=90,
)
# Long streaks, so that dragon tails meet each other.
streaky = st.lists(st.tuples(st.sampled_from("BPT"), st.integers(1, 12)), max_size=14).map(
    lambda runs: [Coup(winner={"B": "banker", "P": "player", "T": "tie"}[w]) for w, n in runs for _ in range(n)])
shoes = st.one_of(coups, streaky)


def spots(cells: tuple[object, ...]) -> list[tuple[int, int]]:
    return [(c.col, c.row) for c in cells]  # type: ignore[attr-defined]


@given(shoes)
def test_one_bead_per_coup_down_each_column(results: list[Coup]):
    beads = from_coups(results).bead_plate.cells
    assert [Coup(**b.model_dump(exclude={"col", "row"})) for b in beads] == results
    assert spots(beads) == [(i // ROWS, i % ROWS) for i in range(len(results))]


@given(shoes)
def test_each_big_road_cell_is_one_non_tie_result_and_every_tie_is_counted(results: list[Coup]):
    boards = from_coups(results)
    road = boards.big_road
    wins = [c for c in results if c.winner != "tie"]
    assert [(c.winner, c.natural, c.player_pair, c.banker_pair) for c in road.cells] == [
        (c.winner, c.natural, c.player_pair, c.banker_pair) for c in wins]
    ties = len(results) - len(wins)
    assert sum(c.ties for c in road.cells) == (ties if road.cells else 0)
    assert road.leading_ties == next((i for i, c in enumerate(results) if c.winner != "tie"), len(results))
    assert sum(road.columns) == len(wins)


@given(shoes)
def test_no_two_entries_share_a_cell_and_all_fit_six_rows(results: list[Coup]):
    boards = from_coups(results)
    for road in (boards.big_road, *(getattr(boards, n) for n, _ in DERIVED)):
        where = spots(road.cells)
        assert len(set(where)) == len(where)
        assert all(0 <= row < ROWS and 0 <= col < road.width for col, row in where)
        assert road.width == max((col for col, _ in where), default=-1) + 1


@given(shoes)
def test_a_column_runs_down_then_right_without_gaps(results: list[Coup]):
    road = from_coups(results).big_road
    i = 0
    for length in road.columns:
        column = road.cells[i:i + length]
        assert len({c.winner for c in column}) == 1
        assert column[0].row == 0
        for above, below in pairwise(column):
            went_down = (below.col, below.row) == (above.col, above.row + 1)
            went_right = below.row == above.row and below.col > above.col
            assert went_down or went_right
        if i + length < len(road.cells):
            assert road.cells[i + length].winner != column[0].winner
        i += length


def expected_entries(columns: tuple[int, ...], k: int) -> int:
    """A derived road has one entry per big-road cell from the compared column on: the cells below
    row 0 from column k, and the first cells from column k + 1."""
    return sum(n - 1 for n in columns[k:]) + len(columns[k + 1:])


@given(shoes)
def test_derived_road_entry_counts_follow_from_the_big_roads_shape(results: list[Coup]):
    boards: BaccaratBoards = from_coups(results)
    for name, k in DERIVED:
        road = getattr(boards, name)
        assert len(road.cells) == expected_entries(boards.big_road.columns, k)
        # a derived road is a road: a new column on each change of colour
        assert all(c.row == 0 for c, before in zip(road.cells[1:], road.cells) if c.colour != before.colour)


@given(shoes)
def test_asking_banker_and_player_gives_opposite_colours(results: list[Coup]):
    ask = from_coups(results).ask
    assert ask["banker"].keys() == ask["player"].keys()
    assert all(ask["banker"][n] != ask["player"][n] for n in ask["banker"])


@given(shoes, st.sampled_from(["banker", "player"]))
def test_the_ask_is_what_the_next_coup_adds(results: list[Coup], side: str):
    before, after = from_coups(results), from_coups([*results, Coup(winner=side)])  # type: ignore[arg-type]
    for name, _ in DERIVED:
        added = getattr(after, name).cells[len(getattr(before, name).cells):]
        assert [c.colour for c in added] == ([before.ask[side][name]] if name in before.ask[side] else [])  # type: ignore[index]


@given(st.lists(st.integers(1, 15), max_size=20))
def test_place_keeps_one_entry_per_cell(lengths: list[int]):
    where = place(lengths)
    assert len(where) == sum(lengths) and len(set(where)) == len(where)
