"""An independent reading of a simulated round: the table's own journal against the studio's book.

The table's journal holds each round's record (the latest, after any correction), whether its
betting closed with the studio's seal, and the totals the studio sent back (``remote_settled``).
Every accepted remote bet is settled again here from that journaled record with the game's own
engine or paytable functions, never through the studio's settlement (``controller/studio/
rules.py``, ``settlement.py``), and a bet the studio paid otherwise is a difference."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.games.base import CloseBetting, Deal, PlaceBet, WheelResult
from controller.games.blackjack import sidebets
from controller.games.roulette.engine import SetMultipliers
from controller.games.russian_poker.showdown import bonus_payout
from controller.games.three_card_blackjack.hand import ace_plus_line
from controller.journal import Journal
from controller.money import win
from controller.table.inputs import REMOTE_SETTLED, ROUND_CLOSED
from controller.table.registry import adapter_for


@dataclass
class JournalReading:
    """What the table journaled: each round's latest record and the studio's latest totals of it."""

    records: dict[str, dict[str, Any]] = field(default_factory=dict)
    settled: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def seals(self) -> int:
        """Rounds whose betting closed with the studio's seal."""
        return sum(1 for r in self.records.values() if (r.get("remote") or {}).get("sealed") is True)

    @property
    def voids(self) -> int:
        """Rounds the table voided (the simulated dealer voids one it cannot deal on)."""
        return sum(1 for r in self.records.values() if r.get("status") == "void")

    @property
    def decisions(self) -> dict[str, int]:
        """The seated boxes' decisions the table took, by cause (``player``, ``timeout``, ``disconnect``)."""
        causes = {"player": 0, "timeout": 0, "disconnect": 0}
        for record in self.records.values():
            for decided in ((record.get("remote") or {}).get("seats") or {}).get("decisions") or []:
                causes[str(decided["cause"])] = causes.get(str(decided["cause"]), 0) + 1
        return causes

    @property
    def drop(self) -> int:
        return sum(int(s["stake"]) - int(s["refunded"]) for s in self.settled.values())

    @property
    def paid(self) -> int:
        return sum(int(s["paid"]) for s in self.settled.values())


def read_journal(path: Path) -> JournalReading:
    reading = JournalReading()
    with Journal(path) as journal:
        for entry in journal.entries():
            if entry.kind == ROUND_CLOSED:
                reading.records[str(entry.payload["round"])] = entry.payload
            elif entry.kind == REMOTE_SETTLED:
                reading.settled[str(entry.payload["round"])] = entry.payload
    return reading


def returned(record: Mapping[str, Any]) -> bool:
    """The contract: a void round, or one closed without the studio's seal, returns every remote bet."""
    remote = record.get("remote") or {}
    return record.get("status") == "void" or remote.get("sealed") is not True


def owed(game: str, rules: Any, kind: str, amount: int, record: Mapping[str, Any], who: str = "") -> int:
    """What remote player ``who``'s bet of ``kind`` and ``amount`` returns on the journaled ``record``."""
    if returned(record):
        return amount
    if (felt := on_felt(kind)) is not None:
        return felt_rows(record, who, *felt, amount)
    return SETTLE[game](rules, kind, amount, record["outcome"])


#: the record's rows of a seated box's hand: its main bet (ante) and what its decisions added to it
#: (insurance, a raise, the play, the exchange fee, the owner's share of the Bet Behinds)
HAND_ROWS = frozenset(("main", "ante", "insurance", "play", "raise", "exchange", "behind_share"))
#: a Bet Behind's rows: its win (with its presets), and its insurance
BEHIND_ROWS = frozenset(("behind", "behind_stay", "insurance"))


def on_felt(kind: str) -> tuple[bool, int] | None:
    """(is a Bet Behind, its box) of a bet the table's engine plays on the felt: a seated player's
    ``main@3`` / ``ante@3`` or a Bet Behind ``behind@3+double``; None for a side bet or a main bet."""
    head, at, rest = kind.partition("@")
    if not at:
        return None
    box = int(rest.partition("+")[0])
    if head.startswith("behind"):
        return True, box
    return (False, box) if head in ("main", "ante") else None


def felt_rows(record: Mapping[str, Any], who: str, behind: bool, box: int, amount: int) -> int:
    """What the record's rows of ``who``'s bet on ``box`` returned (docs/studio.md, "Seats"): a box
    the decision policy refunded returns the owner's bets, a bet with no row was not taken and is
    returned, else the payouts of its rows."""
    refunded = ((record.get("remote") or {}).get("seats") or {}).get("refunded") or []
    if not behind and box in refunded:
        return amount
    kinds = BEHIND_ROWS if behind else HAND_ROWS
    rows = [r for r in record.get("bets") or [] if r.get("player") == who and r.get("box") == box
            and str(r.get("kind")).partition("+")[0] in kinds]
    return sum(int(r["payout"]) for r in rows) if rows else amount


def _engine(game: str, rules: Any, kind: str, amount: int) -> Any:
    engine = adapter_for(game).new_round(rules)
    engine.apply(PlaceBet(1, kind, amount, "remote"))
    engine.apply(CloseBetting())
    return engine


def _paid(engine: Any) -> int:
    (row,) = [s for s in engine.settlements if s.player == "remote"]
    return int(row.payout)


def _roulette(rules: Any, kind: str, amount: int, outcome: Mapping[str, Any]) -> int:
    engine = _engine("roulette", rules, kind, amount)
    if outcome.get("multipliers"):
        engine.apply(SetMultipliers(tuple((str(k), int(v)) for k, v in outcome["multipliers"].items())))
    engine.apply(WheelResult(tuple(outcome["numbers"])))
    return _paid(engine)


def _baccarat(rules: Any, kind: str, amount: int, outcome: Mapping[str, Any]) -> int:
    """The coup dealt in the order of the felt: player, banker, player, banker, then the thirds."""
    engine = _engine("baccarat", rules, kind, amount)
    player, banker = outcome["player"]["cards"], outcome["banker"]["cards"]
    for card in [player[0], banker[0], player[1], banker[1], *player[2:], *banker[2:]]:
        engine.apply(Deal(card))
    return _paid(engine)


def _box(kind: str) -> tuple[str, int]:
    side, _, box = kind.partition("@")
    return side, int(box)


DEAL_LINES: dict[str, Callable[[str, str, str], tuple[str, ...]]] = {
    "perfect_pairs": lambda a, b, _: sidebets.perfect_pairs_lines(a, b),
    "21+3": sidebets.twenty_one_plus_three_lines,
    "suit_em_up": lambda a, b, _: sidebets.suit_em_up_lines(a, b),
    "lucky_lucky": sidebets.lucky_lucky_lines,
    "hot_3": sidebets.hot_3_lines,
}


def _blackjack(rules: Any, kind: str, amount: int, outcome: Mapping[str, Any]) -> int:
    """A side bet on a box's first two cards and the dealer's up card, by the table's paytable;
    after a split the second card is the first of a later hand (a re-split that leaves it
    unclear, and paying differently, is returned: docs/studio.md)."""
    side, number = _box(kind)
    hands = next((b["hands"] for b in outcome["boxes"] if b["box"] == number), None)
    if not hands or not outcome["dealer"]["cards"]:
        return amount
    first = hands[0]["cards"][0]
    seconds = {h["cards"][0] for h in hands[1:]} if len(hands) > 1 else {hands[0]["cards"][1]}
    pays = {sidebets.side_bet_payout(DEAL_LINES[side](first, second, outcome["dealer"]["cards"][0]),
                                     rules.paytable(side), amount, rules.rounding)[1] for second in seconds}
    return pays.pop() if len(pays) == 1 else amount


def _three_card(rules: Any, kind: str, amount: int, outcome: Mapping[str, Any]) -> int:
    _, number = _box(kind)
    cards = next((b["cards"] for b in outcome["boxes"] if b["box"] == number), None)
    if not cards or len(cards) != 3:
        return amount
    line = ace_plus_line([c[0] for c in cards])
    ratio = rules.ace_plus_pays.get(line) if line else None
    return 0 if ratio is None else win(amount, ratio, rules.rounding)


def _russian(rules: Any, kind: str, amount: int, outcome: Mapping[str, Any]) -> int:
    _, number = _box(kind)
    box = outcome["boxes"].get(str(number))
    if box is None or box["status"] == "void":
        return amount
    return bonus_payout(rules, amount, box["cards"], box["exchanged"])


#: each game's independent settlement of a remote bet
SETTLE: dict[str, Callable[[Any, str, int, Mapping[str, Any]], int]] = {
    "roulette": _roulette, "baccarat": _baccarat, "blackjack": _blackjack,
    "three-card-blackjack": _three_card, "russian-poker": _russian}


Bet = tuple[str, str, int, int | None] | tuple[str, str, int, int | None, str]


def differences(game: str, rules: Any, reading: JournalReading, bets: Sequence[Bet]) -> int:
    """How many of the studio's bets ``(round, kind, amount, payout[, operator/player])`` it paid
    otherwise than the journaled record owes them (a bet of a round the journal never closed counts
    too; a seated player's bet or a Bet Behind needs its player, whose rows in the record it reads)."""
    count = 0
    for round_id, kind, amount, payout, *who in bets:
        record = reading.records.get(round_id)
        if record is None or payout != owed(game, rules, kind, amount, record, "".join(who)):
            count += 1
    return count


def player_results(game: str, rules: Any, reading: JournalReading,
                   bets: list[tuple[str, str, str, int, str, int | None, str]]) -> dict[str, tuple[int | None, int | None]]:
    """Each player's net result from the studio's bets ``(player, round, kind, amount, status, payout,
    operator/player)``:
    as the studio settled them and as the table's journal owes them (``owed``). A bet the studio
    never settled or returned, or of a round the journal never closed, leaves that side None."""
    out: dict[str, tuple[int | None, int | None]] = {}
    for player, round_id, kind, amount, status, payout, who in bets:
        studio, journal = out.get(player, (0, 0))
        if status == "settled" and payout is not None:
            studio = None if studio is None else studio + payout - amount
        elif status != "refunded":
            studio = None
        record = reading.records.get(round_id)
        journal = None if record is None or journal is None else journal + owed(game, rules, kind, amount, record, who) - amount
        out[player] = (studio, journal)
    return out
