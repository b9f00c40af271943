"""What a game package declares (docs/architecture.md, "Adding a game"): each
``controller/games/<game>/game.py`` holds one ``GAME = Game(...)`` naming its parts, and the
registry (controller/table/registry.py) finds every game through those declarations, so no
generic module names a game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, get_type_hints

from controller.analysis import HouseEdgeOptions
from controller.analysis.edges import Edges
from controller.boards import Boards
from controller.games.base import GameRules
from controller.games.outcome import Outcome
from controller.table.games.base import GameAdapter
from controller.table.games.views import GameView


@dataclass(frozen=True, slots=True)
class Assets:
    """A game's own page assets, served from its package's ``static/`` folder under
    ``/games/<game>/``: the dealer's console loads its game's, the pit every game's ``boards``."""

    #: the folder holding them (the package's ``static/``)
    folder: Path | None = None
    #: scripts the console loads for a table of this game (its layout, its boards' drawing)
    scripts: tuple[str, ...] = ()
    #: style sheets the console loads for a table of this game
    styles: tuple[str, ...] = ()
    #: the scripts that draw its result boards (``Boards.draw``), loaded by every page showing boards
    boards: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Game:
    name: str
    #: the engine's round class (pure: controller/games/<game>/)
    engine: type[Any]
    #: the config model of the game's ``[rules]`` and ``[limits]``
    rules_model: type[GameRules]
    #: the table's adapter of the game (prompts, hooks); it names the game's ``view``
    adapter: GameAdapter
    #: ``croupier house-edge <name>``: the analysis through the same engine
    house_edge: Callable[[HouseEdgeOptions], dict[str, Any]]
    #: the result boards its records make (None: the game keeps none)
    boards: Boards | None = None
    #: its own page assets
    assets: Assets = field(default_factory=Assets)
    #: its side bets' edges by kind under a preset, from their paytables (the back office's theo)
    side_edges: Callable[[str], Mapping[str, float]] | None = None
    #: how a simulated device of its own is set for a rule set (the wheel's pockets), for the HIL rig
    device_options: Callable[[GameRules], Mapping[str, int]] | None = None
    #: the model of its round records' ``outcome`` (controller/records/): by default what the
    #: engine's ``outcome()`` returns
    outcome: type[Outcome] | None = None

    def __post_init__(self) -> None:
        if self.adapter.game != self.name:
            raise ValueError(f"game {self.name!r} declares the adapter of {self.adapter.game!r}")
        if self.outcome is None:
            object.__setattr__(self, "outcome", engine_outcome(self.engine))

    @property
    def view(self) -> GameView:
        """What the console, the pit, recall and the printer show of its rounds."""
        return self.adapter.view

    def bet_kinds(self, rules: GameRules) -> list[str]:
        """The bet kinds its bet form offers under ``rules`` (none where bets are keyed on its layout)."""
        return list(self.view.bet_kinds(rules, self.adapter.bet_kind))

    def edges(self, preset: str) -> Edges | None:
        """The preset's theoretical house edge by bet kind, where a cheap exact figure exists."""
        return self.adapter.house_edges(preset)


def engine_outcome(engine: type[Any]) -> type[Outcome] | None:
    """The outcome model an engine round's ``outcome()`` declares it returns, if any."""
    method = getattr(engine, "outcome", None)
    try:
        returned = get_type_hints(method).get("return") if method is not None else None
    except (NameError, TypeError):  # an annotation that names what its module does not import
        return None
    return returned if isinstance(returned, type) and issubclass(returned, Outcome) else None
