"""The studio's seats (controller/studio/seats.py) without a broker or a book: what it tells the
table, what it refuses at once and why, and that the table's ``betting`` leaf is the truth it
pushes to the players (after a studio restart the seats come back from it)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import TypeAdapter

from controller.studio.book import Player
from controller.studio.config import TableSection
from controller.studio.hub import Encoded, Hub, Seat
from controller.studio.protocol import ServerMessage
from controller.studio.rules import TableRules
from controller.studio.seat_sync import SeatView, Unsent
from controller.studio.seats import StudioSeats

ANNA, BEN = Player("casino-a", "anna", "Anna", "EUR"), Player("casino-a", "ben", "Ben", "EUR")
SERVER: TypeAdapter[Any] = TypeAdapter(ServerMessage)


class Sent:
    def __init__(self) -> None:
        self.messages: list[tuple[str, dict[str, Any]]] = []

    async def __call__(self, table: str, message: dict[str, Any]) -> None:
        self.messages.append((table, message))


def studio_seats(game: str = "blackjack", preset: str | None = "am8") -> tuple[StudioSeats, Hub, Sent]:
    hub, sent = Hub(), Sent()
    seats = StudioSeats({"bj1": TableRules(TableSection(game=game, preset=preset))}, hub, lambda: sent)
    return seats, hub, sent


def reason(answer: dict[str, Any] | None) -> Any:
    """A refusal's reason (a decision the table takes is answered by its ``decided``: None)."""
    assert answer is not None
    return answer["reason"]


def joined(hub: Hub, who: Player) -> Seat:
    seat = Seat()
    hub.seat(seat, "bj1", who)
    return seat


def drained(seat: Seat) -> list[dict[str, Any]]:
    out = []
    while not seat.outbox.empty():
        message = seat.outbox.get_nowait()
        assert message is not None
        message = json.loads(message.text) if isinstance(message, Encoded) else message  # a push encoded once for many
        SERVER.validate_python(message)  # as the published schema has it
        out.append(message)
    return out


async def test_a_seat_is_told_to_the_table_and_a_taken_one_refused() -> None:
    seats, hub, sent = studio_seats()
    anna, ben = joined(hub, ANNA), joined(hub, BEN)
    assert await seats.sit("bj1", ANNA, 3) == {"v": 1, "type": "seated", "table": "bj1", "box": 3}
    assert sent.messages[-1][1] | {"id": "x"} == {"v": 1, "id": "x", "type": "seat", "box": 3, "player": "casino-a/anna",
                                                "name": "Anna", "seated": True, "connected": True}
    assert (await seats.sit("bj1", BEN, 3))["reason"] == "seat_taken"
    assert (await seats.sit("bj1", BEN, 8))["reason"] == "box_unknown"
    assert (await seats.leave("bj1", BEN, 3))["reason"] == "not_seated"
    pushed = [m for m in drained(ben) if m["type"] == "seats"]
    assert pushed[-1]["seats"] == [{"box": 3, "name": "Anna", "you": False, "connected": True, "behind_allowed": True}]
    assert [m for m in drained(anna) if m["type"] == "seats"][-1]["seats"][0]["you"] is True


async def test_roulette_seats_nobody() -> None:
    seats, _, sent = studio_seats("roulette", "european")
    assert (await seats.sit("bj1", ANNA, 1))["reason"] == "no_seats"
    assert sent.messages == []


async def test_decisions_are_checked_against_the_tables_turn_before_they_go() -> None:
    seats, hub, sent = studio_seats()
    anna = joined(hub, ANNA)
    turn = {"round": "bj1-000001", "box": 3, "hand": 1, "player": "casino-a/anna", "name": "Anna",
            "decisions": ["hit", "stand"], "started": "2099-01-01T00:00:00.000Z", "deadline": "2099-01-01T00:00:10.000Z",
            "decision_ms": 10000}
    seats.on_leaf("bj1", {"round": "bj1-000001", "seats": {"3": {"player": "casino-a/anna", "name": "Anna",
                                                                 "connected": True}}, "turn": turn})
    pushed = drained(anna)
    assert [m["type"] for m in pushed] == ["seats", "turn"] and pushed[1]["you"] is True
    decide = seats.decide
    assert reason(await decide("bj1", BEN, "bj1-000001", 3, 1, "hit", "r1", None)) == "not_seated"
    assert reason(await decide("bj1", ANNA, "bj1-000001", 3, 2, "hit", "r1", None)) == "not_your_turn"
    assert reason(await decide("bj1", ANNA, "bj1-000001", 3, 1, "split", "r1", None)) == "decision_illegal"
    assert await decide("bj1", ANNA, "bj1-000001", 3, 1, "hit", "r1", None) is None  # the table's ``decided`` answers
    assert sent.messages[-1][1]["type"] == "decide" and sent.messages[-1][1]["decision"] == "hit"
    seats.on_leaf("bj1", {"round": "bj1-000001", "seats": {"3": {"player": "casino-a/anna", "name": "Anna"}},
                          "turn": {**turn, "deadline": "2000-01-01T00:00:00.000Z"}})
    assert reason(await decide("bj1", ANNA, "bj1-000001", 3, 1, "hit", "r2", None)) == "decision_late"


async def test_a_seated_players_decisions_are_those_the_tables_offer_takes() -> None:
    seats, hub, _ = studio_seats()
    anna = joined(hub, ANNA)
    turn = {"round": "bj1-000001", "box": 3, "hand": 1, "player": "casino-a/anna", "name": "Anna",
            "decisions": ["hit", "stand", "double"], "started": "2099-01-01T00:00:00.000Z",
            "deadline": "2099-01-01T00:00:10.000Z", "decision_ms": 10000}
    take = {"command": "decide", "constraints": {"box": 3, "hand": 1, "options": ["hit", "stand"],
                                                 "seated": "casino-a/anna"}}
    seats.on_leaf("bj1", {"round": "bj1-000001", "seats": {"3": {"player": "casino-a/anna", "name": "Anna"}},
                          "turn": turn, "takes": [take]})
    assert [m["decisions"] for m in drained(anna) if m["type"] == "turn"] == [["hit", "stand"]]
    assert reason(await seats.decide("bj1", ANNA, "bj1-000001", 3, 1, "double", "r1", None)) == "decision_illegal"


@pytest.mark.parametrize(("who", "kind", "reason"), [
    (BEN, "main@3", "not_seated"), (ANNA, "behind@3", "behind_own_box"), (BEN, "behind@3+double", "behind_not_allowed"),
    (BEN, "behind@4", None), (ANNA, "main@3", None), (BEN, "21+3@3", None)])
async def test_felt_bets_on_a_seat_and_behind_a_box(who: Player, kind: str, reason: str | None) -> None:
    seats, hub, _ = studio_seats()
    joined(hub, ANNA)
    await seats.sit("bj1", ANNA, 3)
    assert await seats.behind_allowed("bj1", ANNA, 3, False) is None
    refusal = seats.check_felt_bets("bj1", who, [(kind, 1000)])
    assert (refusal or {}).get("reason") == reason


async def test_a_lost_connection_and_the_way_back_are_told_to_the_table() -> None:
    seats, _, sent = studio_seats()
    await seats.sit("bj1", ANNA, 3)
    await seats.disconnected("bj1", ANNA)
    assert sent.messages[-1][1]["connected"] is False
    await seats.reconnected("bj1", ANNA)
    assert sent.messages[-1][1]["connected"] is True and sent.messages[-1][1]["seated"] is True


async def test_a_seat_message_the_leaf_does_not_show_is_sent_again_under_its_id_until_it_does() -> None:
    seats, hub, sent = studio_seats()
    ben = joined(hub, BEN)
    await seats.sit("bj1", ANNA, 3)
    await seats.sit("bj1", BEN, 4)
    anna_sat, ben_sat = sent.messages[0][1], sent.messages[1][1]
    seats.on_leaf("bj1", {"round": None})  # the table back without them: the players still see them
    await seats.resend("bj1")
    assert [m for _, m in sent.messages[2:]] == [anna_sat, ben_sat]
    assert [s["box"] for s in drained(ben)[-1]["seats"]] == [3, 4]
    seats.on_leaf("bj1", {"round": None, "seats": {"3": {"player": "casino-a/anna", "name": "Anna"},
                                                   "4": {"player": "casino-a/cleo", "name": "Cleo"}}})
    await seats.resend("bj1")  # Anna's taken; box 4 went to another player first: nothing left to send
    assert len(sent.messages) == 4
    assert [(s["box"], s["name"]) for s in drained(ben)[-1]["seats"]] == [(3, "Anna"), (4, "Cleo")]
    assert (await seats.leave("bj1", ANNA, 3))["type"] == "left"
    left = sent.messages[-1][1]
    seats.on_leaf("bj1", {"round": None, "seats": {"3": {"player": "casino-a/anna", "name": "Anna"}}})
    await seats.resend("bj1")
    assert sent.messages[-1][1] == left and 3 not in seats.state["bj1"].seats
    seats.on_leaf("bj1", {"round": None})  # the table has the leave: nobody sits
    await seats.resend("bj1")
    assert sent.messages[-1][1] == left and len(sent.messages) == 6 and seats.state["bj1"].seats == {}


async def test_a_player_without_a_seat_leaving_pushes_nothing() -> None:
    """A table of thousands: each leaving player without a seat would push the seats to all the others."""
    seats, hub, _ = studio_seats()
    await seats.sit("bj1", ANNA, 3)
    anna, ben = joined(hub, ANNA), joined(hub, BEN)
    await seats.disconnected("bj1", BEN)
    assert drained(anna) == [] and drained(ben) == []
    await seats.disconnected("bj1", ANNA)
    assert [m["seats"][0]["connected"] for m in drained(ben)] == [False]


def seat_message(id_: str, box: int, player: str = "casino-a/anna") -> dict[str, Any]:
    return {"v": 1, "id": id_, "type": "seat", "box": box, "player": player, "name": "Anna", "seated": True,
            "connected": True}


def test_a_seat_message_being_written_holds_its_box_and_is_not_sent_before_it_is() -> None:
    unsent = Unsent()
    writing = seat_message("m1", 3)
    assert unsent.claim(writing) is None
    assert unsent.seen({}) == {3: SeatView("casino-a/anna", "Anna")} and unsent.again() == []
    unsent.written(writing)
    assert unsent.again() == [writing]
    failed = seat_message("m2", 3, "casino-a/ben")
    assert unsent.claim(failed) is writing
    unsent.withdraw(failed, writing)  # the book out of reach: the box's message is the one before
    assert unsent.messages == {3: writing} and unsent.writing == set()


def test_the_books_rows_replace_what_a_process_holds_but_not_what_it_wrote_meanwhile() -> None:
    unsent = Unsent()
    old = seat_message("old", 3)
    unsent.sent(old)
    before = dict(unsent.messages)  # the rows are read from here
    mine = seat_message("mine", 4)
    unsent.claim(mine)  # written here meanwhile, not in the rows read
    newer = seat_message("newer", 3)  # another process's leave and sit again
    assert unsent.adopt({3: newer}, before)
    assert unsent.messages == {3: newer, 4: mine} and unsent.again() == [newer]
    unsent.written(mine)
    assert unsent.adopt({}, dict(unsent.messages))  # the rows deleted: the table took them
    assert unsent.messages == {} and not unsent.adopt({}, {})
