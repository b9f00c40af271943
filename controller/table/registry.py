"""Every game the house runs, registered once (docs/architecture.md, "Adding a game").

A game is one package, ``controller/games/<game>/``, whose ``game.py`` declares ``GAME =
Game(...)`` (controller/table/game.py): its engine, rules model, table adapter and view, house
edge, result boards and page assets. ``GAME_MODULES`` names those declarations, one line per
game; everything else finds a game here by its name: the config's ``game`` key, ``croupier
house-edge``, the table process, the printer's and the pit's round lines, the pit's edges and
boards, the pages' game assets, the HIL soak. The registry imports no runtime (batch mode's
simulated people are the table's own business), so the config can read it without an import
circle.

``games(modules)`` builds a registry from a list of such modules, each imported at once:
``GAMES`` is ``Registry(GAME_MODULES)``, which imports a game's package only when that game is
asked for (a table imports its own game only; listing every game imports them all). A game's
name is its package's, dashed, so the names are known before any game is imported. A test adds
a game the way a new line here would by setting ``GAMES = games((*GAME_MODULES, "its.game"))``
(tests/unit/test_toy_game.py). Readers look ``GAMES`` up when asked (``game``, ``find``,
``adapter_for``), never keep a copy.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from importlib import import_module

from controller.boards import Boards
from controller.games.outcome import Outcome
from controller.records import outcomes as record_outcomes
from controller.table.game import Game
from controller.table.games.base import GameAdapter

__all__ = ["GAMES", "GAME_MODULES", "Game", "Registry", "adapter_for", "boards_of", "find", "game", "game_name", "games"]

#: the module declaring each game's ``GAME``: one line per game
GAME_MODULES: tuple[str, ...] = (
    "controller.games.blackjack.game",
    "controller.games.roulette.game",
    "controller.games.three_card_blackjack.game",
    "controller.games.catch_a_wave.game",
    "controller.games.baccarat.game",
    "controller.games.russian_poker.game",
)


def game_name(module: str) -> str:
    """The name a game's declaration module is registered under, known without importing it:
    its package's, dashed (``controller.games.catch_a_wave.game`` -> ``catch-a-wave``)."""
    package = module.rsplit(".", 1)[0] if "." in module else module
    return package.rsplit(".", 1)[-1].replace("_", "-")


class Registry(Mapping[str, Game]):
    """Games by name, each game's package imported the first time that game is asked for: a
    table imports only its own game (a restart costs no other game's engine or tables), while
    whatever lists every game (``values()``, ``items()``) imports them all."""

    def __init__(self, modules: Iterable[str]) -> None:
        self._modules: dict[str, str] = {}
        for module in modules:
            name = game_name(module)
            if name in self._modules:
                raise ValueError(f"game {name!r} is registered twice")
            self._modules[name] = module
        self._loaded: dict[str, Game] = {}

    def __getitem__(self, name: str) -> Game:
        found = self._loaded.get(name)
        if found is None:
            found = self._loaded[name] = _declared(self._modules[name], name)
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __len__(self) -> int:
        return len(self._modules)

    def __contains__(self, name: object) -> bool:
        return name in self._modules


def _declared(module: str, name: str) -> Game:
    declared = getattr(import_module(module), "GAME", None)
    if not isinstance(declared, Game):
        raise TypeError(f"{module} declares no GAME = Game(...)")
    if declared.name != name:
        raise TypeError(f"{module} declares game {declared.name!r}, its package names it {name!r}")
    return declared


def games(modules: Iterable[str]) -> Registry:
    """The games that ``modules`` declare (each a module with ``GAME = Game(...)``), by name,
    every one imported and checked now (a test's registry; ``GAMES`` imports on demand)."""
    found = Registry(modules)
    for name in found:
        _ = found[name]
    return found


GAMES: Mapping[str, Game] = Registry(GAME_MODULES)


class Outcomes(Mapping[str, type[Outcome]]):
    """The outcome model of each game of ``games`` that declares one, looked up as asked: a
    record of the table's own game imports no other game; listing them imports every game."""

    def __init__(self, games: Mapping[str, Game]) -> None:
        self.games = games

    def __getitem__(self, name: str) -> type[Outcome]:
        model = self.games[name].outcome
        if model is None:
            raise KeyError(name)
        return model

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in self.games and self.games[name].outcome is not None

    def __iter__(self) -> Iterator[str]:
        return (name for name in self.games if self.games[name].outcome is not None)

    def __len__(self) -> int:
        return sum(1 for _ in self)


_outcomes: Outcomes | None = None


def outcomes() -> Mapping[str, type[Outcome]]:
    """Each registered game's outcome model: what the round records' models read
    (controller/records/); the same mapping until ``GAMES`` is another (a test's registry)."""
    global _outcomes
    if _outcomes is None or _outcomes.games is not GAMES:
        _outcomes = Outcomes(GAMES)
    return _outcomes


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
