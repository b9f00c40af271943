"""One round of Catch a Wave (docs/rules.md §3) as a pure engine.

Deal: one card face up to each box with a bet, in box order, then one to the dealer. Boxes play
in order: ``stand``, or ``higher`` / ``lower`` (a hit: the call comes first, then the card).
A wrong call or an equal card loses at once; ``wave_calls`` right calls win at once. If any box
stood, the dealer plays by his fixed rules: the engine predicts each call (``Expect`` options and
note) and makes it itself, so the only input is the card; when the rule says stand, the round
settles without further input and any further card is refused.
"""

from __future__ import annotations

from enum import Enum
from fractions import Fraction
from typing import Final

from controller.cards import CARDS, RANK_INDEX
from controller.games.base import BetRefused, Expect, ExpectKind, IllegalDecision, PhaseError, UnexpectedCard
from controller.games.catch_a_wave.outcome import CatchAWaveBox, CatchAWaveDealer, CatchAWaveOutcome
from controller.games.catch_a_wave.rules import HIGHER, LOWER, STAND, CatchAWaveRules
from controller.games.ledger import BetLedger, LedgerRound
from controller.money import win

MAIN: Final = "main"
OPTIONS: Final = (STAND, HIGHER, LOWER)
# box status
PLAYING, STOOD, LOST, WAVE = "playing", "stood", "lost", "wave"


class Phase(str, Enum):
    BETTING = "betting"
    DEAL = "deal"
    PLAY = "play"
    DEALER = "dealer"
    DONE = "done"


class CatchAWaveRound(LedgerRound):
    """One round: bets, one card each, box-by-box calls, the dealer's forced calls, settlement.
    A wave already caught or a bet already lost stands when the round is void."""

    RULE_PREFIX = "caw"

    def __init__(self, rules: CatchAWaveRules) -> None:
        super().__init__(
            BetLedger(
                rules, prefix="caw", boxes=rules.boxes, game="Catch a Wave", kinds={MAIN: MAIN}, order=(MAIN,),
                amount_text="a bet",
            )
        )
        self.rules = rules
        self.phase = Phase.BETTING
        self._boxes: list[int] = []
        self.cards: dict[int, list[str]] = {}
        self.calls: dict[int, list[str]] = {}
        self.right: dict[int, int] = {}
        self.last: dict[int, int] = {}  # rank index of each box's last card
        self.status: dict[int, str] = {}
        self.dealer_cards: list[str] = []
        self.dealer_calls: list[str] = []
        self.dealer_right = 0
        self.dealer_last = -1
        self.dealer_wrong = False
        self.box: int = 0  # box to act (PLAY) or to receive its first card (DEAL)
        self._turn = 0
        self._pending: str | None = None  # the current box's call, awaiting its card
        self._dealer_call: str | None = None
        self._over = "caw.done"  # rule code of why no card is due (for a refused card)

    # ----------------------------------------------------------------- betting
    def close_betting(self) -> None:
        if self.phase is not Phase.BETTING:
            raise PhaseError("caw.phase", "betting is already closed")
        if not self.bets.boxes():
            raise BetRefused("caw.close.no_bet", "no box has a bet: nothing to deal")
        boxes = self._boxes = self.bets.close()
        for b in boxes:
            self.cards[b] = []
            self.calls[b] = []
            self.right[b] = 0
            self.status[b] = PLAYING
        self.box = boxes[0]
        self.phase = Phase.DEAL

    # ----------------------------------------------------------------- cards
    def deal(self, card: str) -> None:
        phase = self.phase
        if card not in CARDS:
            raise UnexpectedCard("caw.card", f"not a card: {card!r}")
        if phase is Phase.PLAY:
            call = self._pending
            if call is None:
                raise UnexpectedCard("caw.card.no_call", f"{card}: box {self.box} has not called higher or lower")
            self._player_card(card, call)
        elif phase is Phase.DEALER:
            self._dealer_card(card)
        elif phase is Phase.DEAL:
            self._first_card(card)
        elif phase is Phase.BETTING:
            raise UnexpectedCard("caw.betting_open", f"{card}: bets are still open")
        else:
            raise UnexpectedCard(self._over, f"{card}: no card is due ({self._over})")

    def _first_card(self, card: str) -> None:
        if self._turn < len(self._boxes):
            box = self.box
            self.cards[box].append(card)
            self.last[box] = RANK_INDEX[card[0]]
            self._turn += 1
            if self._turn < len(self._boxes):
                self.box = self._boxes[self._turn]
            return
        self.dealer_cards.append(card)
        self.dealer_last = RANK_INDEX[card[0]]
        self._turn = 0
        self.box = self._boxes[0]
        self.phase = Phase.PLAY

    def _player_card(self, card: str, call: str) -> None:
        box = self.box
        new = RANK_INDEX[card[0]]
        last = self.last[box]
        self.cards[box].append(card)
        self.calls[box].append(call)
        self.last[box] = new
        self._pending = None
        if new > last if call == HIGHER else new < last:
            right = self.right[box] = self.right[box] + 1
            if right < self.rules.wave_calls:
                return
            self.status[box] = WAVE
            self._settle(box, win(self.bets.stake(box, MAIN), self.rules.wave_pays, self.rules.rounding))
        else:
            self.status[box] = LOST
            self._settle(box, 0)
        self._next_box()

    def _dealer_card(self, card: str) -> None:
        call = self._dealer_call
        new = RANK_INDEX[card[0]]
        last = self.dealer_last
        self.dealer_cards.append(card)
        self.dealer_calls.append(call)  # type: ignore[arg-type]
        self.dealer_last = new
        if new > last if call == HIGHER else new < last:
            self.dealer_right += 1
            nxt = self.rules.dealer_call(new, self.dealer_right)
            if nxt == STAND:
                self._settle_by_difference()
            else:
                self._dealer_call = nxt
        else:
            self.dealer_wrong = True
            rules = self.rules
            for box in self._boxes:
                if self.status[box] == STOOD:
                    self._settle(box, win(self.bets.stake(box, MAIN), rules.dealer_wrong_pays, rules.rounding))
            self._finish("caw.dealer.wrong")

    # ----------------------------------------------------------------- decisions
    def decide(self, box: int, action: str, hand: int = 1, player: str = "", amount: int | None = None) -> None:
        if self.phase is not Phase.PLAY:
            raise PhaseError("caw.phase", f"no decision is due now ({self.phase.value})")
        if box != self.box or hand != 1:
            raise IllegalDecision("caw.turn", f"box {self.box} decides now, not box {box} hand {hand}")
        if self._pending is not None:
            raise IllegalDecision("caw.card_due", f"box {box} called {self._pending}: the card is due")
        if action not in OPTIONS:
            raise IllegalDecision("caw.option", f"{action!r} is not a choice here (stand, higher, lower)")
        if player and player != self.bets.player(box):
            raise IllegalDecision("caw.box.owner", f"box {box} is played by {self.bets.player(box)!r}")
        if amount is not None:
            raise IllegalDecision("caw.amount", "no decision of Catch a Wave takes an amount")
        if action == STAND:
            self.status[box] = STOOD
            self._next_box()
        else:
            self._pending = action

    def _next_box(self) -> None:
        self._turn += 1
        if self._turn < len(self._boxes):
            self.box = self._boxes[self._turn]
            return
        self.box = 0
        if STOOD in self.status.values():
            self.phase = Phase.DEALER
            self._dealer_call = self.rules.dealer_call(self.dealer_last, 0)
        else:
            self._finish("caw.no_live_bet")

    # ----------------------------------------------------------------- settlement
    def _settle(self, box: int, payout: int) -> None:
        self.settlements.append(self.bets.settle(box, MAIN, payout))

    def _settle_by_difference(self) -> None:
        dealer = self.dealer_right
        rounding = self.rules.rounding
        for box in self._boxes:
            if self.status[box] != STOOD:
                continue
            stake, lead = self.bets.stake(box, MAIN), self.right[box] - dealer
            self._settle(box, win(stake, Fraction(lead), rounding) if lead > 0 else stake if lead == 0 else 0)
        self._finish("caw.dealer.stands")

    def _finish(self, why: str) -> None:
        self._dealer_call = None
        self._over = why
        self.phase = Phase.DONE

    @property
    def over(self) -> bool:
        return self.phase is Phase.DONE

    def _voided(self) -> None:
        self._finish("caw.void")

    # ----------------------------------------------------------------- outputs
    def expects(self) -> Expect:
        phase = self.phase
        if phase is Phase.BETTING:
            return Expect(ExpectKind.BETS)
        if phase is Phase.DEAL:
            if self._turn < len(self._boxes):
                return Expect(ExpectKind.CARD, box=self.box, hand=1)
            return Expect(ExpectKind.DEALER_CARD, note="up card")
        if phase is Phase.PLAY:
            box = self.box
            if self._pending is not None:
                return Expect(ExpectKind.CARD, box=box, hand=1, options=(self._pending,), note=f"called {self._pending}")
            return Expect(
                ExpectKind.DECISION,
                box=box,
                hand=1,
                options=OPTIONS,
                players=(self.bets.player(box),),
                note=f"{self.right[box]} right calls",
            )
        if phase is Phase.DEALER:
            call = self._dealer_call or ""
            return Expect(ExpectKind.DEALER_CARD, options=(call,), note=f"dealer calls {call}")
        if self._over == "caw.dealer.stands":  # the predicted stand: nothing more is dealt
            return Expect(ExpectKind.DONE, options=(STAND,), note=f"dealer stands on {self.dealer_right} right calls")
        return Expect(ExpectKind.DONE, note=self._over)

    def outcome(self) -> CatchAWaveOutcome:
        boxes = tuple(
            CatchAWaveBox(
                box=b,
                cards=tuple(self.cards[b]),
                calls=tuple(self.calls[b]),
                right_calls=self.right[b],
                status=self.status[b],
            )
            for b in self._boxes
        )
        dealer = CatchAWaveDealer(
            cards=tuple(self.dealer_cards),
            calls=tuple(self.dealer_calls),
            right_calls=self.dealer_right,
            wrong=self.dealer_wrong,
        )
        return CatchAWaveOutcome(phase=self.phase.value, void=self.void_reason, boxes=boxes, dealer=dealer)


def most_returned(rules: CatchAWaveRules, kind: str, stake: int) -> int | None:
    """The most a ``kind`` bet of ``stake`` returns at this table, stake included: a caught wave,
    the dealer's wrong call, or standing ahead by at most one call short of the wave."""
    if kind != MAIN:
        return None
    best = max(rules.wave_pays, rules.dealer_wrong_pays, Fraction(rules.wave_calls - 1))
    return win(stake, best, rules.rounding)
