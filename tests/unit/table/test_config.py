"""Table config files: the examples load as they are; every mistake fails naming its key."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.config import ConfigError, load

CONFIG_DIR = Path(__file__).resolve().parents[3] / "config"

GOOD = """
[table]
id = "bj1"
game = "blackjack"
preset = "ru6"
journal = "j/bj1.journal"

[rules]
surrender = "any"

[limits]
main = { min = 200, max = 20000 }

[devices.shoe]
transport = "serial"
port = "/dev/ttyUSB0"
"""


def _load(tmp_path: Path, text: str):
    path = tmp_path / "t.toml"
    path.write_text(text)
    return load(path)


def test_examples_load():
    ru6 = load(CONFIG_DIR / "blackjack-ru6.toml")
    assert ru6.table.id == "bj-ru6" and ru6.game_rules().decks == 6
    assert ru6.game_rules().limits["main"].min == 500
    am8 = load(CONFIG_DIR / "blackjack-am8.toml")
    assert am8.game_rules().decks == 8 and am8.devices.shoe.port == "usb"
    assert am8.game_rules().side_bets == ("perfect_pairs", "21+3")


def test_rules_and_limits_overlay_the_preset(tmp_path):
    cfg = _load(tmp_path, GOOD)
    rules = cfg.game_rules()
    assert rules.surrender.value == "any" and rules.double_in_dark  # ru6 keeps its other settings
    assert rules.limits["main"].min == 200 and "perfect_pairs" in rules.limits
    assert cfg.journal_path == tmp_path / "j" / "bj1.journal"


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (('game = "blackjack"', 'game = "blakjack"'), "table.game"),
        (('id = "bj1"', 'id = "bj1"\ncolour = "green"'), "table.colour"),
        (('surrender = "any"', 'surender = "any"'), "surender"),
        (('surrender = "any"', 'surrender = "sometimes"'), "surrender"),
        (('surrender = "any"', "decks = 12"), "decks"),
        (('preset = "ru6"', 'preset = "ru7"'), "ru7"),
        (("min = 200", "min = 0"), "limits.main"),
        (('port = "/dev/ttyUSB0"', ""), "devices.shoe"),
        (('transport = "serial"', 'transport = "bluetooth"'), "devices.shoe.transport"),
        (("[limits]", "[limit]"), "limit"),
    ],
)
def test_mistakes_name_the_key(tmp_path, change, named):
    old, new = change
    assert old in GOOD
    with pytest.raises(ConfigError) as exc:
        _load(tmp_path, GOOD.replace(old, new))
    assert named in str(exc.value)


def test_not_toml_and_missing_file(tmp_path):
    with pytest.raises(ConfigError, match="not valid TOML"):
        _load(tmp_path, "[table\nid=1")
    with pytest.raises(ConfigError, match="nope.toml"):
        load(tmp_path / "nope.toml")


def test_the_tables_state_carries_its_currency(tmp_path):
    from controller.process import build_core

    text = GOOD.replace('journal = "j/bj1.journal"', 'journal = "j/bj1.journal"\ncurrency = "JPY"\ncurrency_digits = 0')
    state = build_core(_load(tmp_path, text)).state()
    assert (state["currency"], state["currency_digits"]) == ("JPY", 0)
    assert build_core(_load(tmp_path, GOOD)).state()["currency"] == "EUR"
