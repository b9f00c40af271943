"""Why an input is refused: the rule each illegal card or decision breaks (docs/rules.md §1).

Only reached on the refusal path, so the round's hot path stays a membership test against the
options it offered; these functions work out which rule a refused input broke, for the typed error.
"""

from __future__ import annotations

from controller.cards import CardError, parse_card
from controller.games.base import ExpectKind, IllegalDecision, PhaseError, RuleError, UnexpectedCard
from controller.games.blackjack.hand import CARD_POINTS, Hand, hand_total
from controller.games.blackjack.options import RoundOptions
from controller.games.blackjack.phases import (
    ALL_ACTIONS,
    BETTING,
    DONE,
    EVEN_MONEY_OPTIONS,
    INSURANCE,
    PHASE_NAMES,
    PLAY_ACTIONS,
)
from controller.games.blackjack.play import is_pair
from controller.games.blackjack.state import Box, RoundState
from controller.shoe import ImpossibleCard


def checked_card(st: RoundState, text: str) -> str:
    """A dealt card not written as a card this game's shoe holds: the card it is (parsed,
    then checked as ``deal`` checks any card), or the refusal."""
    card = text if text in CARD_POINTS else _parse(text)
    kind = st._expect.kind
    if kind is not ExpectKind.CARD and kind is not ExpectKind.DEALER_CARD:
        raise card_refused(st, card)
    if card[0] in st._opts.removed_ranks:
        raise ImpossibleCard(card, f"rank {card[0]} is removed from this game's shoe")
    return card


def _parse(card: str) -> str:
    try:
        return parse_card(card)
    except (CardError, AttributeError):
        raise UnexpectedCard("blackjack.card.not_a_card", f"not a card: {card!r}") from None


def betting_closed(st: RoundState) -> PhaseError:
    return PhaseError("blackjack.bet.closed", f"betting is closed (phase {PHASE_NAMES[st._phase]})")


def card_refused(st: RoundState, card: str) -> UnexpectedCard:
    phase = st._phase
    exp = st._expect
    if phase == BETTING:
        return UnexpectedCard("blackjack.card.betting_open", f"{card} while betting is open")
    if phase == DONE:
        if st._dealer_stood:
            total = hand_total(st._dealer)
            return UnexpectedCard("blackjack.dealer.stands", f"{card}: the dealer stands on {total}")
        return UnexpectedCard("blackjack.card.round_over", f"{card}: no hand needs a card, the round is over")
    if phase == INSURANCE:
        return UnexpectedCard("blackjack.card.insurance_open", f"{card}: box {exp.box} still decides on insurance")
    return UnexpectedCard(
        "blackjack.card.decision_pending", f"{card}: box {exp.box} hand {exp.hand} must decide first"
    )


def no_decision_now(st: RoundState, box: int) -> RuleError:
    exp = st._expect
    if st._phase == BETTING:
        return PhaseError("blackjack.phase", "no decisions while betting is open")
    if st._phase == DONE:
        return PhaseError("blackjack.phase", "the round is over")
    where = "the dealer" if exp.kind is ExpectKind.DEALER_CARD else f"box {exp.box} hand {exp.hand}"
    return IllegalDecision("blackjack.turn", f"a card is due to {where}, not a decision from box {box}")


def refusal(st: RoundState, b: Box, action: str) -> IllegalDecision:
    """The rule that forbids ``action`` now (only computed when refusing)."""
    if action not in ALL_ACTIONS:
        return IllegalDecision("blackjack.decision.unknown", f"unknown decision {action!r}")
    if st._phase == INSURANCE:
        return _insurance_refusal(action)
    if action not in PLAY_ACTIONS:
        return IllegalDecision("blackjack.insurance.closed", "insurance and even money are over")
    opts = st._opts
    h = b.hands[st._hand_i]
    if action == "hit":
        return IllegalDecision("blackjack.split_aces.no_hit", "split aces take no more cards")
    if action == "split":
        return _split_refusal(opts, b, h)
    if action == "surrender":
        return _surrender_refusal(opts, st._dealer[0][0])
    return _double_refusal(opts, h, action)


def _insurance_refusal(action: str) -> IllegalDecision:
    if action in PLAY_ACTIONS:
        return IllegalDecision("blackjack.insurance.pending", "insurance / even money is decided first")
    if action in EVEN_MONEY_OPTIONS:
        return IllegalDecision("blackjack.even_money.blackjack_only", "even money is for a blackjack")
    return IllegalDecision("blackjack.insurance.even_money", "a blackjack takes even money, not insurance")


def _split_refusal(opts: RoundOptions, b: Box, h: Hand) -> IllegalDecision:
    if len(h.cards) != 2:
        return IllegalDecision("blackjack.split.two_cards", "only a two-card hand splits")
    if not is_pair(opts, h):
        by = "rank" if opts.split_by_rank else "points"
        return IllegalDecision("blackjack.split.not_a_pair", f"{'-'.join(h.cards)} is not a pair by {by}")
    if len(b.hands) >= opts.max_hands:
        return IllegalDecision("blackjack.split.max_splits", f"at most {opts.max_hands} hands per box")
    return IllegalDecision("blackjack.split_aces.one_card", "split aces take one card each, no more")


def _surrender_refusal(opts: RoundOptions, dealer_up_rank: str) -> IllegalDecision:
    if not opts.surrender:
        return IllegalDecision("blackjack.surrender.off", "this table offers no surrender")
    if not (opts.surrender_vs_ace or dealer_up_rank != "A"):
        return IllegalDecision("blackjack.surrender.not_vs_ace", "no surrender against a dealer ace")
    return IllegalDecision("blackjack.surrender.first_decision", "surrender is the box's first decision only")


def _double_refusal(opts: RoundOptions, h: Hand, action: str) -> IllegalDecision:
    """Why a double, triple or quadruple is refused on hand ``h``."""
    if action not in opts.multiplier_names:
        return IllegalDecision("blackjack.double.multiplier", f"this table offers no {action}")
    if len(h.cards) != 2:
        return IllegalDecision("blackjack.double.first_two_cards", "double on the first two cards only")
    if h.split_aces and not opts.hit_split_aces:
        return IllegalDecision("blackjack.split_aces.no_hit", "split aces take no more cards")
    if h.split and not opts.double_after_split:
        return IllegalDecision("blackjack.double.after_split", "no double after a split")
    return IllegalDecision("blackjack.double.totals", f"no double on {h.total}")
