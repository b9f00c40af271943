"""Golden-round helper: play a Catch a Wave round from per-box moves and the dealer's cards."""

from __future__ import annotations

from controller.games.base import CloseBetting, Deal, Decide, ExpectKind, PlaceBet
from controller.games.catch_a_wave import CatchAWaveRound, CatchAWaveRules, catch_a_wave_rules


def play(
    first: dict[int, str],
    dealer_up: str,
    moves: dict[int, list[str]],
    dealer: str = "",
    stakes: dict[int, int] | None = None,
    rules: CatchAWaveRules | None = None,
) -> tuple[CatchAWaveRound, list[tuple[int, int, int]]]:
    """``first`` card per box, the dealer's up card, each box's moves ("higher 9H", "stand") in
    turn, then the cards the dealer draws; returns the round and (box, stake, payout) per bet."""
    rnd = CatchAWaveRound(rules or catch_a_wave_rules())
    for box in sorted(first):
        rnd.apply(PlaceBet(box, "main", (stakes or {}).get(box, 1000), f"p{box}"))
    rnd.apply(CloseBetting())
    for box in sorted(first):
        rnd.apply(Deal(first[box]))
    rnd.apply(Deal(dealer_up))
    for box in sorted(first):
        for move in moves.get(box, []):
            call, _, card = move.partition(" ")
            rnd.apply(Decide(box, call))
            if card:
                rnd.apply(Deal(card))
    for card in dealer.split():
        assert rnd.expects().kind is ExpectKind.DEALER_CARD
        rnd.apply(Deal(card))
    assert rnd.expects().kind is ExpectKind.DONE
    return rnd, [(s.box, s.stake, s.payout) for s in rnd.settlements]
