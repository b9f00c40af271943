"""The table's answer to each pit command the dashboard sent (docs/pit.md, "Pit commands").

A table answers a pit command it applied on its ``outcome`` topic (the command's ``id``,
``status`` accepted or refused, the refusal's ``reason``: docs/protocols.md, "Outcomes"); one its
feed refused before journaling it is a ``command_refused`` alert naming its ``id``. A table that
publishes no outcomes (an older version) is read as before: a refusal is a warning alert
carrying the refused command (``refused.id``), and an accepted command shows in what the table
publishes next (its ``state`` closing or open, the alert that says a correction or an
acknowledgement was applied, the void round's record).
``CommandAnswers`` remembers the commands sent for a minute and reads each table's messages for
their answer. Pure: the caller passes ``now``.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from controller.pit.model import TableModel

#: seconds a sent command waits for its answer before it is forgotten
ANSWER_WAIT = 60.0
#: sent commands remembered at once (the oldest is forgotten first)
WAITING_MAX = 1000


@dataclass(frozen=True, slots=True)
class Sent:
    ident: str
    table: str
    command: str
    body: dict[str, Any]
    at: float


def _alert(model: TableModel, leaf: str) -> dict[str, Any]:
    return model.alerts[-1] if leaf == "alert" and model.alerts else {}


def _latest_round(model: TableModel, leaf: str) -> dict[str, Any]:
    return next(reversed(model.rounds.values())) if leaf == "round" and model.rounds else {}


def _correction_done(sent: Sent, model: TableModel, leaf: str) -> bool:
    alert = _alert(model, leaf)
    code = "round.correction_applied" if sent.command == "approve_correction" else "round.correction_rejected"
    return alert.get("code") == code and str(alert.get("correction")) == str(sent.body.get("correction"))


#: command -> whether what the table just published shows it accepted
ACCEPTED: dict[str, Callable[[Sent, TableModel, str], bool]] = {
    "close_after_round": lambda s, m, leaf: leaf == "state" and m.state.get("closing") is True,
    "reopen": lambda s, m, leaf: leaf == "state" and m.state.get("closing") is False,
    "approve_correction": _correction_done,
    "reject_correction": _correction_done,
    "acknowledge_alert": lambda s, m, leaf: (_alert(m, leaf).get("code") == "pit.alert_acknowledged"
                                             and _alert(m, leaf).get("alert") == s.body.get("alert")),
    "void_round": lambda s, m, leaf: (_latest_round(m, leaf).get("round") == s.body.get("round")
                                      and _latest_round(m, leaf).get("status") == "void"),
    "dismiss": lambda s, m, leaf: leaf == "state" and m.state.get("hold") is None,
}


def refusal_of(ident: str, alert: dict[str, Any]) -> str | None:
    """The reason ``alert`` gives for refusing command ``ident``, or None if it is not that."""
    refused = alert.get("refused")
    if isinstance(refused, dict) and refused.get("id") == ident:
        return str(alert.get("message") or alert.get("code") or "refused")
    if alert.get("code") == "command_refused" and alert.get("id") == ident:
        return str(alert.get("reason") or alert.get("message") or "refused")
    return None


class CommandAnswers:
    def __init__(self) -> None:
        self._waiting: OrderedDict[str, Sent] = OrderedDict()

    def sent(self, table: str, body: dict[str, Any], now: float) -> None:
        """A command left for ``table`` (its wire body, with ``id`` and ``command``)."""
        self._waiting[str(body["id"])] = Sent(str(body["id"]), table, str(body["command"]), body, now)
        while len(self._waiting) > WAITING_MAX:
            self._waiting.popitem(last=False)

    def seen(self, model: TableModel, leaf: str, now: float) -> list[dict[str, Any]]:
        """The answers ``model``'s latest ``leaf`` message gives: ``{id, table, command,
        answer: accepted | refused, message}`` each, and those commands are forgotten."""
        answers: list[dict[str, Any]] = []
        for ident, sent in list(self._waiting.items()):
            if now - sent.at > ANSWER_WAIT:
                del self._waiting[ident]
                continue
            if sent.table != model.table:
                continue
            reason = refusal_of(ident, _alert(model, leaf))
            outcome = model.outcome if leaf == "outcome" and model.outcome.get("id") == ident else None
            if outcome is not None:
                refused = outcome.get("status") == "refused"
                answer = {"answer": "refused" if refused else "accepted",
                          "message": str(outcome.get("reason") or outcome.get("code") or "refused") if refused
                          else f"{model.table} accepted {sent.command}"}
            elif reason is not None:
                answer = {"answer": "refused", "message": reason}
            elif sent.command in ACCEPTED and ACCEPTED[sent.command](sent, model, leaf):
                answer = {"answer": "accepted", "message": f"{model.table} accepted {sent.command}"}
            else:
                continue
            del self._waiting[ident]
            answers.append({"id": ident, "table": sent.table, "command": sent.command, **answer})
        return answers
