"""The one CSV writer of every report the floor exports (the back office's ``--csv``, the pit's
``/api/history/report.csv``).

A spreadsheet runs a cell that begins with ``=``, ``+``, ``-`` or ``@`` as a formula, and a
player id keyed at the console or a dealer's name reaches these files as it was typed. Following
OWASP's advice on CSV injection, every text cell that begins with one of those, or with a tab or
a carriage return, is written with a leading ``'`` so the spreadsheet shows it as text. Numbers
are written as numbers (a negative win stays ``-1000``, a number the sheet can add up). Lines
end in CRLF (RFC 4180), so a carriage return inside a cell is quoted and never splits a row.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Final

#: what a spreadsheet reads as the start of a formula (OWASP, "CSV Injection")
FORMULA_STARTS: Final = ("=", "+", "-", "@", "\t", "\r")


def cell(value: object) -> object:
    """A value as its cell: None empty, a number as it is, text escaped when a sheet would run it."""
    if value is None:
        return ""
    if isinstance(value, int | float):
        return value
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def sheet(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """One header, then the rows: a file a spreadsheet opens as one table."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")  # RFC 4180; with it a CR inside a cell is quoted too
    writer.writerow([cell(h) for h in header])
    writer.writerows([cell(v) for v in row] for row in rows)
    return out.getvalue()
