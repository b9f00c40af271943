"""Simulated remote players with a seat, and those who Bet Behind one (docs/studio.md, "Seats" and
"Bet Behind"). A seated player sits at a box the felt's batch players leave free, bets its main bet
on it (``main@3``, ``ante@3``) and answers each ``turn`` the studio pushes with a decision from the
offered list, by a seeded policy; some let the table's decision time run out, some drop their
connection mid-turn (the table's policy then decides) and come back once a player still at the
table hears the ``decided``. At a blackjack table that takes Bet Behind the others bet behind a box
with presets."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from controller.studio.simulation.players import SimPlayer, Tally

#: the games whose boxes a remote player can sit at, and the kind of a box's main bet there
SEATED = {"blackjack": "main", "three-card-blackjack": "ante", "russian-poker": "ante", "catch-a-wave": "main"}
#: the boxes batch mode's own players sit at (``default_players``): the remote players sit at the others
FELT_BOXES = frozenset((1, 3, 5))
SEATED_STAKES = [1000, 1000, 2000, 5000]
BEHIND_STAKES = [1000, 2000, 5000]
#: the share of turns a seated player lets run out, and drops its connection in
TIMEOUT, DISCONNECT_TURN = 0.15, 0.1
#: how long a dropped player waits to hear its turn decided before it comes back anyway
BACK_WITHIN = 30.0


@dataclass
class Turns:
    """What the players at the table heard decided (any of them), so one who dropped mid-turn comes
    back after the table's policy decided it; and the decide requests refused, by reason."""

    decided: set[tuple[str, int, int]] = field(default_factory=set)
    heard: asyncio.Condition = field(default_factory=asyncio.Condition)

    async def note(self, message: dict[str, Any]) -> None:
        async with self.heard:
            self.decided.add((str(message["round"]), int(message["box"]), int(message["hand"])))
            self.heard.notify_all()

    async def wait(self, key: tuple[str, int, int]) -> None:
        async with self.heard:
            await asyncio.wait_for(self.heard.wait_for(lambda: key in self.decided), BACK_WITHIN)


def choose(decisions: list[str], rng: random.Random) -> str:
    """A simple seeded policy: mostly decline insurance, else any decision the turn offers."""
    if "no_insurance" in decisions and rng.random() < 0.8:
        return "no_insurance"
    return rng.choice(decisions)


class Listening(SimPlayer):
    """A player at a table with seats: it keeps what the table's ``decided`` pushes say, for the
    one who dropped mid-turn."""

    def __init__(self, n: int, url: str, operator: tuple[str, str, str], table: str, game: str,
                 rng: random.Random, tally: Tally, *, turns: Turns) -> None:
        super().__init__(n, url, operator, table, game, rng, tally)
        self.turns = turns
        self._tasks: set[asyncio.Task[None]] = set()

    def pushed(self, message: dict[str, Any]) -> bool:
        if message.get("type") == "decided":
            self._spawn(self.turns.note(message))
        return False

    def _spawn(self, work: Any) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def stop(self) -> None:
        """The handlers still running (a turn, a return after a drop) end with the run."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.drop()


class SeatedPlayer(Listening):
    """A player at ``box``: its main bet there (a side bet beside it, some rounds), its decisions."""

    def __init__(self, n: int, url: str, operator: tuple[str, str, str], table: str, game: str,
                 rng: random.Random, tally: Tally, *, box: int, role: str, turns: Turns) -> None:
        super().__init__(n, url, operator, table, game, rng, tally, turns=turns)
        self.box, self.main = box, SEATED[game]
        #: the first turn's behaviour ("decide", "timeout" or "disconnect"), so each is seen in a short run
        self.role = role
        self.sat = False
        self.busy = False
        self.seen: set[tuple[str, int, int, str]] = set()
        self.decides: set[str] = set()

    async def sit(self) -> None:
        """Sit once the table has opened a round (a seat is the table's: it must be up to take it);
        the seat is kept across a lost connection."""
        assert self.ws is not None
        await self.ws.send(json.dumps({"v": 1, "type": "sit", "box": self.box}))
        answer = await self._answer("seated", "refused")
        if answer["type"] == "refused":
            self.tally.refused[f"sit:{answer['reason']}"] += 1
        self.sat = True

    def request(self, round_id: str) -> dict[str, Any]:
        bets = [{"kind": f"{self.main}@{self.box}", "amount": self.rng.choice(SEATED_STAKES)}]
        sides = [k for k in self.kinds if k.endswith(f"@{self.box}")]
        if sides and self.rng.random() < 0.5:
            bets.append({"kind": self.rng.choice(sides), "amount": self.rng.choice(SEATED_STAKES)})
        return {"v": 1, "type": "bet", "request": uuid.uuid4().hex, "round": round_id, "bets": bets}

    async def play(self, round_id: str) -> None:
        self.busy = True
        try:
            if not self.sat:
                await self.sit()
            await super().play(round_id)
        finally:
            self.busy = False

    def pushed(self, message: dict[str, Any]) -> bool:
        super().pushed(message)
        kind = message.get("type")
        if kind == "turn" and message.get("you"):
            key = (str(message["round"]), int(message["box"]), int(message["hand"]), str(message["deadline"]))
            if key not in self.seen:
                self.seen.add(key)
                self._spawn(self._turn(message))
            return True
        if kind == "refused" and message.get("request") in self.decides:
            self.tally.refused[f"decide:{message['reason']}"] += 1
            return True
        return False

    def _behaviour(self) -> str:
        first, self.role = self.role, "decide"
        if first != "decide":
            return first
        draw = self.rng.random()
        return "timeout" if draw < TIMEOUT else "disconnect" if draw < TIMEOUT + DISCONNECT_TURN else "decide"

    async def _turn(self, turn: dict[str, Any]) -> None:
        behaviour = self._behaviour()
        if behaviour == "timeout":
            return  # the table's decision time runs out: its policy decides
        if behaviour == "disconnect" and not self.busy:
            await self.drop()
            with contextlib.suppress(TimeoutError):
                await self.turns.wait((str(turn["round"]), int(turn["box"]), int(turn["hand"])))
            if self.ws is None:
                await self.connect()
            return
        request = uuid.uuid4().hex
        self.decides.add(request)
        if self.ws is not None:
            await self.ws.send(json.dumps({"v": 1, "type": "decide", "request": request, "round": turn["round"],
                                       "box": turn["box"], "hand": turn["hand"],
                                       "decision": choose(list(turn["decisions"]), self.rng)}))


class BehindPlayer(Listening):
    """A player without a seat who, most rounds, bets behind a box with seeded presets."""

    def __init__(self, n: int, url: str, operator: tuple[str, str, str], table: str, game: str,
                 rng: random.Random, tally: Tally, *, boxes: int, turns: Turns) -> None:
        super().__init__(n, url, operator, table, game, rng, tally, turns=turns)
        self.boxes = boxes

    def request(self, round_id: str) -> dict[str, Any]:
        if self.rng.random() < 0.25:
            return super().request(round_id)
        presets = {p: self.rng.random() < 0.5 for p in ("double", "split", "insurance")}
        return {"v": 1, "type": "behind", "request": uuid.uuid4().hex, "round": round_id,
                "box": self.rng.randint(1, self.boxes), "amount": self.rng.choice(BEHIND_STAKES), "presets": presets}


def cast(game: str, rules: Any, make: Callable[..., SimPlayer],
         seats: int | None = None) -> Callable[[int, random.Random], SimPlayer]:
    """Who player ``n`` is at ``game``: seated at the boxes the felt leaves free (one each, the
    first three with a timeout, a decision and a disconnect on their first turn; at most ``seats``
    of them, so people keep a box to sit at), then, at a table taking Bet Behind, every other
    player bets behind; the rest bet without a seat."""
    boxes, behind, turns = int(getattr(rules, "boxes", 0)), bool(getattr(rules, "bet_behind", False)), Turns()
    free = [b for b in range(1, boxes + 1) if b not in FELT_BOXES][:seats] if game in SEATED else []
    roles = ["timeout", "decide", "disconnect"]

    def player(n: int, rng: random.Random) -> SimPlayer:
        if n <= len(free):
            return make(SeatedPlayer, n, rng, box=free[n - 1], role=roles[(n - 1) % len(roles)], turns=turns)
        if behind and n % 2 == 0:
            return make(BehindPlayer, n, rng, boxes=boxes, turns=turns)
        return make(Listening, n, rng, turns=turns) if free else make(SimPlayer, n, rng)

    return player
