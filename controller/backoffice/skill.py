"""A blackjack player's measured skill, from the rounds actually dealt: the decisions the player
took against basic strategy for the table's rules, and what they cost in expected value.

The decisions are read back from each round's stored outcome (the record the table published):
a hand's final cards, status and multiplier say what its player did. A box with two hands or
more was split (the split is rated at the pair, its hands' later plays are not: their cards at
each decision cannot be told apart from the record); a doubled hand doubled on its first two
cards; a surrendered hand surrendered them; otherwise each card past the second is a hit, and a
hand that stood below 21 stood on all of its cards (21 stands by itself, a blackjack or a
Charlie takes no decision). Insurance (basic strategy never takes it) is rated when the dealer
showed an ace on a table that offers it.

The cost of a decision is the stake times the expected value the best action would have had
minus that of the action taken (``BasicStrategy.values``: per unit of the initial bet, over the
full shoe), so a player on basic strategy costs nothing and ``ev_cost`` is money the player gave
the house by playing worse, in minor units. Insurance costs its stake times ``1 - 3 p`` (``p``:
the share of tens among the shoe's cards less the ace shown).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from controller.cards import BJ_POINTS
from controller.games.blackjack.rules import BlackjackRules, Insurance, blackjack_rules
from controller.games.blackjack.strategy import BasicStrategy

log = logging.getLogger(__name__)
#: ratings keep the cheaper ones, never an unbounded list
DEVIATIONS_KEPT = 20


@dataclass(frozen=True, slots=True)
class Decision:
    cards: tuple[str, ...]  # the hand when the decision was taken (the pair, for a split)
    up: str  # the dealer's up card
    action: str


def _points(card: str) -> int:
    return BJ_POINTS[card[0]]


def hand_decisions(cards: Sequence[str], status: str, multiplier: int) -> list[tuple[tuple[str, ...], str]]:
    """What a hand's player did, at which cards, from its final cards, status and multiplier."""
    cards = tuple(cards)
    if len(cards) < 2:
        return []
    if status == "surrendered":
        return [(cards[:2], "surrender")]
    if multiplier >= 2:
        return [(cards[:2], "double")]
    out = [(cards[:n], "hit") for n in range(2, len(cards))]
    if status == "live" and _total(cards) < 21:
        out.append((cards, "stand"))
    return [(at, action) for at, action in out if _total(at) < 21]


def _total(cards: Sequence[str]) -> int:
    hard = sum(_points(c) for c in cards)
    return hard + 10 if any(_points(c) == 1 for c in cards) and hard + 10 <= 21 else hard


def box_decisions(box: dict[str, Any], up: str) -> list[tuple[int, Decision]]:
    """(hand, decision) for one box of a blackjack outcome."""
    hands = [h for h in box.get("hands") or [] if isinstance(h, dict)]
    out: list[tuple[int, Decision]] = []
    if len(hands) > 1:
        firsts = [(h.get("cards") or [None])[0] for h in hands[:2]]
        if all(isinstance(c, str) for c in firsts) and _points(firsts[0]) == _points(firsts[1]):
            out.append((int(hands[0].get("hand", 1)), Decision((firsts[0], firsts[1]), up, "split")))
        return out
    for h in hands:
        cards = [c for c in h.get("cards") or [] if isinstance(c, str)]
        for at, action in hand_decisions(cards, str(h.get("status", "")), int(h.get("multiplier") or 1)):
            out.append((int(h.get("hand", 1)), Decision(at, up, action)))
    return out


@functools.lru_cache(maxsize=16)
def _strategy(preset: str) -> BasicStrategy | None:
    try:
        return BasicStrategy.for_rules(blackjack_rules(preset))
    except (ValueError, KeyError, TypeError) as exc:
        log.warning("no basic strategy for blackjack/%s: %s", preset, exc)
        return None


def insurance_cost(rules: BlackjackRules) -> float:
    """Expected loss per unit of an insurance stake, with an ace shown from a full shoe."""
    cards = 52 * rules.decks - 1
    tens = 16 * rules.decks
    p = tens / cards
    return 1.0 - p * (1 + float(rules.insurance_pays))


def cost(strategy: BasicStrategy, decision: Decision) -> float | None:
    """Expected value given up per unit of the initial bet (0.0 on basic strategy); None when the
    tables do not hold the situation or the action taken."""
    values = strategy.values.get((strategy.key(decision.cards), _points(decision.up)))
    if not values or decision.action not in values:
        return None
    return max(values.values()) - values[decision.action]


@dataclass
class Skill:
    """One player's rated decisions."""

    decisions: int = 0
    deviations: int = 0
    ev_cost: float = 0.0
    rated_stake: int = 0  # the initial stakes of the hands rated
    insurance_taken: int = 0
    worst: list[dict[str, Any]] = field(default_factory=list)

    def add(self, decision: Decision, stake: int, lost: float) -> None:
        self.decisions += 1
        if lost > 1e-9:
            self.deviations += 1
            self.ev_cost += stake * lost
            self.worst.append({"hand": list(decision.cards), "up": decision.up, "action": decision.action,
                               "ev_cost": round(stake * lost), "ev_lost_per_unit": round(lost, 4)})
            self.worst.sort(key=lambda d: -d["ev_cost"])
            del self.worst[DEVIATIONS_KEPT:]

    def as_json(self) -> dict[str, Any]:
        return {"decisions": self.decisions, "deviations": self.deviations,
                "deviation_pct": round(100.0 * self.deviations / self.decisions, 2) if self.decisions else 0.0,
                "ev_cost": round(self.ev_cost), "insurance_taken": self.insurance_taken,
                "ev_cost_pct": round(100.0 * self.ev_cost / self.rated_stake, 4) if self.rated_stake else 0.0,
                "costliest": self.worst}


def rate_round(skill: dict[str, Skill], preset: str | None, outcome: dict[str, Any],
               main_bets: Iterable[tuple[str, int, int, int]]) -> None:
    """Fold one blackjack round into ``skill`` by player: ``main_bets`` are (player, box, hand,
    stake) of its main bets."""
    strategy = _strategy(preset) if preset else None
    dealer = outcome.get("dealer") if isinstance(outcome, dict) else None
    cards = dealer.get("cards") if isinstance(dealer, dict) else None
    if strategy is None or not isinstance(cards, list) or not cards or not isinstance(cards[0], str) or not cards[0]:
        return  # not a blackjack outcome this program can read: nothing rated
    up = cards[0]
    if up[0] not in BJ_POINTS:
        return
    peeked_blackjack = isinstance(dealer, dict) and bool(dealer.get("blackjack")) and strategy.rules.hole_card
    stakes: dict[int, dict[int, tuple[str, int]]] = {}
    for player, box, hand, stake in main_bets:
        stakes.setdefault(box, {})[hand] = (player, stake)
    for box in outcome.get("boxes") or []:
        if not isinstance(box, dict) or box.get("box") not in stakes:
            continue
        try:
            _rate_box(skill, strategy, box, up, stakes[box["box"]], peeked_blackjack)
        except (KeyError, ValueError, TypeError, IndexError) as exc:  # a card or field this program cannot read
            log.warning("blackjack decisions not rated for box %s: %s", box.get("box"), exc)


def _rate_box(skill: dict[str, Skill], strategy: BasicStrategy, box: dict[str, Any], up: str,
              by_hand: dict[int, tuple[str, int]], peeked_blackjack: bool) -> None:
    player, first_stake = by_hand[min(by_hand)]
    decisions = box_decisions(box, up) if not peeked_blackjack else []  # a peeked blackjack ends the round
    insured = int(box.get("insurance") or 0)
    rated = skill.setdefault(player, Skill())
    rated.rated_stake += first_stake
    if up[0] == "A" and strategy.rules.insurance is not Insurance.NONE:
        if insured > 0:
            rated.insurance_taken += 1
            rated.add(Decision((), up, "insurance"), insured, insurance_cost(strategy.rules))
        else:
            rated.decisions += 1
    for hand, decision in decisions:
        lost = cost(strategy, decision)
        if lost is not None:
            rated.add(decision, by_hand.get(hand, (player, first_stake))[1], lost)
