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
the owner's bet, at most half the owner's main bet; even money and surrender take every bet
on the hand with it. On a Free Bet table ``double`` on a two-card 9-11 and ``split`` of a
non-ten pair are the free ones. ``open_bets()`` lists what still rides; ``void()``
(``VoidRound``) returns it and ends the round.

Side bets settle when their cards are known: Perfect Pairs, 21+3, Suit'em Up, Lucky Lucky and
Hot 3 on the box's second card; Crazy 7 on the second card, or on the third when the first two
are 7-7 (the card the first hand takes by a hit, double or split; on two if it takes none);
Bust It on the dealer's final hand, the dealer playing his hand out for it even when no main
hand is left. A winning Bet Behind gives ``bet_behind_owner_share`` of its net win to the box
owner, on a ``behind_share`` row of the owner's (stake 0).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any, cast

from controller.games.base import (
    EngineRound,
    Expect,
    ExpectKind,
    IllegalDecision,
    PhaseError,
    Settlement,
)
from controller.games.blackjack.betting import BoxBets, add_bet, check_bet, clear_bets
from controller.games.blackjack.hand import (
    BLACKJACK,
    BUST,
    CARD_POINTS,
    CHARLIE,
    DOUBLING,
    HIT,
    LIVE,
    OPEN,
    STATUS_NAMES,
    SURRENDERED,
    Hand,
    HandBet,
    hand_total,
)
from controller.games.blackjack.options import (
    DARK_TOTALS,
    FREE_DOUBLE_TOTALS,
    HALF,
    ONE_TO_ONE,
    RoundOptions,
    round_options,
)
from controller.games.blackjack.paytables import DEAL_KINDS
from controller.games.blackjack.phases import (
    BETTING,
    DEALER,
    DEALING,
    DONE,
    EVEN_MONEY_OPTIONS,
    INSURANCE,
    INSURANCE_OPTIONS,
    PHASE_NAMES,
    PLAY,
)
from controller.games.blackjack.refusals import RoundRefusals
from controller.games.blackjack.rules import BlackjackRules
from controller.games.blackjack.sidebets import (
    bust_it_lines,
    crazy_7_lines,
    hot_3_lines,
    lucky_lucky_lines,
    perfect_pairs_lines,
    side_bet_payout,
    suit_em_up_lines,
    twenty_one_plus_three_lines,
)
from controller.money import scale
from controller.shoe import Composition

SECOND_CARD = 100  # deal-plan target offset of a box's second card
CARD, DECISION, DEALER_CARD = ExpectKind.CARD, ExpectKind.DECISION, ExpectKind.DEALER_CARD
_BETS = Expect(ExpectKind.BETS)
_DONE = Expect(ExpectKind.DONE)
_DEALER_FACE_UP = Expect(DEALER_CARD)
_DEALER_HOLE = Expect(DEALER_CARD, face_down=True)
PUSH, LOSE = "push", "lose"  # hand results that are not a win at some ratio
HIT_STAND, STAND = ("hit", "stand"), ("stand",)


@lru_cache(maxsize=4096)
def _expect(
    kind: ExpectKind,
    box: int,
    hand: int,
    options: tuple[str, ...] = (),
    players: tuple[str, ...] = (),
    face_down: bool = False,
) -> Expect:
    """Expects are immutable values and few: build each once, not per prompt (a frozen
    dataclass costs more to build than the cache lookup)."""
    return Expect(kind, box, hand, options, players, face_down)


class Box:
    """A box that plays the round: its hands left to right, side bets, insurance."""

    __slots__ = ("acted", "crazy", "hands", "insurance", "number", "owner", "owner_main", "players", "side")

    def __init__(self, number: int, bets: BoxBets) -> None:
        owner = next(iter(bets.main))
        self.number = number
        self.owner = owner
        self.owner_main = bets.main[owner]
        hand_bets = [HandBet(p, "main", a, True, a) for p, a in bets.main.items()]
        if bets.behind:
            hand_bets += [HandBet(p, "behind", a, follows, a) for p, (a, follows) in bets.behind.items()]
        self.hands = [Hand(hand_bets)]
        #: side bets still riding: (player, kind, amount)
        self.side = [(p, k, a) for (p, k), a in bets.side.items()] if bets.side else None
        self.crazy: tuple[str, str] | None = None  # 7-7 first cards of a Crazy 7 waiting for a third
        self.insurance = 0
        self.acted = False  # a decision was made on the box (surrender is first decision only)
        self.players: tuple[str, ...] = (owner,) if owner else ()


class BlackjackRound(RoundRefusals, EngineRound):
    """One round of blackjack at one table, from open betting to the last settlement."""

    RULE_PREFIX = "blackjack"

    # Scalar state starts at these class-level values (a round is built per round in Monte Carlo
    # runs: fewer assignments in __init__ is measurable).
    _phase = BETTING
    _expect = _BETS
    _plan: tuple[int, ...] = ()  # initial deal targets: box index, -1 dealer up, -2 hole card
    _plan_expects: tuple[Expect | None, ...] = ()
    _plan_i = 0
    _bj_possible = True  # the dealer's first two cards are not yet known not to be 21
    _box_i = 0
    _hand_i = 0
    _dealer_stood = False
    _dealer_hard = 0  # dealer's total with aces as 1, and whether he holds an ace
    _dealer_ace = False
    _bust_it = False  # a Bust It rides: the dealer plays his hand out
    done = False

    def __init__(self, rules: BlackjackRules, composition: Composition | None = None) -> None:
        self.rules = rules
        self._opts: RoundOptions = round_options(rules)
        self._composition = composition
        self._book: dict[int, BoxBets] = {}
        self._boxes: list[Box] = []
        self._by_number: dict[int, Box] = {}
        self._dealer: list[str] = []
        self.settlements: list[Settlement] = []

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

    def outcome(self) -> dict[str, Any]:
        """Cards, totals and results per hand and of the dealer (JSON-able). ``face_down``
        lists the indexes of cards not yet shown (a dark double, the hole card before the
        dealer's turn); totals and blackjack count only the cards shown."""
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
            raise self._betting_closed()
        check_bet(self._opts, self._book, box, kind, amount, player)
        add_bet(self._book, box, kind, amount, player)

    def clear_bets(self, box: int, player: str | None = None) -> None:
        if self._phase != BETTING:
            raise self._betting_closed()
        clear_bets(self._book, box, player)

    def close_betting(self) -> None:
        if self._phase != BETTING:
            raise self._betting_closed()
        book = self._book
        numbers = []
        for number in sorted(book):
            bets = book[number]
            if bets.main:
                box = Box(number, bets)
                if box.side and any(k == "bust_it" for _, k, _ in box.side):
                    self._bust_it = True
                self._boxes.append(box)
                self._by_number[number] = box
                numbers.append(number)
            else:  # a Bet Behind on a box that does not play is returned
                for player, (amount, _) in bets.behind.items():
                    self.settlements.append(Settlement(number, 1, "behind", player, amount, amount))
        if not numbers:
            self._finish()
            return
        self._plan, self._plan_expects = _deal_plan(tuple(numbers), self._opts.hole_card)
        self._phase = DEALING
        self._expect = cast(Expect, self._plan_expects[0])  # the plan holds at least one card

    def deal(self, card: str) -> None:
        """The next card out of the shoe; it goes where ``expects()`` says."""
        kind = self._expect.kind
        if card not in self._opts.shoe_cards:  # not a card as written, or of a removed rank
            card = self._checked_card(card)
        elif kind is not CARD and kind is not DEALER_CARD:
            raise self._card_refused(card)
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
                    self._settle_deal_side_bets(box)
            elif target >= 0:
                self._boxes[target].hands[0].add(card)
            else:
                self._dealer_add(card)
            nxt = self._plan_expects[i + 1]
            if nxt is None:
                self._after_deal()
            else:
                self._expect = nxt
        elif phase == PLAY:
            self._deal_to_hand(card)
        else:
            self._dealer_add(card)
            if self._bj_possible and len(self._dealer) == 2:
                self._reveal()
            else:  # a dealer card was asked for, so live hands are waiting for him
                self._dealer_draw_or_stand()

    def decide(self, box: int, hand: int, action: str, player: str = "", amount: int | None = None) -> None:
        expect = self._expect
        if expect.kind is not DECISION:
            raise self._no_decision_now(box)
        if box != expect.box or hand != expect.hand:
            raise IllegalDecision(
                "blackjack.turn", f"box {expect.box} hand {expect.hand} is to decide, not box {box} hand {hand}"
            )
        b = self._boxes[self._box_i]
        if player and player != b.owner:
            raise IllegalDecision("blackjack.box_owner", f"box {box} is decided by {b.owner!r}, not {player!r}")
        if action not in expect.options:
            raise self._refusal(b, action)
        if self._phase == INSURANCE:
            self._insurance_decision(b, action, amount)
            return
        if amount is not None:
            raise IllegalDecision("blackjack.decision.amount", f"{action} takes no amount")
        h = b.hands[self._hand_i]
        b.acted = True
        if b.crazy is not None and action in ("stand", "surrender"):  # no third card for Crazy 7
            self._settle_crazy_7(b, None)
        if action == "hit":
            h.status = HIT
            self._expect = _expect(CARD, box, hand)
        elif action == "stand":
            h.status = LIVE
            self._hand_i += 1
            self._next_turn()
        elif action == "split":
            self._split(b, h)
            self._expect = _expect(CARD, box, hand)
        elif action == "surrender":
            for bet in h.bets:
                self._pay(b, 1, bet, scale(bet.stake, HALF, self._opts.rounding))
            h.status = SURRENDERED
            h.settled = True
            self._hand_i += 1
            self._next_turn()
        else:
            self._double(h, _MULTIPLIER[action])
            self._expect = _expect(CARD, box, hand, face_down=h.dark)

    def open_bets(self) -> list[Settlement]:
        """Every bet still riding, as the refund a void would make (payout = stake)."""
        if self._phase == DONE:
            return []
        if self._phase == BETTING:
            out = []
            for number, bets in sorted(self._book.items()):
                out += [Settlement(number, 1, "main", p, a, a) for p, a in bets.main.items()]
                out += [Settlement(number, 1, "behind", p, a, a) for p, (a, _) in bets.behind.items()]
                out += [Settlement(number, 1, k, p, a, a) for (p, k), a in bets.side.items()]
            return out
        out = []
        for b in self._boxes:
            for i, h in enumerate(b.hands, 1):
                if not h.settled:
                    out += [Settlement(b.number, i, bet.kind, bet.player, bet.stake, bet.stake) for bet in h.bets]
            if b.side:
                out += [Settlement(b.number, 1, k, p, a, a) for p, k, a in b.side]
            if b.insurance and self._bj_possible:
                out.append(Settlement(b.number, 1, "insurance", b.owner, b.insurance, b.insurance))
        return out

    def void_round(self, reason: str = "") -> None:
        """Call the round off (misdeal, device fault): every bet still riding is returned;
        what was already settled stays settled. The reason belongs to the journal."""
        if self._phase == DONE:
            raise PhaseError("blackjack.phase", "the round is over; nothing to void")
        self.settlements += self.open_bets()
        for b in self._boxes:
            for h in b.hands:
                h.settled = True
        self._bj_possible = False
        self._book = {}
        self._finish()

    # ------------------------------------------------------------------ the deal
    def _settle_deal_side_bets(self, box: Box) -> None:
        """The box's second card: settle what the first two cards and the up card decide."""
        first, second = box.hands[0].cards
        up = self._dealer[0]
        lines: tuple[str, ...]
        for player, kind, amount in list(box.side or ()):
            if kind == "crazy_7":
                if first[0] == second[0] == "7":
                    box.crazy = (first, second)
                    continue
                lines = crazy_7_lines((first, second))
            elif kind not in DEAL_KINDS:
                continue
            elif kind == "perfect_pairs":
                lines = perfect_pairs_lines(first, second)
            elif kind == "21+3":
                lines = twenty_one_plus_three_lines(first, second, up)
            elif kind == "suit_em_up":
                lines = suit_em_up_lines(first, second)
            elif kind == "lucky_lucky":
                lines = lucky_lucky_lines(first, second, up)
            else:
                lines = hot_3_lines(first, second, up)
            self._settle_side(box, player, kind, amount, lines)

    def _settle_side(self, box: Box, player: str, kind: str, amount: int, lines: tuple[str, ...]) -> None:
        opts = self._opts
        _, payout = side_bet_payout(lines, opts.paytables[kind], amount, opts.rounding)
        self.settlements.append(Settlement(box.number, 1, kind, player, amount, payout))
        side = box.side
        if side is not None:
            side.remove((player, kind, amount))

    def _settle_crazy_7(self, box: Box, third: str | None) -> None:
        """A 7-7 Crazy 7 settles on the first hand's next card, or on two if none comes."""
        first_two = box.crazy
        if first_two is None:
            return
        box.crazy = None
        cards = (*first_two, third) if third else first_two
        for player, kind, amount in [bet for bet in box.side or () if bet[1] == "crazy_7"]:
            self._settle_side(box, player, kind, amount, crazy_7_lines(cards))

    def _settle_bust_it(self, dealer_blackjack: bool) -> None:
        """Bust It on the dealer's final hand (a blackjack loses it)."""
        if not self._bust_it:
            return
        self._bust_it = False
        lines = bust_it_lines(self._dealer, dealer_blackjack)
        for b in self._boxes:
            for player, kind, amount in [bet for bet in b.side or () if bet[1] == "bust_it"]:
                self._settle_side(b, player, kind, amount, lines)

    def _after_deal(self) -> None:
        up = self._dealer[0]
        self._bj_possible = CARD_POINTS[up] in (1, 10)
        if not self._bj_possible:
            self._settle_pending(dealer_blackjack=False)
        opts = self._opts
        if up[0] == "A" and (opts.insurance or opts.even_money):
            self._phase = INSURANCE
            self._box_i = -1
            self._next_offer()
        else:
            self._start_play()

    def _next_offer(self) -> None:
        """Insurance / even money box by box on a dealer ace; then play starts."""
        opts = self._opts
        boxes = self._boxes
        i = self._box_i + 1
        while i < len(boxes):
            b = boxes[i]
            h = b.hands[0]
            if h.status == BLACKJACK and opts.even_money:
                options = EVEN_MONEY_OPTIONS
            elif opts.insurance:
                options = INSURANCE_OPTIONS
            else:
                i += 1
                continue
            self._box_i = i
            self._expect = _expect(DECISION, b.number, 1, options, b.players)
            return
        self._start_play()

    def _insurance_decision(self, b: Box, action: str, amount: int | None) -> None:
        if action == "insurance":
            half = b.owner_main // 2
            if amount is None:
                amount = half
            elif not isinstance(amount, int) or isinstance(amount, bool):
                raise IllegalDecision("blackjack.insurance.amount", f"insurance is whole minor units, not {amount!r}")
            elif self._opts.insurance_exact and amount != half:
                raise IllegalDecision("blackjack.insurance.exactly_half", f"insurance is exactly {half}, not {amount}")
            elif not min(self._opts.insurance_min, half) <= amount <= half:
                raise IllegalDecision(
                    "blackjack.insurance.amount",
                    f"insurance {amount} outside {min(self._opts.insurance_min, half)}..{half}",
                )
            if amount <= 0:
                raise IllegalDecision("blackjack.insurance.amount", f"insurance must be positive, not {amount}")
            b.insurance = amount
        elif amount is not None:
            raise IllegalDecision("blackjack.decision.amount", f"{action} takes no amount")
        elif action == "even_money":
            h = b.hands[0]
            for bet in h.bets:
                self._pay(b, 1, bet, 2 * bet.stake)
            h.settled = True
        self._next_offer()

    def _start_play(self) -> None:
        opts = self._opts
        dealer = self._dealer
        if opts.hole_card and dealer[0][0] in opts.peek_on:
            if self._dealer_ace and self._dealer_hard == 11:
                self._dealer_blackjack()
                return
            self._bj_possible = False
            self._settle_pending(dealer_blackjack=False)
        self._phase = PLAY
        self._box_i = 0
        self._hand_i = 0
        self._next_turn()

    # ------------------------------------------------------------------ play
    def _next_turn(self) -> None:
        """Point at the next hand that needs a card or a decision, or hand over to the dealer."""
        boxes = self._boxes
        box_i, hand_i = self._box_i, self._hand_i
        while box_i < len(boxes):
            box = boxes[box_i]
            hands = box.hands
            while hand_i < len(hands):
                h = hands[hand_i]
                status = h.status
                if len(h.cards) < 2 or status in (HIT, DOUBLING):
                    self._box_i, self._hand_i = box_i, hand_i
                    self._expect = _expect(CARD, box.number, hand_i + 1, face_down=h.dark)
                    return
                if status == OPEN:
                    self._box_i, self._hand_i = box_i, hand_i
                    self._expect = _expect(DECISION, box.number, hand_i + 1, self._options(box, h), box.players)
                    return
                hand_i += 1
            box_i += 1
            hand_i = 0
        self._box_i, self._hand_i = box_i, hand_i
        self._start_dealer()

    def _options(self, box: Box, h: Hand) -> tuple[str, ...]:
        """The decisions open to hand ``h``, in the order they are offered."""
        opts = self._opts
        can_draw = not h.split_aces or opts.hit_split_aces
        if len(h.cards) != 2:  # after a hit: nothing but drawing on or standing
            return HIT_STAND if can_draw else STAND
        double_on = opts.double_on_totals
        can_double = (
            can_draw
            and (not h.split or opts.double_after_split)
            and (double_on is None or h.total in double_on)
        )
        can_split = (
            len(box.hands) < opts.max_hands
            and self._is_pair(h)
            and not (h.split_aces and opts.split_aces_one_card)
        )
        can_surrender = (
            opts.surrender
            and not box.acted
            and len(box.hands) == 1
            and (opts.surrender_vs_ace or self._dealer[0][0] != "A")
        )
        return opts.two_card_options[can_draw, can_double, can_split, can_surrender]

    def _is_pair(self, h: Hand) -> bool:
        a, b = h.cards
        if self._opts.split_by_rank:
            return a[0] == b[0]
        return CARD_POINTS[a] == CARD_POINTS[b]

    def _double(self, h: Hand, mult: int) -> None:
        opts = self._opts
        total = h.total
        free = opts.free_bet and mult == 2 and total in FREE_DOUBLE_TOTALS
        for bet in h.bets:
            if bet.follows:
                extra = (bet.stake + bet.free) * (mult - 1)
                if free:
                    bet.free += extra
                else:
                    bet.stake += extra
        h.mult = mult
        h.dark = opts.double_in_dark and mult == 2 and total in DARK_TOTALS
        h.status = DOUBLING

    def _split(self, b: Box, h: Hand) -> None:
        """The second card starts a new hand to the right; the house stakes it on a free split."""
        free = self._opts.free_bet and CARD_POINTS[h.cards[0]] != 10
        new_bets = []
        for bet in h.bets:
            if bet.follows:
                amount = bet.stake + bet.free
                nb = HandBet(bet.player, bet.kind, 0 if free else amount)
                if free:
                    nb.free = amount
                new_bets.append(nb)
        new = Hand(new_bets, split=True)
        new.add(h.pop())
        h.split = True
        if new.ace:
            h.split_aces = new.split_aces = True
        b.hands.insert(self._hand_i + 1, new)

    def _deal_to_hand(self, card: str) -> None:
        box = self._boxes[self._box_i]
        h = box.hands[self._hand_i]
        if box.crazy is not None and self._hand_i == 0:  # the box's third card
            self._settle_crazy_7(box, card)
        doubling = h.status == DOUBLING
        h.add(card)
        opts = self._opts
        if h.hard > 21:
            h.status = BUST
            h.settled = True
            for bet in h.bets:
                self._pay(box, self._hand_i + 1, bet, 0)
        elif len(h.cards) >= opts.charlie:
            h.status = CHARLIE
            if not self._bj_possible:
                self._settle_hand(box, self._hand_i + 1, h, ONE_TO_ONE)
        elif doubling or h.total == 21 or (h.split_aces and opts.split_aces_one_card):
            h.status = LIVE
        else:
            h.status = OPEN
        self._next_turn()

    # ------------------------------------------------------------------ the dealer
    def _start_dealer(self) -> None:
        self._phase = DEALER
        if self._bj_possible:
            if len(self._dealer) == 2:  # hole card, not peeked: shown now
                self._reveal()
            elif self._any_live() or self._any_pending() or self._bust_it:
                self._expect = _DEALER_FACE_UP
            else:
                self._finish()
            return
        self._dealer_continue()

    def _reveal(self) -> None:
        """The dealer's first two cards are known: blackjack settles everything, else play on."""
        self._bj_possible = False
        if self._dealer_ace and self._dealer_hard == 11:
            self._dealer_blackjack()
            return
        self._settle_pending(dealer_blackjack=False)
        self._dealer_continue()

    def _dealer_add(self, card: str) -> None:
        self._dealer.append(card)
        points = CARD_POINTS[card]
        self._dealer_hard += points
        if points == 1:
            self._dealer_ace = True

    def _dealer_continue(self) -> None:
        if self._any_live() or self._bust_it:
            self._dealer_draw_or_stand()
        else:
            self._finish()

    def _dealer_draw_or_stand(self) -> None:
        """The dealer's forced play (docs/rules.md §1.1.5); standing settles the live hands."""
        hard = self._dealer_hard
        ace = self._dealer_ace
        total = hard + 10 if ace and hard <= 11 else hard
        if total < 17 or (total == 17 and ace and hard <= 7 and self._opts.hits_soft_17):
            self._expect = _DEALER_FACE_UP
            return
        self._dealer_stood = True
        self._settle_live(total)
        self._settle_bust_it(dealer_blackjack=False)
        self._finish()

    def _settle_live(self, dealer_total: int) -> None:
        opts = self._opts
        push_22 = opts.dealer_22_pushes and dealer_total == 22
        for b in self._boxes:
            for i, h in enumerate(b.hands, 1):
                if h.status != LIVE or h.settled:
                    continue
                t = h.total
                if dealer_total > 21:
                    result = PUSH if push_22 else ONE_TO_ONE
                else:
                    result = ONE_TO_ONE if t > dealer_total else PUSH if t == dealer_total else LOSE
                self._settle_hand(b, i, h, result)

    # ------------------------------------------------------------------ settling
    def _settle_pending(self, dealer_blackjack: bool) -> None:
        """Insurance, and blackjacks and Charlies waiting for the dealer's first two cards."""
        bj_pays = self._opts.blackjack_pays
        for b in self._boxes:
            if b.insurance:
                payout = self._win(b.insurance, self._opts.insurance_pays) if dealer_blackjack else 0
                self.settlements.append(Settlement(b.number, 1, "insurance", b.owner, b.insurance, payout))
            for i, h in enumerate(b.hands, 1):
                if h.settled:
                    continue
                if h.status == BLACKJACK:
                    self._settle_hand(b, i, h, PUSH if dealer_blackjack else bj_pays)
                elif h.status == CHARLIE and not dealer_blackjack:  # else it loses as any hand does
                    self._settle_hand(b, i, h, ONE_TO_ONE)

    def _dealer_blackjack(self) -> None:
        """Dealer blackjack beats every hand but a blackjack (which pushes)."""
        self._bj_possible = False
        self._settle_pending(dealer_blackjack=True)
        self._settle_bust_it(dealer_blackjack=True)
        takes_original = self._opts.takes_original
        for b in self._boxes:
            self._settle_crazy_7(b, None)  # a peeked blackjack: no third card comes
            for i, h in enumerate(b.hands, 1):
                if h.settled:
                    continue
                h.settled = True
                for bet in h.bets:
                    self._pay(b, i, bet, bet.stake - bet.original if takes_original else 0)
        self._finish()

    def _settle_hand(self, b: Box, hand: int, h: Hand, result: Fraction | str) -> None:
        """``result``: PUSH, LOSE or a win at that ratio."""
        h.settled = True
        rounding = self._opts.rounding
        for bet in h.bets:
            if result is PUSH:
                payout = bet.stake
            elif result is LOSE:
                payout = 0
            else:  # the house's free money wins for the player, but is not the player's to get back
                payout = bet.stake + scale(bet.stake + bet.free, cast(Fraction, result), rounding)
            self._pay(b, hand, bet, payout)

    def _win(self, stake: int, ratio: Fraction) -> int:
        return stake + scale(stake, ratio, self._opts.rounding)

    def _pay(self, b: Box, hand: int, bet: HandBet, payout: int) -> None:
        share = self._opts.owner_share
        if share and bet.kind == "behind" and payout > bet.stake:
            cut = scale(payout - bet.stake, share, self._opts.rounding)
            if cut:
                self.settlements.append(Settlement(b.number, hand, "behind", bet.player, bet.stake, payout - cut))
                self.settlements.append(Settlement(b.number, hand, "behind_share", b.owner, 0, cut))
                return
        self.settlements.append(Settlement(b.number, hand, bet.kind, bet.player, bet.stake, payout))

    def _any_live(self) -> bool:
        for b in self._boxes:
            for h in b.hands:
                if h.status == LIVE and not h.settled:
                    return True
        return False

    def _any_pending(self) -> bool:
        return any(b.insurance for b in self._boxes) or any(
            not h.settled and (h.status == BLACKJACK or h.status == CHARLIE) for b in self._boxes for h in b.hands
        )

    def _finish(self) -> None:
        self._phase = DONE
        self._expect = _DONE
        self.done = True


_PLANS: dict[tuple[tuple[int, ...], bool], tuple[tuple[int, ...], tuple[Expect | None, ...]]] = {}


def _deal_plan(numbers: tuple[int, ...], hole_card: bool) -> tuple[tuple[int, ...], tuple[Expect | None, ...]]:
    """Initial deal order (docs/rules.md §1.1.2): a card to each box, the dealer's up card, a second
    card to each box, then (hole-card games) the dealer's face-down card. Targets are box
    indexes, SECOND_CARD + index for the second card, -1 the up card, -2 the hole card; the
    expects end with None (the deal is complete)."""
    plan = _PLANS.get((numbers, hole_card))
    if plan is None:
        n = len(numbers)
        cards = tuple(_expect(CARD, b, 1) for b in numbers)
        plan = _PLANS[(numbers, hole_card)] = (
            (*range(n), -1, *range(SECOND_CARD, SECOND_CARD + n)) + ((-2,) if hole_card else ()),
            (*cards, _DEALER_FACE_UP, *cards, *((_DEALER_HOLE,) if hole_card else ()), None),
        )
    return plan


_MULTIPLIER = {"double": 2, "triple": 3, "quadruple": 4}
