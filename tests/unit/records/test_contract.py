"""The record contract (controller/records/) against what tables really journaled, and each
game's record built, written as JSON and read back.

``journaled.jsonl`` holds journal rows (``round_closed`` and ``alert``) as tables wrote them
before this contract existed: nine example configs run with ``croupier run --rounds 12`` and three
``croupier hil soak --faults all`` journals (voids, refusals, outages), extracted verbatim."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from controller import records
from controller.backoffice import records as backoffice
from controller.feed import Topics
from controller.feed.messages import entry_messages
from controller.games.outcome import Outcome
from controller.journal import Entry
from controller.records.limits import MAX_AMOUNT, MAX_BETS, MAX_ID
from controller.records.outcomes import record_outcome
from controller.table import registry
from tests.support import outcomes

ROWS = [json.loads(line) for line in (Path(__file__).parent / "journaled.jsonl").read_text().splitlines()]
RECORDS = [r for r in ROWS if r["kind"] == "round_closed"]
ALERTS = [r for r in ROWS if r["kind"] == "alert"]
TS = "2026-12-05T05:34:35.231Z"
#: each journal's table id (its records name it)
TABLES = {r["journal"]: json.loads(r["payload"])["table"] for r in RECORDS}


def entry(row: dict[str, Any]) -> Entry:
    return Entry(row["seq"], row["ts"], row["round"], row["kind"], row["source"], json.loads(row["payload"]))


def test_the_fixture_covers_every_game_and_a_void() -> None:
    games = {json.loads(r["payload"])["game"] for r in RECORDS}
    assert games == set(registry.GAMES)
    assert any(json.loads(r["payload"])["status"] == "void" for r in RECORDS)
    assert len({json.loads(r["payload"])["code"] for r in ALERTS}) >= 10


@pytest.mark.parametrize("row", RECORDS, ids=lambda r: f"{r['journal']}:{r['seq']}")
def test_a_journaled_record_reads_exactly_with_its_games_outcome(row: dict[str, Any]) -> None:
    data = json.loads(row["payload"])
    record = records.parse_record(row["payload"])
    assert isinstance(record.outcome, record_outcome(registry.GAMES[data["game"]].outcome))
    assert records.undeclared(record, data) == []  # every field the table wrote is declared, none read otherwise
    if data["status"] == "void":
        assert isinstance(record.outcome.void, records.VoidSummary)  # type: ignore[attr-defined]


@pytest.mark.parametrize("row", ROWS, ids=lambda r: f"{r['journal']}:{r['seq']}")
def test_what_the_feed_publishes_of_a_journaled_entry_every_reader_reads(row: dict[str, Any]) -> None:
    """The feed's messages of the entry, through the contract and through the back office's edge."""
    for message in entry_messages(Topics(TABLES[row["journal"]]), entry(row)):
        leaf = message.topic.rsplit("/", 1)[1]
        data = json.loads(message.payload)
        parsed = records.parse(leaf, message.payload)
        if leaf == "round":
            assert records.undeclared(parsed, data) == []
        rows = backoffice.parse(message.topic, message.payload)
        assert not any(isinstance(r, backoffice.Rejected) for r in rows), rows
        if leaf == "round":
            (got,) = rows
            assert isinstance(got, backoffice.RoundRow) and got.record == parsed


def test_a_record_of_a_game_not_registered_here_keeps_its_outcome() -> None:
    data = {**json.loads(RECORDS[0]["payload"]), "game": "sic-bo", "outcome": {"dice": [1, 4, 6]}}
    record = records.parse_record(data)
    assert isinstance(record.outcome, records.OtherOutcome) and record.outcome.record() == {"dice": [1, 4, 6]}


def blackjack_record(**over: Any) -> dict[str, Any]:
    bets = over.pop("bets", [{"box": 1, "hand": 1, "kind": "main", "player": "P1", "stake": 1000, "payout": 2000}])
    return {"v": 1, "table": "bj1", "round": "bj1-000001", "game": "blackjack", "opened": TS, "closed": TS,
            "status": "settled", "dealer": None, "shoe": "S-1", "shoe_round": 1,
            "outcome": outcomes.blackjack(boxes=[(1, ("TS", "QH"))]), "bets": bets,
            "stake_total": sum(b["stake"] for b in bets), "payout_total": sum(b["payout"] for b in bets),
            "corrections": [], **over}


@pytest.mark.parametrize(("change", "field"), [
    ({"outcome": {"dealer": ["TS", "7H"]}}, "outcome"),  # a blackjack record's outcome is a blackjack outcome
    ({"outcome": outcomes.roulette("17")}, "outcome"),
    ({"bets": [{"box": 1, "hand": 1, "kind": "main", "player": "P1", "stake": MAX_AMOUNT + 1, "payout": 0}]}, "stake"),
    ({"bets": [{"box": 1, "hand": 1, "kind": "main", "player": "P1", "stake": 1000.0, "payout": 0}]}, "stake"),
    ({"bets": [{"box": 0, "hand": 1, "kind": "main", "player": "P1", "stake": 1, "payout": 0}]}, "box"),
    ({"bets": [{"box": 1, "hand": 1, "kind": "main", "player": "P" * (MAX_ID + 1), "stake": 1, "payout": 0}]},
     "player"),
    ({"bets": [{"box": 1, "hand": 1, "kind": "main", "player": None, "stake": 1, "payout": 0}] * (MAX_BETS + 1)},
     "bets"),
    ({"dealer": "d" * (MAX_ID + 1)}, "dealer"),
    ({"stake_total": 999}, "sum of its bets"),
    ({"closed": "2026-12-05T05:34:35"}, "UTC offset"),
    ({"table": "bj 1"}, "table"),
])
def test_what_the_contract_does_not_allow_is_refused(change: dict[str, Any], field: str) -> None:
    records.parse_record(blackjack_record())
    with pytest.raises(ValidationError) as refused:
        records.parse_record(blackjack_record(**change))
    assert field in str(refused.value)


# ---------------------------------------------------------------- build -> JSON -> parse, per game


def _outcome_of(model: type[Outcome]) -> st.SearchStrategy[Any]:
    """Any instance of a game's record outcome, as the types of its fields allow."""
    return st.builds(record_outcome(model))


BET = st.builds(records.Bet, box=st.integers(1, 99), hand=st.integers(1, 16), kind=st.sampled_from(["main", "21+3"]),
                player=st.none() | st.text("abcP0123", min_size=1, max_size=8), stake=st.integers(0, MAX_AMOUNT),
                payout=st.integers(0, MAX_AMOUNT))


@pytest.mark.parametrize("game", sorted(registry.GAMES))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_record_of_every_game_survives_json(game: str, data: st.DataObject) -> None:
    outcome = data.draw(_outcome_of(registry.GAMES[game].outcome))  # type: ignore[arg-type]
    bets = data.draw(st.lists(BET, max_size=6))
    status = data.draw(st.sampled_from(["settled", "void"]))
    record = records.adapter(records.RoundRecord).validate_python({
        "v": 1, "table": "t-1", "round": "t-1-000001", "game": game, "opened": TS, "closed": TS, "status": status,
        "dealer": data.draw(st.none() | st.just("maria")), "shoe": None, "shoe_round": data.draw(st.none() | st.integers(1, 400)),
        "outcome": outcome, "bets": bets, "stake_total": sum(b.stake for b in bets),
        "payout_total": sum(b.payout for b in bets), "corrections": []})
    assert type(record.outcome) is record_outcome(registry.GAMES[game].outcome)  # type: ignore[arg-type]
    text = records.adapter(records.RoundRecord).dump_json(record)
    assert records.parse_record(text) == record
    assert records.parse_record(json.loads(text)) == record
