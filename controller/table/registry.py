"""Every game the house runs, registered once (docs/architecture.md, "Adding a game").

A game is one package, ``controller/games/<game>/``, whose ``game.py`` declares ``GAME =
Game(...)`` (controller/table/game.py): its engine, rules model, table adapter and view, house
edge, result boards and page assets. ``GAME_MODULES`` names those declarations, one line per
game; everything else finds a game here by its name: the config's ``game`` key, ``croupier
house-edge``, the table process, the printer's and the pit's round lines, the pit's edges and
boards, the pages' game assets, the HIL soak. The registry imports no runtime (batch mode's
simulated people are the table's own business), so the config can read it without an import
circle.

``games(modules)`` builds a registry from a list of such modules: ``GAMES`` is
``games(GAME_MODULES)``, and a test adds a game the way a new line here would by setting
``GAMES = games((*GAME_MODULES, "its.game"))`` (tests/unit/test_toy_game.py). Readers look
``GAMES`` up when asked (``game``, ``find``, ``adapter_for``), never keep a copy.
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib import import_module

from controller.boards import Boards
from controller.games.outcome import Outcome
from controller.records import outcomes as record_outcomes
from controller.table.game import Game
from controller.table.games.base import GameAdapter

__all__ = ["GAMES", "GAME_MODULES", "Game", "adapter_for", "boards_of", "find", "game", "games"]

#: the module declaring each game's ``GAME``: one line per game
GAME_MODULES: tuple[str, ...] = (
    "controller.games.blackjack.game",
    "controller.games.roulette.game",
    "controller.games.three_card_blackjack.game",
    "controller.games.catch_a_wave.game",
    "controller.games.baccarat.game",
    "controller.games.russian_poker.game",
)


def games(modules: Iterable[str]) -> dict[str, Game]:
    """The games that ``modules`` declare (each a module with ``GAME = Game(...)``), by name."""
    found: dict[str, Game] = {}
    for module in modules:
        declared = getattr(import_module(module), "GAME", None)
        if not isinstance(declared, Game):
            raise TypeError(f"{module} declares no GAME = Game(...)")
        if declared.name in found:
            raise ValueError(f"game {declared.name!r} is registered twice")
        found[declared.name] = declared
    return found


GAMES: dict[str, Game] = games(GAME_MODULES)


_outcomes: tuple[dict[str, Game], dict[str, type[Outcome]]] | None = None


def outcomes() -> dict[str, type[Outcome]]:
    """Each registered game's outcome model: what the round records' models read
    (controller/records/); the same mapping until ``GAMES`` is another (a test's registry)."""
    global _outcomes
    if _outcomes is None or _outcomes[0] is not GAMES:
        _outcomes = (GAMES, {name: g.outcome for name, g in GAMES.items() if g.outcome is not None})
    return _outcomes[1]


record_outcomes.install(outcomes)


def find(name: object) -> Game | None:
    """The registered game ``name``, None for an unknown name (a record of a game not run here)."""
    return GAMES.get(name) if isinstance(name, str) else None


def game(name: str) -> Game:
    """The registered game ``name`` (ValueError naming the known games)."""
    found = find(name)
    if found is None:
        raise ValueError(f"no game {name!r}; known: {', '.join(GAMES)}")
    return found


def adapter_for(name: str) -> GameAdapter:
    return game(name).adapter


def boards_of(name: str) -> Boards | None:
    """The result boards of game ``name`` (None: it keeps none, or no such game runs here)."""
    found = find(name)
    return found.boards if found is not None else None
