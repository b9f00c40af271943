"""The table's state machine: one journal entry in, effects out; no I/O, no clock, no randomness.

Live and replay run the very same ``step``, so replaying the journal rebuilds the table
exactly: the round, its bets and cards, the shoe's composition and card count, an open hold.
Timestamps come from the entries; round ids count rounds (``<table>-000001``).

Round lifecycle: ``open_round`` (gate locked) -> bets -> ``close_betting`` (gate unlocked) ->
cards and decisions as the engine expects them -> the engine has settled every bet: the dealer
is told to settle -> ``settle`` closes the round (``round_closed`` record, gate locked). A card
the engine refuses, an impossible card, a duplicate read or a gap in the shoe's count holds
the table (see ``holds``); ``void_round`` closes the round void with every stake refunded.
After the cut card the round is finished, then ``new_shoe`` is required. With
``burn_on_new_shoe`` (config ``[table]``) the first cards out of a new shoe are burned, each
checked against the shoe like any card, before a round can open.

Corrections of a closed round: the dealer's ``correct`` (round, payout changes, reason) is a
pending correction, known by its journal seq, that changes nothing until the pit approves it
(``approve_correction``); approval writes a new ``round_closed`` record for that round whose
``corrections`` list says what changed, who asked and who approved. The first record stays in
the journal as it was. The pit acknowledges an alert by its journal seq (``acknowledge_alert``);
the alerts the table wrote reach the core through ``written`` (live as the loop writes them,
on replay in journal order), so the open error alerts are rebuilt exactly.

A game with a device of its own (roulette's wheel) has that device's events mapped by its
adapter (``device_step``): close betting, a result, a void spin, a fault that holds the round
and refuses new rounds until the device recovers; device commands go out as ``DeviceCommand``
effects. A random draw (multipliers) is asked for with a ``Draw`` effect and comes back as a
journaled ``draw`` input, so replay applies the draw that was made and never draws again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from controller.cards import CardError, parse_card
from controller.games.base import (
    ClearBets,
    CloseBetting,
    Deal,
    Decide,
    ExpectKind,
    GameRules,
    PlaceBet,
    RuleError,
    Settlement,
)
from controller.journal import Entry
from controller.shoe import Composition, ImpossibleCard
from controller.table import inputs
from controller.table.effects import DeviceCommand, Draw, Effect, Gate, LoadShoe, Record
from controller.table.games import Engine, GameAdapter
from controller.table.holds import ERROR, INFO, WARNING, Hold, alert
from controller.table.inputs import BadCommand, check_command
from controller.table.presses import PressRefused, press_command
from controller.table.record import round_record, void_refunds

IDLE, BETTING, PLAYING, SETTLING = "idle", "betting", "playing", "settling"
RESOLUTIONS = frozenset(("burn", "void_round"))
#: closed rounds kept in memory for corrections (older ones are recalled from the journal only)
CORRECTABLE_ROUNDS = 1000
CHANGE_KEYS = frozenset(("box", "hand", "kind", "player", "payout"))
TABLE_SOURCE = "table"  # the source of the output entries the table writes


class Refusal(Exception):
    """An input the table does not act on; it becomes a warning alert and changes nothing."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(slots=True)
class ShoeState:
    number: int
    shoe_id: str
    composition: Composition
    last_n: int = 0
    cut_seen: bool = False
    needs_new: bool = False
    #: cards still to burn out of this shoe before a round may open (``burn_on_new_shoe``)
    burn_left: int = 0
    burned: list[str] = field(default_factory=list)


class TableCore:
    def __init__(self, table_id: str, adapter: GameAdapter, rules: GameRules, preset: str | None = None,
                 burn_on_new_shoe: int = 0) -> None:
        self.table_id = table_id
        self.burn_on_new_shoe = burn_on_new_shoe
        self.adapter = adapter
        self.rules = rules
        self.preset = preset
        self.engine: Engine | None = None
        self.round_id: str | None = None
        self.rounds = 0  # rounds opened since the journal began
        self.phase = IDLE
        self.opened = ""
        self.burned: list[str] = []
        self.hold: Hold | None = None
        self.keyin: int | None = None  # n of an unread card waiting to be keyed in
        self.waiting: list[tuple[str, int]] = []  # cards read while a key-in is pending
        self.closing = False  # the pit asked to close the table after this round
        self.serial = 0  # bumps on every change of state: simulated actors act once per value
        self.closed_rounds = 0
        #: device -> {"online", "fault"}: a round opens only with every device online and
        #: without a fault; a process start knows no device as online until it says so
        self.devices: dict[str, dict[str, Any]] = {}
        self.shoe = self._new_shoe(1)
        self._seen: dict[int, str] = {}  # n -> card text ("?" unread) of the current shoe
        self._out: list[Effect] = []
        self._entry: Entry | None = None
        self.draw_requested = False  # a ``Draw`` effect is out and its ``draw`` input not yet in
        #: why the last bet-spot press was refused, shown with the prompt until the state changes
        self.notice: str | None = None
        #: round id -> its latest record (the last ``CORRECTABLE_ROUNDS`` closed rounds)
        self.records: dict[str, dict[str, Any]] = {}
        #: correction seq -> the dealer's request (``status`` pending or applied)
        self.corrections: dict[int, dict[str, Any]] = {}
        #: alerts the table wrote: every seq, the open (unacknowledged) errors, the acknowledged
        self._alert_seqs: set[int] = set()
        self.alerts_open: dict[int, dict[str, Any]] = {}
        self.acknowledged: dict[int, str] = {}
        #: bumps when what the pit's ``state`` shows of alerts or corrections changes
        self.pit_serial = 0

    # ------------------------------------------------------------------ stepping
    def step(self, entry: Entry) -> list[Effect]:
        """Apply one journaled input; the effects to carry out, in order."""
        self._out = []
        self._entry = entry
        serial = self.serial
        try:
            if entry.kind == inputs.DEVICE:
                self._device(entry.payload)
            elif entry.kind == inputs.COMMAND:
                self._command(entry.payload)
            elif entry.kind == inputs.PIT_COMMAND:
                self._pit(entry.payload)
            elif entry.kind == inputs.DRAW:
                self._draw(entry.payload)
        except Refusal as refusal:
            self._alert(WARNING, refusal.code, refusal.message, refused=entry.payload)
        if self.serial != serial:
            self.notice = None
        return self._out

    # ------------------------------------------------------------------ device events
    def restarted(self) -> None:
        """The process (re)started: devices are offline until they report, faults stay active
        until the device reports a healthy state (AGCO 6.1.8, 11.1.3)."""
        for health in self.devices.values():
            health["online"] = False
        self.serial += 1

    def _health(self, device: str, **change: Any) -> None:
        health = self.devices.setdefault(device, {"online": False, "fault": None})
        if any(health.get(k) != v for k, v in change.items()):
            health.update(change)
            self.serial += 1

    def _device(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        device = str(event.get("device", "device"))
        if device == getattr(self.adapter, "device", None) and kind not in ("online", "offline", "hello"):
            self._game_device(device, event)
            return
        if kind in ("online", "hello"):
            self._health(device, online=True)
        elif kind == "offline":
            self._health(device, online=False)
        elif kind == "fault":
            self._health(device, fault=f"{event.get('code')};{event.get('text')}")
        elif kind == "shoe_status":
            self._health(device, online=True, **({} if event.get("state") == "FAULT" else {"fault": None}))
        if kind == "card":
            self._read(str(event.get("card")), int(event["n"]))
        elif kind == "noread":
            self._noread(int(event["n"]))
        elif kind == "cut":
            self.shoe.cut_seen = True  # mid-round nobody has to act on it now: ``serial`` stays
            if self.phase == IDLE:
                self.shoe.needs_new = True
                self.serial += 1
            self._alert(INFO, "shoe.cut", "cut card out: finish this round, then load a new shoe", n=event.get("n"))
        elif kind == "lost_card":
            expected, got = int(event["expected_n"]), int(event["got_n"])
            self.shoe.last_n = max(self.shoe.last_n, got - 1)
            self._hold_on("shoe.lost_card", f"cards {expected}..{got - 1} left the shoe unread (lost)",
                          [("?", n) for n in range(expected, got)])
        elif kind == "fault":
            self._alert(ERROR, "shoe.fault", f"shoe fault {event.get('code')}: {event.get('text')}")
        elif kind == "offline":
            self._alert(ERROR, "device.offline", f"{event.get('device')} offline: {event.get('reason')}")
        elif kind == "refused" and str(event.get("reason", "")).startswith("n="):
            # the driver saw a second, different read for a card count already delivered
            parts = str(event.get("raw", "")).split(";")
            card = parts[1] if len(parts) == 3 and parts[0] in ("CARD", "NOREAD") else "?"
            self._hold_on("shoe.duplicate_read", f"{event.get('device')}: {event.get('reason')}", [(card, None)])
        elif kind == "press":
            self._press(event)
        elif kind == "refused":
            self._alert(WARNING, "device.refused", f"{event.get('device')}: {event.get('reason')}", raw=event.get("raw"))

    def _read(self, text: str, n: int) -> None:
        """A card left the shoe and was read as ``text``, the shoe's ``n``-th."""
        shoe = self.shoe
        if n <= shoe.last_n:
            known = self._seen.get(n)
            if known == text:
                return  # the shoe sent it again (its ACK was lost): applied once already
            self._hold_on("shoe.duplicate_read", f"card {n} read as {text}, already read as {known}", [(text, n)])
            return
        if n > shoe.last_n + 1:
            missing = [("?", m) for m in range(shoe.last_n + 1, n)]
            shoe.last_n = n
            self._seen[n] = text
            self._hold_on("shoe.lost_card", f"cards {missing[0][1]}..{n - 1} never arrived", missing + [(text, n)])
            return
        shoe.last_n = n
        self._seen[n] = text
        if self.hold is not None:
            self._join_hold(text, n)
        elif self.keyin is not None:
            self.waiting.append((text, n))
        else:
            self._physical(text, n)

    def _noread(self, n: int) -> None:
        shoe = self.shoe
        if n <= shoe.last_n:
            if self._seen.get(n) != "?":
                self._hold_on("shoe.duplicate_read", f"card {n} unread, but already read as {self._seen.get(n)}", [])
            return
        if n > shoe.last_n + 1:
            missing = [("?", m) for m in range(shoe.last_n + 1, n + 1)]
            shoe.last_n = n
            self._seen[n] = "?"
            self._hold_on("shoe.lost_card", f"cards {missing[0][1]}..{n - 1} never arrived", missing)
            return
        shoe.last_n = n
        self._seen[n] = "?"
        if self.hold is not None:
            self._join_hold("?", n)
        elif self.keyin is not None:
            self.waiting.append(("?", n))
        else:
            self.keyin = n
            self.serial += 1
            self._alert(WARNING, "shoe.noread", f"card {n} left the shoe unread: key it in", n=n)

    def _physical(self, text: str, n: int | None) -> None:
        """A card known to be out of the shoe: checked against the shoe, then given to the engine."""
        try:
            card = parse_card(text)
        except CardError:
            self._hold_on("shoe.bad_card", f"the shoe read {text!r}, which is not a card", [(text, n)])
            return
        try:
            self.shoe.composition.take(card)
        except ImpossibleCard as exc:
            self._hold_on("shoe.impossible_card", f"{card}: {exc.reason}", [(card, n)])
            return
        if self.shoe.burn_left > 0 and self.engine is None:
            self._burn_from_new_shoe(card, n)
            return
        if self.engine is None or self.phase not in (BETTING, PLAYING, SETTLING):
            self._hold_on("table.card.no_round", f"{card}: no round is being dealt", [(card, n)])
            return
        try:
            self.engine.apply(Deal(card))
        except (RuleError, ImpossibleCard) as exc:
            code = exc.rule if isinstance(exc, RuleError) else "shoe.impossible_card"
            message = exc.message if isinstance(exc, RuleError) else str(exc)
            self._hold_on(code, message, [(card, n)])
            return
        self._advanced()

    def _burn_from_new_shoe(self, card: str, n: int | None) -> None:
        shoe = self.shoe
        shoe.burn_left -= 1
        shoe.burned.append(card)
        self.serial += 1
        self._alert(INFO, "shoe.burn", f"burned {card} out of the new shoe ({shoe.burn_left} more to burn)",
                    card=card, n=n)
        if shoe.burn_left == 0:
            self._out.append(Gate(locked=True))

    def set_burn(self, count: int) -> None:
        """The ``burn_on_new_shoe`` the table runs under from now on (a ``table_started`` entry);
        a shoe nothing has left yet is burned by it too."""
        self.burn_on_new_shoe = count
        shoe = self.shoe
        if self.engine is None and shoe.last_n == 0 and self.adapter.uses_shoe and shoe.burn_left != count:
            shoe.burn_left = count
            self.serial += 1

    # ------------------------------------------------------------------ holds
    def _hold_on(self, code: str, message: str, cards: list[tuple[str, int | None]]) -> None:
        if self.hold is not None:  # already holding: the cards join the open hold
            for text, n in cards:
                self._join_hold(text, n)
            return
        options = ("burn", "void_round") if self.engine is not None and self.phase != IDLE else ("burn",)
        cause = self._entry.seq if self._entry else 0
        self.hold = Hold(code, message, options, cause, list(cards))
        self.serial += 1
        self._alert(ERROR, code, message, hold=self.hold, cards=[c for c, _ in cards])

    def _join_hold(self, text: str, n: int | None) -> None:
        assert self.hold is not None
        self.hold.cards.append((text, n))
        self.serial += 1
        self._alert(ERROR, "table.card_during_hold", f"card {text} (n={n}) left the shoe while the table holds",
                    hold=self.hold, card=text)

    def _burn(self) -> None:
        if self.hold is None:
            raise Refusal("table.burn.nothing", "there is no held card to burn")
        if "burn" not in self.hold.options:
            raise Refusal("table.burn.not_an_option", f"{self.hold.code}: the way out is {' or '.join(self.hold.options)}")
        burned = [c for c, _ in self.hold.cards]
        if self.engine is not None and self.phase != IDLE:
            self.burned += burned
        self.hold = None
        self.serial += 1
        self._alert(INFO, "table.burned", f"burned {' '.join(burned) or 'nothing'}; the round goes on", cards=burned)

    # ------------------------------------------------------------------ commands
    def _command(self, payload: dict[str, Any]) -> None:
        try:
            name = check_command(payload)
        except BadCommand as exc:
            raise Refusal("table.command.malformed", str(exc)) from None
        args = {k: v for k, v in payload.items() if k != "command"}
        if self.hold is not None and name not in RESOLUTIONS:
            raise Refusal("table.hold", f"{name} refused: the table holds ({self.hold.code}); "
                                        f"first {' or '.join(self.hold.options)}")
        handler = getattr(self, f"_cmd_{name}", None)
        if handler is None:  # a game's own command (Russian poker: exchange, misdeal)
            self._game_command(name, args)
        else:
            handler(**args)

    def _game_command(self, name: str, args: dict[str, Any]) -> None:
        to_action = getattr(self.adapter, "game_action", None)
        if to_action is None:
            raise Refusal("table.command.game", f"{self.adapter.game} has no {name} command")
        try:
            action = to_action(name, args)
        except RuleError as exc:
            raise Refusal(exc.rule, exc.message) from None
        self._engine_action(action)

    def _cmd_open_round(self) -> None:
        if self.engine is not None:
            raise Refusal("table.round.open", f"round {self.round_id} is not closed")
        if self.shoe.needs_new and not self.shoe.cut_seen:  # a game that shuffles every round
            raise Refusal("table.shoe.shuffle", "this game deals every round from a new deck: load it first")
        if self.shoe.needs_new:
            raise Refusal("table.shoe.cut", "the cut card is out: load a new shoe first")
        if self.shoe.burn_left > 0:
            raise Refusal("table.shoe.burn", f"burn {self.shoe.burn_left} more card(s) out of the new shoe first")
        if self.closing:
            raise Refusal("table.closing", "the pit closed the table after the last round")
        if self.adapter.uses_shoe and not self.devices.get("shoe", {}).get("online"):
            raise Refusal("device.shoe.offline", "the shoe has not reported since the table started")
        own = getattr(self.adapter, "device", None)
        if own is not None and not self.devices.get(own, {}).get("online"):
            raise Refusal(f"device.{own}.offline", f"the {own} has not reported since the table started")
        faults = {d: h["fault"] for d, h in self.devices.items() if h.get("fault")}
        if faults:
            raise Refusal("device.fault", f"device fault not cleared: {faults}")
        self.rounds += 1
        self.round_id = f"{self.table_id}-{self.rounds:06d}"
        self.engine = self.adapter.new_round(self.rules)
        self.opened = self._ts()
        self.burned = []
        self.phase = BETTING
        self.serial += 1
        self._out.append(Gate(locked=True))
        if own is not None:
            self._out += [DeviceCommand(own, name) for name in self.adapter.open_commands(self.rules)]

    def _engine_action(self, action: Any) -> None:
        if self.engine is None:
            raise Refusal("table.round.none", "no round is open")
        try:
            self.engine.apply(action)
        except RuleError as exc:
            raise Refusal(exc.rule, exc.message) from None
        self._advanced()

    def _cmd_bet(self, box: int, amount: int, kind: str = "main", player: str = "") -> None:
        self._engine_action(PlaceBet(box, kind, amount, player))

    def _cmd_clear_bets(self, box: int, player: str | None = None) -> None:
        self._engine_action(ClearBets(box, player))

    def _cmd_close_betting(self) -> None:
        self._engine_action(CloseBetting())
        self._out.append(Gate(locked=False))

    def _cmd_decide(self, box: int, action: str, hand: int = 1, player: str = "", amount: int | None = None) -> None:
        self._engine_action(Decide(box, action, hand, player, amount))

    def _cmd_settle(self) -> None:
        if self.phase != SETTLING or self.engine is None:
            raise Refusal("table.settle.early", "the round has bets still to settle")
        self._close("settled", list(self.engine.settlements))

    def _cmd_key_card(self, card: str) -> None:
        if self.keyin is None:
            raise Refusal("table.key_card.unexpected", "no unread card is waiting to be keyed in")
        try:
            text = parse_card(card)
        except CardError as exc:
            raise Refusal("table.key_card.not_a_card", str(exc)) from None
        if self.shoe.composition.left(text) == 0:
            raise Refusal("shoe.impossible_card", f"{text} cannot be in this shoe any more: key the card again")
        n, self.keyin = self.keyin, None
        self._seen[n] = text
        self.serial += 1
        self._physical(text, n)
        self._drain_waiting()

    def _drain_waiting(self) -> None:
        while self.waiting and self.keyin is None and self.hold is None:
            text, n = self.waiting.pop(0)
            if text == "?":
                self.keyin = n
                self.serial += 1
            else:
                self._physical(text, n)
        if self.hold is not None:
            for text, n in self.waiting:
                self._join_hold(text, n)
            self.waiting.clear()

    def _cmd_burn(self) -> None:
        self._burn()
        self._drain_waiting()

    def _cmd_void_round(self, reason: str = "voided by the dealer") -> None:
        if self.engine is None:
            raise Refusal("table.round.none", "no round is open to void")
        if self.hold is not None:  # the held cards go with the void round
            self.burned += [c for c, _ in self.hold.cards]
            self.hold = None
        self.keyin = None
        self.waiting.clear()
        refunds = void_refunds(list(self.engine.settlements), self.adapter.open_bets(self.engine))
        self._alert(WARNING, "table.round.void", f"round {self.round_id} void: {reason}")
        self._close("void", refunds)

    def _cmd_key_result(self, number: str) -> None:
        keyed = getattr(self.adapter, "keyed_result", None)
        if keyed is None:
            raise Refusal("table.key_result.no_wheel", f"{self.adapter.game} has no wheel result to key in")
        self._engine_action(keyed(str(number)))

    def _cmd_new_shoe(self) -> None:
        if self.engine is not None:
            raise Refusal("table.round.open", f"finish round {self.round_id} before a new shoe")
        self.shoe = self._new_shoe(self.shoe.number + 1)
        self._seen.clear()
        self.serial += 1
        self._out += [LoadShoe(self.shoe.shoe_id, self.adapter.decks(self.rules)),
                      Gate(locked=self.shoe.burn_left == 0)]

    # ------------------------------------------------------------------ pit commands
    def _pit(self, payload: dict[str, Any]) -> None:
        kind = payload.get("command")
        if kind == "close_after_round":
            self.closing = True
            self.serial += 1
        elif kind == "void_round":
            if payload.get("round") != self.round_id or self.engine is None:
                raise Refusal("pit.void_round.not_open", f"round {payload.get('round')} is not the open round")
            self._cmd_void_round(f"voided by the pit ({payload.get('sender')})")
        elif kind == "approve_correction":
            self._approve(payload)
        elif kind == "acknowledge_alert":
            self._acknowledge(payload)

    def _acknowledge(self, payload: dict[str, Any]) -> None:
        seq, sender = payload.get("alert"), str(payload.get("sender", ""))
        if not isinstance(seq, int) or isinstance(seq, bool) or seq not in self._alert_seqs:
            raise Refusal("pit.acknowledge_alert.unknown", f"no alert {seq} was raised by this table")
        if seq in self.acknowledged:
            raise Refusal("pit.acknowledge_alert.already",
                          f"alert {seq} was acknowledged already by {self.acknowledged[seq]}")
        self.acknowledged[seq] = sender
        self.alerts_open.pop(seq, None)
        self.pit_serial += 1
        self._alert(INFO, "pit.alert_acknowledged", f"alert {seq} acknowledged by {sender}", alert=seq, by=sender)

    # ------------------------------------------------------------------ corrections
    def written(self, entry: Entry) -> None:
        """An output entry the table wrote (live: as the loop writes it; replay: in journal order)."""
        if entry.kind != inputs.ALERT or entry.source != TABLE_SOURCE:
            return
        self._alert_seqs.add(entry.seq)
        if entry.payload.get("severity") == ERROR and entry.seq not in self.acknowledged:
            p = entry.payload
            self.alerts_open[entry.seq] = {"seq": entry.seq, "code": p.get("code"), "message": p.get("message"),
                                           "round": entry.round_id}
            self.pit_serial += 1

    def _cmd_correct(self, round: Any, changes: Any, reason: Any) -> None:
        round = str(round)
        record = self.records.get(round)
        if record is None:
            raise Refusal("table.correct.unknown_round", f"no closed round {round!r} to correct "
                                                         f"(the last {CORRECTABLE_ROUNDS} rounds can be corrected)")
        if record["status"] != "settled":
            raise Refusal("table.correct.void", f"round {round} is void: its stakes were refunded")
        if not isinstance(reason, str) or not reason.strip() or len(reason) > 200:
            raise Refusal("table.correct.reason", "a correction needs a reason (1 to 200 characters)")
        pending = [s for s, c in self.corrections.items() if c["round"] == round and c["status"] == "pending"]
        if pending:
            raise Refusal("table.correct.pending", f"round {round} has correction {pending[0]} pending approval")
        rows = self._changed_rows(record, changes)
        seq = self._entry.seq if self._entry else 0
        self.corrections[seq] = {
            "correction": seq, "round": round, "reason": reason, "status": "pending",
            "requested_by": self._entry.source if self._entry else "", "requested": self._ts(), "changes": rows,
        }
        self.pit_serial += 1
        said = ", ".join(f"box {r['box']}.{r['hand']} {r['kind']} {r['before']}->{r['after']}" for r in rows)
        self._alert(WARNING, "round.correction_pending",
                    f"correction {seq} of round {round} waits for the pit's approval: {said} ({reason})",
                    correction=seq, corrected_round=round,
                    changes=[{k: v for k, v in r.items() if k != "index"} for r in rows])

    def _changed_rows(self, record: dict[str, Any], changes: Any) -> list[dict[str, Any]]:
        """The bets a correction changes: each ``{box, hand, kind, player?, payout}`` names exactly
        one bet of the round and gives its corrected payout."""
        if not isinstance(changes, list) or not changes:
            raise Refusal("table.correct.changes", "changes: a list of {box, hand, kind, player, payout}")
        rows: list[dict[str, Any]] = []
        for change in changes:
            if not isinstance(change, dict) or set(change) - CHANGE_KEYS or {"box", "hand", "kind", "payout"} - set(change):
                raise Refusal("table.correct.changes", f"{change!r}: give box, hand, kind, payout (player optional)")
            payout = change["payout"]
            if not isinstance(payout, int) or isinstance(payout, bool) or not 0 <= payout <= 10**12:
                raise Refusal("table.correct.payout", f"{change!r}: payout must be an amount in minor units")
            found = [i for i, b in enumerate(record["bets"])
                     if (b["box"], b["hand"], b["kind"]) == (change["box"], change["hand"], change["kind"])
                     and ("player" not in change or b["player"] == change["player"])]
            if len(found) != 1:
                raise Refusal("table.correct.no_bet", f"{change!r} names {len(found)} bets of round "
                                                      f"{record['round']}, not one")
            bet = record["bets"][found[0]]
            if any(r["index"] == found[0] for r in rows):
                raise Refusal("table.correct.changes", f"{change!r}: that bet is changed twice")
            if bet["payout"] == payout:
                raise Refusal("table.correct.unchanged", f"{change!r}: that bet was paid {payout} already")
            rows.append({"index": found[0], "box": bet["box"], "hand": bet["hand"], "kind": bet["kind"],
                         "player": bet["player"], "stake": bet["stake"], "before": bet["payout"], "after": payout})
        return rows

    def _approve(self, payload: dict[str, Any]) -> None:
        ident = str(payload.get("correction", ""))
        request = self.corrections.get(int(ident)) if ident.isdigit() else None
        if request is None:
            raise Refusal("pit.approve_correction.unknown", f"no correction {ident} was requested")
        if request["status"] != "pending":
            raise Refusal("pit.approve_correction.applied", f"correction {ident} was applied already")
        record = self.records.get(request["round"])
        if record is None:
            raise Refusal("pit.approve_correction.unknown", f"round {request['round']} is too old to correct here")
        bets = [dict(b) for b in record["bets"]]
        changes = []
        for row in request["changes"]:
            bets[row["index"]]["payout"] = row["after"]
            changes.append({k: v for k, v in row.items() if k != "index"})
        sender = str(payload.get("sender", ""))
        payout_total = sum(b["payout"] for b in bets)
        correction = {
            "seq": request["correction"], "reason": request["reason"], "requested_by": request["requested_by"],
            "requested": request["requested"], "approved_by": sender, "approved": self._ts(),
            "approval": self._entry.seq if self._entry else 0, "changes": changes,
            "payout_total_before": record["payout_total"], "payout_total_after": payout_total,
        }
        corrected = {**record, "bets": bets, "stake_total": sum(b["stake"] for b in bets),
                     "payout_total": payout_total, "corrections": [*record["corrections"], correction]}
        self.records[request["round"]] = corrected
        request["status"] = "applied"
        self.pit_serial += 1
        self._out.append(Record(inputs.ROUND_CLOSED, corrected, request["round"]))
        self._alert(INFO, "round.correction_applied",
                    f"correction {request['correction']} of round {request['round']} approved by {sender}: "
                    f"payout {record['payout_total']} -> {payout_total}",
                    correction=request["correction"], corrected_round=request["round"])

    # ------------------------------------------------------------------ round progress
    def _advanced(self) -> None:
        assert self.engine is not None
        self.serial += 1
        expect = self.engine.expects()
        if expect.kind is ExpectKind.DONE:
            self.phase = SETTLING
        elif expect.kind is ExpectKind.BETS:
            self.phase = BETTING
        else:
            self.phase = PLAYING
        due = self.draw_due()
        if due and not self.draw_requested:
            self._out.append(Draw(self.round_id))
        self.draw_requested = due

    def draw_due(self) -> bool:
        """The open round needs its random draw (made by the loop, journaled as a ``draw`` input)."""
        due = getattr(self.adapter, "draw_due", None)
        return bool(due is not None and self.engine is not None and self.hold is None and due(self.engine))

    # ------------------------------------------------------------------ the game's own device, draws
    def _game_device(self, device: str, event: dict[str, Any]) -> None:
        """An event of the game's own device (the wheel): the adapter says what it means."""
        step = self.adapter.device_step(self.engine, self.rules, event)
        if step.fault is not None:
            self._health(device, fault=step.fault)
        if step.recovered:
            self._health(device, online=True, fault=None)
        self._out += [DeviceCommand(device, name) for name in step.commands]
        if step.fault is not None and self.engine is not None and self.hold is None:
            severity, code, message = step.alert or (ERROR, f"{device}.fault", step.fault)
            self.hold = Hold(code, message, ("void_round",), self._entry.seq if self._entry else 0)
            self.serial += 1
            self._alert(severity, code, message, hold=self.hold)
        elif step.alert is not None:
            self._alert(*step.alert)
        if step.action is None:
            return
        if self.engine is None:
            self._alert(WARNING, f"{device}.no_round", f"{device}: {type(step.action).__name__} with no round open")
        elif self.hold is not None:
            self._alert(WARNING, "table.hold", f"{device}: {type(step.action).__name__} ignored while the table holds")
        else:
            try:
                self.engine.apply(step.action)
            except RuleError as exc:  # a fact the rules cannot take: hold, never guess
                self.hold = Hold(exc.rule, exc.message, ("void_round",), self._entry.seq if self._entry else 0)
                self.serial += 1
                self._alert(ERROR, exc.rule, exc.message, hold=self.hold)
                return
            self._advanced()

    def _draw(self, payload: dict[str, Any]) -> None:
        if not self.draw_due():
            raise Refusal("table.draw.unexpected", "no draw is due in this round")
        self._engine_action(self.adapter.draw_action(payload))

    def _close(self, status: str, settlements: list[Settlement]) -> None:
        assert self.engine is not None and self.round_id is not None
        outcome = {**self.engine.outcome(), "burned": list(self.burned)}
        record = round_record(
            table=self.table_id, round_id=self.round_id, game=self.adapter.game, opened=self.opened,
            closed=self._ts(), status=status, outcome=outcome, settlements=settlements,
        )
        self._out.append(Record(inputs.ROUND_CLOSED, record, self.round_id))
        self._out.append(Gate(locked=True))
        self.records[self.round_id] = record
        while len(self.records) > CORRECTABLE_ROUNDS:
            del self.records[next(iter(self.records))]
        self.engine = None
        self.round_id = None
        self.phase = IDLE
        self.burned = []
        self.draw_requested = False
        self.closed_rounds += 1
        self.serial += 1
        if self.shoe.cut_seen or getattr(self.adapter, "new_shoe_every_round", False):
            self.shoe.needs_new = True

    # ------------------------------------------------------------------ helpers
    def _new_shoe(self, number: int) -> ShoeState:
        composition = Composition(self.adapter.decks(self.rules), self.adapter.removed_ranks(self.rules))
        burn = self.burn_on_new_shoe if self.adapter.uses_shoe else 0
        return ShoeState(number, f"{self.table_id}-shoe-{number}", composition, burn_left=burn)

    def _ts(self) -> str:
        return self._entry.ts if self._entry else ""

    def _alert(self, severity: str, code: str, message: str, *, hold: Hold | None = None, **detail: Any) -> None:
        cause = self._entry.seq if self._entry else 0
        self._out.append(Record(inputs.ALERT, alert(severity, code, message, cause, hold=hold, **detail), self.round_id))

    def _press(self, press: dict[str, Any]) -> None:
        """A bet-spot press: the command it stands for now (``presses``), or refused with the
        reason left on the dealer's prompt."""
        try:
            self._command(press_command(press, self.engine))
        except (PressRefused, Refusal) as exc:
            self.notice = f"spot {press.get('spot')} {press.get('button')} refused: {exc.message}"
            raise Refusal(exc.code, exc.message) from None

    # ------------------------------------------------------------------ views
    def prompt(self) -> str:
        """The dealer's current instruction (with a refused press's reason until the state changes)."""
        text = self._prompt()
        return f"{text} [{self.notice}]" if self.notice else text

    def _prompt(self) -> str:
        if self.hold is not None:
            return f"HOLD {self.hold.code}: {self.hold.message} — {' or '.join(self.hold.options)}"
        if self.keyin is not None:
            return f"Card {self.keyin} not read: key it in"
        if self.engine is None:
            if self.closing:
                return "Table closed"
            if self.shoe.needs_new:
                return "Cut card is out: load a new shoe" if self.shoe.cut_seen else "Shuffle: load a new deck"
            if self.shoe.burn_left > 0:
                return f"Burn {self.shoe.burn_left} card{'s' if self.shoe.burn_left > 1 else ''}"
            own = getattr(self.adapter, "device", None)
            fault = self.devices.get(own, {}).get("fault") if own else None
            if fault:
                return f"{own.capitalize()} fault ({fault}): wait until it is re-powered and healthy"
            return "Open betting"
        if self.phase == SETTLING:
            return self.adapter.done_prompt(self.engine)
        return self.adapter.prompt(self.engine, self.engine.expects())

    def state(self) -> dict[str, Any]:
        """The retained ``state`` snapshot of the pit feed (devices are added by the loop)."""
        return {
            "game": self.adapter.game,
            "preset": self.preset,
            "phase": "hold" if self.hold is not None else self.phase,
            "round": self.round_id,
            "limits": {k: v.model_dump() for k, v in self.rules.limits.items()},
            "shoe": {"id": self.shoe.shoe_id, "cards_dealt": self.shoe.last_n, "cut_card_seen": self.shoe.cut_seen,
                     "to_burn": self.shoe.burn_left},
            "hold": self.hold.view() if self.hold is not None else None,
            "devices": {d: dict(h) for d, h in self.devices.items()},
            "alerts_open": [dict(a) for _, a in sorted(self.alerts_open.items())],
            "corrections_pending": [
                {k: c[k] for k in ("correction", "round", "reason", "requested_by")}
                for _, c in sorted(self.corrections.items()) if c["status"] == "pending"
            ],
        }
