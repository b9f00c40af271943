"""A toy game package, "high card", as a new game's author would write it (docs/architecture.md,
"Adding a game"): one card to the player, one to the dealer, the higher rank wins 1:1, a tie
pushes. ``write_package`` writes it as the package ``high_card`` into a folder; the test adds
it to the registry by one line, and nothing else in the controller changes."""

from __future__ import annotations

from pathlib import Path

ENGINE = '''"""High card: the engine and its rules."""
from __future__ import annotations

from typing import Any

from controller.cards import RANK_INDEX
from controller.games.base import Expect, ExpectKind, GameRules, Limit, PhaseError, UnexpectedCard, build_rules
from controller.games.ledger import BetLedger, LedgerRound
from controller.games.outcome import Outcome


class HighCardRules(GameRules):
    decks: int = 1
    limits: dict[str, Limit] = {"main": Limit(min=100, max=10000)}


PRESETS: dict[str, dict[str, Any]] = {"standard": {}}


def high_card_rules(preset: str | None = "standard", overrides: dict[str, Any] | None = None) -> HighCardRules:
    return build_rules(HighCardRules, PRESETS, preset, overrides or {})


class HighCardOutcome(Outcome):
    player: str | None = None
    dealer: str | None = None
    winner: str | None = None


class HighCardRound(LedgerRound):
    RULE_PREFIX = "high_card"

    def __init__(self, rules: HighCardRules) -> None:
        super().__init__(BetLedger(rules, prefix="high_card", boxes=1, game="high card", kinds={"main": "main"},
                                   order=("main",)))
        self.rules = rules
        self.phase = "betting"
        self.player: str | None = None
        self.dealer: str | None = None

    @property
    def over(self) -> bool:
        return self.phase in ("settled", "void")

    def close_betting(self) -> None:
        self.bets.close()
        self.phase = "dealing"

    def deal(self, card: str) -> None:
        if self.phase != "dealing":
            raise UnexpectedCard("high_card.card", "no card is due")
        if self.player is None:
            self.player = card
            return
        self.dealer = card
        mine, theirs = RANK_INDEX[self.player[0]], RANK_INDEX[card[0]]
        for box in self.bets.boxes():
            stake = self.bets.stake(box, "main")
            payout = 2 * stake if mine > theirs else stake if mine == theirs else 0
            self.settlements.append(self.bets.settle(box, "main", payout))
        self.phase = "settled"

    def decide(self, **_: Any) -> None:
        raise PhaseError("high_card.decision", "high card has no decisions")

    @property
    def winner(self) -> str | None:
        if self.player is None or self.dealer is None:
            return None
        mine, theirs = RANK_INDEX[self.player[0]], RANK_INDEX[self.dealer[0]]
        return "player" if mine > theirs else "dealer" if mine < theirs else "tie"

    def expects(self) -> Expect:
        if self.phase == "betting":
            return Expect(ExpectKind.BETS)
        if self.phase == "dealing":
            return Expect(ExpectKind.CARD, box=1, hand=1) if self.player is None else Expect(ExpectKind.DEALER_CARD)
        return Expect(ExpectKind.DONE)

    def outcome(self) -> HighCardOutcome:
        return HighCardOutcome(player=self.player, dealer=self.dealer, winner=self.winner)

    def _voided(self) -> None:
        self.phase = "void"
'''

VIEW = '''"""High card as the console, the pit and the printer show it."""
from __future__ import annotations

from typing import ClassVar

from controller.games.outcome import Outcome
from controller.table.games.views import GameView
from high_card import HighCardOutcome


class HighCardView(GameView):
    outcome_model: ClassVar[type[Outcome]] = HighCardOutcome

    def lines(self, outcome: Outcome) -> list[str]:
        assert isinstance(outcome, HighCardOutcome)
        return [f"player {outcome.player} vs dealer {outcome.dealer}: {outcome.winner}"]
'''

ADAPTER = '''"""High card at the table."""
from __future__ import annotations

from typing import Any

from controller.games.base import Expect, ExpectKind
from controller.table.games.shoe_game import ShoeGameAdapter
from high_card import HighCardRound, HighCardRules, high_card_rules
from high_card.view import HighCardView


class HighCardAdapter(ShoeGameAdapter):
    game = "high-card"
    rules_model = HighCardRules
    rules_builder = high_card_rules
    round_class = HighCardRound
    view = HighCardView()

    def play_prompt(self, engine: Any, expect: Expect) -> str:
        return "Card to the player" if expect.kind is ExpectKind.CARD else "Card to the dealer"

    def done_prompt(self, engine: Any) -> str:
        return f"High card: {engine.winner} — settle"
'''

ANALYSIS = '''"""High card's house edge, exact: the game is even (a tie pushes)."""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from controller.analysis import HouseEdgeOptions
from controller.cards import RANKS


def house_edge(options: HouseEdgeOptions) -> dict[str, Any]:
    ranks = len(RANKS)
    win = Fraction(ranks * (ranks - 1) // 2, ranks * ranks)
    return {"method": "exact", "house_edge": float(win - win), "tie": float(Fraction(1, ranks))}
'''

DECLARATION = '''"""High card: what the game brings to the house."""
from __future__ import annotations

from controller.table.game import Game
from high_card import HighCardRound, HighCardRules
from high_card.adapter import HighCardAdapter
from high_card.analysis import house_edge

GAME = Game("high-card", HighCardRound, HighCardRules, HighCardAdapter(), house_edge)
'''

FILES = {"__init__.py": ENGINE, "view.py": VIEW, "adapter.py": ADAPTER, "analysis.py": ANALYSIS, "game.py": DECLARATION}
#: the registry's line of the toy game
MODULE = "high_card.game"


def write_package(folder: Path) -> Path:
    """The package ``high_card`` in ``folder`` (put ``folder`` on the import path to load it)."""
    package = folder / "high_card"
    package.mkdir()
    for name, text in FILES.items():
        (package / name).write_text(text)
    return package
