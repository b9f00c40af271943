"""What a blackjack round holds, in one place: its boxes and hands, the dealer's cards, the
phase and the input it waits for (docs/rules.md §1.1).

``RoundState`` declares every field once; ``BlackjackRound`` is one, and the modules that do
the round's jobs (``play``, ``insurance``, ``dealer``, ``settlement``, ``side_settlement``,
``refusals``) are functions over it. The field names are those journal snapshots pickle:
renaming one would leave a snapshot that loads but no longer plays.
"""

from __future__ import annotations

from functools import lru_cache

from controller.games.base import Expect, ExpectKind, Settlement, VoidResult
from controller.games.blackjack.betting import BoxBets
from controller.games.blackjack.hand import Hand, HandBet
from controller.games.blackjack.options import RoundOptions, round_options
from controller.games.blackjack.phases import BETTING, DONE
from controller.games.blackjack.rules import BlackjackRules
from controller.shoe import Composition

CARD, DECISION, DEALER_CARD = ExpectKind.CARD, ExpectKind.DECISION, ExpectKind.DEALER_CARD
BETS_EXPECT = Expect(ExpectKind.BETS)
DONE_EXPECT = Expect(ExpectKind.DONE)
DEALER_FACE_UP = Expect(DEALER_CARD)
DEALER_HOLE = Expect(DEALER_CARD, face_down=True)


@lru_cache(maxsize=4096)
def expect(
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

    __slots__ = ("acted", "behind_insured", "crazy", "hands", "insurance", "insures", "number", "owner", "owner_main",
                 "players", "side")

    def __init__(self, number: int, bets: BoxBets) -> None:
        owner = next(iter(bets.main))
        self.number = number
        self.owner = owner
        self.owner_main = bets.main[owner]
        hand_bets = [HandBet(p, "main", a, True, a) for p, a in bets.main.items()]
        if bets.behind:
            hand_bets += [HandBet(p, "behind", a, pre[0], a, pre[1]) for p, (a, pre) in bets.behind.items()]
        #: Bet Behinds that take insurance with the owner: (player, half the Bet Behind)
        self.insures = (tuple((p, a // 2) for p, (a, pre) in bets.behind.items() if pre[2] and a // 2 > 0)
                        if bets.behind else ())
        self.behind_insured: tuple[tuple[str, int], ...] = ()
        self.hands = [Hand(hand_bets)]
        #: side bets still riding: (player, kind, amount)
        self.side = [(p, k, a) for (p, k), a in bets.side.items()] if bets.side else None
        self.crazy: tuple[str, str] | None = None  # 7-7 first cards of a Crazy 7 waiting for a third
        self.insurance = 0
        self.acted = False  # a decision was made on the box (surrender is first decision only)
        self.players: tuple[str, ...] = (owner,) if owner else ()


class RoundState:
    """The fields of one round. Scalars start at these class-level values (a round is built
    per round in Monte Carlo runs: fewer assignments in ``__init__`` is measurable)."""

    _phase = BETTING
    _expect = BETS_EXPECT
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
    #: what ``void_round`` returned and what stood (None: not voided)
    voided: VoidResult | None = None

    def __init__(self, rules: BlackjackRules, composition: Composition | None = None) -> None:
        self.rules = rules
        self._opts: RoundOptions = round_options(rules)
        self._composition = composition
        self._book: dict[int, BoxBets] = {}
        self._boxes: list[Box] = []
        self._by_number: dict[int, Box] = {}
        self._dealer: list[str] = []
        self.settlements: list[Settlement] = []


def finish(st: RoundState) -> None:
    """The round is over: nothing more is expected."""
    st._phase = DONE
    st._expect = DONE_EXPECT
    st.done = True
