"""``croupier studio simulate`` plays rounds of every game of the registry through the real table
(``run_table``, its devices simulated, batch mode's dealer and seated players), the studio,
PostgreSQL and a broker, and prints one JSON object whose books agree: the studio's drop and
payouts are the totals the table journaled, every round closed with the studio's seal, every
accepted bet was settled or returned, and an independent reading of the table's journal finds
no bet the studio paid otherwise."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from controller.table.registry import GAMES
from tests.integration.studio.conftest import operator_secret

ROOT = Path(__file__).resolve().parents[3]
#: each game's studio table: the rules that offer its remote bets
TABLES = {
    "roulette": 'preset = "european"',
    "baccarat": 'preset = "standard"',
    "blackjack": 'preset = "am8"',
    "three-card-blackjack": 'rules = { ace_plus = true }',
    "russian-poker": 'preset = "exchange"\nrules = { bonus = true }',
    "catch-a-wave": "",
}


def test_every_game_of_the_registry_is_simulated() -> None:
    assert set(TABLES) == set(GAMES)


def simulate(tmp_path: Path, database: str, game: str, players: int = 6, rounds: int = 2) -> dict[str, object]:
    operator_secret(tmp_path)
    config = tmp_path / "studio.toml"
    config.write_text(f'[studio]\n[studio.tables.t1]\ngame = "{game}"\n{TABLES[game]}\n'
                      '[studio.operators.casino-a]\nalgorithm = "HS256"\nsecret_file = "casino-a.secret"\nissuer = "casino-a"\n')
    result = subprocess.run(
        [sys.executable, "-m", "controller.cli", "studio", "simulate", "--config", str(config), "--players", str(players),
         "--rounds", str(rounds), "--seed", "7", "--database", database, "--betting-s", "1", "--json"],
        capture_output=True, text=True, timeout=240, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 0, result.stderr
    out: dict[str, object] = json.loads(result.stdout)
    return out


#: the games with seats: remote players sit at the boxes batch mode's players leave free and decide
SEATED = {"blackjack", "three-card-blackjack", "russian-poker", "catch-a-wave"}


@pytest.mark.parametrize("game", list(TABLES))
def test_simulate_prints_books_that_agree_with_the_tables_journal(tmp_path: Path, database: str, game: str) -> None:
    out = simulate(tmp_path, database, game)
    assert set(out) == {"rounds", "void", "players", "bets_accepted", "bets_refused", "settled", "refunded",
                        "seals_journaled", "drop", "paid", "table_drop", "table_paid", "accept_ms", "decisions",
                        "differences"}
    assert out["rounds"] == 2 and out["players"] == 6 and out["seals_journaled"] == 2
    assert out["void"] == 0  # a remote seat's turn holds the dealer's cards until it is decided
    assert out["differences"] == 0
    assert out["bets_accepted"] > 0 and out["bets_accepted"] == out["settled"] + out["refunded"]  # type: ignore[operator]
    assert out["drop"] == out["table_drop"] and out["paid"] == out["table_paid"]
    assert out["drop"] > 0  # type: ignore[operator]
    ms = out["accept_ms"]
    assert ms["p50"] > 0 and ms["p99"] >= ms["p50"]  # type: ignore[index]
    # a player without a seat at Catch a Wave, or betting on a seat not theirs, is refused not_seated
    assert set(out["bets_refused"]) <= {"late", "limits", "funds", "already_bet", "not_seated"}  # type: ignore[arg-type]
    if game == "catch-a-wave":  # its players without a seat have no bet
        assert out["bets_refused"]["not_seated"] > 0  # type: ignore[index]
    decisions = out["decisions"]
    assert set(decisions) == {"player", "timeout", "disconnect"}  # type: ignore[arg-type]
    if game in SEATED:  # the seated players' turns: decided by them, and by the table when their time ran out
        assert decisions["player"] > 0 and decisions["timeout"] > 0  # type: ignore[index]
    else:
        assert decisions == {"player": 0, "timeout": 0, "disconnect": 0}
