"""Simulated people for batch mode: players who bet and follow basic strategy, and a dealer
who does what the prompt says (draws the card asked for from the simulated shoe, settles,
opens the next round, loads a new shoe after the cut card).

They act only when the table is quiet (every input applied) and only once per state of the
table (``core.serial``), so a card in flight is never drawn twice. Their commands go through
the same queue and journal as a real dealer's, under their own source names.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass

from controller.games.base import Expect, ExpectKind
from controller.runtime.loop import TableLoop
from controller.table.betting import SEALING
from controller.table.core import BETTING, IDLE, PLAYING, SETTLING
from controller.table.inputs import InputRefused
from simulators.shoe import ShoeFirmware

DEALER = "sim-dealer"
log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class SeatedPlayer:
    player: str
    box: int
    stake: int
    #: the stake of each round, or None to sit it out (controller/protection/styles.py); else ``stake``
    stakes: Callable[[], int | None] | None = None


def default_players(min_bet: int) -> list[SeatedPlayer]:
    """Three players on boxes 1, 3 and 5 betting 1x, 2x and 5x the table minimum."""
    return [SeatedPlayer("P1", 1, min_bet), SeatedPlayer("P2", 3, 2 * min_bet), SeatedPlayer("P3", 5, 5 * min_bet)]


class SimulatedTable:
    """Plays ``rounds`` rounds, then sets ``done``. A round resumed from the journal counts, and so
    does one the start's replay closed (``closed_by_replay``: the last run died between the
    closing input and the round's record), so a caller that counted the journal's round records
    before this start gets exactly its total."""

    def __init__(self, loop: TableLoop, firmware: ShoeFirmware | None, players: list[SeatedPlayer], rounds: int,
                 pace: float = 0.0, closed_by_replay: int = 0) -> None:
        self.loop = loop
        self.firmware = firmware
        self.players = players
        self.rounds = rounds
        self.pace = pace
        self.done = asyncio.Event()
        #: a table the pit closes ends the run (batch mode); False: the players wait for a reopen
        self.stop_when_closed = True
        self._closed_at_start = loop.core.closed_rounds - closed_by_replay
        self._resumed = loop.core.engine is not None
        self._acted = -1
        #: the shoe's (id, last card) when the dealer last drew: no second card while that one is on its way
        self._drew_at: tuple[str, int] | None = None
        #: the chance the dealer voids a round found open after a restart, from a seeded coin
        self.void_on_restart = 0.0
        self.coin = random.Random(f"restart-{loop.core.table_id}-{loop.core.rounds}")
        self._wake = asyncio.Event()
        loop.quiet_hooks.append(self._wake.set)

    @property
    def played(self) -> int:
        return self.loop.core.closed_rounds - self._closed_at_start

    async def run(self) -> None:
        self._wake.set()
        while not self.done.is_set():
            await self._wake.wait()
            self._wake.clear()
            if self.loop.pending:
                continue
            core = self.loop.core
            if core.serial == self._acted:
                continue
            self._acted = core.serial
            if self.pace:
                await asyncio.sleep(self.pace)
            if core.outage is not None:
                continue  # the journal cannot take anything: wait until the table resumes
            try:
                self._act()
            except InputRefused as refused:  # the table said no (a rate limit, a full disk): look again later
                log.warning("simulated people: %s", refused.message)

    def _act(self) -> None:
        core, loop = self.loop.core, self.loop
        if core.hold is not None:
            self._drew_at = None
            self._answer_hold(core.hold.code, core.hold.options)
            return
        if core.keyin is not None and self.firmware is not None:
            loop.command("key_card", DEALER, card=self.firmware.drawn[-1])
            return
        if core.phase == IDLE:
            if core.dealer is None:  # every round record names who dealt it
                loop.command("sign_in", DEALER, dealer=DEALER)
            elif core.shoe.needs_new:
                loop.command("new_shoe", DEALER)
            elif core.shoe.burn_left > 0 and self.firmware is not None:
                self.firmware.draw()  # "Burn 1 card": the dealer pulls it through the gate
            elif self.played >= self.rounds or (core.closing and self.stop_when_closed):
                self.done.set()
            elif core.closing:
                return  # closed by the pit: wait for its reopen (the demo's endless players)
            else:
                loop.command("open_round", DEALER)
        elif core.phase == BETTING and core.engine is not None:
            self._betting()
        elif core.betting.status == SEALING:
            return  # a remote table: no card until the studio's seal (or its grace) closes betting
        elif core.phase == SETTLING:
            loop.command("settle", DEALER)
        elif core.phase == PLAYING and core.engine is not None:
            self._playing(core.engine.expects())

    def _answer_hold(self, code: str, options: tuple[str, ...]) -> None:
        """Batch mode never deals through a hold: after a restart the dealer resumes (or, on the
        seeded coin ``void_on_restart``, voids); any other hold voids the round, or is dismissed
        or burned where no round is open."""
        loop = self.loop
        if "resume" in options and not self.coin.random() < self.void_on_restart:
            loop.command("resume", DEALER)
        elif "void_round" in options:
            loop.command("void_round", DEALER, reason=f"simulated dealer: {code}")
        elif "dismiss" in options:
            loop.command("dismiss", DEALER)
        elif "burn" in options:
            loop.command("burn", DEALER)

    def _betting(self) -> None:
        """Each player bets once (after a restart some bets may already be on the layout), then
        the dealer closes betting; at a table with a betting time (``[table] betting_s``) the
        timer closes it, so the studio's remote players have that time too."""
        core, loop = self.loop.core, self.loop
        assert core.engine is not None
        placed = {(s.box, s.player) for s in core.adapter.open_bets(core.engine)}
        for p in self.players:
            if (p.box, p.player) in placed:
                continue
            stake = p.stake if p.stakes is None else p.stakes()
            if stake is None:
                continue
            for kind, amount in core.adapter.simulated_bets(core.rules, p.box, stake, core.rounds):
                loop.command("bet", f"player:{p.player}", box=p.box, amount=amount, kind=kind, player=p.player)
        if core.adapter.device is None and core.betting.deadline is None:
            loop.command("close_betting", DEALER)  # a wheel closes betting itself, a betting time on its timer

    def _playing(self, expect: Expect) -> None:
        """Cards from the simulated shoe as the engine asks for them; players' decisions."""
        core, loop = self.loop.core, self.loop
        assert core.engine is not None
        if expect.kind in (ExpectKind.CARD, ExpectKind.DEALER_CARD):
            if self.firmware is None:
                return  # a shoe on a serial line: the dealer at it pulls the card (docs/hil.md)
            drew_at = (core.shoe.shoe_id, core.shoe.last_n)
            if drew_at == self._drew_at:
                return  # the card drawn is still on its way (a remote seat's input came in between)
            self._drew_at = drew_at
            if self.firmware.draw() is None:  # empty (a stacked shoe ran out) or locked
                loop.command("void_round", DEALER, reason=f"no card leaves the shoe ({self.firmware.state})")
        elif expect.kind is ExpectKind.DECISION:
            turn = core.seats.turn
            if turn is not None and turn.box == expect.box:
                return  # a remote seat's turn: its player (or the table's timer) decides, not the dealer
            # the game words the answer as a command (Russian poker's exchange is not a decide)
            payload = core.adapter.simulated_command(core.engine, expect, core.rules, core.shoe.composition)
            loop.submit("command", payload, f"player:{payload.get('player') or 'box' + str(payload.get('box'))}")
