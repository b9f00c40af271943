"""The floor's one CSV writer: text a spreadsheet would run as a formula is written as text,
numbers stay numbers, and what it writes reads back cell for cell."""

from __future__ import annotations

import csv
import io

from hypothesis import given
from hypothesis import strategies as st

from controller.floor.csv_sheet import FORMULA_STARTS, sheet

CELLS = st.one_of(st.none(), st.integers(), st.text(max_size=12),
                  st.sampled_from(["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx", "=HYPERLINK(\"x\")"]))


@given(st.lists(st.lists(CELLS, min_size=2, max_size=2), max_size=5))
def test_no_text_cell_starts_a_formula_and_numbers_stay_numbers(rows: list[list[object]]) -> None:
    read = list(csv.reader(io.StringIO(sheet(["a", "b"], rows), newline="")))
    assert read[0] == ["a", "b"] and len(read) == len(rows) + 1
    for row, back in zip(rows, read[1:]):
        for value, text in zip(row, back):
            if isinstance(value, int):
                assert text == str(value)  # -1000 stays a number a sheet adds up
            elif value is None:
                assert text == ""
            else:
                assert not text.startswith(FORMULA_STARTS)
                assert text.removeprefix("'") == value if str(value).startswith(FORMULA_STARTS) else text == value


def test_the_owasp_leading_characters_are_quoted() -> None:
    out = sheet(["player", "win"], [["=cmd|' /C calc'!A0", -1000], ["@SUM(1)", 5], ["+p", 0], ["\tp", 1], ["p", 2.5]])
    assert list(csv.reader(io.StringIO(out)))[1:] == [["'=cmd|' /C calc'!A0", "-1000"], ["'@SUM(1)", "5"],
                                                      ["'+p", "0"], ["'\tp", "1"], ["p", "2.5"]]
