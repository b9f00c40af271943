"""The dealer's words: no codes, readable recall, true device lines, local 24-hour times."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from controller.console.devices import DeviceStatus
from controller.console.words import hold_prompt, local_clock, local_time, recall_round, suits_in
from controller.games.blackjack.engine import BlackjackRound
from controller.games.blackjack.rules import BlackjackRules
from controller.games.blackjack.view import BlackjackView

RECORD = {
    "round": "t1-000007", "game": "blackjack", "status": "settled", "closed": "2026-12-02T13:05:09.120000+00:00",
    "dealer": "dana", "stake_total": 1000, "payout_total": 2000,
    "bets": [{"box": 1, "hand": 1, "kind": "main", "player": "seat 1", "stake": 1000, "payout": 2000}],
    "outcome": {"dealer": {"cards": ["7H", "TD"]}, "boxes": [{"box": 1, "hands": [{"hand": 1, "cards": ["TS", "9C"]}]}]},
}


def test_a_device_online_has_no_last_seen_count_and_offline_counts_from_the_change() -> None:
    status = DeviceStatus()
    (shoe,) = status.lines({"shoe": {"online": True, "fault": None}}, now=10.0)
    assert shoe["text"] == "online"
    (shoe,) = status.lines({"shoe": {"online": True, "fault": None}}, now=1198.0)
    assert shoe["text"] == "online"  # never "online · last seen 1188 s ago"
    (shoe,) = status.lines({"shoe": {"online": False, "fault": None}}, now=1200.0)
    assert shoe["text"] == "OFFLINE for 0 s"
    (shoe,) = status.lines({"shoe": {"online": False, "fault": None}}, now=1275.0)
    assert shoe["text"] == "OFFLINE for 1 min 15 s"
    (shoe,) = status.lines({"shoe": {"online": True, "fault": "over_temperature"}}, now=1276.0)
    assert shoe["text"] == "FAULT: over temperature"


def test_a_hold_prompt_names_no_code_and_says_the_ways_out() -> None:
    said = hold_prompt({"code": "blackjack.card.insurance_open", "message": "insurance is still open for box 2",
                        "options": ["void_round", "burn"], "cards": ["8D"]})
    assert "blackjack.card" not in said and "void_round" not in said
    assert said.startswith("Insurance is still open for box 2 — ")
    assert "8♦" not in said and "HOLD" not in said  # the HOLD banner shows the held cards: said once
    assert said.endswith("— Void the round or Burn the held cards")


def test_recall_is_text_with_suits_and_local_24_hour_time() -> None:
    shown = recall_round(RECORD)
    local = datetime(2026, 12, 2, 13, 5, 9, tzinfo=UTC).astimezone()
    assert shown["closed"] == local.strftime("%Y-%m-%d %H:%M:%S")
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", shown["closed"])
    assert "outcome" not in shown  # no JSON for the page to dump
    assert shown["lines"] == ["dealer 7♥ 10♦"]  # a record that does not fit the model: told generically
    assert shown["bets"][0]["player"] == "seat 1"
    assert local_time("not a time") == "" and local_time(None) == ""


def test_times_are_in_the_tables_own_zone_when_it_names_one() -> None:
    """A table PC kept on UTC still shows the dealer the table's local time, 24 h."""
    assert recall_round(RECORD, "Europe/Riga")["closed"] == "2026-12-02 15:05:09"  # UTC+2 in winter
    assert local_time("2026-07-01T22:30:00Z", "Europe/Riga") == "2026-07-02 01:30:00"  # summer time, next day
    assert local_time("2026-12-02T13:05:09Z", "America/New_York") == "2026-12-02 08:05:09"
    assert local_clock("2026-12-02T13:05:09.120Z", "Europe/Riga") == "15:05:09"  # an alert's time of day
    assert local_clock(None) == "" and local_clock("soon") == ""


def test_an_empty_hand_has_no_total() -> None:
    (dealer,) = BlackjackView().house(BlackjackRound(BlackjackRules()).outcome())  # no card dealt yet
    assert dealer["total"] is None


def test_card_codes_in_a_message_are_shown_with_suits() -> None:
    assert suits_in("TD: no card is due; AS and 10H held") == "10♦: no card is due; A♠ and 10♥ held"
    assert suits_in("ASK the pit about t1-shoe-2") == "ASK the pit about t1-shoe-2"  # only whole codes
