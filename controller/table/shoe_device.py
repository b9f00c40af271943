"""The card shoe as the table's own device: its events mapped to what the table does, as the
roulette adapter's ``device_step`` maps the wheel's (docs/devices.md, docs/rules.md).

Shoe accounting: every card out of the shoe has a count ``n``; a card read twice the same way
is applied once (a lost ACK), read two ways or with a gap in the count holds the table. A card
is checked against the shoe's composition before the engine sees it (impossible card: hold).
An unread card waits to be keyed in, and cards read meanwhile wait behind it. After the cut
card the round is finished, then a new shoe is required; with ``burn_on_new_shoe`` the first
cards out of a new shoe are burned, each checked like any card, before a round can open. A shoe
that reports ``EMPTY`` counts as its cut card (a power loss can eat the CUT frame); a round open
on an empty shoe holds, since no card it waits for can come: the dealer burns (the round needs
none) or voids it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from controller.cards import CardError, parse_card
from controller.shoe import Composition, ImpossibleCard
from controller.table.effects import Effect, Gate, LoadShoe
from controller.table.holds import ERROR, INFO, WARNING, Hold
from controller.table.refusal import Refusal
from drivers.events import DeviceEvent, Refused
from drivers.shoe.events import CardDrawn, CutCard, Hello, LostCard, NoRead, ShoeFault, ShoeStatus

SHOE = "shoe"
Cards = list[tuple[str, int | None]]


class ShoeTable(Protocol):
    """What the shoe's events need of the table."""

    @property
    def hold(self) -> Hold | None: ...

    @property
    def round_open(self) -> bool: ...

    def hold_on(self, code: str, message: str, cards: Cards) -> None: ...

    def join_hold(self, text: str, n: int | None) -> None: ...

    def deal(self, card: str, n: int | None) -> None: ...

    def health_change(self, device: str, **change: Any) -> None: ...

    def alert(self, severity: str, code: str, message: str, **detail: Any) -> None: ...

    def emit(self, effect: Effect) -> None: ...

    def changed(self) -> None: ...


@dataclass(slots=True)
class ShoeState:
    number: int
    shoe_id: str
    composition: Composition
    last_n: int = 0
    cut_seen: bool = False
    needs_new: bool = False
    #: the shoe reported ``EMPTY``: no card can leave it any more
    empty: bool = False
    #: cards still to burn out of this shoe before a round may open (``burn_on_new_shoe``)
    burn_left: int = 0
    burned: list[str] = field(default_factory=list)
    #: rounds opened on this shoe (a round record's ``shoe_round`` is its index here)
    rounds: int = 0


class ShoeDevice:
    """The shoe's accounting: count, composition, key-ins and burns of the current shoe."""

    device = SHOE

    def __init__(self, table_id: str, decks: int, removed_ranks: str, burn_on_new_shoe: int, used: bool) -> None:
        self.table_id = table_id
        self.decks = decks
        self.removed_ranks = removed_ranks
        self.burn_on_new_shoe = burn_on_new_shoe
        self.used = used  # the game deals from it (a wheel game keeps a nominal, unused shoe)
        self.shoe = self._new(1)
        self.seen: dict[int, str] = {}  # n -> card text ("?" unread) of the current shoe
        self.keyin: int | None = None  # n of an unread card waiting to be keyed in
        self.waiting: Cards = []  # cards read while a key-in is pending

    def _new(self, number: int) -> ShoeState:
        burn = self.burn_on_new_shoe if self.used else 0
        return ShoeState(number, f"{self.table_id}-shoe-{number}", Composition(self.decks, self.removed_ranks),
                         burn_left=burn)

    # ------------------------------------------------------------------ events
    def device_step(self, table: ShoeTable, event: DeviceEvent) -> None:
        """One event of the shoe driver (drivers/shoe/events.py)."""
        match event:  # the classes are disjoint: a card, by far the most frequent, is tried first
            case CardDrawn(card=card, n=n):
                self._read(table, card, n)
            case Hello():
                table.health_change(SHOE, online=True)
            case ShoeStatus(state=state, shoe_id=shoe_id):
                table.health_change(SHOE, online=True, **({} if state == "FAULT" else {"fault": None}))
                # the shoe id: an EMPTY the last shoe sent before it took SHOE is not this shoe's
                if state == "EMPTY" and self.used and shoe_id == self.shoe.shoe_id and not self.shoe.empty:
                    self._empty(table)
            case ShoeFault(code=code, text=text):
                table.health_change(SHOE, fault=f"{code};{text}")
                table.alert(ERROR, "shoe.fault", f"shoe fault {code}: {text}")
            case NoRead(n=n):
                self._noread(table, n)
            case CutCard(n=n):
                self.shoe.cut_seen = True  # mid-round nobody has to act on it now: no change
                if not table.round_open:
                    self.shoe.needs_new = True
                    table.changed()
                table.alert(INFO, "shoe.cut", "cut card out: finish this round, then load a new shoe", n=n)
            case LostCard(expected_n=expected, got_n=got):
                self.shoe.last_n = max(self.shoe.last_n, got - 1)
                table.hold_on("shoe.lost_card", f"cards {expected}..{got - 1} left the shoe unread (lost)",
                              [("?", n) for n in range(expected, got)])
            case Refused(reason=reason, raw=raw) if reason.startswith("n="):
                # the driver saw a second, different read for a card count already delivered
                parts = raw.split(";")
                card = parts[1] if len(parts) == 3 and parts[0] in ("CARD", "NOREAD") else "?"
                table.hold_on("shoe.duplicate_read", f"{event.device}: {reason}", [(card, None)])
            case Refused(reason=reason, raw=raw):
                table.alert(WARNING, "device.refused", f"{event.device}: {reason}", raw=raw)

    def _empty(self, table: ShoeTable) -> None:
        """The shoe has no card left: the cut card is out even if its CUT frame never came."""
        shoe = self.shoe
        shoe.empty = True
        if not shoe.cut_seen:
            shoe.cut_seen = True
            table.alert(WARNING, "shoe.cut_missed", "the shoe is empty but its cut card never reached the table: "
                        "this shoe ends with this round", n=shoe.last_n)
        if not table.round_open:
            shoe.needs_new = True
        table.changed()
        self.hold_if_empty(table)

    def hold_if_empty(self, table: ShoeTable) -> None:
        """A round open on an empty shoe holds (on the report, and again when it resumes after a
        restart): burn if the round needs no more cards, else void it."""
        if self.shoe.empty and table.round_open and table.hold is None:
            table.hold_on("shoe.empty", "the shoe is empty: burn if this round needs no more cards, "
                          "else void it; then load a new shoe", [])

    def _read(self, table: ShoeTable, text: str, n: int) -> None:
        """A card left the shoe and was read as ``text``, the shoe's ``n``-th."""
        shoe = self.shoe
        if n <= shoe.last_n:
            known = self.seen.get(n)
            if known != text:  # the same read again is a lost ACK: applied once already
                table.hold_on("shoe.duplicate_read", f"card {n} read as {text}, already read as {known}", [(text, n)])
            return
        if n > shoe.last_n + 1:
            missing: Cards = [("?", m) for m in range(shoe.last_n + 1, n)]
            shoe.last_n = n
            self.seen[n] = text
            table.hold_on("shoe.lost_card", f"cards {missing[0][1]}..{n - 1} never arrived", [*missing, (text, n)])
            return
        shoe.last_n = n
        self.seen[n] = text
        if table.hold is not None:
            table.join_hold(text, n)
        elif self.keyin is not None:
            self.waiting.append((text, n))
        else:
            self.physical(table, text, n)

    def _noread(self, table: ShoeTable, n: int) -> None:
        shoe = self.shoe
        if n <= shoe.last_n:
            if self.seen.get(n) != "?":
                table.hold_on("shoe.duplicate_read", f"card {n} unread, but already read as {self.seen.get(n)}", [])
            return
        if n > shoe.last_n + 1:
            missing: Cards = [("?", m) for m in range(shoe.last_n + 1, n + 1)]
            shoe.last_n = n
            self.seen[n] = "?"
            table.hold_on("shoe.lost_card", f"cards {missing[0][1]}..{n - 1} never arrived", missing)
            return
        shoe.last_n = n
        self.seen[n] = "?"
        if table.hold is not None:
            table.join_hold("?", n)
        elif self.keyin is not None:
            self.waiting.append(("?", n))
        else:
            self.keyin = n
            table.changed()
            table.alert(WARNING, "shoe.noread", f"card {n} left the shoe unread: key it in", n=n)

    def physical(self, table: ShoeTable, text: str, n: int | None) -> None:
        """A card known to be out of the shoe: checked against the shoe, burned out of a new
        shoe, or dealt into the round."""
        try:
            card = parse_card(text)
        except CardError:
            table.hold_on("shoe.bad_card", f"the shoe read {text!r}, which is not a card", [(text, n)])
            return
        try:
            self.shoe.composition.take(card)
        except ImpossibleCard as exc:
            table.hold_on("shoe.impossible_card", f"{card}: {exc.reason}", [(card, n)])
            return
        if self.shoe.burn_left > 0 and not table.round_open:
            self._burn_from_new_shoe(table, card, n)
            return
        table.deal(card, n)

    def _burn_from_new_shoe(self, table: ShoeTable, card: str, n: int | None) -> None:
        shoe = self.shoe
        shoe.burn_left -= 1
        shoe.burned.append(card)
        table.changed()
        table.alert(INFO, "shoe.burn", f"burned {card} out of the new shoe ({shoe.burn_left} more to burn)",
                    card=card, n=n)
        if shoe.burn_left == 0:
            table.emit(Gate(locked=True))

    # ------------------------------------------------------------------ the dealer's shoe commands
    def key_card(self, table: ShoeTable, card: str) -> None:
        """The dealer keyed in the unread card."""
        if self.keyin is None:
            raise Refusal("table.key_card.unexpected", "no unread card is waiting to be keyed in")
        try:
            text = parse_card(card)
        except CardError as exc:
            raise Refusal("table.key_card.not_a_card", str(exc)) from None
        if self.shoe.composition.left(text) == 0:
            raise Refusal("shoe.impossible_card", f"{text} cannot be in this shoe any more: key the card again")
        n, self.keyin = self.keyin, None
        self.seen[n] = text
        table.changed()
        self.physical(table, text, n)
        self.drain_waiting(table)

    def drain_waiting(self, table: ShoeTable) -> None:
        """Cards read behind a key-in, in order, until the next unread card or a hold."""
        while self.waiting and self.keyin is None and table.hold is None:
            text, n = self.waiting.pop(0)
            if text == "?":
                self.keyin = n
                table.changed()
            else:
                self.physical(table, text, n)
        if table.hold is not None:
            for text, n in self.waiting:
                table.join_hold(text, n)
            self.waiting.clear()

    def cancel_keyin(self) -> None:
        """The round was voided: nothing waits to be keyed in any more."""
        self.keyin = None
        self.waiting.clear()

    def new_shoe(self, table: ShoeTable) -> None:
        """A new shuffled shoe is loaded: its count restarts at 0."""
        self.shoe = self._new(self.shoe.number + 1)
        self.seen.clear()
        table.changed()
        table.emit(LoadShoe(self.shoe.shoe_id, self.decks))
        table.emit(Gate(locked=self.shoe.burn_left == 0))

    def round_opened(self) -> int:
        """A round opened on this shoe: its index in the shoe (1 for the shoe's first)."""
        self.shoe.rounds += 1
        return self.shoe.rounds

    def round_closed(self, new_shoe_every_round: bool) -> None:
        """A round closed: after the cut card (or in a game dealt from a fresh deck every round)
        the next one needs a new shoe."""
        if self.shoe.cut_seen or new_shoe_every_round:
            self.shoe.needs_new = True

    def set_burn(self, count: int, round_open: bool) -> bool:
        """The ``burn_on_new_shoe`` from now on; a shoe nothing has left yet is burned by it
        too. True when that changed the current shoe."""
        self.burn_on_new_shoe = count
        shoe = self.shoe
        if not round_open and shoe.last_n == 0 and self.used and shoe.burn_left != count:
            shoe.burn_left = count
            return True
        return False
