"""The blackjack side bets a table may offer and their paytables (docs/rules.md, blackjack §1.2).

Each side bet is a bet kind (``side_bets`` entry, ``[limits]`` key) with a paytable in
``[rules]``: line name -> payout ratio. The defaults are the house sheet's tables; a table may
change any ratio or drop a line (the bet then pays the next line the cards still make), but a
line name the bet does not know is refused, with the nearest known name suggested.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Final

F = Fraction

#: bet kind -> (the ``[rules]`` key of its paytable, its lines best first with their default ratio)
SIDE_BETS: Final[dict[str, tuple[str, dict[str, Fraction]]]] = {
    "perfect_pairs": ("perfect_pairs", {"perfect": F(25), "coloured": F(12), "mixed": F(6)}),
    "21+3": (
        "twenty_one_plus_three",
        {"suited_trips": F(100), "straight_flush": F(40), "three_of_a_kind": F(30), "straight": F(10), "flush": F(5)},
    ),
    "suit_em_up": (
        "suit_em_up",
        {"suited_aces": F(60), "suited_blackjack": F(10), "suited_pair": F(5), "suited_11": F(3), "suited": F(2)},
    ),
    "lucky_lucky": (
        "lucky_lucky",
        {
            "suited_7_7_7": F(200),
            "suited_6_7_8": F(100),
            "7_7_7": F(50),
            "6_7_8": F(30),
            "suited_21": F(15),
            "21": F(3),
            "20": F(2),
            "19": F(2),
        },
    ),
    "hot_3": ("hot_3", {"7_7_7": F(100), "suited_21": F(20), "21": F(4), "20": F(2), "19": F(1)}),
    "bust_it": (
        "bust_it",
        {
            "3_cards": F(1),
            "4_cards": F(2),
            "5_cards": F(9),
            "6_cards": F(50),
            "7_cards": F(100),
            "8_or_more_cards": F(250),
        },
    ),
    "crazy_7": (
        "crazy_7",
        {"suited_7_7_7": F(2000), "7_7_7": F(500), "suited_7_7": F(150), "7_7": F(25), "first_7": F(5)},
    ),
}
SIDE_KINDS: Final = frozenset(SIDE_BETS)
#: side bets settled on the deal (the box's second card); Crazy 7 may wait for a third card,
#: Bust It waits for the dealer's final hand
DEAL_KINDS: Final = frozenset(("perfect_pairs", "21+3", "suit_em_up", "lucky_lucky", "hot_3"))
PAYTABLE_KEYS: Final = {key: kind for kind, (key, _) in SIDE_BETS.items()}


def default_paytable(kind: str) -> dict[str, Fraction]:
    return dict(SIDE_BETS[kind][1])


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the nearest known name, or nothing when none is near."""
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.5)
    return f" (did you mean {close[0]!r}?)" if close else ""


def unknown_names(given: Iterable[str], known: Iterable[str], what: str) -> str | None:
    """An error naming every unknown name with a suggestion, and the known ones; None if all known."""
    known = list(known)
    bad = [n for n in given if n not in known]
    if not bad:
        return None
    named = "; ".join(f"{n!r}{did_you_mean(n, known)}" for n in bad)
    return f"unknown {what}: {named}; known: {', '.join(known)}"


def check_paytable(kind: str, table: Mapping[str, Fraction]) -> None:
    """Refuse (ValueError) a paytable naming a line the bet does not have, or empty."""
    lines = SIDE_BETS[kind][1]
    error = unknown_names(table, lines, f"{kind} paytable line(s)")
    if error:
        raise ValueError(error)
    if not table:
        raise ValueError(f"the {kind} paytable has no line; leave {kind} out of side_bets instead")
