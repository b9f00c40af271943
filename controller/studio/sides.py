"""The card games' side bets the studio settles itself from a box's cards, with no seat: a remote
player's ``perfect_pairs@3`` rides on box 3's deal. Whatever else names a box (``main@3``,
``behind@3+double``) is played on the felt by the table's engine (seats.py)."""

from __future__ import annotations

from controller.games.blackjack.paytables import DEAL_KINDS

#: the side bets per game, and the main bet the engine takes a side bet beside
SIDES: dict[str, frozenset[str]] = {"blackjack": DEAL_KINDS, "three-card-blackjack": frozenset({"ace_plus"}),
                                    "russian-poker": frozenset({"bonus"})}
CARRIERS: dict[str, str] = {"blackjack": "main", "three-card-blackjack": "ante", "russian-poker": "ante"}
