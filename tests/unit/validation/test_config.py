"""Config typos fail at start naming the key, with the closest known one (issue defect 3)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from controller.cli import app
from controller.config import ConfigError, load
from tests.support.configs import write_table_config


def write(tmp_path: Path, game: str, body: str, preset: str = "standard") -> Path:
    """The c1 table of ``game`` with ``body`` (TOML sections, ``[limits]`` among them) added."""
    sections = tomllib.loads(body)
    return write_table_config(tmp_path, game, table_id="c1", preset=preset, journal="c1.journal",
                              limits=sections.pop("limits", {}), **sections)


def refusal(path: Path) -> str:
    with pytest.raises(ConfigError) as caught:
        load(path)
    return str(caught.value)


def test_a_misspelt_limit_kind_fails_naming_it(tmp_path: Path) -> None:
    said = refusal(write(tmp_path, "catch-a-wave", "[limits]\nmian = { min = 500, max = 1000 }"))
    assert "limits: unknown 'mian' (did you mean 'main' for 'mian'?)" in said


def test_every_game_knows_its_own_limit_kinds(tmp_path: Path) -> None:
    for game, kind, preset in [("three-card-blackjack", "ace_plus", "standard"), ("baccarat", "tie", "standard"),
                               ("russian-poker", "bonus", "standard"), ("roulette", "voisins", "european"),
                               ("blackjack", "21+3", "am8")]:
        load(write(tmp_path, game, f'[limits]\n"{kind}" = {{ min = 100, max = 1000 }}', preset))
        said = refusal(write(tmp_path, game, '[limits]\n"mian_bet" = { min = 100, max = 1000 }', preset))
        assert "limits: unknown 'mian_bet'" in said, game


def test_a_misspelt_paytable_line_fails_naming_it(tmp_path: Path) -> None:
    said = refusal(write(tmp_path, "blackjack", '[rules]\nperfect_pairs = { perfekt = "30:1" }', "am8"))
    assert "perfekt" in said and "did you mean 'perfect'" in said
    said = refusal(write(tmp_path, "roulette", '[rules]\npaytable = { straigth = "35:1" }', "european"))
    assert "paytable: unknown 'straigth' (did you mean 'straight'" in said


def test_a_misspelt_section_key_gets_a_suggestion(tmp_path: Path) -> None:
    said = refusal(write(tmp_path, "baccarat", '[devices.shoe]\nprot = "serial"'))
    assert "devices.shoe.prot: Extra inputs are not permitted (did you mean 'port'?)" in said


def test_a_broker_that_is_no_mqtt_url_fails_in_one_line(tmp_path: Path) -> None:
    said = refusal(write_table_config(tmp_path, "baccarat", table_id="c1", journal="c1.journal", limits={},
                                      mqtt={"broker": "http://localhost:1883"}))
    assert "mqtt.broker" in said and "http://localhost:1883" in said and "\n" not in said


def test_house_edge_set_paytable_with_a_misspelt_line_is_refused() -> None:
    result = CliRunner().invoke(app, ["house-edge", "roulette", "--set", 'paytable={"straigth": "35:1"}'])
    assert result.exit_code != 0
    assert "straigth" in result.output and "did you mean 'straight'" in result.output
    assert "Traceback" not in result.output
