"""The betting phase of a blackjack round: who may put what on which box (docs/rules.md §1, §1.2).

Bet kinds: ``main``; ``behind`` (a Bet Behind that follows the box owner's doubles and splits)
and ``behind_stay`` (a Bet Behind that opts out of them and stays on the first hand at its
original amount), or a Bet Behind with its presets named, ``behind+double+split+insurance`` (any
of the three, in that order: ``behind+split`` follows splits, not doubles; ``insurance`` takes
half the Bet Behind's insurance when the owner insures); the side bets of ``paytables.SIDE_BETS`` (``perfect_pairs``, ``21+3``,
``suit_em_up``, ``lucky_lucky``, ``hot_3``, ``bust_it``, ``crazy_7``), each only where the table
offers it. A second bet of the same kind by
the same player on the same box adds to the first. The player ``""`` is an anonymous bettor:
it counts as one bettor on a box but is not held to ``boxes_per_player``.
"""

from __future__ import annotations

from controller.games.base import BetRefused
from controller.games.blackjack.options import RoundOptions
from controller.games.blackjack.paytables import SIDE_KINDS, did_you_mean
from controller.money import limits_said

#: a Bet Behind's presets: it follows the owner's (double, split, insurance)
Presets = tuple[bool, bool, bool]
BEHIND_KINDS: dict[str, Presets] = {"behind": (True, True, False), "behind_stay": (False, False, False)}
PRESET_NAMES = ("double", "split", "insurance")


def behind_presets(kind: str) -> Presets | None:
    """The presets of a Bet Behind kind (None: not a Bet Behind kind)."""
    if kind in BEHIND_KINDS:
        return BEHIND_KINDS[kind]
    head, _, rest = kind.partition("+")
    if head != "behind" or not rest:
        return None
    named = rest.split("+")
    if [n for n in PRESET_NAMES if n in named] != named:  # each once, in order, nothing else
        return None
    return ("double" in named, "split" in named, "insurance" in named)


def behind_kind(presets: Presets) -> str:
    """The kind naming ``presets`` (the inverse of ``behind_presets``)."""
    named = [n for n, on in zip(PRESET_NAMES, presets) if on]
    return "+".join(("behind", *named)) if named else "behind_stay"


class BoxBets:
    """The bets on one box while betting is open; the first main bettor owns the box."""

    __slots__ = ("behind", "main", "side")

    def __init__(self) -> None:
        self.main: dict[str, int] = {}
        self.behind: dict[str, tuple[int, Presets]] = {}
        self.side: dict[tuple[str, str], int] = {}

    @property
    def owner(self) -> str | None:
        return next(iter(self.main), None)


_EMPTY = BoxBets()  # stands for a box nobody has bet on yet; never written to


def check_bet(opts: RoundOptions, book: dict[int, BoxBets], box: int, kind: str, amount: int, player: str) -> None:
    """Raise BetRefused naming the rule if this bet may not be added now; change nothing."""
    if type(box) is not int or not 1 <= box <= opts.boxes:
        raise BetRefused("blackjack.bet.box", f"no box {box!r} at this table (boxes 1..{opts.boxes})")
    if type(amount) is not int:
        raise BetRefused("blackjack.bet.amount", f"a bet is whole minor units, not {amount!r}")
    if amount <= 0:
        raise BetRefused("blackjack.bet.amount", f"a bet must be positive, not {amount}")
    bets = book.get(box) or _EMPTY
    if kind == "main":
        _check_limit(opts, "main", amount + bets.main.get(player, 0))
        if player in bets.behind:
            raise BetRefused("blackjack.bet_behind.own_box", f"player {player!r} bets behind box {box}: cannot play it")
        if player not in bets.main:
            _check_new_bettor(opts, book, bets, box, player)
        if opts.main_max is not None and sum(bets.main.values()) + amount > opts.main_max:
            raise BetRefused("blackjack.bet.box_max", f"box {box} total would exceed the table max {opts.main_max}")
    elif (presets := behind_presets(kind)) is not None:
        if not opts.bet_behind:
            raise BetRefused("blackjack.bet_behind.off", "this table takes no Bet Behind")
        if player in bets.main:
            raise BetRefused("blackjack.bet_behind.own_box", f"player {player!r} plays box {box}: no Bet Behind")
        held = bets.behind.get(player)
        if held is not None and held[1] != presets:
            raise BetRefused("blackjack.bet_behind.mixed", "one Bet Behind per player and box, with one set of presets")
        _check_limit(opts, "behind", amount + (held[0] if held else 0))
    elif kind in SIDE_KINDS:
        if kind not in opts.side_bets:
            raise BetRefused("blackjack.bet.kind", f"this table offers no {kind} side bet")
        if player not in bets.main:
            raise BetRefused("blackjack.side_bet.needs_main", f"a {kind} bet needs the player's main bet on {box}")
        _check_limit(opts, kind, amount + bets.side.get((player, kind), 0))
    else:
        known = ("main", *BEHIND_KINDS, *sorted(opts.side_bets))
        raise BetRefused("blackjack.bet.kind", f"unknown bet kind {kind!r}{did_you_mean(str(kind), known)}")


def _check_limit(opts: RoundOptions, kind: str, amount: int) -> None:
    """The table's limit for a bet kind, as ``GameRules.check_limit`` applies it, read from the
    compiled options (``amount`` is what the player's bet of that kind would come to)."""
    if amount <= 0:
        raise BetRefused("blackjack.bet.amount", f"a {kind} bet must be positive, not {amount}")
    lim = opts.limits.get(kind)
    if lim is not None and not lim.min <= amount <= lim.max:
        raise BetRefused("blackjack.bet.limits", limits_said(kind, amount, lim.min, lim.max))


def _check_new_bettor(opts: RoundOptions, book: dict[int, BoxBets], bets: BoxBets, box: int, player: str) -> None:
    """A player's first main bet on a box: room on the box, and within their box count."""
    if len(bets.main) >= opts.players_per_box:
        raise BetRefused("blackjack.bet.players_per_box", f"box {box} has {opts.players_per_box} players' bets already")
    if player:
        played = sum(1 for b in book.values() if player in b.main)
        if played >= opts.boxes_per_player:
            raise BetRefused("blackjack.bet.boxes_per_player", f"player {player!r} already plays {played} boxes")


def add_bet(book: dict[int, BoxBets], box: int, kind: str, amount: int, player: str) -> None:
    """Record a bet already passed by ``check_bet``."""
    bets = book.get(box)
    if bets is None:
        bets = book[box] = BoxBets()
    if kind == "main":
        bets.main[player] = bets.main.get(player, 0) + amount
    elif (presets := behind_presets(kind)) is not None:
        held = bets.behind.get(player, (0, presets))
        bets.behind[player] = (held[0] + amount, presets)
    else:
        bets.side[(player, kind)] = bets.side.get((player, kind), 0) + amount


def clear_bets(book: dict[int, BoxBets], box: int, player: str | None) -> None:
    """Take back every bet on ``box`` (of one player, or of all); side bets go with the main."""
    bets = book.get(box)
    if bets is None:
        return
    if player is None:
        del book[box]
        return
    bets.main.pop(player, None)
    bets.behind.pop(player, None)
    for key in [k for k in bets.side if k[0] == player]:
        del bets.side[key]
    if not (bets.main or bets.behind):
        del book[box]
