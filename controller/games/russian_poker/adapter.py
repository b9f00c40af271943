"""Russian five-card poker at the table (docs/rules.md, Russian poker): one deck, shuffled for every round.

Besides ``decide`` (fold / raise) the game has two commands of its own, which this adapter turns
into engine actions: ``exchange box=N discard=CARD`` (the box gives up one card for the next one
out of the shoe) and the dealer's ``misdeal target=N|dealer cards_dealt=K [dealer_cards=[...]]``
(``DeclareMisdeal``: a box's wrong count voids that hand with the penalty; a dealer holding four
names them and adds a fifth; any other dealer count voids every hand). Simulated players follow
the analysis's ``simple`` strategy (exchange included where the table offers it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from controller.cards import CardError, parse_card
from controller.games.base import Decide, Expect, ExpectKind, GameRules, IllegalDecision
from controller.games.russian_poker import (
    DeclareMisdeal,
    Exchange,
    RussianPokerRound,
    RussianPokerRules,
    russian_poker_rules,
)
from controller.games.russian_poker.analysis import simple
from controller.games.russian_poker.showdown import most_returned
from controller.games.russian_poker.view import RussianPokerView
from controller.money import scale
from controller.table.games.shoe_game import (
    ShoeGameAdapter,
    Unseen,
    decide_command,
    face,
)
from controller.table.inputs import command


def _card(text: Any) -> str:
    try:
        return parse_card(str(text))
    except CardError as exc:
        raise IllegalDecision("russian.card", str(exc)) from None


def _int(name: str, value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise IllegalDecision(f"russian.{name}", f"{name} must be a number, not {value!r}") from None


class RussianPokerAdapter(ShoeGameAdapter):
    game = "russian-poker"
    default_decisions = ("fold",)
    pace_target = 40
    new_shoe_every_round = True
    bet_kind = "ante"
    rules_model = RussianPokerRules
    rules_builder = russian_poker_rules
    round_class = RussianPokerRound
    view = RussianPokerView()

    def most_returned(self, rules: GameRules, kind: str, stake: int) -> int | None:
        return most_returned(cast(RussianPokerRules, rules), kind, stake)

    def decks(self, rules: GameRules) -> int:
        return 1

    # ------------------------------------------------------------------ prompts
    def play_prompt(self, engine: Any, expect: Expect) -> str:
        if expect.kind is ExpectKind.CARD:
            if expect.note == "exchanged card":
                return face(f"Exchanged card to box {expect.box}", expect)
            return face(f"Card to box {expect.box}", expect)
        if expect.kind is ExpectKind.DEALER_CARD:
            if expect.note:
                return face("Dealer adds his fifth card", expect)
            return face("Card to dealer", expect, say_up=True)
        if "exchange" in expect.options:
            return f"Box {expect.box}: fold, raise or exchange?"
        return f"Box {expect.box}: fold or raise?"

    def done_prompt(self, engine: Any) -> str:
        out = engine.outcome()
        dealer = out.dealer
        if out.void:
            return f"{out.void}: every hand void — settle"
        if dealer.qualifies is None:
            return "No box raised — settle"
        if not dealer.qualifies:
            return f"Dealer does not qualify ({dealer.hand}) — settle"
        return f"Dealer qualifies with {dealer.hand} — settle"

    # ------------------------------------------------------------------ the game's own commands
    def game_action(self, name: str, args: Mapping[str, Any]) -> Any:
        if name == "exchange":
            return Exchange(_int("box", args["box"]), _card(args["discard"]), str(args.get("player", "")))
        if name == "misdeal":
            target = args["target"]
            return DeclareMisdeal(
                "dealer" if target == "dealer" else _int("target", target),
                _int("cards_dealt", args["cards_dealt"]),
                tuple(_card(c) for c in args.get("dealer_cards", ())),
            )
        return super().game_action(name, args)

    # ------------------------------------------------------------------ simulated players
    def simulated_bets(self, rules: GameRules, box: int, stake: int, round_no: int) -> list[tuple[str, int]]:
        """The Ante, and the largest Bonus allowed where it reaches the Bonus minimum."""
        bets = [("ante", stake)]
        assert isinstance(rules, RussianPokerRules)
        bonus = scale(stake, rules.bonus_max)
        limit = rules.limits.get("bonus")
        if rules.bonus and bonus > 0 and (limit is None or limit.min <= bonus <= limit.max):
            bets.append(("bonus", bonus))
        return bets

    def simulated_command(self, engine: Any, expect: Expect, rules: GameRules, unseen: Unseen) -> dict[str, Any]:
        round_: RussianPokerRound = engine
        box = expect.box or 0
        player = expect.players[0] if expect.players else ""
        action, discard = simple(round_.box_cards(box), round_.dealer_up_card or "??", "exchange" in expect.options)
        if action == "exchange":
            return command("exchange", box=box, discard=discard, player=player or None)
        return decide_command(Decide(box, action, 1, player))
