"""The blackjack round (docs/rules.md §1, §1.1, §1.2): bets, the deal, decisions, dealer play, money.

One ``BlackjackRound`` per round. After every accepted input the round moves itself forward
through everything that needs nobody (settling a bust, skipping a finished hand, revealing the
dealer's blackjack) and stops at the next input it needs, which ``expects()`` returns. Every
input is checked against that expectation and the rules before anything changes, so a refused
input leaves the round exactly as it was.

Decisions (``Decide.action``): ``hit stand double split surrender`` and, Power Blackjack,
``triple quadruple``; on a dealer ace, box by box, ``insurance no_insurance`` (``amount`` =
the insurance stake, default the most allowed) or, for a blackjack, ``even_money no_even_money``.
The box owner (first main bettor) decides for the box; co-bettors and Bet Behind follow,
a ``behind_stay`` Bet Behind stays out of doubles and splits (see ``betting``). Insurance is
the owner's bet, at most half the box bet (every player's main bet on the box); even money and surrender take every bet
on the hand with it. On a Free Bet table ``double`` on a two-card 9-11 and ``split`` of a
non-ten pair are the free ones. ``open_bets()`` lists what still rides; ``void()``
(``VoidRound``) returns it and ends the round.

Side bets settle when their cards are known: Perfect Pairs, 21+3, Suit'em Up, Lucky Lucky and
Hot 3 on the box's second card; Crazy 7 on the second card, or on the third when the first two
are 7-7 (the card the first hand takes by a hit, double or split; on two if it takes none);
Bust It on the dealer's final hand, the dealer playing his hand out for it even when no main
hand is left. A Bet Behind that won over the round gives ``bet_behind_owner_share`` of its net
win to the box owner, on one ``behind_share`` row of the owner's per box (stake 0), when the
round ends.

Each job has its module, functions over the round's fields (``state``): ``boxes`` (the boxes a
closed book seats, the deal plan, bets still riding), ``insurance`` (offers and the peek),
``play`` (the players' decisions and cards), ``dealer`` (his hand and forced play),
``settlement`` (main bets and insurance), ``side_settlement`` and ``refusals`` (why an input is
refused). This class holds the inputs and queries.
"""

from __future__ import annotations

from typing import Any, cast

from controller.games.base import EngineRound, Expect, IllegalDecision, PhaseError, Settlement, void_result
from controller.games.blackjack.betting import add_bet, check_bet, clear_bets
from controller.games.blackjack.boxes import SECOND_CARD, deal_plan, open_bets, seat_boxes
from controller.games.blackjack.dealer import dealer_add, dealer_draw_or_stand, reveal
from controller.games.blackjack.hand import BLACKJACK, STATUS_NAMES, hand_total
from controller.games.blackjack.insurance import after_deal, insurance_decision
from controller.games.blackjack.outcome import BlackjackOutcome
from controller.games.blackjack.phases import BETTING, DEALING, DONE, INSURANCE, PHASE_NAMES, PLAY
from controller.games.blackjack.play import deal_to_hand, play_decision
from controller.games.blackjack.refusals import betting_closed, card_refused, checked_card, no_decision_now, refusal
from controller.games.blackjack.settlement import settle_owner_shares
from controller.games.blackjack.side_settlement import settle_deal_side_bets
from controller.games.blackjack.state import CARD, DEALER_CARD, DECISION, Box, RoundState, finish

#: ``Box`` is re-exported: journal snapshots written by earlier versions name it in this module.
__all__ = ["BlackjackRound", "Box"]


class BlackjackRound(RoundState, EngineRound):
    """One round of blackjack at one table, from open betting to the last settlement: the
    inputs and queries; the jobs they start are the functions of the modules imported above."""

    RULE_PREFIX = "blackjack"

    # ------------------------------------------------------------------ queries
    def expects(self) -> Expect:
        return self._expect

    @property
    def phase(self) -> str:
        return PHASE_NAMES[self._phase]

    def hand_cards(self, box: int, hand: int) -> tuple[str, ...]:
        hands = self._by_number[box].hands
        if not 0 < hand <= len(hands):
            raise KeyError(f"box {box} has no hand {hand}")
        return tuple(hands[hand - 1].cards)

    def hand_count(self, box: int) -> int:
        b = self._by_number.get(box)
        return len(b.hands) if b else 0

    def dealer_cards(self) -> tuple[str, ...]:
        return tuple(self._dealer)

    def box_owner(self, box: int) -> str:
        """The player who decides for ``box`` ("" for an anonymous bettor or a box not playing)."""
        b = self._by_number.get(box)
        return b.owner if b else ""

    def outcome(self) -> BlackjackOutcome:
        """Cards, totals and results per hand and of the dealer (``outcome.BlackjackOutcome``)."""
        # one validation of the whole tree (the nested models built by the validator in one
        # call, not one Python ``__init__`` per hand): every field checked all the same
        return BlackjackOutcome.model_validate(self._outcome_json())

    def outcome_record(self) -> dict[str, Any]:
        """``outcome().record()`` without building the model: the JSON the model is validated
        from is the record (lists where the model has tuples, fields in the model's order). It is
        the round's own state, typed by this code and no input, so it is not validated again at
        every close: tests/unit/blackjack/test_properties.py holds it to the model's dump (a value
        the model would coerce or refuse fails there) at every point of generated rounds."""
        return self._outcome_json()

    def _outcome_json(self) -> dict[str, Any]:
        dealer = self._dealer
        hole_hidden = len(dealer) == 2 and self._opts.hole_card and self._phase in (DEALING, INSURANCE, PLAY)
        shown = dealer[:1] if hole_hidden else dealer
        return {
            "phase": self.phase,
            "dealer": {
                "cards": list(dealer),
                "face_down": [1] if hole_hidden else [],
                "total": hand_total(shown),
                "blackjack": len(shown) == 2 and hand_total(shown) == 21,
            },
            "boxes": [
                {
                    "box": b.number,
                    "owner": b.owner,
                    "insurance": b.insurance,
                    "hands": [
                        {
                            "hand": i,
                            "cards": list(h.cards),
                            "total": h.total,
                            "status": STATUS_NAMES[h.status],
                            "multiplier": h.mult,
                            "face_down": [len(h.cards) - 1] if h.dark and not self.done else [],
                        }
                        for i, h in enumerate(b.hands, 1)
                    ],
                }
                for b in self._boxes
            ],
        }

    # ------------------------------------------------------------------ inputs
    def place_bet(self, box: int, kind: str, amount: int, player: str = "") -> None:
        if self._phase != BETTING:
            raise betting_closed(self)
        check_bet(self._opts, self._book, box, kind, amount, player)
        add_bet(self._book, box, kind, amount, player)

    def clear_bets(self, box: int, player: str | None = None) -> None:
        if self._phase != BETTING:
            raise betting_closed(self)
        clear_bets(self._book, box, player)

    def close_betting(self) -> None:
        if self._phase != BETTING:
            raise betting_closed(self)
        numbers = seat_boxes(self)
        if not numbers:
            finish(self)
            return
        self._plan, self._plan_expects = deal_plan(numbers, self._opts.hole_card)
        self._phase = DEALING
        self._expect = cast(Expect, self._plan_expects[0])  # the plan holds at least one card

    def deal(self, card: str) -> None:
        """The next card out of the shoe; it goes where ``expects()`` says."""
        kind = self._expect.kind
        if card not in self._opts.shoe_cards:  # not a card as written, or of a removed rank
            card = checked_card(self, card)
        elif kind is not CARD and kind is not DEALER_CARD:
            raise card_refused(self, card)
        if self._composition is not None:
            self._composition.take(card)
        # ---- nothing below may raise
        phase = self._phase
        if phase == DEALING:  # the initial deal, in the order of the deal plan
            i = self._plan_i
            target = self._plan[i]
            self._plan_i = i + 1
            if target >= SECOND_CARD:
                box = self._boxes[target - SECOND_CARD]
                h = box.hands[0]
                h.add(card)
                if h.ace and h.hard == 11:
                    h.status = BLACKJACK
                if box.side:
                    settle_deal_side_bets(self, box)
            elif target >= 0:
                self._boxes[target].hands[0].add(card)
            else:
                dealer_add(self, card)
            nxt = self._plan_expects[i + 1]
            if nxt is None:
                after_deal(self)
            else:
                self._expect = nxt
        elif phase == PLAY:
            deal_to_hand(self, card)
        else:
            dealer_add(self, card)
            if self._bj_possible and len(self._dealer) == 2:
                reveal(self)
            else:  # a dealer card was asked for, so live hands are waiting for him
                dealer_draw_or_stand(self)

    def decide(self, box: int, hand: int, action: str, player: str = "", amount: int | None = None) -> None:
        expect = self._expect
        if expect.kind is not DECISION:
            raise no_decision_now(self, box)
        if box != expect.box or hand != expect.hand:
            raise IllegalDecision(
                "blackjack.turn", f"box {expect.box} hand {expect.hand} is to decide, not box {box} hand {hand}"
            )
        b = self._boxes[self._box_i]
        if player and player != b.owner:
            raise IllegalDecision("blackjack.box_owner", f"box {box} is decided by {b.owner!r}, not {player!r}")
        if action not in expect.options:
            raise refusal(self, b, action)
        if self._phase == INSURANCE:
            insurance_decision(self, b, action, amount)
            return
        if amount is not None:
            raise IllegalDecision("blackjack.decision.amount", f"{action} takes no amount")
        play_decision(self, b, box, hand, action)

    def open_bets(self) -> list[Settlement]:
        """Every bet still riding, as the refund a void would make (payout = stake)."""
        return open_bets(self)

    def void_round(self, reason: str = "") -> None:
        """Call the round off (misdeal, device fault): every bet still riding is returned;
        what was already settled stays settled (with the Bet Behind owner's share of it), and
        ``voided`` says which is which. The reason belongs to the journal."""
        if self._phase == DONE:
            raise PhaseError("blackjack.phase", "the round is over; nothing to void")
        refunds = open_bets(self)
        if self._opts.owner_share:
            settle_owner_shares(self)
        settled_before = len(self.settlements)
        self.settlements += refunds
        for b in self._boxes:
            for h in b.hands:
                h.settled = True
        self._bj_possible = False
        self._book = {}
        self.voided = void_result(reason, settled_before, self.settlements)
        finish(self)
