"""The shared test config builder: what it writes is the TOML it was given, and a table loads it."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.config import load
from tests.support.configs import LIMITS, dumps, simulated_shoe, simulated_wheel, table_config, write_table_config

keys = st.text(alphabet=st.sampled_from("abz_-09 .é\""), min_size=1, max_size=6)
scalars = st.one_of(st.booleans(), st.integers(-10**12, 10**12), st.floats(allow_nan=False),
                    st.text(max_size=8))
values = st.recursive(scalars | st.lists(scalars, max_size=3),
                      lambda inner: st.dictionaries(keys, inner, max_size=3), max_leaves=12)


@given(st.dictionaries(keys, values, max_size=4))
def test_what_it_writes_reads_back_as_given(document: dict[str, Any]) -> None:
    assert tomllib.loads(dumps(document)) == document


@pytest.mark.parametrize("game", [*LIMITS, "roulette"])
def test_every_game_loads_with_its_defaults(tmp_path: Path, game: str) -> None:
    devices = {"wheel": simulated_wheel()} if game == "roulette" else {"shoe": simulated_shoe()}
    config = load(write_table_config(tmp_path, game, devices=devices))
    assert config.table.game == game
    assert config.journal_path == tmp_path / "table.journal"


def test_sections_are_mappings_or_toml_text_merged_into_one() -> None:
    text = table_config("blackjack", table={"burn_on_new_shoe": 1}, rules="hit_soft_17 = true",
                        limits='main = { min = 200, max = 1000 }', mqtt={"broker": "mqtt://h:1883", "insecure": True},
                        devices={"shoe": simulated_shoe(stacked=["AS", "KD"], cut_after=3)})
    document = tomllib.loads(text)
    assert document["table"] == {"id": "t1", "game": "blackjack", "preset": "ru6", "journal": "table.journal",
                                 "burn_on_new_shoe": 1}
    assert document["rules"] == {"hit_soft_17": True}
    assert document["limits"] == {"main": {"min": 200, "max": 1000}}
    assert document["mqtt"] == {"broker": "mqtt://h:1883", "insecure": True}
    assert document["devices"]["shoe"]["simulated"] == {"seed": 3, "stacked": ["AS", "KD"], "cut_after": 3}
