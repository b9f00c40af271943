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
