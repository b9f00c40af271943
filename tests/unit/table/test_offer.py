"""The table's offer (controller/table/offer.py): what it takes now in each state, and that the
core does what it says (a command it took was offered; one the offer refuses is refused by the
core with the offer's code)."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.games.blackjack.rules import blackjack_rules
from controller.journal import Journal
from controller.records import Offer, parse
from controller.table import inputs
from controller.table.core import TableCore
from controller.table.offer import open_round_refusal
from controller.table.registry import adapter_for
from tests.unit.table.test_core import Live

TS = "2026-01-01T00:00:00.000Z"


def takes(core: TableCore) -> list[str]:
    return [t.command for t in core.offer.takes]


def refused(core: TableCore) -> dict[str, str]:
    return {r.command: r.code for r in core.offer.refused}


def checked(core: TableCore) -> Offer:
    """The core's offer, held to its model exactly (the core builds it without validating)."""
    offer = core.offer
    assert Offer.model_validate_json(offer.model_dump_json()) == offer
    return offer


def live(online: bool = True, burn: int = 0) -> Live:
    return Live(Journal(":memory:"), TableCore("t1", adapter_for("blackjack"), blackjack_rules("ru6"), "ru6",
                                               burn_on_new_shoe=burn), online=online)


def to_decision(table: Live) -> None:
    """Box 3 (A, 1000) holds T-8 against the dealer's 9: its decision is due."""
    for name, args in (("open_round", {}), ("bet", {"box": 3, "amount": 1000, "player": "A"}), ("close_betting", {})):
        table.cmd(name, **args)
    for c in ("TS", "9H", "8D"):
        table.card(c)


def test_between_rounds_a_round_opens_only_once_the_table_may_open_one() -> None:
    table = live(online=False)
    assert takes(table.core) == ["new_shoe"]
    assert refused(table.core) == {"open_round": "device.shoe.offline"}
    assert checked(table.core).prompt == "Open betting" and table.core.offer.phase == "idle"
    table.cmd("open_round")
    assert table.alerts()[-1]["code"] == "device.shoe.offline" and table.core.round_id is None
    table.put(inputs.DEVICE, {"type": "online", "device": "shoe", "detail": "test"}, "shoe")
    assert takes(table.core) == ["open_round", "new_shoe"] and refused(table.core) == {}
    table.put(inputs.PIT_COMMAND, {"v": 1, "id": "c1", "sender": "boss", "command": "close_after_round"})
    assert refused(table.core) == {"open_round": "table.closing"} and checked(table.core).prompt == "Table closed"


def test_a_cut_card_and_a_new_shoes_burn_are_in_the_offer() -> None:
    table = live(burn=1)
    table.cmd("new_shoe")
    assert refused(table.core) == {"open_round": "table.shoe.burn"} and checked(table.core).prompt == "Burn 1 card"
    table.card("5S")
    table.cmd("open_round")
    table.put(inputs.DEVICE, {"type": "cut", "device": "shoe", "n": 1}, "shoe")
    table.cmd("void_round")
    assert refused(table.core) == {"open_round": "table.shoe.cut"} and takes(table.core) == ["new_shoe"]
    assert checked(table.core).prompt == "Cut card is out: load a new shoe"


def test_betting_decision_and_settling_offer_what_the_engine_expects() -> None:
    table = live()
    table.cmd("open_round")
    offer = checked(table.core)
    assert offer.phase == "betting" and offer.round == table.core.round_id
    assert [t.command for t in offer.takes] == ["bet", "clear_bets", "close_betting", "void_round"]
    bet = offer.take("bet")
    assert bet is not None and bet.constraints.boxes == tuple(range(1, 8)) and bet.constraints.kinds == ("main",)
    assert refused(table.core) == {"open_round": "table.round.open", "new_shoe": "table.round.open",
                                   "settle": "table.settle.early"}
    table.cmd("bet", box=3, amount=1000, player="A")
    table.cmd("close_betting")
    for c in ("TS", "9H", "8D"):
        table.card(c)
    decide = checked(table.core).take("decide")
    assert decide is not None and decide.constraints.box == 3 and "stand" in (decide.constraints.options or ())
    assert takes(table.core) == ["decide", "void_round"]
    table.cmd("decide", box=3, action="stand", player="A")
    assert takes(table.core) == ["void_round"]  # cards come from the shoe
    table.card("9C")
    assert checked(table.core).phase == "settling" and takes(table.core) == ["settle", "void_round"]


def test_a_hold_takes_its_ways_out_and_refuses_the_rest_with_the_cores_code() -> None:
    table = live()
    to_decision(table)
    table.card("9C", 9)  # a gap in the shoe's count: the table holds
    offer = checked(table.core)
    assert offer.phase == "hold" and takes(table.core) == list(table.core.hold.options)  # type: ignore[union-attr]
    assert set(refused(table.core).values()) == {"table.hold"} and "decide" in refused(table.core)
    table.cmd("decide", box=3, action="stand", player="A")
    assert table.alerts()[-1]["code"] == "table.hold"


def test_a_card_to_key_in_offers_the_cards_the_shoe_can_still_hold() -> None:
    table = live()
    to_decision(table)
    table.cmd("decide", box=3, action="stand", player="A")
    table.put(inputs.DEVICE, {"type": "noread", "device": "shoe", "n": 4}, "shoe")
    key = checked(table.core).take("key_card")
    assert takes(table.core) == ["key_card", "void_round"] and key is not None and len(key.constraints.cards or ()) == 52
    assert table.core.prompt() == "Card 4 not read: key it in"


def test_the_pits_state_carries_the_offer_within_the_records_contract() -> None:
    table = live()
    to_decision(table)
    state = {**table.core.state(), "v": 1, "table": "t1", "round": table.core.round_id, "ts": TS,
             "journal": {"seq": 1, "hash": "ab" * 32}}
    assert parse("state", state).offer == table.core.offer


def test_the_offer_is_built_once_per_step() -> None:
    table = live()
    assert table.core.offer is table.core.offer
    first = table.core.offer
    table.cmd("open_round")
    assert table.core.offer is not first


#: inputs a table gets: the dealer's round commands (right and wrong), cards, the shoe going away
COMMANDS = st.sampled_from([
    ("open_round", {}), ("close_betting", {}), ("settle", {}), ("new_shoe", {}), ("void_round", {}),
    ("burn", {}), ("bet", {"box": 1, "amount": 1000, "player": "A"}), ("bet", {"box": 2, "amount": 500, "player": "B"}),
    ("decide", {"box": 1, "action": "stand", "player": "A"}), ("decide", {"box": 1, "action": "hit", "player": "A"}),
    ("decide", {"box": 2, "action": "stand", "player": "B"}), ("key_card", {"card": "7H"}),
])
DEVICE = st.sampled_from(["card", "card", "card", "card", "noread", "offline", "online", "gap"])
STEPS = st.lists(st.one_of(COMMANDS, DEVICE, st.sampled_from(["TS", "5D", "AH", "9C"])), min_size=1, max_size=60)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=STEPS)
def test_the_core_takes_what_it_offers_and_refuses_as_it_says(steps: list[Any]) -> None:
    table = live()
    cards = iter(["TS", "5D", "AH", "9C", "2S", "8H"] * 400)
    for step in steps:
        offer = checked(table.core)
        # the core's opening check reads the offer's answer to open_round without building the offer
        answer = open_round_refusal(table.core)
        assert (answer is None) == (offer.take("open_round") is not None), (answer, offer)
        assert answer is None or offer.refusal("open_round") in (answer, None), (answer, offer)
        if isinstance(step, tuple):
            name, args = step
            table.cmd(name, **args)
        elif step in ("offline", "online"):
            table.put(inputs.DEVICE, {"type": step, "device": "shoe", **({"reason": "t"} if step == "offline" else
                                                                         {"detail": "t"})}, "shoe")
            continue
        elif step == "noread":
            table.put(inputs.DEVICE, {"type": "noread", "device": "shoe", "n": table.core.shoe.last_n + 1}, "shoe")
            continue
        elif step == "gap":
            table.card(next(cards), table.core.shoe.last_n + 2)
            continue
        else:
            table.card(next(cards))
            continue
        refusal = offer.refusal(name)
        if table.core.refused is None:
            assert offer.take(name) is not None, f"{name} was taken but not offered: {offer}"
            assert refusal is None
        elif refusal is not None:
            assert table.core.refused[0] == refusal.code, (name, offer)


def test_a_remote_players_turn_is_offered_to_the_seat_and_refused_to_the_dealer() -> None:
    from controller.console.actions import legal_actions
    from controller.records import BettingMessage, undeclared
    from controller.table.view import betting
    from tests.unit.studio.test_seats_core import dealt_to_a_decision, seated_core

    table = Live(Journal(":memory:"), seated_core())
    dealt_to_a_decision(table)
    decide = checked(table.core).take("decide")
    assert decide is not None and (decide.constraints.box, decide.constraints.seated) == (3, "casino-a/anna")
    assert refused(table.core)["decide"] == "table.seat.remote_decides"
    assert [a["command"] for a in legal_actions(table.core)] == ["void_round"]  # the console does not decide for her
    body = {**betting(table.core), "v": 1, "table": "bj1", "round": table.core.round_id, "ts": TS}
    message = BettingMessage.model_validate(body)
    assert undeclared(message, body) == []
    assert message.takes == [decide]  # the seat shows what the console would: the table's one offer
    table.cmd("decide", box=3, action="hit")
    assert table.alerts()[-1]["code"] == "table.seat.remote_decides"


def test_a_wheel_game_takes_bets_keyed_on_its_layout_and_needs_its_wheel() -> None:
    adapter = adapter_for("roulette")
    table = Live(Journal(":memory:"), TableCore("rl1", adapter, adapter.rules("european", {}, {}), "european"),
                 online=False)
    assert refused(table.core) == {"open_round": "device.wheel.offline"} and takes(table.core) == []
    table.put(inputs.DEVICE, {"type": "online", "device": "wheel", "detail": "test"}, "wheel")
    assert takes(table.core) == ["open_round"]  # no shoe: no new shoe either
    table.cmd("open_round")
    bet = checked(table.core).take("bet")
    assert bet is not None and bet.constraints.kinds == ()  # keyed on the layout, not a form
    assert takes(table.core) == ["bet", "clear_bets", "void_round"]  # the wheel closes the betting


def test_a_device_fault_refuses_a_round_in_words_the_dealer_reads() -> None:
    table = live()
    table.put(inputs.DEVICE, {"type": "fault", "device": "shoe", "code": 21, "text": "OPTICAL"}, "shoe")
    refusal = table.core.offer.refusal("open_round")
    assert refusal is not None and refusal.code == "device.fault"
    assert refusal.reason == "device fault not cleared: shoe (21;OPTICAL)"  # not a Python dict
