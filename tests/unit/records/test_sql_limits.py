"""The back office's columns carry the record contract's limits: every bound of
migrations/0008_record_limits.sql is read out of the SQL and compared with the bound the model's
field declares, so a limit changed on one side only fails here."""

from __future__ import annotations

import re
import typing
from pathlib import Path

import annotated_types
import pytest
from pydantic import BaseModel, StringConstraints

from controller import records
from controller.records.round import RoundFields
from controller.records.state import StateMessage

SQL = (Path(records.__file__).parent.parent / "backoffice" / "migrations" / "0008_record_limits.sql").read_text()
CHECK = re.compile(r"ALTER TABLE (\w+) ADD CONSTRAINT \w+ CHECK \((.+)\) NOT VALID;")
#: (table, column) -> the model field whose value the column stores
COLUMNS: dict[tuple[str, str], tuple[type[BaseModel], str]] = {
    ("rounds", "round_id"): (RoundFields, "round"),
    ("rounds", "game"): (RoundFields, "game"),
    ("rounds", "dealer"): (RoundFields, "dealer"),
    ("rounds", "shoe"): (RoundFields, "shoe"),
    ("rounds", "shoe_round"): (RoundFields, "shoe_round"),
    ("rounds", "stake_total"): (RoundFields, "stake_total"),
    ("rounds", "payout_total"): (RoundFields, "payout_total"),
    ("bets", "box"): (records.Bet, "box"),
    ("bets", "hand"): (records.Bet, "hand"),
    ("bets", "kind"): (records.Bet, "kind"),
    ("bets", "player"): (records.Bet, "player"),
    ("bets", "stake"): (records.Bet, "stake"),
    ("bets", "payout"): (records.Bet, "payout"),
    ("alerts", "round_id"): (records.AlertMessage, "round"),
    ("alerts", "severity"): (records.AlertMessage, "severity"),
    ("alerts", "code"): (records.AlertMessage, "code"),
    ("alerts", "message"): (records.AlertMessage, "message"),
    ("floor_tables", "game"): (StateMessage, "game"),
    ("floor_tables", "preset"): (StateMessage, "preset"),
    ("floor_tables", "currency_digits"): (StateMessage, "currency_digits"),
}


def sql_bounds() -> dict[tuple[str, str], tuple[object, ...]]:
    """(table, column) -> ("len", lo, hi) | ("num", lo, hi) | ("in", values...), as the SQL says."""
    out: dict[tuple[str, str], tuple[object, ...]] = {}
    for table, check in CHECK.findall(SQL):
        if m := re.fullmatch(r"char_length\((\w+)\) (?:<= (\d+)|BETWEEN (\d+) AND (\d+))", check):
            column, hi, lo2, hi2 = m.groups()
            out[(table, column)] = ("len", int(lo2) if lo2 else 0, int(hi or hi2))
        elif m := re.fullmatch(r"(\w+) BETWEEN (\d+) AND (\d+)", check):
            out[(table, m[1])] = ("num", int(m[2]), int(m[3]))
        elif m := re.fullmatch(r"(\w+) IN \((.+)\)", check):
            out[(table, m[1])] = ("in", *re.findall(r"'(\w+)'", m[2]))
        else:
            raise AssertionError(f"a check this test cannot read: {check}")
    return out


def _metadata(annotation: object) -> list[object]:
    """The constraints an annotation carries, through ``X | None`` and ``Annotated``."""
    found: list[object] = []
    for arg in typing.get_args(annotation) or ():
        if typing.get_origin(arg) is typing.Annotated:
            found += [*arg.__metadata__, *_metadata(arg)]
    return found


def model_bounds(model: type[BaseModel], name: str) -> tuple[object, ...]:
    field = model.model_fields[name]
    literal = [a for a in (field.annotation, *typing.get_args(field.annotation)) if typing.get_origin(a) is typing.Literal]
    if literal:
        return ("in", *typing.get_args(literal[0]))
    meta = [*field.metadata, *_metadata(field.annotation)]
    meta += [m for fi in meta if hasattr(fi, "metadata") for m in fi.metadata]
    lo = next((m.min_length for m in meta if isinstance(m, annotated_types.MinLen | StringConstraints)
               and m.min_length is not None), None)
    hi = next((m.max_length for m in meta if isinstance(m, annotated_types.MaxLen | StringConstraints)
               and m.max_length is not None), None)
    if hi is not None:
        return ("len", lo or 0, hi)
    ge = next(m.ge for m in meta if isinstance(m, annotated_types.Ge))
    le = next(m.le for m in meta if isinstance(m, annotated_types.Le))
    return ("num", ge, le)


def test_every_check_of_the_migration_is_a_column_the_test_compares() -> None:
    assert set(sql_bounds()) - {("rounds", "table_id")} == set(COLUMNS)


@pytest.mark.parametrize(("column", "field"), COLUMNS.items(), ids=[".".join(c) for c in COLUMNS])
def test_the_sql_bound_is_the_models(column: tuple[str, str], field: tuple[type[BaseModel], str]) -> None:
    assert sql_bounds()[column] == model_bounds(*field)


def test_the_table_id_bound_is_the_configs_pattern() -> None:
    assert sql_bounds()[("rounds", "table_id")] == ("len", 0, 32)
    assert records.limits.TABLE_ID.endswith("{1,32}$")


def test_the_reader_notices_a_changed_bound() -> None:
    """The comparison can fail: a bound read wrong would pass any model."""
    assert model_bounds(records.Bet, "stake") == ("num", 0, 10**12)
    assert model_bounds(records.Bet, "kind") == ("len", 1, 64)
    assert sql_bounds()[("bets", "stake")] != ("num", 0, 10**12 + 1)
