"""Punto Banco baccarat (docs/rules.md §6): a pure round engine, its rule set and the drawing rules.

Cards go Player, Banker, Player, Banker; then the third cards, which are never a choice: the
engine says which hand takes the next card (``Expect(CARD, hand=PLAYER|BANKER)``) or that the
coup is over (``DONE``), and a card the rules do not call for raises ``UnexpectedCard``.
Seats are boxes; each seat may bet ``player``, ``banker`` and ``tie`` (hand 1 on the settlement).
``player_draws`` and ``banker_draws`` are the whole drawing rule, shared with the exact analysis.
"""

from __future__ import annotations

from enum import Enum
from fractions import Fraction
from typing import Any, Final

from pydantic import Field

from controller.cards import BACCARAT_POINTS, CARDS
from controller.games.base import (
    Expect,
    ExpectKind,
    GameRules,
    Limit,
    PhaseError,
    UnexpectedCard,
    build_rules,
)
from controller.games.ledger import BetLedger, LedgerRound
from controller.games.outcome import Outcome
from controller.money import Ratio, win

PLAYER: Final = 1  # hand number of the Player hand in ``Expect``
BANKER: Final = 2
HAND_NAMES: Final = {PLAYER: "player", BANKER: "banker"}
BET_KINDS: Final = ("player", "banker", "tie")

#: Banker total -> Player third-card values on which the Banker draws (docs/rules.md §6 tableau).
BANKER_DRAWS_ON: Final[tuple[frozenset[int], ...]] = (
    frozenset(range(10)),  # 0
    frozenset(range(10)),  # 1
    frozenset(range(10)),  # 2
    frozenset(range(10)) - {8},  # 3
    frozenset(range(2, 8)),  # 4
    frozenset(range(4, 8)),  # 5
    frozenset(range(6, 8)),  # 6
    frozenset(),  # 7
)


def player_draws(player_total: int) -> bool:
    """No natural on either side: the Player draws on 0-5, stands on 6-7."""
    return player_total <= 5


def banker_draws(banker_total: int, player_third: int | None) -> bool:
    """Banker's draw: on 0-5 if the Player stood (``player_third`` None), else by the tableau."""
    if player_third is None:
        return banker_total <= 5
    return banker_total < 8 and player_third in BANKER_DRAWS_ON[banker_total]


def bet_ratios(rules: BaccaratRules) -> dict[str, Fraction]:
    """What each bet kind wins when its side (or the tie) wins."""
    return {"player": rules.player_pays, "banker": rules.banker_pays, "tie": rules.tie_pays}


def most_returned(rules: BaccaratRules, kind: str, stake: int) -> int | None:
    """The most a ``kind`` bet of ``stake`` returns at this table, stake included (None: no such bet)."""
    ratio = bet_ratios(rules).get(kind)
    return None if ratio is None else win(stake, ratio, rules.rounding)


class BaccaratRules(GameRules):
    decks: int = Field(8, ge=1, le=8)
    #: decks dealt before the cut card comes out (for the shoe and simulations)
    cut_card: float = Field(7.0, gt=0)
    boxes: int = Field(7, ge=1, le=14)
    player_pays: Ratio = Fraction(1)
    #: 1:1 less 5 % commission **[paytable]**
    banker_pays: Ratio = Fraction(19, 20)
    tie_pays: Ratio = Fraction(8)
    limits: dict[str, Limit] = {
        "player": Limit(min=100, max=1_000_000),
        "banker": Limit(min=100, max=1_000_000),
        "tie": Limit(min=100, max=100_000),
    }


PRESETS: dict[str, dict[str, Any]] = {"standard": {}}


def baccarat_rules(preset: str | None = "standard", overrides: dict[str, Any] | None = None) -> BaccaratRules:
    return build_rules(BaccaratRules, PRESETS, preset, overrides or {})


class Phase(str, Enum):
    BETTING = "betting"
    DEAL = "deal"
    DONE = "done"


class BaccaratHand(Outcome):
    cards: tuple[str, ...]
    total: int


class BaccaratOutcome(Outcome):
    """The outcome of a coup (``BaccaratRound.outcome()``)."""

    player: BaccaratHand
    banker: BaccaratHand
    #: player, banker or tie once the coup is over (None while dealing, or void)
    winner: str | None
    natural: bool
    void: str | None


_FIRST_FOUR: Final = (PLAYER, BANKER, PLAYER, BANKER)
# Expect values are frozen: one of each serves every coup.
_EXPECT_BETS: Final = Expect(ExpectKind.BETS)
_EXPECT_CARD: Final = {h: Expect(ExpectKind.CARD, hand=h, note=HAND_NAMES[h]) for h in (PLAYER, BANKER)}
_EXPECT_DONE: Final = Expect(ExpectKind.DONE)


class BaccaratRound(LedgerRound):
    """One coup: bets, the four cards, the third cards the rules call for, settlement."""

    RULE_PREFIX = "baccarat"
    OVER = "the coup is over"

    def __init__(self, rules: BaccaratRules) -> None:
        super().__init__(
            BetLedger(
                rules, prefix="baccarat", boxes=rules.boxes, game="baccarat", kinds={k: k for k in BET_KINDS},
                order=BET_KINDS, seat="seat", listing="as_placed",
            )
        )
        self.rules = rules
        self.phase = Phase.BETTING
        self.player_cards: list[str] = []
        self.banker_cards: list[str] = []
        self._next: int | None = None  # PLAYER / BANKER while dealing
        self._totals = [0, 0, 0]  # indexed by PLAYER / BANKER
        self._stood = ""  # why no more cards are due (the rule code for an unexpected card)

    # ----------------------------------------------------------------- betting
    def close_betting(self) -> None:
        """Close bets and start the coup (a coup with no bets is dealt too: the shoe moves on)."""
        if self.phase is not Phase.BETTING:
            raise PhaseError("baccarat.phase", "betting is already closed")
        self.bets.close()
        self.phase = Phase.DEAL
        self._next = PLAYER

    # ----------------------------------------------------------------- cards
    def deal(self, card: str) -> None:
        target = self._next
        if target is None:
            if self.phase is Phase.BETTING:
                raise UnexpectedCard("baccarat.betting_open", f"{card}: bets are still open")
            raise UnexpectedCard(self._stood or "baccarat.done", f"{card}: the coup is over ({self._stood})")
        if card not in CARDS:
            raise UnexpectedCard("baccarat.card", f"not a card: {card!r}")
        p, b = self.player_cards, self.banker_cards
        (p if target == PLAYER else b).append(card)
        totals = self._totals
        totals[target] = (totals[target] + BACCARAT_POINTS[card[0]]) % 10
        n = len(p) + len(b)
        if n < 4:
            self._next = _FIRST_FOUR[n]
            return
        pt, bt = totals[PLAYER], totals[BANKER]
        if n == 4:
            if pt >= 8 or bt >= 8:
                self._finish("baccarat.natural")
            elif player_draws(pt):
                self._next = PLAYER
            elif banker_draws(bt, None):
                self._next = BANKER
            else:
                self._finish("baccarat.both_stand")
        elif target == PLAYER and banker_draws(bt, BACCARAT_POINTS[card[0]]):
            self._next = BANKER
        else:
            self._finish("baccarat.tableau" if target == PLAYER else "baccarat.third_cards_dealt")

    @property
    def player_total(self) -> int:
        return self._totals[PLAYER]

    @property
    def banker_total(self) -> int:
        return self._totals[BANKER]

    @property
    def winner(self) -> str | None:
        if self.phase is not Phase.DONE or self.void_reason is not None:
            return None
        pt, bt = self.player_total, self.banker_total
        return "player" if pt > bt else "banker" if bt > pt else "tie"

    # ----------------------------------------------------------------- settlement
    def _finish(self, rule: str) -> None:
        self._next = None
        self._stood = rule
        self.phase = Phase.DONE
        won = self.winner
        r = self.rules
        rnd = r.rounding
        ratio = bet_ratios(r)
        for box, kind, stake in list(self.bets.rows()):
            if kind == won:
                payout = win(stake, ratio[kind], rnd)
            elif won == "tie":
                payout = stake  # Player and Banker bets push on a tie
            else:
                payout = 0
            self.settlements.append(self.bets.settle(box, kind, payout))

    @property
    def over(self) -> bool:
        return self.phase is Phase.DONE

    def _voided(self) -> None:
        self._next = None
        self._stood = "baccarat.void"
        self.phase = Phase.DONE

    # ----------------------------------------------------------------- views
    def expects(self) -> Expect:
        if self._next is not None:
            return _EXPECT_CARD[self._next]
        return _EXPECT_BETS if self.phase is Phase.BETTING else _EXPECT_DONE

    def outcome(self) -> BaccaratOutcome:
        return BaccaratOutcome(
            player=BaccaratHand(cards=tuple(self.player_cards), total=self.player_total),
            banker=BaccaratHand(cards=tuple(self.banker_cards), total=self.banker_total),
            winner=self.winner,
            natural=self._stood == "baccarat.natural",
            void=self.void_reason,
        )
