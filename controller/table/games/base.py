"""What the generic table needs from a game: the seam a new game plugs into.

The table core drives any engine through ``apply()`` / ``expects()`` / ``settlements`` /
``outcome()`` (controller/games/base.py). The few things that differ per game live in a
``GameAdapter``: building the rule set and a round, what the shoe holds, the wording of the
dealer prompt, what a void refunds, and how a simulated player answers a decision. Shoe games
(blackjack, three-card blackjack, Catch a Wave, baccarat, poker) set ``uses_shoe``; a wheel
game (roulette) names its own ``device`` and maps that device's events through ``device_step``
(see the optional seams at the end of this module).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from controller.games.base import Decide, Expect, GameRules, Limit, Settlement


class Engine(Protocol):
    """The engine API of controller/games/base.py, as the table uses it."""

    settlements: list[Settlement]

    def apply(self, action: Any) -> None: ...

    def expects(self) -> Expect: ...

    def outcome(self) -> dict[str, Any]: ...


class GameAdapter(Protocol):
    game: str
    uses_shoe: bool

    def rules(self, preset: str | None, overrides: Mapping[str, Any], limits: Mapping[str, Limit]) -> GameRules:
        """The validated rule set (RulesConfigError naming the key)."""

    def rules_from_dump(self, data: Mapping[str, Any]) -> GameRules:
        """A rule set as journaled (``model_dump(mode="json")``) when the table started."""

    def new_round(self, rules: GameRules) -> Engine: ...

    def decks(self, rules: GameRules) -> int: ...

    def removed_ranks(self, rules: GameRules) -> str: ...

    def prompt(self, engine: Engine, expect: Expect) -> str:
        """The dealer's instruction for what the engine expects next."""

    def done_prompt(self, engine: Engine) -> str:
        """What the dealer is told once the engine settled everything (before closing)."""

    def open_bets(self, engine: Engine) -> list[Settlement]:
        """Every bet still on the layout, unsettled, as refunds (stake = payout) for a void."""

    def simulated_decision(self, engine: Engine, expect: Expect, rules: GameRules) -> Decide:
        """A simulated player's answer to a decision prompt (batch mode)."""


# --------------------------------------------------------------------------- optional seams
# A game driven by a device of its own (roulette: the wheel) gives its adapter ``device`` (the
# device name its events carry), ``device_step`` and ``open_commands``; a game with a random draw
# made by the table (multipliers) gives ``draw_due``, ``draw`` and ``draw_action``; a game whose
# results the dealer may key in gives ``keyed_result``. The core looks these up with ``getattr``,
# so the shoe games need none of them.
# Shoe games (``shoe_game.ShoeGameAdapter``) may set ``new_shoe_every_round`` (one deck shuffled
# per round: a new shoe is demanded after each round), map commands of their own to engine actions
# (``game_action``: Russian poker's exchange and misdeal), and give the simulated people their bet
# kinds (``bet_kind``, ``simulated_bets``), a decision as a command (``simulated_command``) and the
# terminal's wording of a closed round (``outcome_lines``).


@dataclass(frozen=True, slots=True)
class DeviceStep:
    """What one event of the game's own device means to the table (decided by the adapter)."""

    #: an engine action the fact amounts to (close betting, a ball, a void spin)
    action: Any = None
    #: a device fault: the round holds and no round opens until the device recovers
    fault: str | None = None
    #: the device was re-checked healthy after a fault
    recovered: bool = False
    #: device commands the table sends now (``power_on``)
    commands: tuple[str, ...] = ()
    #: (severity, code, message) for the dealer and the pit
    alert: tuple[str, str, str] | None = None
