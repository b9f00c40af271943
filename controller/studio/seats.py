"""Seats at the studio's side (docs/studio.md, "Seats"): a player sits at a box, bets on it, and
decides at the box's turn; the table decides whose box it is and when a turn ends.

The studio tells the table (``seat``, ``bets``, ``decide`` on ``croupier/<table>/studio``) and
learns back from the table's retained ``betting`` leaf (its ``seats``, ``turn``, ``decided`` and
``cards``), which it pushes to the players as ``seats``, ``turn``, ``decided`` and ``hands``. The
leaf is the truth: after a studio restart the seats are read back from it. What the studio keeps
on its own is the owner's switch (Bet Behind allowed: in the book's database, switches.py) and the
seat messages the leaf does not show yet (a claim, so two players cannot take one box between
the two; kept in the book's database too, and sent again until the table has it: seat_sync.py).

A seated player's bets (``main@3``) and a Bet Behind (``behind@3+double``) are played on the felt
by the table's engine; ``felt_payout`` reads what each returned from the round record's rows.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from controller.studio.book import Player, player_id
from controller.studio.hub import Hub, encoded
from controller.studio.seat_sync import PendingSeats, SeatView, Unsent, told_seats
from controller.studio.sides import felt_kind
from controller.studio.switches import BehindSwitches

if TYPE_CHECKING:
    from psycopg_pool import AsyncConnectionPool

    from controller.studio.rules import TableRules

Publish = Callable[[str, dict[str, Any]], Awaitable[None]]
#: a player's join reads the table's waiting seat messages back from the book at most this often
#: (a process's players joining another all at once after it died: one read, not one each)
READ_BACK_S = 1.0
#: the kinds of a Bet Behind's rows in the round record (its win, and its insurance)
BEHIND_ROWS = frozenset(("behind", "insurance"))
#: a seated box's hand bet, and the rows its decisions add to it (insurance, the owner's share of
#: the Bet Behinds, Three Card Blackjack's play, Russian poker's raise and exchange fee)
HAND_KINDS = frozenset(("main", "ante"))
DECISION_ROWS = frozenset(("insurance", "behind_share", "play", "raise", "exchange"))


def refused(reason: str, message: str, request: str | None = None) -> dict[str, Any]:
    return {"v": 1, "type": "refused", "request": request, "reason": reason, "message": message}


def felt_payout(record: dict[str, Any], who: str, table_kind: str, box: int, amount: int) -> tuple[int, int]:
    """What a felt bet returned, and the stake the table added to it (a double, a split, insurance,
    a raise: debited with the round): its player's rows on its box of its kind and of the
    decisions made on it. No row (the table did not take it) or the box refunded by the decision
    policy: ``amount`` returned, nothing added."""
    remote = record.get("remote") or {}
    refunded = (remote.get("seats") or {}).get("refunded") or []
    if box in refunded and not table_kind.startswith("behind"):
        return amount, 0
    if table_kind.startswith("behind"):
        kinds = BEHIND_ROWS
    elif table_kind in HAND_KINDS:
        kinds = HAND_KINDS | DECISION_ROWS
    else:
        kinds = frozenset((table_kind,))
    rows = [r for r in record.get("bets") or [] if r.get("player") == who and r.get("box") == box
            and r.get("kind") in kinds]
    if not rows:
        return amount, 0
    return sum(int(r["payout"]) for r in rows), max(0, sum(int(r["stake"]) for r in rows) - amount)


def felt_settlement(game: str, record: dict[str, Any], bet: Any) -> tuple[int, int] | None:
    """(payout, stake added) of a book bet ``(id, request, operator, player, kind, amount, ...)``
    played on the felt; None for a bet the studio settles itself."""
    felt = felt_kind(game, bet[4])
    if felt is None:
        return None
    return felt_payout(record, f"{bet[2]}/{bet[3]}", felt[0], felt[1], int(bet[5]))


def added_stakes(table: str, round_id: str, currency: str, game: str, record: dict[str, Any],
                 bets: list[Any]) -> list[tuple[Any, ...]]:
    """One debit per player of what the table added to their felt bets (doubles, splits, insurance,
    raises), as settlement's wallet calls; none when the round's bets are returned."""
    owed: dict[tuple[str, str], int] = {}
    for bet in bets:
        felt = felt_settlement(game, record, bet)
        if felt is not None and felt[1]:
            owed[(bet[2], bet[3])] = owed.get((bet[2], bet[3]), 0) + felt[1]
    return [(f"added:{table}:{round_id}:{operator}:{player}", "debit", round_id, table, round_id, operator, player,
             currency, amount) for (operator, player), amount in sorted(owed.items())]


@dataclass(slots=True)
class TableSeats:
    seats: dict[int, SeatView] = field(default_factory=dict)
    #: the seats the table's last leaf shows
    told: dict[int, SeatView] = field(default_factory=dict)
    unsent: Unsent = field(default_factory=Unsent)
    turn: dict[str, Any] | None = None
    decided: dict[str, Any] | None = None
    cards: dict[str, Any] | None = None
    #: one seat message at a time: written, kept and sent in the order the players' actions came
    telling: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: when its seat messages were last read back from the book (time.monotonic)
    read_at: float = -READ_BACK_S


class StudioSeats:
    """The seats of every table the studio serves."""

    def __init__(self, tables: dict[str, TableRules], hub: Hub, publish: Callable[[], Publish],
                 pool: AsyncConnectionPool[Any] | None = None) -> None:
        self.tables = tables
        self.hub = hub
        self._publish = publish
        self.switches = BehindSwitches(pool)
        self.pending = PendingSeats(pool)
        self.state: dict[str, TableSeats] = {name: TableSeats() for name in tables}

    async def load(self) -> None:
        """At the start: the owners' switches where they left them, and the seat messages no table
        has taken yet (whichever process wrote them), shown to the players and sent on the
        table's next leaf."""
        for table, messages in (await self.pending.load(list(self.tables))).items():
            state = self.state[table]
            for message in messages:
                state.unsent.sent(message)
            state.seats = state.unsent.view(state.seats)
        for table in self.tables:
            await self.switches.load(table)

    async def _send(self, table: str, message: dict[str, Any]) -> None:
        await self._publish()(table, {"v": 1, "id": str(uuid.uuid4()), **message})

    async def _tell_seat(self, table: str, box: int, player: str, name: str, seated: bool,
                         connected: bool | None = None) -> None:
        """A ``seat`` message, written to the book (a leave with its owner's switch gone) before it
        is sent, and kept until the table's leaf shows it taken (seat_sync.py)."""
        message: dict[str, Any] = {"v": 1, "id": str(uuid.uuid4()), "type": "seat", "box": box, "player": player,
                                   "name": name, "seated": seated}
        if connected is not None:
            message["connected"] = connected
        unsent = self.state[table].unsent
        previous = unsent.claim(message)  # a leaf meanwhile keeps it (a claim holds its box)
        async with self.state[table].telling:
            try:
                async with self.pending.transaction() as conn:
                    if not seated:
                        await self.switches.forget(table, box, player, conn)
                    await self.pending.keep(conn, table, message)
            except BaseException:
                unsent.withdraw(message, previous)
                raise
            unsent.written(message)
            await self._publish()(table, message)

    async def resend(self, table: str) -> None:
        """Delete the rows of the seat messages the table's last leaf shows; send again, under their
        own ids, those it does not (the table takes an id once: a copy of one it has changes
        nothing): the book's rows of them, so that studio processes sharing it send the same."""
        state = self.state.get(table)
        if state is None:
            return
        await self._forget_taken(table, state.unsent)
        if state.unsent.messages:
            await self._read_back(table)
        for message in state.unsent.again():
            await self._publish()(table, message)

    async def _read_back(self, table: str) -> None:
        """The book's rows of the table are the seat messages waiting for it: another studio
        process may have replaced one, deleted one the table took, or written one and died."""
        if self.pending.pool is None:
            return
        unsent = self.state[table].unsent
        before = dict(unsent.messages)
        self.state[table].read_at = time.monotonic()
        if unsent.adopt(await self.pending.rows(table), before):
            self._show(table, unsent.seen(self.state[table].told))
            await self._forget_taken(table, unsent)

    async def _forget_taken(self, table: str, unsent: Unsent) -> None:
        batch = list(unsent.done)
        if batch:
            await self.pending.drop(table, batch)
            gone = {m["id"] for m in batch}  # not before: a failed delete is tried again on the next leaf
            unsent.done[:] = [m for m in unsent.done if m["id"] not in gone]

    # ------------------------------------------------------------------ players
    def boxes(self, table: str) -> int:
        return int(getattr(self.tables[table].rules, "boxes", 7))

    def check_box(self, table: str, box: int) -> dict[str, Any] | None:
        """A refusal when the table seats nobody or has no such box."""
        if not self.tables[table].adapter.default_decisions:
            return refused("no_seats", f"{self.tables[table].game} has no seats for remote players")
        if box > self.boxes(table):
            return refused("box_unknown", f"the table's boxes are 1 to {self.boxes(table)}")
        return None

    async def sit(self, table: str, who: Player, box: int) -> dict[str, Any]:
        bad = self.check_box(table, box)
        if bad is not None:
            return bad
        state, me = self.state[table], player_id(who)
        held = state.seats.get(box)
        if held is not None and held.player != me:
            return refused("seat_taken", f"box {box} is {held.name}'s")
        most = int(getattr(self.tables[table].rules, "boxes_per_player", 1))
        if held is None and sum(1 for s in state.seats.values() if s.player == me) >= most:
            return refused("seats_full", f"a player sits at {most} box{'es' if most > 1 else ''} at most here")
        claim = state.seats[box] = SeatView(me, who.name)  # the claim, until the table's leaf says it
        try:
            await self._tell_seat(table, box, me, who.name, True, True)
        except BaseException:
            if state.seats.get(box) is claim:  # not written, not sent: the box is free again
                del state.seats[box]
            raise
        self.push_seats(table)
        return {"v": 1, "type": "seated", "table": table, "box": box}

    async def leave(self, table: str, who: Player, box: int) -> dict[str, Any]:
        state, me = self.state[table], player_id(who)
        held = state.seats.get(box)
        if held is None or held.player != me:
            return refused("not_seated", f"you do not sit at box {box}")
        await self._tell_seat(table, box, me, who.name, False)
        if (seat := state.seats.get(box)) is not None and seat.player == me:
            del state.seats[box]
        self.push_seats(table)
        return {"v": 1, "type": "left", "table": table, "box": box}

    async def disconnected(self, table: str, who: Player) -> None:
        """The player's last connection to the table closed: the table decides at the box's turn."""
        me, changed = player_id(who), False
        for box, seat in sorted(self.state[table].seats.items()):
            if seat.player == me and seat.connected:
                seat.connected, changed = False, True
                await self._tell_seat(table, box, me, seat.name, True, False)
        if changed:  # a player without a seat leaving changes no one's view (10,000 leaving: 10,000² messages)
            self.push_seats(table)

    async def reconnected(self, table: str, who: Player) -> None:
        """The player joined the table again: the seats kept are connected again (a seat taken
        through a studio process that died is read back from the book first)."""
        if time.monotonic() - self.state[table].read_at >= READ_BACK_S:
            await self._read_back(table)
        me = player_id(who)
        for box, seat in sorted(self.state[table].seats.items()):
            if seat.player == me and not seat.connected:
                seat.connected = True
                await self._tell_seat(table, box, me, seat.name, True, True)

    async def decide(self, table: str, who: Player, round_id: str, box: int, hand: int, decision: str,
                     request: str, amount: int | None) -> dict[str, Any] | None:
        """Pass the decision to the table (its ``decided`` answers), or refuse it at once."""
        state, me = self.state[table], player_id(who)
        seat = state.seats.get(box)
        if seat is None or seat.player != me:
            return refused("not_seated", f"you do not sit at box {box}", request)
        turn = state.turn
        if turn is None or (turn.get("round"), turn.get("box"), turn.get("hand")) != (round_id, box, hand):
            return refused("not_your_turn", f"box {box} hand {hand} does not decide now", request)
        if decision not in turn.get("decisions", []):
            return refused("decision_illegal", f"{decision} is not one of {', '.join(turn.get('decisions', []))}",
                           request)
        if _passed(turn.get("deadline")):
            return refused("decision_late", "the decision time is over: the table decides", request)
        message: dict[str, Any] = {"type": "decide", "round": round_id, "box": box, "hand": hand,
                                   "decision": decision, "player": me, "request": request}
        if amount is not None:
            message["amount"] = amount
        await self._send(table, message)
        return None

    async def behind_allowed(self, table: str, who: Player, box: int, allowed: bool) -> dict[str, Any] | None:
        seat = self.state[table].seats.get(box)
        if seat is None or seat.player != player_id(who):
            return refused("not_seated", f"you do not sit at box {box}")
        await self.switches.turn(table, box, seat.player, allowed)
        self.push_seats(table)
        return None

    def _allows(self, table: str, box: int) -> bool:
        """The box takes Bet Behind as far as its owner goes (a box nobody remote sits at: yes)."""
        seat = self.state[table].seats.get(box)
        return seat is None or self.switches.allowed(table, box, seat.player)

    async def reload_switches(self, table: str) -> None:
        """Read the owners' switches again (another studio process may have turned one): before a
        Bet Behind is checked, and when a player joins; the players hear a change."""
        if await self.switches.load(table):
            self.push_seats(table)

    def check_felt_bets(self, table: str, who: Player, bets: list[tuple[str, int]]) -> dict[str, Any] | None:
        """A seated player's bet on a box that is not theirs, or a Bet Behind the box's owner does
        not allow (or on the player's own box): refused with its reason before the book."""
        state, me = self.state[table], player_id(who)
        for kind, _ in bets:
            felt = felt_kind(self.tables[table].game, kind)
            if felt is None:
                continue
            table_kind, box = felt
            seat = state.seats.get(box)
            if table_kind.startswith("behind"):
                if not getattr(self.tables[table].rules, "bet_behind", False):
                    return refused("behind_off", "this table takes no Bet Behind")
                if seat is not None and seat.player == me:
                    return refused("behind_own_box", f"you play box {box}: no Bet Behind on it")
                if not self._allows(table, box):
                    return refused("behind_not_allowed", f"box {box}'s player does not allow Bet Behind")
            elif seat is None or seat.player != me:
                return refused("not_seated", f"sit at box {box} to bet on it")
        return None

    async def placed(self, table: str, who: Player, request: str, round_id: str, bets: list[dict[str, Any]]) -> None:
        """An accepted request's felt bets go to the table, one ``bets`` message per box."""
        by_box: dict[int, list[dict[str, Any]]] = {}
        for bet in bets:
            felt = felt_kind(self.tables[table].game, bet["kind"])
            if felt is not None:
                by_box.setdefault(felt[1], []).append({"kind": felt[0], "amount": int(bet["amount"])})
        for box, items in sorted(by_box.items()):
            await self._send(table, {"type": "bets", "round": round_id, "box": box, "player": player_id(who),
                                     "request": request, "bets": items})

    # ------------------------------------------------------------------ from the table
    def on_leaf(self, table: str, leaf: dict[str, Any]) -> None:
        """The table's ``betting`` leaf: its seats are the truth (with the seat messages it does not
        show yet: ``resend`` sends them again); a new turn, decision or card is pushed to every
        player at the table."""
        state = self.state.get(table)
        if state is None:
            return
        state.told = told_seats(leaf)
        self._show(table, state.unsent.seen(state.told))
        for key, push in (("cards", self._push_cards), ("turn", self._push_turn), ("decided", self._push_decided)):
            value = offered_turn(leaf) if key == "turn" else leaf.get(key)
            if value != getattr(state, key):
                setattr(state, key, value)
                if value is not None:
                    push(table, value, leaf.get("round"))

    def _show(self, table: str, seats: dict[int, SeatView]) -> None:
        """The seats as the players see them from now: pushed when they changed."""
        if seats != self.state[table].seats:
            self.state[table].seats = seats
            self.push_seats(table)

    def _push_cards(self, table: str, cards: dict[str, Any], round_id: Any) -> None:
        if round_id is not None:
            self.hub.to_table(table, {"v": 1, "type": "hands", "table": table, "round": round_id, "cards": cards})

    def _push_turn(self, table: str, turn: dict[str, Any], round_id: Any) -> None:
        left = _ms_left(turn.get("deadline"))
        for seat in self.hub.seats_at(table):
            you = seat.player is not None and player_id(seat.player) == turn.get("player")
            seat.send({"v": 1, "type": "turn", "table": table, "round": turn["round"], "box": turn["box"],
                       "hand": turn["hand"], "name": turn["name"], "you": you, "decisions": turn["decisions"],
                       "deadline": turn["deadline"], "decision_ms": left})

    def _push_decided(self, table: str, decided: dict[str, Any], round_id: Any) -> None:
        self.hub.to_table(table, {"v": 1, "type": "decided", "table": table, "round": decided["round"],
                                  "box": decided["box"], "hand": decided["hand"], "decision": decided["decision"],
                                  "cause": decided["cause"], "refunded": bool(decided.get("refunded")),
                                  "request": decided.get("request")})

    def push_seats(self, table: str) -> None:
        """Each player's view of the seats: the same text for every player without one (encoded once)."""
        seated = {s.player for s in self.state[table].seats.values()}
        anyone = encoded(self.seats_message(table, None))
        for seat in self.hub.seats_at(table):
            me = player_id(seat.player) if seat.player is not None else None
            seat.send(self.seats_message(table, me) if me in seated else anyone)

    def seats_message(self, table: str, me: str | None) -> dict[str, Any]:
        state = self.state[table]
        return {"v": 1, "type": "seats", "table": table, "boxes": self.boxes(table),
                "seats": [{"box": b, "name": s.name, "you": s.player == me, "connected": s.connected,
                           "behind_allowed": self._allows(table, b)} for b, s in sorted(state.seats.items())]}


def offered_turn(leaf: dict[str, Any]) -> dict[str, Any] | None:
    """The leaf's turn, its decisions those the table's offer takes of that box now (the options
    the console draws: controller/table/offer.py); a table that sends no ``takes`` keeps its own."""
    turn = leaf.get("turn")
    if not isinstance(turn, dict):
        return None
    for take in leaf.get("takes") or ():
        said = take.get("constraints") or {}
        if take.get("command") == "decide" and (said.get("box"), said.get("hand")) == (turn.get("box"), turn.get("hand")):
            return {**turn, "decisions": list(said.get("options") or ())}
    return turn


def _ms_left(deadline: Any) -> int:
    if not isinstance(deadline, str):
        return 0
    at = datetime.fromisoformat(deadline.replace("Z", "+00:00"))
    return max(0, int((at - datetime.now(UTC)).total_seconds() * 1000))


def _passed(deadline: Any) -> bool:
    return isinstance(deadline, str) and _ms_left(deadline) == 0
