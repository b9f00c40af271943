"""What the studio asks of the game engines: is a bet one this table takes (its kind, its limits),
and what does it pay on the table's recorded result. The engines decide both; nothing here knows
a rule of a game, only how to feed a game's engine the result its round record carries."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from controller.cards import CARDS
from controller.games.base import BetRefused, CloseBetting, Deal, Decide, ExpectKind, PlaceBet, RuleError, WheelResult
from controller.games.roulette.engine import SetMultipliers
from controller.games.russian_poker.round import Exchange
from controller.studio.config import TableSection
from controller.studio.sides import CARRIERS, SIDES, felt_kind
from controller.table.games.base import GameAdapter
from controller.table.registry import adapter_for

#: the box every remote bet is placed on in its engine round
BOX = 1


class UnsettleableRecord(ValueError):
    """A round record whose result the engine cannot take (a game the studio does not settle, or
    an outcome that is not a result of this game)."""


class NotDealt(ValueError):
    """The result leaves a remote bet without its cards (a side bet on a box nobody played)."""


def _roulette(engine: Any, outcome: Mapping[str, Any]) -> None:
    multipliers = outcome.get("multipliers") or {}
    if multipliers:
        engine.apply(SetMultipliers(tuple((str(k), int(v)) for k, v in multipliers.items())))
    engine.apply(WheelResult(tuple(str(n) for n in outcome["numbers"])))


def _baccarat(engine: Any, outcome: Mapping[str, Any]) -> None:
    hands = {1: list(outcome["player"]["cards"]), 2: list(outcome["banker"]["cards"])}
    while engine.expects().kind is ExpectKind.CARD:  # the engine says which hand takes the next card
        hand = hands[engine.expects().hand]
        if not hand:
            raise UnsettleableRecord("the record's cards end before the coup does")
        engine.apply(Deal(hand.pop(0)))


def _blackjack(engine: Any, outcome: Mapping[str, Any]) -> None:
    """The initial deal of the box the side bet rides on: its first two cards and the dealer's up
    card; a side bet settles on them. After a split the second card is the first card of a later
    hand; after a re-split the record does not say which, so each candidate is played into a copy
    of the engine, and when they do not all settle the bet alike it was not decided (returned)."""
    box = engine.expects().box
    hands = next((b["hands"] for b in outcome["boxes"] if b["box"] == box), None)
    if not hands or len(hands[0]["cards"]) < (1 if len(hands) > 1 else 2) or not outcome["dealer"]["cards"]:
        raise NotDealt(f"box {box} was not dealt")
    seconds = sorted({h["cards"][0] for h in hands[1:]}) if len(hands) > 1 else [hands[0]["cards"][1]]
    trials = []
    for second in seconds:
        trial = copy.deepcopy(engine)
        _deal_box(trial, hands[0]["cards"][0], second, outcome["dealer"]["cards"][0])
        trials.append(trial.settlements)
    if any(t != trials[0] for t in trials):
        raise NotDealt(f"the record does not say which card was box {box}'s second (a re-split)")
    _deal_box(engine, hands[0]["cards"][0], seconds[0], outcome["dealer"]["cards"][0])


def _deal_box(engine: Any, first: str, second: str, up: str) -> None:
    cards = {ExpectKind.CARD: [first, second], ExpectKind.DEALER_CARD: [up]}
    while not engine.settlements and cards.get(engine.expects().kind):
        engine.apply(Deal(cards[engine.expects().kind].pop(0)))


def _place_at(engine: Any, kind: str, amount: int, player: str, rules: Any) -> None:
    """Roulette and baccarat: the bet on the engine's one box."""
    engine.apply(PlaceBet(BOX, kind, amount, player))


def _cards_game(engine: Any, outcome: Mapping[str, Any], box_cards: list[str], settled: Callable[[], bool]) -> None:
    """Deal a one-box engine round the box's recorded cards (as its engine calls for them) and
    the dealer's; the dealer's cards a side bet does not ride on, when the record has fewer (his
    hand not shown), are spare cards of the deck nobody holds."""
    dealer = list(outcome["dealer"]["cards"])
    cards = {ExpectKind.CARD: list(box_cards), ExpectKind.DEALER_CARD: dealer}
    seen = {*box_cards, *dealer}
    spare = iter(sorted(c for c in CARDS if c not in seen))
    while not settled() and engine.expects().kind in cards:
        kind = engine.expects().kind
        if not cards[kind]:
            if kind is ExpectKind.CARD:
                raise UnsettleableRecord("the record's cards end before the box's side bet is decided")
            cards[kind].append(next(spare))
        engine.apply(Deal(cards[kind].pop(0)))


def _three_card(engine: Any, outcome: Mapping[str, Any]) -> None:
    """Ace Plus: the box's three cards, settled when they are turned."""
    box = engine.expects().box
    cards = next((list(b["cards"]) for b in outcome["boxes"] if b["box"] == box), None)
    if not cards or len(cards) < 3:
        raise NotDealt(f"box {box} was not dealt")
    _cards_game(engine, outcome, cards, lambda: _side_settled(engine, "three-card-blackjack"))


def _russian(engine: Any, outcome: Mapping[str, Any]) -> None:
    """The Bonus: the box's five cards as dealt, whether it then raised or folded, lost by an
    exchange. The record holds a box's cards after its exchange (the Bonus is lost whatever
    they were): the box's recorded cards are dealt, the exchange is played with a spare card,
    and the carrier folds so nothing but the Bonus is decided."""
    box = engine.expects().box
    slot = outcome["boxes"].get(str(box))
    if slot is None or slot["status"] == "void" or len(slot["cards"]) != 5:
        raise NotDealt(f"box {box} was not dealt (or its hand was voided)")
    _cards_game(engine, outcome, list(slot["cards"]), lambda: engine.expects().kind is ExpectKind.DECISION)
    if slot["exchanged"]:
        engine.apply(Exchange(box, slot["cards"][0], "remote"))
        held = {*slot["cards"], *outcome["dealer"]["cards"]}
        while engine.expects().kind is ExpectKind.DEALER_CARD:  # the dealer's fifth after a 4-card deal
            engine.apply(Deal(next(c for c in sorted(CARDS) if c not in held)))
        engine.apply(Deal(next(c for c in sorted(CARDS) if c not in held and c not in engine.box_cards(box))))
    engine.apply(Decide(box, "fold", player="remote"))
    while engine.expects().kind is ExpectKind.DEALER_CARD:
        held = {*engine.box_cards(box), *outcome["dealer"]["cards"], *slot["cards"]}
        engine.apply(Deal(next(c for c in sorted(CARDS) if c not in held)))


def _side_settled(engine: Any, game: str) -> bool:
    """The engine settled the remote side bet (a card game settles a side bet as its cards come)."""
    return any(s.player == "remote" and s.kind in SIDES[game] for s in engine.settlements)




def _place_side(engine: Any, kind: str, amount: int, player: str, rules: Any, game: str) -> None:
    """A card game: a side bet that rides on a box's cards, ``perfect_pairs@3``, ``ace_plus@2``.
    The engine takes a side bet only beside its player's main bet, so a main bet carries it (and
    is never settled: only the side bet is read): the table's minimum, or its maximum when the
    engine caps the side bet by the main bet's size (the Bonus at most half the Ante), so the
    side bet is checked against the largest main bet a seat could have."""
    side, _, box = kind.partition("@")
    if side not in SIDES[game] or not box.isdigit():
        raise BetRefused("studio.kind", f"remote {game} bets are side bets on a box's cards, e.g. "
                                        f"{min(SIDES[game])}@3 ({', '.join(sorted(SIDES[game]))}), not {kind!r}")
    main = CARRIERS[game]
    limit = rules.limits.get(main)
    for carrier in dict.fromkeys((limit.min, limit.max) if limit else (1,)):
        trial = copy.deepcopy(engine)
        trial.apply(PlaceBet(int(box), main, carrier, player))
        try:
            trial.apply(PlaceBet(int(box), side, amount, player))
        except BetRefused:
            if limit is not None and carrier != limit.max:
                continue
            raise
        engine.apply(PlaceBet(int(box), main, carrier, player))
        engine.apply(PlaceBet(int(box), side, amount, player))
        return


#: how a game's recorded outcome is played into its engine
RESULTS: dict[str, Callable[[Any, Mapping[str, Any]], None]] = {
    "roulette": _roulette, "baccarat": _baccarat, "blackjack": _blackjack,
    "three-card-blackjack": _three_card, "russian-poker": _russian}


class TableRules:
    """One table's engine and rules, for checking and settling remote bets."""

    def __init__(self, section: TableSection) -> None:
        self.game = section.game
        self.rules = section.game_rules()
        self.adapter: GameAdapter = adapter_for(section.game)

    @property
    def settles(self) -> bool:
        return self.game in RESULTS

    def check(self, bets: list[tuple[str, int]], player: str) -> str | None:
        """None if the engine takes every bet of ``bets`` together; else why not (its words)."""
        try:
            felt = [(k, a) for k, a in bets if felt_kind(self.game, k) is not None]
            for kind, amount in felt:  # a seated box's bet, a Bet Behind: the engine takes it on its box
                table_kind, box = felt_kind(self.game, kind) or (kind, BOX)
                self.adapter.new_round(self.rules).apply(PlaceBet(box, table_kind, amount, player))
            bets = [b for b in bets if b not in felt]
            if self.game not in SIDES:  # all in one round: the engine's limits hold for a kind's total
                engine = self.adapter.new_round(self.rules)
                for kind, amount in bets:
                    _place_at(engine, kind, amount, player, self.rules)
            else:
                for kind, amount in bets:
                    _place_side(self.adapter.new_round(self.rules), kind, amount, player, self.rules, self.game)
        except RuleError as exc:
            return exc.message
        return None

    def place(self, engine: Any, kind: str, amount: int, player: str) -> None:
        """The remote bet on its box in ``engine`` (a card game's side bet beside its carrier)."""
        if self.game in SIDES:
            _place_side(engine, kind, amount, player, self.rules, self.game)
        else:
            _place_at(engine, kind, amount, player, self.rules)

    def payout(self, kind: str, amount: int, outcome: Mapping[str, Any]) -> int:
        """What the bet returns on ``outcome`` (the round record's), as the table's engine settles it."""
        play = RESULTS.get(self.game)
        if play is None:
            raise UnsettleableRecord(f"the studio does not settle {self.game} yet")
        engine = self.adapter.new_round(self.rules)
        self.place(engine, kind, amount, "remote")
        engine.apply(CloseBetting())
        try:
            play(engine, outcome)
        except NotDealt:
            return amount  # nothing decided the bet: it is returned
        except (KeyError, TypeError, ValueError, RuleError) as exc:
            raise UnsettleableRecord(f"the round record's outcome is not a {self.game} result: {exc}") from None
        side = kind.partition("@")[0] if self.game in SIDES else None  # a side bet's row, not its carrier's
        rows = [s for s in engine.settlements if s.player == "remote" and s.kind == (side or s.kind)]
        if len(rows) != 1:
            raise UnsettleableRecord(f"the engine settled {len(rows)} rows for one bet")
        return int(rows[0].payout)
