"""``[table] betting_s``, ``remote`` and ``seal_grace_s`` are checked at load like every key."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.config import ConfigError, load
from controller.table.betting import BettingTime
from controller.table_runtime import betting_time
from tests.support.configs import write_table_config


def test_the_keys_are_read_into_the_tables_betting_time(tmp_path: Path) -> None:
    config = load(write_table_config(tmp_path, "roulette", table={"betting_s": 15, "remote": True, "seal_grace_s": 5}))
    assert betting_time(config) == BettingTime(15, 5, True)
    assert betting_time(load(write_table_config(tmp_path, "roulette"))) == BettingTime(0, 3, False)


@pytest.mark.parametrize(("table", "said"), [
    ({"betting_s": -1}, "table.betting_s"),
    ({"betting_s": 1.5}, "table.betting_s"),
    ({"seal_grace_s": 0}, "table.seal_grace_s"),
    ({"remote": "maybe"}, "table.remote"),
    ({"betting_secs": 15}, "did you mean 'betting_s'"),
])
def test_a_wrong_key_or_value_is_named(tmp_path: Path, table: dict[str, object], said: str) -> None:
    with pytest.raises(ConfigError, match=said):
        load(write_table_config(tmp_path, "roulette", table=table))
