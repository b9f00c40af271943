"""A new game is its own package plus one registry line (docs/architecture.md, "Adding a game";
issue 27): the toy game "high card", written by the test into a temporary folder, is added by
one line to the registry's list and then validates as a table's config, plays a round through
the table's core, has its house edge from ``croupier house-edge``, gives the console its prompt,
and reads in the printer's and the pit's round lines. Every generic module reaches it through
the registry: one that still kept its own list of games would not know it, and this fails."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

from controller import records
from controller.boards import boards_for
from controller.cli import app
from controller.config import load
from controller.console.view import table_view
from controller.floor.edges import edges_for
from controller.journal import Journal
from controller.table import registry
from controller.table.games.describe import outcome_lines, outcome_summary
from controller.table_runtime import build_core
from tests.support.configs import write_table_config
from tests.unit.table.test_core import Live
from tests.unit.toy_game import high_card

LIMITS = {"main": {"min": 100, "max": 10000}}


@pytest.fixture
def registered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy package on the import path, and its one line added to the registry."""
    high_card.write_package(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "GAMES", registry.games((*registry.GAME_MODULES, high_card.MODULE)))


def config_path(tmp_path: Path) -> Path:
    return write_table_config(tmp_path, "high-card", name="high-card.toml", preset="standard", limits=LIMITS)


def test_without_its_registry_line_the_game_is_unknown(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no game 'high-card'"):
        load(config_path(tmp_path))


@pytest.mark.usefixtures("registered")
def test_its_config_validates(tmp_path: Path) -> None:
    config = load(config_path(tmp_path))
    assert config.table.game == "high-card"
    assert config.game_rules().limits["main"].max == 10000


@pytest.mark.usefixtures("registered")
def test_a_round_plays_through_the_table(tmp_path: Path) -> None:
    """Open, bet, close betting, a card to each, settled: the record is right; the console gives
    the game's prompt; the printer and the pit read the round by its view; it keeps no boards."""
    live = Live(Journal(":memory:"), build_core(load(config_path(tmp_path))))
    live.cmd("open_round")
    live.cmd("bet", box=1, amount=1000, player="A")
    live.cmd("close_betting")
    assert table_view(live.core)["prompt"] == "Card to the player"
    live.card("KS")
    assert table_view(live.core)["prompt"] == "Card to the dealer"
    live.card("7H")
    assert live.core.prompt() == "High card: player — settle"
    live.cmd("settle")
    record = live.rounds()[-1]
    assert record["game"] == "high-card" and record["status"] == "settled"
    assert [(b["box"], b["kind"], b["player"], b["stake"], b["payout"]) for b in record["bets"]] == [
        (1, "main", "A", 1000, 2000)]
    assert record["stake_total"] == 1000 and record["payout_total"] == 2000
    assert record["outcome"]["winner"] == "player"
    assert outcome_lines(record) == ["player KS vs dealer 7H: player"]
    assert outcome_summary(record) == "player KS vs dealer 7H: player"
    assert boards_for([record], registry.boards_of) == {}
    typed = records.parse_record(record)  # the record contract reads it with the game's own outcome model
    assert type(typed.outcome).__name__ == "HighCardRoundOutcome" and typed.outcome.winner == "player"  # type: ignore[attr-defined]
    assert records.undeclared(typed, record) == []
    with pytest.raises(ValidationError, match="high-card.outcome.winner"):
        records.parse_record({**record, "outcome": {**record["outcome"], "winner": ["player"]}})


@pytest.mark.usefixtures("registered")
def test_a_tie_pushes(tmp_path: Path) -> None:
    live = Live(Journal(":memory:"), build_core(load(config_path(tmp_path))))
    live.cmd("open_round")
    live.cmd("bet", box=1, amount=500, player="A")
    live.cmd("close_betting")
    live.card("9S")
    live.card("9H")
    live.cmd("settle")
    assert [(b["stake"], b["payout"]) for b in live.rounds()[-1]["bets"]] == [(500, 500)]


@pytest.mark.usefixtures("registered")
def test_croupier_house_edge_runs_it() -> None:
    done = CliRunner().invoke(app, ["house-edge", "high-card", "--json"])
    assert done.exit_code == 0, done.output
    assert '"game": "high-card"' in done.output and '"house_edge": 0.0' in done.output


@pytest.mark.usefixtures("registered")
def test_the_registry_offers_its_parts() -> None:
    game = registry.game("high-card")
    assert registry.adapter_for("high-card") is game.adapter
    assert game.bet_kinds(game.adapter.rules("standard", {}, {})) == ["main"]
    assert game.boards is None and game.assets.scripts == ()
    edges_for.cache_clear()
    assert edges_for("high-card", "standard") is None  # no cheap exact figure declared


def test_a_module_without_a_game_or_a_second_registration_is_refused(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    high_card.write_package(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(TypeError, match="declares no GAME"):
        registry.games(("high_card.view",))
    with pytest.raises(ValueError, match="registered twice"):
        registry.games((high_card.MODULE, high_card.MODULE))


def test_a_game_is_registered_under_its_packages_name_and_imported_when_asked_for(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The registry knows a game's name before importing it (its package's, dashed), so a table
    imports only its own game; a declaration naming itself otherwise is refused when loaded."""
    high_card.write_package(tmp_path)
    (tmp_path / "other_name").mkdir()
    (tmp_path / "other_name" / "__init__.py").write_text("")
    (tmp_path / "other_name" / "game.py").write_text("from high_card.game import GAME\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    lazy = registry.Registry((high_card.MODULE, "other_name.game"))
    assert list(lazy) == ["high-card", "other-name"]
    assert lazy["high-card"].name == "high-card"
    with pytest.raises(TypeError, match="declares game 'high-card', its package names it 'other-name'"):
        lazy["other-name"]
