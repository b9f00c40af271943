"""The console's side of the table loop: it listens to every entry, pushes snapshots to the open
pages, and carries console commands into the table's one validated, journal-first path.

A command from a page is checked at the edge (``actions.check_request``), then submitted with
source ``console:<user>``. Its outcome is the table's own output: the loop tells the hub what
became of every input it applied (``on_outcome``: accepted, or refused with the code and the
sentence), and the page gets it as the answer to its ``cseq``. Each page numbers its commands (``cseq``); a number seen before is
answered from memory and never submitted twice, so a double tap or a replay after a reconnect is harmless.

Snapshots are coalesced: however many entries one step writes, each page gets one snapshot per
loop turn, plus one a second (an offline device's "for N s" counts on; docs/console.md). A step's
snapshot goes out as soon as the step's effects are carried out, ahead of the loop's slower hooks
(the journal's state snapshots, metrics) and announcements, which then build no second one unless
something may have changed since (a pit notice settled, a game's panel in ``extras``); a flush
that finds the view the pages were last sent sends nothing.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from controller.auth import Session
from controller.commands.models import Command
from controller.console.actions import PIT_COMMANDS, RequestRefused, checked_order, legal_actions, parse_request, refusals
from controller.console.devices import DeviceStatus
from controller.console.notices import PitNotices
from controller.console.view import table_view
from controller.journal import Entry
from controller.runtime.loop import TableLoop
from controller.table import inputs
from controller.table.core import TableCore
from controller.table.outcome import ACCEPTED, REFUSED

log = logging.getLogger(__name__)
REMEMBERED = 256  # answers kept per page for replays


@dataclass
class Page:
    """One open page: what is waiting to be sent to it, the answers it was given."""

    session: Session
    client: str
    outbox: list[str] = field(default_factory=list)
    snapshot: str | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    #: the id of the game's layout offer this connection was last sent (the page keeps it; a new
    #: connection is a new ``Page``, sent the offer again)
    layout_id: str | None = None

    def send(self, message: dict[str, Any]) -> None:
        self.outbox.append(json.dumps(message))
        self.wake.set()

    def take(self) -> list[str]:
        out, self.outbox = self.outbox, []
        if self.snapshot is not None:
            out.append(self.snapshot)
            self.snapshot = None
        self.wake.clear()
        return out


@dataclass
class _Pending:
    client: str
    cseq: int
    command: str


class ConsoleHub:
    """A ``TableLoop`` listener serving every open console page of one table."""

    def __init__(self, loop: TableLoop, *, currency: str = "EUR", digits: int = 2, time_zone: str | None = None,
                 clock: Callable[[], float] | None = None, tick: float = 1.0) -> None:
        self.loop = loop
        self.core: TableCore = loop.core
        self.currency, self.digits = currency, digits
        self.time_zone = time_zone  # the table's (IANA; None: the table PC's own), for the times shown
        self.clock = clock or time.monotonic
        self.tick = tick
        self.pages: dict[str, Page] = {}
        #: client -> cseq -> the answer it was given (kept across reconnects of that client)
        self.answers: dict[str, OrderedDict[int, dict[str, Any]]] = {}
        self.device_status = DeviceStatus()
        self.pit_notices = PitNotices()
        self.version = 0
        self._due: asyncio.Handle | None = None  # the flush scheduled for the next loop turn
        #: the view every page was last sent (without its version); None: send the next one whatever it is
        self._sent: dict[str, Any] | None = None
        #: the step under way was pushed by ``_applied``: its announcements have nothing new to send
        self._pushed = False
        self._pending: dict[int, _Pending] = {}
        self._ticker: asyncio.Task[None] | None = None
        #: panels that add to the snapshot (the simulator panel of ``croupier demo --manual``)
        self.extras: dict[str, Callable[[], Any]] = {}
        loop.listeners.append(self)
        loop.outcome_listeners.append(self)
        loop.quiet_hooks.append(self._quiet)
        loop.applied_hooks.insert(0, self._applied)  # first: ahead of the state snapshots' journal writes

    # ------------------------------------------------------------------ pages
    def attach(self, page: Page) -> None:
        self.pages[page.client] = page
        self._sent = None  # this page has a newer view than the others: the next flush goes to all
        self._deliver(self.snapshot(), [page])
        if self._ticker is None:
            self._ticker = asyncio.get_running_loop().create_task(self._tick(), name="console-tick")

    def detach(self, page: Page) -> None:
        if self.pages.get(page.client) is page:
            del self.pages[page.client]

    async def close(self) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
            await asyncio.gather(self._ticker, return_exceptions=True)
        if self in self.loop.listeners:
            self.loop.listeners.remove(self)
        if self in self.loop.outcome_listeners:
            self.loop.outcome_listeners.remove(self)
        if self._quiet in self.loop.quiet_hooks:
            self.loop.quiet_hooks.remove(self._quiet)
        if self._applied in self.loop.applied_hooks:
            self.loop.applied_hooks.remove(self._applied)

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(self.tick)
            if self.pages:
                self._flush()

    # ------------------------------------------------------------------ snapshots
    def snapshot(self) -> dict[str, Any]:
        return self._versioned(self._view())

    def _versioned(self, view: dict[str, Any]) -> dict[str, Any]:
        self.version += 1
        return {"type": "snapshot", "view": {**view, "version": self.version}}

    def _view(self) -> dict[str, Any]:
        view = table_view(self.core, currency=self.currency, digits=self.digits, time_zone=self.time_zone)
        now = self.clock()
        view["devices"] = self.device_status.lines(self.core.devices, now)
        view["offline"] = [d["name"] for d in view["devices"] if not d["online"]]
        view["actions"] = legal_actions(self.core)
        view["refused"] = refusals(self.core)  # why what is not offered is not (the offer's)
        view["recall_allowed"] = self.core.engine is None or self.core.hold is not None
        view["restart"] = self.core.hold is not None and self.core.hold.code == "table.restart"
        view["sign_in_known"] = "sign_in" in inputs.COMMANDS
        view["pit_notices"] = list(self.pit_notices.recent)
        for name, extra in self.extras.items():
            view[name] = extra()
        return view

    def _schedule(self, changes_only: bool = True) -> None:
        if not self.pages or (self._due is not None and changes_only):
            return
        if self._due is not None:
            self._due.cancel()
        self._due = asyncio.get_running_loop().call_soon(self._flush, changes_only)

    def _flush(self, changes_only: bool = False) -> None:
        """The table as it is now to every page; ``changes_only``: not if that is what they were
        last sent (the tick and ``on_state`` send it whatever it is)."""
        if self._due is not None:
            self._due.cancel()
            self._due = None
        if not self.pages:
            return
        view = self._view()
        if changes_only and view == self._sent:
            return
        self._sent = view
        self._deliver(self._versioned(view), list(self.pages.values()))

    def _deliver(self, message: dict[str, Any], pages: list[Page]) -> None:
        """The snapshot to each page; the game's layout offer (roulette's, some 20 KB) apart
        from it, only to a page not yet sent that offer: the snapshot names it by its id."""
        spin = message["view"].get("spin")
        layout = spin.get("layout") if isinstance(spin, dict) else None
        if isinstance(spin, dict) and isinstance(layout, dict):
            message["view"]["spin"] = {**{k: v for k, v in spin.items() if k != "layout"}, "layout_id": layout["id"]}
        text = json.dumps(message)
        for page in pages:
            if isinstance(layout, dict) and page.layout_id != layout["id"]:
                page.send({"type": "layout", "layout": layout})
                page.layout_id = layout["id"]
            page.snapshot = text
            page.wake.set()

    # ------------------------------------------------------------------ listener
    def on_entry(self, entry: Entry) -> None:
        self._pushed = False
        self.pit_notices.on_entry(entry)
        self._schedule()

    def on_prompt(self, prompt: str, core: TableCore) -> None:
        self._after_push()

    def on_state(self, core: TableCore) -> None:
        self._schedule(changes_only=False)

    def _applied(self, core: TableCore, entry: Entry) -> None:
        """A step's effects are carried out: the pages see its change now (see the module's doc)."""
        if self._due is not None:
            self._flush(True)
            self._pushed = True

    def _after_push(self) -> None:
        """The end of a step: its snapshot was sent by ``_applied`` unless a panel of ``extras``
        (drawn from what the later applied hooks keep, a roulette's betting window) may differ."""
        if not self._pushed or self.extras:
            self._schedule()

    def on_outcome(self, outcome: dict[str, Any]) -> None:
        """The table's outcome of an input: a page's command is answered with it."""
        pending = self._pending.pop(outcome["seq"], None)
        if pending is None:
            return
        said = {"seq": outcome["seq"], "status": outcome["status"]}
        if outcome["status"] == ACCEPTED:
            answer = {"ok": True, "message": f"{pending.command.replace('_', ' ')}: done", "outcome": said}
        else:
            answer = {"ok": False, "code": outcome.get("code"), "message": outcome.get("reason"),
                      "outcome": {**said, "code": outcome.get("code"), "reason": outcome.get("reason")}}
        self._answer(pending.client, pending.cseq, answer)

    def _quiet(self) -> None:
        latest = self.pit_notices.latest
        self.pit_notices.settle()
        if self.pit_notices.latest is not latest:
            self._schedule()
        self._after_push()
        self._pushed = False

    def _answer(self, client: str, cseq: int, answer: dict[str, Any]) -> None:
        answers = self.answers.setdefault(client, OrderedDict())
        answers[cseq] = answer
        while len(answers) > REMEMBERED:
            answers.popitem(last=False)
        page = self.pages.get(client)
        if page is not None:
            page.send({"type": "result", "cseq": cseq, **answer})

    # ------------------------------------------------------------------ commands
    def handle(self, page: Page, raw: Any) -> None:
        """One message from a page: answered now (refused at the edge, or a replay) or once
        the table has applied it."""
        cseq = raw.get("cseq") if isinstance(raw, dict) else None
        given = self.answers.get(page.client) or OrderedDict[int, dict[str, Any]]()
        if isinstance(cseq, int) and cseq in given:
            page.send({"type": "result", "cseq": cseq, **given[cseq], "replayed": True})
            return
        if isinstance(cseq, int) and any(q.client == page.client and q.cseq == cseq for q in self._pending.values()):
            return  # in flight: its answer is on the way
        try:
            request = parse_request(raw)
            order = checked_order(self.core, page.session.role, request)
            entry = self._submit(page.session, request.command, order)
        except RequestRefused as exc:  # refused at the edge: never journaled (seq 0)
            self._answer(page.client, cseq if isinstance(cseq, int) else 0,
                         {"ok": False, "code": exc.code, "message": exc.message,
                          "outcome": {"seq": 0, "status": REFUSED, "code": exc.code, "reason": exc.message}})
            return
        self._pending[entry.seq] = _Pending(page.client, request.cseq, request.command)

    def _submit(self, session: Session, name: str, args: dict[str, Any] | Command) -> Entry:
        """Journal the command (a ``Command`` checked at this edge is not read again)."""
        source = f"console:{session.user}"
        try:
            if name in PIT_COMMANDS:
                payload = {"v": 1, "id": f"console-{session.user}-{self.version}-{time.monotonic_ns()}",
                           "sender": session.user, "command": name,
                           **(args.arguments() if isinstance(args, Command) else args)}
                return self.loop.submit(inputs.PIT_COMMAND, payload, source)
            if isinstance(args, Command):
                return self.loop.submit(inputs.COMMAND, args, source)
            return self.loop.command(name, source, **args)
        except Exception as exc:
            # the table's own edge check refuses before journaling: shown with its code
            code = getattr(exc, "code", None)
            if code is None and not isinstance(exc, ValueError):
                raise
            raise RequestRefused(str(code or "table.input"), str(getattr(exc, "message", exc))) from None

    def sign(self, session: Session, name: str) -> None:
        """``sign_in`` / ``sign_out`` of a dealer at the table, when the table knows them."""
        if name not in inputs.COMMANDS or session.role != "dealer":
            return
        if name == "sign_out" and getattr(self.core, "dealer", None) != session.user:
            return
        try:
            self._submit(session, name, {"dealer": session.user} if name == "sign_in" else {})
        except RequestRefused as exc:
            log.warning("console %s for %s refused: %s", name, session.user, exc.message)
