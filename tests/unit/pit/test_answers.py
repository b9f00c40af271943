"""The table's answer to a pit command, read from its feed (controller/pit/answers.py)."""

from __future__ import annotations

import json

from controller.pit.answers import ANSWER_WAIT, CommandAnswers
from controller.pit.model import TableModel


def sent(answers: CommandAnswers, command: str, ident: str = "pit-1", table: str = "t1", **args: object) -> None:
    answers.sent(table, {"v": 1, "id": ident, "sender": "pat", "command": command, **args}, now=100.0)


def test_a_refusal_alert_naming_the_command_refuses_it() -> None:
    answers, model = CommandAnswers(), TableModel("t1")
    sent(answers, "reopen")
    model.alerts.append({"seq": 5, "code": "pit.reopen.other", "refused": {"id": "pit-0"}, "message": "not this one"})
    assert answers.seen(model, "alert", 101.0) == []
    model.alerts.append({"seq": 6, "code": "pit.reopen.not_closed", "message": "the table is not closed",
                         "refused": {"id": "pit-1", "command": "reopen"}})
    assert answers.seen(model, "alert", 101.0) == [{"id": "pit-1", "table": "t1", "command": "reopen",
                                                    "answer": "refused", "message": "the table is not closed"}]
    assert answers.seen(model, "alert", 101.0) == []  # answered once


def test_the_feed_refusing_its_shape_refuses_it() -> None:
    answers, model = CommandAnswers(), TableModel("t1")
    sent(answers, "close_after_round")
    model.alerts.append({"seq": 2, "code": "command_refused", "id": "pit-1", "reason": "too old"})
    assert [a["message"] for a in answers.seen(model, "alert", 101.0)] == ["too old"]


def test_acceptance_is_what_the_table_publishes_next() -> None:
    answers, model, other = CommandAnswers(), TableModel("t1"), TableModel("t2")
    sent(answers, "close_after_round")
    sent(answers, "reject_correction", ident="pit-2", correction="7", reason="no")
    other.state = {"closing": True}
    assert answers.seen(other, "state", 101.0) == []  # another table's state answers nothing
    model.state = {"closing": False}
    assert answers.seen(model, "state", 101.0) == []
    model.state = {"closing": True}
    assert [a["id"] for a in answers.seen(model, "state", 101.0)] == ["pit-1"]
    model.alerts.append({"seq": 9, "code": "round.correction_applied", "correction": 7})
    assert answers.seen(model, "alert", 101.0) == []  # applied is not the rejection asked for
    model.alerts.append({"seq": 10, "code": "round.correction_rejected", "correction": 7})
    assert [(a["id"], a["answer"]) for a in answers.seen(model, "alert", 101.0)] == [("pit-2", "accepted")]


def test_an_unanswered_command_is_forgotten() -> None:
    answers, model = CommandAnswers(), TableModel("t1")
    sent(answers, "close_after_round")
    model.state = {"closing": True}
    assert answers.seen(model, "state", 100.0 + ANSWER_WAIT + 1) == []


def test_the_tables_outcome_answers_a_command_it_applied() -> None:
    from controller.pit.model import FloorModel

    answers, floor = CommandAnswers(), FloorModel()
    sent(answers, "void_round", round="t1-000004")
    sent(answers, "reopen", ident="pit-2")
    body = {"v": 1, "table": "t1", "round": "t1-000004", "ts": "2026-12-05T10:00:00.000Z", "source": "pit:pat",
            "kind": "pit_command", "command": "void_round"}
    refused = {**body, "seq": 41, "id": "pit-1", "status": "refused", "code": "table.void_round.not_open",
               "reason": "round t1-000004 is not the open round"}
    dealer = {**body, "seq": 40, "kind": "command", "source": "dealer", "status": "accepted"}
    assert floor.apply("croupier/t1/outcome", json.dumps(dealer).encode(), 101.0) is None  # not the pit's
    assert floor.apply("croupier/t1/outcome", json.dumps(refused).encode(), 101.0) == "t1"
    assert answers.seen(floor.tables["t1"], "outcome", 101.0) == [
        {"id": "pit-1", "table": "t1", "command": "void_round", "answer": "refused",
         "message": "round t1-000004 is not the open round"}]
    accepted = {**body, "seq": 42, "id": "pit-2", "command": "reopen", "status": "accepted"}
    floor.apply("croupier/t1/outcome", json.dumps(accepted).encode(), 102.0)
    assert [(a["id"], a["answer"]) for a in answers.seen(floor.tables["t1"], "outcome", 102.0)] == [("pit-2", "accepted")]
