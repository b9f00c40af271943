"""What every shoe game's table adapter has in common (blackjack, three card blackjack, Catch a
Wave, baccarat, Russian poker): the rule set from preset + config, a round per ``new_round``, the
shoe's size, the prompts every game words alike, refunds for a void, and the simulated players'
bets and decisions as the commands a real player would give.

A game adapter sets the class attributes and words its own prompts (``play_prompt``,
``done_prompt``); ``simulated_command`` answers a decision prompt in batch mode; ``outcome_lines``
(optional) words a closed round's cards for the terminal.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Protocol

from controller.games.base import (
    Decide,
    Expect,
    ExpectKind,
    GameRules,
    Limit,
    RuleError,
    Settlement,
)
from controller.table.inputs import command


class Unseen(Protocol):
    """What a player can know of the shoe: the cards not seen yet (``controller.shoe.Composition``)."""

    def rank_left(self, rank: str) -> int: ...


def face(text: str, expect: Expect, *, say_up: bool = False) -> str:
    """A card prompt, marked when the card goes face down (or, ``say_up``, face up)."""
    if expect.face_down:
        return f"{text} (face down)"
    return f"{text} (face up)" if say_up else text


def decide_command(decision: Decide) -> dict[str, Any]:
    """The ``decide`` command a player gives for ``decision``."""
    return command("decide", box=decision.box, hand=decision.hand, action=decision.action,
                   player=decision.player or None, amount=decision.amount)


class ShoeGameAdapter:
    game: ClassVar[str]
    uses_shoe: ClassVar[bool] = True
    #: one deck shuffled every round (three card blackjack, Russian poker): after each round the
    #: table demands a new shoe, as after a cut card
    new_shoe_every_round: ClassVar[bool] = False
    #: the bet a seated player stakes (its limit's minimum is the simulated players' unit)
    bet_kind: ClassVar[str] = "main"
    rules_model: ClassVar[type[GameRules]]
    #: the game's rules builder: ``(preset, overrides) -> rules`` (RulesConfigError naming the key)
    rules_builder: ClassVar[Callable[..., GameRules]]
    round_class: ClassVar[Callable[[Any], Any]]

    # ------------------------------------------------------------------ rules and rounds
    def rules(self, preset: str | None, overrides: Mapping[str, Any], limits: Mapping[str, Limit]) -> GameRules:
        """Preset, then ``[rules]``, then ``[limits]`` laid over the preset's limits."""
        build = type(self).rules_builder
        settings = dict(overrides)
        if limits:
            base = build(preset, {k: v for k, v in overrides.items() if k != "limits"})
            settings["limits"] = {**base.limits, **settings.get("limits", {}), **limits}
        return build(preset, settings)

    def rules_from_dump(self, data: Mapping[str, Any]) -> GameRules:
        return self.rules_model.model_validate(data)

    def new_round(self, rules: GameRules) -> Any:
        return type(self).round_class(rules)

    def decks(self, rules: GameRules) -> int:
        return int(getattr(rules, "decks", 1))

    def removed_ranks(self, rules: GameRules) -> str:
        return str(getattr(rules, "removed_ranks", ""))

    # ------------------------------------------------------------------ prompts
    def prompt(self, engine: Any, expect: Expect) -> str:
        if expect.kind is ExpectKind.BETS:
            return "Place your bets, then close betting"
        if expect.kind is ExpectKind.DONE:
            return self.done_prompt(engine)
        return self.play_prompt(engine, expect)

    def play_prompt(self, engine: Any, expect: Expect) -> str:
        """The instruction for a card or a decision the engine expects."""
        raise NotImplementedError

    def done_prompt(self, engine: Any) -> str:
        raise NotImplementedError

    # ------------------------------------------------------------------ money
    def open_bets(self, engine: Any) -> list[Settlement]:
        return list(engine.open_bets())

    # ------------------------------------------------------------------ commands of the game
    def game_action(self, name: str, args: Mapping[str, Any]) -> Any:
        """The engine action of a game's own command (none by default)."""
        raise RuleError("table.command.game", f"{self.game} has no {name} command")

    # ------------------------------------------------------------------ simulated players
    def prepare_simulation(self, rules: GameRules) -> None:
        """Derive what simulated players need (a strategy) before the table takes inputs, so
        the first decision does not stall the event loop."""

    def simulated_bets(self, rules: GameRules, box: int, stake: int, round_no: int) -> list[tuple[str, int]]:
        """The bets (kind, amount) a simulated player with unit ``stake`` places on ``box``."""
        return [(self.bet_kind, stake)]

    def simulated_decision(self, engine: Any, expect: Expect, rules: GameRules) -> Decide:
        raise NotImplementedError(f"{self.game}: simulated players take no decisions")

    def simulated_command(self, engine: Any, expect: Expect, rules: GameRules, unseen: Unseen) -> dict[str, Any]:
        """A simulated player's answer to a decision prompt, as a command payload."""
        return decide_command(self.simulated_decision(engine, expect, rules))
