"""The advantage-play watch through the real table path: ``croupier protection simulate`` deals
shoes from the config's simulated shoe through the journal-first loop with styled players."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from controller.config import load
from controller.protection.simulate import simulate

ROOT = Path(__file__).resolve().parents[3]
CONFIG = ROOT / "config" / "blackjack-ru6.toml"


async def test_a_ramp_counter_is_flagged_and_a_flat_bettor_is_not(tmp_path: Path) -> None:
    result = await simulate(load(CONFIG), ["flat", "counter-1-8", "random"], 12, 5, tmp_path)
    players = result["players"]
    assert result["shoes"] == 12
    flat, counter, random_bettor = (players[f"{style}-box{box}"] for box, style in
                                    ((1, "flat"), (2, "counter-1-8"), (3, "random")))
    assert counter["flagged"] and counter["test"] == "bet_ramp" and counter["p_value"] < 1e-5
    assert counter["flagged_after"] <= 300 and counter["ci"][0] > 0
    assert not flat["flagged"] and not random_bettor["flagged"]
    assert flat["rounds"] == counter["rounds"] > 100  # every round dealt to both
    # the bets the watch read are the bets the table settled: the journal's round records agree
    from controller.table.recall import round_records

    records = round_records(tmp_path / "protection.journal")
    staked = sum(b["stake"] for r in records for b in r["bets"] if b["player"] == "flat-box1" and b["kind"] == "main")
    assert staked >= flat["average_bet"] * flat["rounds"]


def test_the_command_refuses_an_unknown_style_and_a_roulette_table() -> None:
    run = [sys.executable, "-m", "controller.cli", "protection", "simulate", "--shoes", "1"]
    bad_style = subprocess.run([*run, "--config", str(CONFIG), "--styles", "flat,cardsharp"],
                               capture_output=True, text=True, timeout=60)
    assert bad_style.returncode == 2 and "unknown player style 'cardsharp'" in bad_style.stderr
    roulette = subprocess.run([*run, "--config", str(ROOT / "config" / "roulette-european.toml"), "--styles", "flat"],
                              capture_output=True, text=True, timeout=60)
    assert roulette.returncode == 2 and "blackjack tables" in roulette.stderr


@pytest.mark.parametrize("styles", ["counter-1-12,wonger"])
def test_the_command_prints_one_json_object(styles: str) -> None:
    done = subprocess.run([sys.executable, "-m", "controller.cli", "protection", "simulate", "--config", str(CONFIG),
                           "--styles", styles, "--shoes", "2", "--seed", "3", "--json"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["shoes"] == 2
    assert {row["style"] for row in result["players"].values()} == {"counter-1-12", "wonger"}
    for row in result["players"].values():
        assert set(row) >= {"style", "box", "rounds", "flagged", "statistic", "p_value", "edge_per_hour"}
        assert isinstance(row["edge_per_hour"], int)


def _table(tmp_path: Path, extra: str) -> Path:
    text = CONFIG.read_text().replace('journal = "../var/bj-ru6.journal"', f'journal = "{tmp_path / "bj.journal"}"')
    text = text.replace('broker = "embedded"', 'broker = "none"')
    config = tmp_path / "bj.toml"
    config.write_text(text + extra)
    return config


def _flags(journal: Path) -> list[dict]:
    from controller.journal import Journal

    with Journal(journal) as read:
        return [e.payload for e in read.entries() if e.kind == "alert" and e.payload["code"] == "protection.advantage_play"]


def test_a_live_table_flags_its_counter_to_the_pit_once_and_not_again_after_a_restart(tmp_path: Path) -> None:
    """``croupier run`` with [simulated_players] in the config: the watch runs at the table and
    journals the flag as an alert (which the feed publishes and the back office keeps)."""
    config = _table(tmp_path, '\n[protection]\nalpha = 0.01\nmin_rounds = 20\n\n'
                              '[simulated_players]\n1 = "flat"\n2 = "counter-1-12"\n')
    run = [sys.executable, "-m", "controller.cli", "run", "--config", str(config), "--quiet"]
    first = subprocess.run([*run, "--new-journal", "--rounds", "150"], capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    flags = _flags(tmp_path / "bj.journal")
    assert [f["player"] for f in flags] == ["counter-1-12-box2"]
    flag = flags[0]
    assert flag["severity"] == "warning" and "bets follow the count" in flag["message"]
    assert " EUR an hour" in flag["message"] and flag["evidence"]["p_value"] < 0.005
    # the flag is about the player: nothing in it tells the shoe's count (docs/protection.md)
    assert set(flag) == {"severity", "code", "message", "cause", "hold", "player", "evidence"}
    assert not {"running", "true_count", "count"} & set(flag["evidence"])
    again = subprocess.run([*run, "--rounds", "20"], capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert [f["player"] for f in _flags(tmp_path / "bj.journal")] == ["counter-1-12-box2"]


def test_simulated_players_in_the_config_are_checked_at_load(tmp_path: Path) -> None:
    from controller.config import ConfigError

    with pytest.raises(ConfigError, match="simulated_players"):
        load(_table(tmp_path, '\n[simulated_players]\n1 = "card-sharp"\n'))
