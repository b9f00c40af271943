"""Money in a table config is an integer number of minor units: a limit written as a string, a
float or a bool is refused naming the key and the unit (``"5.00"`` used to load as 5 cents)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.config import ConfigError, TableConfig, load
from tests.support.configs import write_table_config

BASE = {"table": {"id": "T1", "game": "baccarat", "journal": "t.journal"}}


def _config(limits: dict, **table: object) -> TableConfig:
    return TableConfig.model_validate({**BASE, "table": {**BASE["table"], **table}, "limits": limits})


def _write(tmp_path: Path, limit: str, extra: str = "") -> Path:
    return write_table_config(tmp_path, "baccarat", name="t.toml", table_id="T1", journal="t.journal", table=extra,
                              limits=f"player = {{ {limit} }}")


def test_a_limit_written_as_a_decimal_string_is_refused_in_minor_units(tmp_path):
    with pytest.raises(ConfigError) as caught:
        load(_write(tmp_path, 'min = "5.00", max = 100000'))
    assert str(caught.value).endswith(
        "limits.player.min: money is an integer number of minor units (cents), e.g. 500 for 5.00 EUR; got '5.00'")
    with pytest.raises(ConfigError, match=r"limits.player.max: .* e.g. 5 for 5 JPY; got 1000.0"):
        load(_write(tmp_path, "min = 500, max = 1000.0", 'currency = "JPY"\ncurrency_digits = 0'))
    assert load(_write(tmp_path, "min = 500, max = 100000")).limits["player"].min == 500


@given(st.one_of(st.text(), st.floats(allow_nan=False), st.booleans(), st.decimals(allow_nan=False).map(str)))
def test_no_value_but_an_integer_is_money(value):
    with pytest.raises(Exception, match="money is an integer number of minor units") as caught:
        _config({"player": {"min": value, "max": 100000}})
    assert "limits.player.min" in str(caught.value)


@given(st.integers(min_value=1, max_value=10**9))
def test_integers_are_money(amount):
    assert _config({"player": {"min": amount, "max": 10**9}}).limits["player"].min == amount


def test_croupier_run_says_it_in_one_line(tmp_path):
    config = _write(tmp_path, 'min = "5.00", max = 100000')
    run = subprocess.run([sys.executable, "-m", "controller.cli", "run", "--config", str(config), "--rounds", "1"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and len(run.stderr.strip().splitlines()) == 1 and "minor units" in run.stderr


def test_a_table_time_zone_is_an_iana_zone_or_refused_naming_the_key(tmp_path):
    assert load(_write(tmp_path, "min = 500, max = 100000", 'time_zone = "Europe/Riga"')).table.time_zone == "Europe/Riga"
    assert load(_write(tmp_path, "min = 500, max = 100000")).table.time_zone is None  # the table PC's own
    with pytest.raises(ConfigError, match=r"time_zone: 'Riga' is not an IANA time zone"):
        load(_write(tmp_path, "min = 500, max = 100000", 'time_zone = "Riga"'))
    for hostile in ("../../etc/passwd", "Europe", "x" * 100_000):  # a path, a folder of zones, a huge name
        with pytest.raises(ConfigError, match=r"time_zone: .* is not an IANA time zone") as caught:
            load(_write(tmp_path, "min = 500, max = 100000", f'time_zone = "{hostile}"'))
        assert len(str(caught.value)) < 400  # named, not echoed whole
