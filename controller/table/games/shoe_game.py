"""What every shoe game's table adapter has in common (blackjack, three card blackjack, Catch a
Wave, baccarat, Russian poker): the rule set from preset + config, a round per ``new_round``, the
shoe's size, the prompts every game words alike, and refunds for a void.

A game adapter sets the class attributes and words its own prompts (``play_prompt``,
``done_prompt``); the other hooks it may override are those of ``base.GameAdapter``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from controller.games.base import Expect, ExpectKind, GameRules, Limit, Settlement
from controller.table.games.base import GameAdapter, Unseen, decide_command


def face(text: str, expect: Expect, *, say_up: bool = False) -> str:
    """A card prompt, marked when the card goes face down (or, ``say_up``, face up)."""
    if expect.face_down:
        return f"{text} (face down)"
    return f"{text} (face up)" if say_up else text


class ShoeGameAdapter(GameAdapter):
    uses_shoe: ClassVar[bool] = True
    rules_model: ClassVar[type[GameRules]]
    #: the game's rules builder: ``(preset, overrides) -> rules`` (RulesConfigError naming the key)
    rules_builder: ClassVar[Callable[..., GameRules]]
    round_class: ClassVar[type[Any]]

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


__all__ = ["ShoeGameAdapter", "Unseen", "decide_command", "face"]
