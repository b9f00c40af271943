"""Dealer lines are checked before they are journaled (issue defects 1 and 2).

Defect 1: on Three Card Blackjack, ``bet box=x ...`` was journaled, then crashed the table task,
and every restart crashed replaying it. Defect 2: ``amount=1050.5`` was taken and paid 2047.5.
"""

from __future__ import annotations

import pytest

from controller.table import inputs
from controller.terminal.keyboard import submit_line
from tests.unit.validation.conftest import MAIN

GAMES = ("three-card-blackjack", "catch-a-wave", "russian-poker", "baccarat", "blackjack")


async def test_a_box_that_is_no_number_is_refused_and_the_table_goes_on_and_restarts(table) -> None:
    t = table("three-card-blackjack")
    assert submit_line(t.loop, "open_round") is None
    await t.settled()
    rows = t.rows()

    answer = submit_line(t.loop, "bet box=x amount=1000 player=A")

    assert answer == "? bet refused: box: must be a box number from 1 to 99, not 'x'"
    await t.settled()
    assert not t.task.done(), "the table task must survive a bad line"
    assert [e.kind for e in list(t.journal.entries())[rows:]] == [inputs.ALERT], "journaled as a refusal only"
    assert t.alerts()[-1]["code"] == "input.refused" and "box: must be a box number" in t.alerts()[-1]["message"]
    assert not [e for e in t.journal.entries() if e.kind == inputs.COMMAND and e.payload.get("box") == "x"]

    assert submit_line(t.loop, "bet box=1 amount=1000 player=A") is None
    await t.settled()
    assert [(b.box, b.stake) for b in t.core.adapter.open_bets(t.core.engine)] == [(1, 1000)]
    await t.close()

    again = table("three-card-blackjack")  # the same journal, replayed by a new process
    await again.settled()
    assert not again.task.done()
    assert again.core.round_id == "v1-000001"
    assert [(b.box, b.stake) for b in again.core.adapter.open_bets(again.core.engine)] == [(1, 1000)]
    assert again.core.hold is not None and again.core.hold.code == "table.restart"  # resume or void?
    assert submit_line(again.loop, "resume") is None
    await again.settled()
    assert submit_line(again.loop, "bet box=2 amount=600 player=B") is None
    await again.settled()
    assert [(b.box, b.stake) for b in again.core.adapter.open_bets(again.core.engine)] == [(1, 1000), (2, 600)]


@pytest.mark.parametrize("game", GAMES)
async def test_fractional_money_is_refused_in_every_game(table, game: str) -> None:
    t = table(game)
    submit_line(t.loop, "open_round")
    await t.settled()
    assert t.core.engine is not None, t.core.prompt()
    rows = t.rows()

    answer = submit_line(t.loop, f"bet box=1 amount=1050.5 player=A kind={MAIN[game]}")

    assert answer is not None and "amount: must be a whole number of minor units" in answer and "1050.5" in answer
    await t.settled()
    assert t.core.adapter.open_bets(t.core.engine) == []
    assert [e.kind for e in list(t.journal.entries())[rows:]] == [inputs.ALERT]
    for text in ("'\"1050\"'", "1e3", "true", "-500", "0", "10000000000000"):
        assert submit_line(t.loop, f"bet box=1 amount={text} player=A kind={MAIN[game]}") is not None, text
    assert submit_line(t.loop, f"bet box=1 amount=1050 player=A kind={MAIN[game]}") is None
    await t.settled()
    assert [b.stake for b in t.core.adapter.open_bets(t.core.engine)] == [1050]


@pytest.mark.parametrize(("line", "says"), [
    ("bet box=1 amount=500 colour=red", "colour: Extra inputs are not permitted (bet takes box, amount, kind, player)"),
    ("bet amount=500", "box: missing; bet needs 'box' (a box number from 1 to 99)"),
    ("decide box=1 action=HIT!", "action: must be a decision such as hit, stand or double"),
    ("key_card card=ZZ", "card: must be a card such as AH, TS or 10D, not 'ZZ'"),
    ("void_round reason=''", "reason: must be text of 1 to 200 printable characters"),
    ("sign_in dealer='anna k'", "dealer: must be a dealer id of 1 to 32"),
    ("key_result number=37", "number: must be a pocket from 0 to 36, or 00"),
    ("bet box=[[[[[[1]]]]]] amount=5", "box: nested 6 deep"),
    ("opne_round", "unknown command 'opne_round'"),
])
async def test_each_refusal_says_what_was_expected(table, line: str, says: str) -> None:
    t = table("blackjack")
    answer = submit_line(t.loop, line)
    assert answer is not None and says in answer, answer
    assert not [e for e in t.journal.entries() if e.kind == inputs.COMMAND]


async def test_a_flood_of_bad_lines_costs_two_alerts_per_window(table) -> None:
    t = table("blackjack")
    t.loop.admission.policies = {}  # only the aggregation under test, not the rate limit
    rows = t.rows()
    for _ in range(500):
        assert submit_line(t.loop, "bet box=x amount=1") is not None
    t.loop.admission.flush(everything=True)
    added = list(t.journal.entries())[rows:]
    assert [e.kind for e in added] == [inputs.ALERT, inputs.ALERT]
    assert [a.payload["count"] for a in added] == [1, 499]
    assert added[1].payload["codes"] == {"input.invalid": 499}
