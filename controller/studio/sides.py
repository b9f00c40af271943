"""The card games' side bets the studio settles itself from a box's cards, with no seat: a remote
player's ``perfect_pairs@3`` rides on box 3's deal. Whatever else names a box (``main@3``,
``behind@3+double``) is played on the felt by the table's engine (seats.py)."""

from __future__ import annotations

from controller.games.blackjack.betting import behind_presets
from controller.games.blackjack.paytables import DEAL_KINDS

#: the side bets per game, and the main bet the engine takes a side bet beside
SIDES: dict[str, frozenset[str]] = {"blackjack": DEAL_KINDS, "three-card-blackjack": frozenset({"ace_plus"}),
                                    "russian-poker": frozenset({"bonus"})}
CARRIERS: dict[str, str] = {"blackjack": "main", "three-card-blackjack": "ante", "russian-poker": "ante"}


def felt_kind(game: str, kind: str) -> tuple[str, int] | None:
    """A bet played on the felt by the table's engine: (its kind at the table, its box), for
    ``main@3`` (a seated player's) or ``behind@3+double`` (a Bet Behind); None for a bet the
    studio settles itself (roulette's, baccarat's, a card game's side bet on a box's deal: sides.py)."""
    head, at, rest = kind.partition("@")
    box, plus, presets = rest.partition("+")
    if not at or not box.isdigit() or not 1 <= int(box) <= 99 or not head:
        return None
    if head.startswith("behind"):  # behind@3, behind@3+double+split, behind_stay@3
        table_kind = head + plus + presets
        return (table_kind, int(box)) if game == "blackjack" and behind_presets(table_kind) is not None else None
    if plus or head in SIDES.get(game, ()) or game in ("roulette", "baccarat"):
        return None
    return head, int(box)
