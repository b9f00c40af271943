"""The boxes of a shoe-game round and the bets on them (docs/rules.md; docs/architecture.md, "Layers").

Three Card Blackjack, Catch a Wave, baccarat and Russian poker take bets the same way: a box
(a seat, at baccarat) belongs to the first player who bets on it, each bet kind has one stake
per box that grows as chips are added, a stake is checked against the table's limit for its
kind, and a box's bets can be cleared while betting is open. A ``BetLedger`` holds that money
so the engines hold only their cards and decisions. (Blackjack keeps its own book,
``blackjack/betting.py``: several players bet on one box there, and Bet Behind follows or not.)

* ``place`` / ``clear`` / ``close`` while betting is open, refusing with the game's rule codes
  (``<prefix>.betting_closed``, ``.box``, ``.kind``, ``.box.owner``, ``.amount``, ``.limits``,
  ``.clear.empty``); the smaller checks are public for an engine whose rules order them
  differently;
* ``book`` a bet made during the round (the Play of Three Card Blackjack, the Raise of Russian
  poker);
* ``settle`` / ``settle_box`` turn bets into ``Settlement`` rows, once each; ``open_bets`` lists
  every bet not settled yet as the refund a void would make (payout = stake), ``void`` makes it.

``LedgerRound`` is the base of those engines: betting, the open bets and a void are its, so a
game's round adds only its cards, its decisions and what else a void ends.

Rows come box by box, a box's kinds in the game's ``order``, boxes by number once betting
has closed. Before that, a void lists them as each game always has (``listing``): by box
number, by the box bet on first, or in the order the bets were placed. Pure data: it pickles
with the engine inside a table snapshot.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import ClassVar, Literal

from controller.games.base import (
    BetRefused,
    EngineRound,
    GameRules,
    PhaseError,
    Settlement,
    VoidResult,
    check_minor_units,
    void_result,
)

#: how rows are listed while betting is open (by box number once it has closed)
Listing = Literal["box_number", "box_placed", "as_placed"]


class BetLedger:
    """Who plays each box and what is staked on it, kind by kind, and what is settled."""

    def __init__(
        self,
        rules: GameRules,
        *,
        prefix: str,
        boxes: int,
        game: str,
        kinds: Mapping[str, str],
        order: tuple[str, ...],
        seat: str = "box",
        listing: Listing = "box_number",
        amount_text: str = "a {kind} bet",
    ) -> None:
        """``kinds`` maps each name a bet may be placed under to the kind it is booked as;
        ``order`` lists every kind (in-round ones too) in the order a box's rows come;
        ``amount_text`` names a bet in the refusal of an amount that is not positive."""
        self.rules = rules
        self.prefix = prefix
        self.size = boxes
        self.game = game
        self.kinds = dict(kinds)
        self.order = order
        self.seat = seat
        self.listing: Listing = listing
        self.amount_text = amount_text
        self.closed = False
        self._owners: dict[int, str] = {}  # in the order the boxes were first bet on
        self._stakes: dict[tuple[int, str], int] = {}  # in the order the bets were placed
        self._settled: set[tuple[int, str]] = set()

    # ----------------------------------------------------------------- reading
    def owner(self, box: int) -> str | None:
        """The player of ``box``, ``None`` while it has no bet."""
        return self._owners.get(box)

    def player(self, box: int) -> str:
        """The player of a box that has bets."""
        return self._owners[box]

    def stake(self, box: int, kind: str) -> int:
        """What is staked on ``kind`` at ``box`` (0: nothing)."""
        return self._stakes.get((box, kind), 0)

    def boxes(self) -> list[int]:
        """The boxes with bets, by number."""
        return sorted(self._owners)

    def rows(self) -> Iterator[tuple[int, str, int]]:
        """Every bet as ``(box, kind, stake)``, in the order rows are listed (see the module)."""
        if self.listing == "as_placed" and not self.closed:
            yield from ((box, kind, stake) for (box, kind), stake in self._stakes.items())
            return
        boxes = self._owners if self.listing == "box_placed" and not self.closed else sorted(self._owners)
        for box in boxes:
            for kind in self.order:
                stake = self._stakes.get((box, kind))
                if stake is not None:
                    yield box, kind, stake

    # ----------------------------------------------------------------- checks (they change nothing)
    def check_open(self) -> None:
        if self.closed:
            raise BetRefused(f"{self.prefix}.betting_closed", "bets are closed")

    def check_box(self, box: int) -> None:
        if type(box) is not int or not 1 <= box <= self.size:
            raise BetRefused(f"{self.prefix}.box", f"no {self.seat} {box} at this table (1..{self.size})")

    def booked_kind(self, kind: str) -> str:
        """The kind a bet placed as ``kind`` is booked as; refuses a kind the game has not."""
        booked = self.kinds.get(kind)
        if booked is None:
            listed = ", ".join(dict.fromkeys(self.kinds.values()))
            raise BetRefused(f"{self.prefix}.kind", f"no {kind!r} bet in {self.game} ({listed})")
        return booked

    def check_owner(self, box: int, player: str) -> None:
        owner = self._owners.get(box)
        if owner is not None and owner != player:
            raise BetRefused(f"{self.prefix}.box.owner", f"{self.seat} {box} is played by {owner!r}")

    def check_amount(self, amount: int, what: str) -> None:
        """Refuse chips that are not a positive whole number of minor units (``what``: "a main
        bet", "an ante"): a float, Fraction, Decimal or bool is refused, not booked."""
        check_minor_units(amount, f"{self.prefix}.amount", what)

    def limit_checked(self, box: int, kind: str, amount: int) -> int:
        """The stake ``kind`` would have at ``box`` with ``amount`` more, within the table's limit."""
        total = self.stake(box, kind) + amount
        self.rules.check_limit(kind, total, self.prefix)
        return total

    # ----------------------------------------------------------------- betting
    def record(self, box: int, kind: str, total: int, player: str) -> None:
        """Set a checked stake (``limit_checked``); the box is ``player``'s from now on."""
        self._owners.setdefault(box, player)
        self._stakes[(box, kind)] = total

    def place(
        self,
        box: int,
        kind: str,
        amount: int,
        player: str,
        *,
        check: Callable[[int, str], None] | None = None,
    ) -> str:
        """Add ``amount`` to the box's ``kind`` bet after every check (``check(box, booked kind)``,
        the game's own, runs before the limit); returns the booked kind."""
        self.check_open()
        self.check_box(box)
        booked = self.booked_kind(kind)
        self.check_owner(box, player)
        self.check_amount(amount, self.amount_text.format(kind=kind))
        if check is not None:
            check(box, booked)
        self.record(box, booked, self.limit_checked(box, booked, amount), player)
        return booked

    def clear(self, box: int, player: str | None = None) -> None:
        """Take every bet off ``box`` (``player`` given: only if it is theirs)."""
        self.check_open()
        owner = self._owners.get(box)
        if owner is None:
            bets = "bet" if len(set(self.kinds.values())) == 1 else "bets"
            raise BetRefused(f"{self.prefix}.clear.empty", f"{self.seat} {box} has no {bets}")
        if player is not None and owner != player:
            raise BetRefused(f"{self.prefix}.box.owner", f"{self.seat} {box} is played by {owner!r}")
        del self._owners[box]
        self._stakes = {key: stake for key, stake in self._stakes.items() if key[0] != box}

    def close(self) -> list[int]:
        """No more bets; returns the boxes that play, by number."""
        self.closed = True
        return self.boxes()

    def book(self, box: int, kind: str, stake: int) -> None:
        """A bet the round itself calls for (a Play, a Raise): no limit, betting closed or not."""
        if stake:
            self._stakes[(box, kind)] = stake

    # ----------------------------------------------------------------- settlement
    def settle(self, box: int, kind: str, payout: int) -> Settlement:
        """The row settling the box's ``kind`` bet with ``payout``; it is no longer open."""
        self._settled.add((box, kind))
        return Settlement(box, 1, kind, self._owners[box], self._stakes[(box, kind)], payout)

    def settle_box(self, box: int, payouts: Mapping[str, int]) -> list[Settlement]:
        """Rows settling every bet of ``box`` (each kind's payout from ``payouts``)."""
        return [self.settle(box, kind, payouts[kind]) for kind in self.order if (box, kind) in self._stakes]

    def is_settled(self, box: int, kind: str) -> bool:
        return (box, kind) in self._settled

    def open_bets(self) -> list[Settlement]:
        """Every bet not settled yet, as the refund a void would make (payout = stake)."""
        return [
            Settlement(box, 1, kind, self._owners[box], stake, stake)
            for box, kind, stake in self.rows()
            if (box, kind) not in self._settled
        ]

    def void(self) -> list[Settlement]:
        """Refund every bet not settled yet (``open_bets``, settled now) and take no more bets."""
        refunds = self.open_bets()
        self._settled.update((r.box, r.kind) for r in refunds)
        self.closed = True
        return refunds


class LedgerRound(EngineRound):
    """Base of a shoe-game round whose boxes and bets are a ``BetLedger`` (``bets``)."""

    #: the message of ``<RULE_PREFIX>.phase`` for a void once the round is over
    OVER: ClassVar[str] = "the round is already over"
    #: what ``void_round`` returned and what stood (None: not voided); a class default, so a
    #: round pickled before the field existed still loads
    voided: VoidResult | None = None

    def __init__(self, bets: BetLedger) -> None:
        self.bets = bets
        self.settlements: list[Settlement] = []
        self.void_reason: str | None = None

    @property
    def over(self) -> bool:
        """The round is settled or void: nothing is open, and it cannot be voided."""
        raise NotImplementedError

    def place_bet(self, box: int, kind: str, amount: int, player: str = "") -> None:
        self.bets.place(box, kind, amount, player)

    def clear_bets(self, box: int, player: str | None = None) -> None:
        self.bets.clear(box, player)

    def open_bets(self) -> list[Settlement]:
        """Every bet still riding, as the refund a void would make (payout = stake)."""
        return [] if self.over else self.bets.open_bets()

    def void_round(self, reason: str) -> None:
        """Return every bet not settled yet (one settled early stands) and end the round;
        ``voided`` says which rows were returned and which stand."""
        if self.over:
            raise PhaseError(f"{self.RULE_PREFIX}.phase", self.OVER)
        settled_before = len(self.settlements)
        self.settlements += self.bets.void()
        self.void_reason = reason
        self.voided = void_result(reason, settled_before, self.settlements)
        self._voided()

    def _voided(self) -> None:
        """End the game's own state of the round (its phase): the bets are already returned."""
        raise NotImplementedError
