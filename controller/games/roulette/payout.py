"""What one layout chip returns for the ball(s) that landed: the paytable applied, nothing else.

One ball: a chip holding the number wins at its pay (a straight on a multiplier number pays the
multiplier instead); otherwise it loses, except that with La Partage an even-money chip loses
only half on a zero (0, and 00 on an American wheel). Two balls: an inside chip wins its pay
per ball in it (both balls: twice the winnings); an outside chip needs both balls; ``both_any``
and ``both_on`` need both balls in one pocket (any / the chosen one). Outside bets never hold a
zero, so on 0 they lose.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import product

from controller.games.roulette.bets import EVEN_MONEY, EXTRA, INSIDE, BetSpec, Chip
from controller.games.roulette.layout import ZEROS, wheel
from controller.games.roulette.rules import RouletteRules
from controller.money import scale, win

HALF = Fraction(1, 2)


def chip_return(
    chip: Chip, stake: int, balls: Sequence[str], rules: RouletteRules, multipliers: Mapping[str, int]
) -> int:
    """All that a chip of ``stake`` returns (0 lost, ``stake`` plus winnings when it wins)."""
    pay = rules.paytable[chip.paytable_key]
    if len(balls) == 1:
        ball = balls[0]
        if ball in chip.numbers:
            if chip.type == "straight" and ball in multipliers:
                pay = Fraction(multipliers[ball])
            return win(stake, pay, rules.rounding)
        if rules.la_partage and chip.type in EVEN_MONEY and ball in ZEROS:
            return scale(stake, HALF, rules.rounding)
        return 0
    first, second = balls
    if chip.type in INSIDE:
        hits = (first in chip.numbers) + (second in chip.numbers)
        return win(stake, pay * hits, rules.rounding) if hits else 0
    if chip.type in EXTRA:
        return win(stake, pay, rules.rounding) if first == second and first in chip.numbers else 0
    return win(stake, pay, rules.rounding) if first in chip.numbers and second in chip.numbers else 0


def most_returned(spec: BetSpec, stake: int, rules: RouletteRules) -> int:
    """The most a bet of ``stake`` on ``spec`` returns at this table, stake included: its chips
    paid for every ball (or pair of balls) the wheel can give, a straight on the highest
    multiplier the table's draw can give; the best of them."""
    pockets = wheel(rules.wheel).pockets
    feature = rules.multipliers
    draws: list[Mapping[str, int]] = [{}]
    if feature is not None and feature.values:
        draws.append(dict.fromkeys(pockets, max(feature.values)))
    unit = stake // spec.units
    return max(sum(chip_return(chip, unit * units, balls, rules, draw) for chip, units in spec.chips)
               for balls in product(pockets, repeat=rules.balls) for draw in draws)
