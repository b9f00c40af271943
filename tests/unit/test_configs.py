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


def test_a_section_named_like_a_parameter_goes_in_more() -> None:
    document = tomllib.loads(table_config(journal="t.journal", more={"journal": {"key_file": "table.key"}}))
    assert document["table"]["journal"] == "t.journal" and document["journal"] == {"key_file": "table.key"}


def test_a_floor_table_is_one_call(tmp_path: Path) -> None:
    """What the back office's floor writes per table: its currency, a limit per bet kind, the
    shoe on a pty with a longer gap timeout, the floor's broker."""
    path = write_table_config(
        tmp_path, "baccarat", name="bac1.toml", table_id="bac1", journal="bac1.journal", table={"currency": "EUR"},
        limits={"player": {"min": 500, "max": 1000000}, "banker": {"min": 500, "max": 1000000},
                "tie": {"min": 100, "max": 100000}},
        devices={"shoe": simulated_shoe(gap_timeout=2.0, seed=7)}, mqtt={"broker": "mqtt://u:p@127.0.0.1:1883", "insecure": True})
    config = load(path)
    assert (config.table.id, config.table.currency, path.name) == ("bac1", "EUR", "bac1.toml")
    assert config.limits["tie"].max == 100000 and config.mqtt.insecure
