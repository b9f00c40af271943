"""Round outcomes as the games record them (controller/records/: each game's typed outcome), for
tests that build round records by hand: each builder gives a whole, valid outcome."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from controller.games.roulette.layout import RED


def roulette(*numbers: str, wheel: str = "european", **over: Any) -> dict[str, Any]:
    """A spin's outcome: the winning pocket of each ball."""
    colours = ["green" if n in ("0", "00") else "red" if int(n) in RED else "black" for n in numbers]
    return {"wheel": wheel, "numbers": list(numbers), "colours": colours, "multipliers": {}, "voids": [],
            "sources": ["wheel"] * len(numbers), "burned": [], **over}


def blackjack(dealer: Sequence[str] = ("TS", "7H"), boxes: Sequence[tuple[int, Sequence[str]]] = (),
              **over: Any) -> dict[str, Any]:
    """A settled blackjack round: the dealer's cards and each box's one hand (totals are not checked)."""
    return {"phase": "settled",
            "dealer": {"cards": list(dealer), "face_down": [], "total": 17, "blackjack": False},
            "boxes": [{"box": box, "owner": f"P{box}", "insurance": 0,
                       "hands": [{"hand": 1, "cards": list(cards), "total": 20, "status": "live", "multiplier": 1,
                                  "face_down": []}]} for box, cards in boxes],
            "burned": [], **over}


def baccarat(player: Sequence[str] = ("9H", "KD"), banker: Sequence[str] = ("5C", "2S"), winner: str | None = "player",
             **over: Any) -> dict[str, Any]:
    return {"player": {"cards": list(player), "total": 9}, "banker": {"cards": list(banker), "total": 7},
            "winner": winner, "natural": True, "void": None, "burned": [], **over}
