"""One command model: the dealer line, the console and the pit accept and refuse the same
commands with the same sentence (issue 16: five declarations whose limits disagreed), and the
journal form each edge writes reads back into the same model on replay."""

from __future__ import annotations

import itertools
import json
import shlex
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.commands.models import BY_NAME, DEALER, DEALER_NAMES, MAX_AMOUNT, MAX_BOX, MAX_CHANGES, PIT, PIT_NAMES
from controller.commands.parse import from_journal
from controller.console.actions import RequestRefused, parse_request
from controller.feed.commands import PitCommand, Refusal, parse_command
from controller.games.blackjack.rules import blackjack_rules
from controller.journal import Journal
from controller.runtime.loop import TableLoop
from controller.table import inputs
from controller.table.core import TableCore
from controller.table.registry import adapter_for
from controller.terminal.keyboard import submit_line

#: values at and around every limit, of every JSON type
EDGES = st.sampled_from([0, 1, -1, MAX_BOX, MAX_BOX + 1, 999, 1000, MAX_AMOUNT, MAX_AMOUNT + 1, 10**10, 2**53,
                         True, 1.0, 10.5, "", "AH", "ah", "ZZ", "10D", "main", "hit", "HIT!", "t1-000004", "00",
                         "37", "dealer", "anna k", "a" * 65, "x" * 201, None])
SCALARS = EDGES | st.integers(-5, 2 * MAX_BOX) | st.text(max_size=8)
CHANGE = st.fixed_dictionaries({"box": SCALARS, "hand": SCALARS, "kind": SCALARS, "payout": SCALARS},
                               optional={"player": SCALARS, "stake": SCALARS})
VALUES = SCALARS | st.lists(SCALARS, max_size=6) | st.lists(CHANGE, max_size=3) | st.just([{}] * (MAX_CHANGES + 1))


def arguments(names: tuple[str, ...]) -> st.SearchStrategy[tuple[str, dict[str, Any]]]:
    """A command name and arguments: its own fields (some left out) and now and then a stray one."""
    def of(name: str) -> st.SearchStrategy[tuple[str, dict[str, Any]]]:
        keys = [k for k in BY_NAME[name].model_fields if k != "command"] + ["colour"]
        return st.tuples(st.just(name), st.dictionaries(st.sampled_from(keys), VALUES, max_size=4)
                         .map(lambda d: {k: v for k, v in d.items() if v is not None}))
    return st.sampled_from(names).flatmap(of)


def fresh_loop() -> TableLoop:
    core = TableCore("t1", adapter_for("blackjack"), blackjack_rules("ru6"), "ru6")
    return TableLoop(core, Journal(":memory:"))


LOOP = fresh_loop()
SOURCES = itertools.count()


def dealer_line(name: str, args: dict[str, Any]) -> str | None:
    """What the dealer's terminal answers (None: taken, journaled and queued)."""
    line = " ".join([name, *(f"{k}={shlex.quote(json.dumps(v))}" for k, v in args.items())])
    answer = submit_line(LOOP, line, f"dealer-{next(SOURCES)}")  # a source of its own: no rate limit
    return None if answer is None else answer.removeprefix("? ")


def console(name: str, args: dict[str, Any]) -> str | None:
    try:
        parse_request({"type": "command", "cseq": 1, "round": None, "command": name, "args": args})
    except RequestRefused as refused:
        return refused.message
    return None


def pit(name: str, args: dict[str, Any]) -> str | None:
    parsed = parse_command(json.dumps({"v": 1, "id": "c1", "sender": "boss", "command": name, **args}).encode())
    return parsed.reason if isinstance(parsed, Refusal) else None


@settings(max_examples=400, deadline=None)
@given(arguments(DEALER_NAMES))
def test_the_dealer_line_and_the_console_take_and_refuse_the_same_commands_alike(command: tuple[str, dict]) -> None:
    name, args = command
    assert dealer_line(name, args) == console(name, args)


@settings(max_examples=300, deadline=None)
@given(arguments(tuple(n for n in PIT_NAMES if BY_NAME[n].givers == {PIT})))
def test_the_pit_and_a_pit_boss_at_the_console_take_and_refuse_the_same_commands_alike(
        command: tuple[str, dict]) -> None:
    name, args = command
    by_pit, by_console = pit(name, args), console(name, args)
    assert (by_pit is None) == (by_console is None)
    if by_pit is not None and "nested" not in by_pit:  # the pit's wire is flat: a nest is refused unread
        assert by_pit == by_console


def test_the_limits_that_disagreed_are_one_now() -> None:
    box, amount = {"box": MAX_BOX + 1, "amount": 500}, {"box": 1, "amount": MAX_AMOUNT + 1}
    for args in (box, amount):
        said = dealer_line("bet", args)
        assert said is not None and said == console("bet", args)
    rows = [{"box": 1, "hand": 1, "kind": "main", "payout": 5}] * (MAX_CHANGES + 1)
    said = dealer_line("correct", {"round": "t1-000001", "changes": rows, "reason": "why"})
    assert said is not None and said == console("correct", {"round": "t1-000001", "changes": rows, "reason": "why"})
    assert "changes: must be a list of 1 to 64 changes" in said
    # the console's approve_correction with a number is a command the pit's own schema takes
    assert console("approve_correction", {"correction": 5}) is None and pit("approve_correction", {"correction": 5}) is None
    assert pit("approve_correction", {"correction": "5"}) is None


def test_the_pit_must_name_the_round_it_voids_the_dealer_need_not() -> None:
    assert pit("void_round", {}) == ("void_round refused: round: missing; void_round needs 'round' "
                                     "(a round id such as t1-000004)")
    assert console("void_round", {}) is None and dealer_line("void_round", {}) is None
    assert pit("void_round", {"round": "t1-000001", "reason": "dealer fell ill"}) is None


def test_what_each_edge_journals_replays_into_the_same_model() -> None:
    loop = fresh_loop()
    assert submit_line(loop, "bet box=3 amount=2500 kind=main player=A") is None
    (entry,) = [e for e in loop.journal.entries() if e.kind == inputs.COMMAND]
    assert entry.payload == {"command": "bet", "box": 3, "amount": 2500, "kind": "main", "player": "A"}
    given_model = loop._events[entry.seq]
    assert from_journal(entry.payload, DEALER) == given_model  # the core got the very model replay builds
    wire = parse_command(b'{"v":1,"id":"c9","sender":"boss","command":"acknowledge_alert","alert":4}')
    assert isinstance(wire, PitCommand)
    pit_entry = loop.submit(inputs.PIT_COMMAND, wire, "pit:boss")
    assert pit_entry.payload == {"v": 1, "id": "c9", "sender": "boss", "command": "acknowledge_alert", "alert": 4}
    assert from_journal(pit_entry.payload, PIT) == loop._events[pit_entry.seq] == wire.order()


def test_an_old_console_approval_with_extra_arguments_still_replays() -> None:
    old = {"v": 1, "id": "console-pat-3-1", "sender": "pat", "command": "approve_correction", "correction": 7,
           "box": 2}  # the console's old CommandArgs let any argument through
    assert from_journal(old, PIT).arguments() == {"correction": 7}
