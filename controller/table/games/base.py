"""What the generic table needs from a game: the seam a new game plugs into (docs/architecture.md).

The table core drives any engine through ``apply()`` / ``expects()`` / ``settlements`` /
``outcome()`` (controller/games/base.py). What differs per game lives in a ``GameAdapter``:
building the rule set and a round, what the shoe holds, the wording of the dealer prompt, what
a void refunds, and how simulated players answer. ``GameAdapter`` declares every hook the table
calls; the optional ones have defaults that mean "this game has none", so the core never asks
whether a hook exists and a type checker sees every call.

Shoe games (``shoe_game.ShoeGameAdapter``) set ``uses_shoe``; a game driven by a device of its
own (roulette: the wheel) names that ``device`` and maps its events through ``device_step``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from controller.analysis import HouseEdgeOptions
from controller.analysis.edges import Edges
from controller.games.base import Decide, Expect, ExpectKind, GameRules, Limit, RuleError, Settlement, VoidResult, VoidRound
from controller.games.outcome import Outcome
from controller.table.games.views import GameView
from controller.table.inputs import command
from drivers.events import DeviceEvent


class Engine(Protocol):
    """The engine API of controller/games/base.py, as the table uses it."""

    settlements: list[Settlement]

    def apply(self, action: Any) -> None: ...

    def expects(self) -> Expect: ...

    def outcome(self) -> Outcome: ...

    def outcome_record(self) -> dict[str, Any]: ...


class Unseen(Protocol):
    """What a player can know of the shoe: the cards not seen yet (``controller.shoe.Composition``)."""

    def rank_left(self, rank: str) -> int: ...


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


class GameAdapter(ABC):
    """Every hook the table calls on a game; the optional ones default to "none"."""

    game: ClassVar[str]
    #: dealt from the card shoe (the shoe's events are the table's, see ``shoe_device``)
    uses_shoe: ClassVar[bool] = True
    #: the game's own device (roulette: "wheel"); its events go to ``device_step``
    device: ClassVar[str | None] = None
    #: one deck shuffled every round: after each round the table demands a new shoe
    new_shoe_every_round: ClassVar[bool] = False
    #: the bet a seated player stakes (its limit's minimum is the simulated players' unit)
    bet_kind: ClassVar[str] = "main"
    #: rounds per hour a well-run table of this game deals (the pace's default target)
    pace_target: ClassVar[int] = 60
    #: what the console, the pit, recall and the printer show of the game's outcome
    view: ClassVar[GameView] = GameView()
    #: a seated remote player's decision when the table decides for them (the first one offered);
    #: none: the game seats no remote players (docs/studio.md, "Seats")
    default_decisions: ClassVar[tuple[str, ...]] = ()
    #: the game makes random draws (overrides ``draw_due``): set for each adapter class, so the
    #: core asks ``draw_due`` after every action only of a game that has one to ask for
    draws: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.draws = cls.draw_due is not GameAdapter.draw_due

    # ------------------------------------------------------------------ rules and rounds
    @abstractmethod
    def rules(self, preset: str | None, overrides: Mapping[str, Any], limits: Mapping[str, Limit]) -> GameRules:
        """The validated rule set (RulesConfigError naming the key)."""

    @abstractmethod
    def rules_from_dump(self, data: Mapping[str, Any]) -> GameRules:
        """A rule set as journaled (``model_dump(mode="json")``) when the table started."""

    @abstractmethod
    def new_round(self, rules: GameRules) -> Any:
        """A fresh engine round (an ``Engine``)."""

    @abstractmethod
    def decks(self, rules: GameRules) -> int: ...

    @abstractmethod
    def removed_ranks(self, rules: GameRules) -> str: ...

    # ------------------------------------------------------------------ prompts and money
    @abstractmethod
    def prompt(self, engine: Any, expect: Expect) -> str:
        """The dealer's instruction for what the engine expects next."""

    @abstractmethod
    def done_prompt(self, engine: Any) -> str:
        """What the dealer is told once the engine settled everything (before closing)."""

    @abstractmethod
    def open_bets(self, engine: Any) -> list[Settlement]:
        """Every bet still on the layout, unsettled, as refunds (stake = payout) for a void."""

    def void_round(self, engine: Any, reason: str) -> VoidResult:
        """Call the open round off (dealer, pit, resume-or-void, integrity): the engine returns
        every bet still riding and keeps what it already settled; the result lists both, rows
        for the round record in ``settlements``. Never raises: a round the engine has already
        settled returns nothing and all of it stands."""
        if engine.expects().kind is ExpectKind.DONE:
            return VoidResult(reason, tuple(engine.settlements), ())
        engine.apply(VoidRound(reason))
        result: VoidResult = engine.voided
        return result

    def most_returned(self, rules: GameRules, kind: str, stake: int) -> int | None:
        """The most a ``kind`` bet of ``stake`` returns at this table, stake included: the bound
        of a corrected payout, from the game's own rules (None: the game cannot say, and a row of
        that kind is not corrected at the table)."""
        return None

    def outcome_lines(self, outcome: Mapping[str, Any]) -> list[str]:
        """A closed round's outcome (a record's JSON) as text lines, by the game's ``view``."""
        return self.view.record_lines(outcome)

    def house_edges(self, preset: str) -> Edges | None:
        """The preset's theoretical house edge for the pit, where a cheap exact figure exists
        (None: the game has none). Raises ValueError/KeyError for a preset it does not know."""
        return None

    # ------------------------------------------------------------------ commands of the game
    def game_action(self, name: str, args: Mapping[str, Any]) -> Any:
        """The engine action of a game's own command (Russian poker's exchange, misdeal)."""
        raise RuleError("table.command.game", f"{self.game} has no {name} command")

    def keyed_result(self, number: str) -> Any:
        """The engine action of a result the dealer keys in (double ball's second ball)."""
        raise RuleError("table.key_result.no_wheel", f"{self.game} has no wheel result to key in")

    def device_result(self, engine: Any) -> str | None:
        """The result the game's device gave the round, when the whole result is in and a key of
        the dealer's would be a second source of it (controller/table/result_check.py)."""
        return None

    # ------------------------------------------------------------------ the game's own device
    def open_commands(self, rules: GameRules) -> tuple[str, ...]:
        """Commands for the game's own device when a round opens (the wheel's start)."""
        return ()

    def recover_commands(self) -> tuple[str, ...]:
        """Commands for the game's own device when the table starts with a fault of it in the
        journal: the new driver never saw that fault, so it has to be cleared afresh."""
        return ()

    def device_step(self, engine: Any, rules: GameRules, event: DeviceEvent) -> DeviceStep:
        """What an event of the game's own device means (nothing, for a game without one)."""
        return DeviceStep()

    # ------------------------------------------------------------------ a random draw made by the table
    def draw_due(self, engine: Any) -> bool:
        """The open round needs its random draw now (roulette's lightning multipliers)."""
        return False

    def draw(self, engine: Any, seed: bytes) -> dict[str, Any]:
        """The draw's journal payload made from ``seed``."""
        raise NotImplementedError(f"{self.game} makes no draw")

    def draw_action(self, payload: Mapping[str, Any]) -> Any:
        """The engine action of a journaled draw."""
        raise RuleError("table.draw.unexpected", f"{self.game} makes no draw")

    # ------------------------------------------------------------------ simulated players
    def prepare_simulation(self, rules: GameRules) -> None:
        """Derive what simulated players need (a strategy) before the table takes inputs, so
        the first decision does not stall the event loop (nothing to derive by default)."""
        return None

    def simulated_bets(self, rules: GameRules, box: int, stake: int, round_no: int) -> list[tuple[str, int]]:
        """The bets (kind, amount) a simulated player with unit ``stake`` places on ``box``."""
        return [(self.bet_kind, stake)]

    def simulated_decision(self, engine: Any, expect: Expect, rules: GameRules) -> Decide:
        """A simulated player's answer to a decision prompt (batch mode)."""
        raise RuleError("table.simulated.decision", f"{self.game}: simulated players take no decisions")

    def simulated_command(self, engine: Any, expect: Expect, rules: GameRules, unseen: Unseen) -> dict[str, Any]:
        """A simulated player's answer to a decision prompt, as a command payload."""
        return decide_command(self.simulated_decision(engine, expect, rules))


def decide_command(decision: Decide) -> dict[str, Any]:
    """The ``decide`` command a player gives for ``decision``."""
    return command("decide", box=decision.box, hand=decision.hand, action=decision.action,
                   player=decision.player or None, amount=decision.amount)


def exact_edges(house_edge: Callable[[HouseEdgeOptions], dict[str, Any]], preset: str) -> Edges:
    """The pit's figures from a game's exact analysis (``croupier house-edge``): the headline
    edge and each bet type's."""
    result = house_edge(HouseEdgeOptions(preset=preset, progress=False))
    bets = {str(k): float(v) for k, v in result["bets"].items()}
    return Edges(float(result["house_edge"]), bets, f"exact enumeration, preset {preset}")
