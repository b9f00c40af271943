"""`croupier run --rounds 3` and `croupier recall --json` on the roulette example configs as they
are (copied beside a private journal): simulated wheel on a pty, embedded broker, simulated
players placing assorted bets, the wheel closing betting and giving seeded results."""

from __future__ import annotations

import json

import pytest

from tests.integration.table.test_cli import croupier, example  # noqa: F401  (fixture)


@pytest.mark.parametrize(("name", "table", "balls"), [("roulette-european.toml", "rl-eu", 1),
                                                       ("roulette-american.toml", "rl-us", 1),
                                                       ("roulette-double-ball.toml", "rl-2b", 2)])
def test_run_rounds_then_recall(example, tmp_path, name, table, balls):  # noqa: F811
    cfg = example(name)
    run = croupier("run", "--config", str(cfg), "--rounds", "3", "--new-journal")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert "> Place your bets" in lines and "> No more bets — wait for the result" in lines
    assert sum(line.startswith("ROUND ") for line in lines) == 3
    assert not [line for line in lines if line.startswith("ALERT error")]

    recall = croupier("recall", "--config", str(cfg), "--json", "--all")
    assert recall.returncode == 0, recall.stderr
    records = json.loads(recall.stdout)
    assert [r["round"] for r in records] == [f"{table}-{i:06d}" for i in (1, 2, 3)]
    for r in records:
        assert r["status"] == "settled" and r["game"] == "roulette"
        assert r["stake_total"] == sum(b["stake"] for b in r["bets"])
        assert r["payout_total"] == sum(b["payout"] for b in r["bets"])
        assert {b["player"] for b in r["bets"]} == {"P1", "P2", "P3"}
        assert len(r["outcome"]["numbers"]) == balls
        assert r["outcome"]["sources"] == ["wheel", "dealer"][:balls]
    assert len({b["kind"] for r in records for b in r["bets"]}) > 5  # assorted bets

    again = croupier("run", "--config", str(cfg), "--rounds", "1", "--quiet")
    assert again.returncode == 0, again.stderr
    records = json.loads(croupier("recall", "--config", str(cfg), "--json", "--last", "2").stdout)
    assert [r["round"] for r in records] == [f"{table}-000003", f"{table}-000004"]


def test_a_bad_wheel_rule_fails_naming_the_key(example):  # noqa: F811
    cfg = example("roulette-european.toml")
    cfg.write_text(cfg.read_text().replace('close_bets_on = "no_more_bets"', 'close_bets_on = "ball_in_rum"'))
    result = croupier("run", "--config", str(cfg), "--rounds", "1")
    assert result.returncode == 2 and "close_bets_on" in result.stderr
