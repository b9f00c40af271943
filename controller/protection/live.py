"""The advantage-play watch at a live table: fed every journal entry as the table writes it, it
journals one ``protection.advantage_play`` alert per player it flags, so the pit sees the flag on
the feed and the back office keeps it with every other alert (docs/protection.md).

The flag is an output of the table like any alert: written after the input that completed the
evidence (the close of betting), with that input's seq as its cause. A restart rebuilds the
watch from the journal's latest entries (``REBUILD_ENTRIES``, about a gaming day at a full table)
and never flags a player again whom those entries already flagged. The alert names the player
and the evidence; it never carries the count of the shoe in play.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Final

from controller.config import TableConfig
from controller.journal import Entry, Journal
from controller.protection.advantage import AdvantageWatch, PlayerFlag
from controller.runtime.loop import TableLoop
from controller.table import inputs
from controller.table.holds import WARNING, alert

CODE: Final = "protection.advantage_play"
REBUILD_ENTRIES: Final = 50_000
GAMES: Final = frozenset(("blackjack",))
log = logging.getLogger(__name__)


def message(flag: PlayerFlag, currency: str, digits: int) -> str:
    what = "bets follow the count" if flag.test == "bet_ramp" else "plays at high counts and sits out at low ones"
    worth = f"{flag.edge_per_hour / 10 ** digits:,.{digits}f} {currency}"
    return (f"player {flag.player} at box {flag.box}: {what} (r = {flag.statistic:.2f}, 95 % {flag.ci_low:.2f} to "
            f"{flag.ci_high:.2f}, p = {flag.p_value:.1e}) over {flag.rounds} rounds; the count is worth about "
            f"{worth} an hour to the player")


class AdvantageListener:
    """A ``TableLoop`` listener: the watch, and the alerts of its flags."""

    def __init__(self, loop: TableLoop, watch: AdvantageWatch, flagged: set[str], currency: str, digits: int) -> None:
        self.loop, self.watch, self.flagged = loop, watch, flagged
        self.currency, self.digits = currency, digits

    def on_entry(self, entry: Entry) -> None:
        if entry.kind == inputs.ALERT:
            return
        for player in self.watch.apply(entry.kind, entry.payload, entry.ts):
            if player not in self.flagged:
                self.flagged.add(player)
                # written once this entry's own listeners are done: an output after its cause
                asyncio.get_running_loop().call_soon(self.raise_flag, player, entry.seq)

    def on_prompt(self, prompt: str, core: Any) -> None:
        """The dealer's prompt is not evidence."""

    def raise_flag(self, player: str, cause: int) -> None:
        """Journal the player's flag as an alert, caused by the entry that completed the evidence."""
        flag = self.watch.flags()[player]
        payload = alert(WARNING, CODE, message(flag, self.currency, self.digits), cause, player=player,
                        evidence=flag.as_json())
        self.loop.writer.write(inputs.ALERT, payload, self.loop.core.round_id)


def watch_table(loop: TableLoop, journal: Journal, config: TableConfig) -> AdvantageListener | None:
    """The live watch of a blackjack table (``[protection] advantage_play``), rebuilt from the
    journal's latest entries; None for other games or when it is switched off."""
    settings = config.protection
    if not settings.advantage_play or config.table.game not in GAMES:
        return None
    decks = getattr(config.game_rules(), "decks", 6)
    watch = AdvantageWatch(decks, alpha=settings.alpha, min_rounds=settings.min_rounds)
    alerted: set[str] = set()
    last = 0
    for entry in journal.entries(after=max(0, journal.last_seq() - REBUILD_ENTRIES)):
        last = entry.seq
        if entry.kind == inputs.ALERT:
            if entry.payload.get("code") == CODE and isinstance(entry.payload.get("player"), str):
                alerted.add(entry.payload["player"])
            continue
        watch.apply(entry.kind, entry.payload, entry.ts)
    listener = AdvantageListener(loop, watch, set(alerted), config.table.currency, config.table.currency_digits)
    for player, flag in watch.flags().items():  # flagged before a crash that came before its alert
        if flag.flagged and player not in alerted:
            listener.flagged.add(player)
            asyncio.get_running_loop().call_soon(listener.raise_flag, player, last)
    return listener
