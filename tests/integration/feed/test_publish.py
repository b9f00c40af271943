"""Journal entries reach the pit on ``event`` in journal order with their seq; closed rounds and
alerts also on their own topics; ledger, state and prompt retained for a pit that comes late."""

from __future__ import annotations

import asyncio

import aiomqtt

from controller.journal import Journal
from tests.fixtures.mosquitto import MosquittoBroker
from tests.integration.feed.conftest import NODELAY, TABLE, Pit, make_feed, round_record


def append_round(journal: Journal, n: int, status: str = "settled", stake: int = 1000, payout: int = 0) -> None:
    rid = f"r{n}"
    journal.append("round_opened", {"game": "blackjack"}, source="table", round_id=rid)
    journal.append("card", {"card": "AS", "box": 1, "hand": 1}, source="shoe", round_id=rid)
    journal.append("round_closed", round_record(rid, status, stake, payout), source="table", round_id=rid)


async def test_every_entry_goes_out_in_order_with_its_seq(
    mosquitto: MosquittoBroker, journal: Journal, pit: Pit
) -> None:
    async with make_feed(mosquitto, journal) as feed:
        for n in range(1, 21):
            append_round(journal, n, stake=500 * n, payout=1000 * n if n % 2 else 0)
            if n == 7:
                journal.append("alert", {"severity": "error", "code": "card_out_of_turn", "message": "card to box 3"},
                               source="table", round_id="r7")
            feed.notify()
        last = journal.last_seq()
        await pit.wait_seqs(last)
        await feed.wait_caught_up()
        assert journal.cursor("feed") == last == 61

    events = pit.on("event")
    assert [e["seq"] for e in events] == list(range(1, last + 1))  # journal order, no gap, no duplicate
    for event, entry in zip(events, journal.entries(), strict=True):
        assert event == {"v": 1, "table": TABLE, "round": entry.round_id, "ts": entry.ts, "seq": entry.seq,
                         "kind": entry.kind, "source": entry.source, "payload": entry.payload}

    rounds = pit.on("round")
    assert [r["round"] for r in rounds] == [f"r{n}" for n in range(1, 21)]
    closed = [e for e in journal.entries() if e.kind == "round_closed"]
    assert rounds == [{**e.payload, "ts": e.ts, "seq": e.seq} for e in closed]
    # A round message leaves after its event (one link, one outbox, in order).
    order = [(leaf, m["seq"]) for leaf, m, _ in pit.messages if leaf in ("event", "round")]
    assert all(order.index(("event", r["seq"])) < order.index(("round", r["seq"])) for r in rounds)

    alerts = pit.on("alert")
    assert len(alerts) == 1
    assert alerts[0]["code"] == "card_out_of_turn" and alerts[0]["severity"] == "error"
    assert alerts[0]["seq"] == 22 and alerts[0]["round"] == "r7" and alerts[0]["table"] == TABLE

    ledger = pit.on("ledger")[-1]
    assert ledger["rounds_settled"] == 20 and ledger["rounds_void"] == 0
    assert ledger["stake_total"] == sum(500 * n for n in range(1, 21))
    assert ledger["payout_total"] == sum(1000 * n for n in range(1, 21) if n % 2)
    assert ledger["seq"] == 61 and ledger["round"] == "r20" and ledger["v"] == 1 and ledger["table"] == TABLE


async def test_a_pit_that_comes_late_gets_the_latest_state_prompt_and_ledger(
    mosquitto: MosquittoBroker, journal: Journal
) -> None:
    append_round(journal, 1, stake=1000, payout=2000)
    append_round(journal, 2, status="void", stake=700, payout=700)
    append_round(journal, 3, stake=300, payout=0)
    async with make_feed(mosquitto, journal) as feed:
        for phase in ("betting", "dealing", "settling"):
            feed.set_state({"game": "blackjack", "phase": phase, "round": "r4", "dealer": "ann"})
        feed.set_prompt({"text": "Deal a card to box 3", "expects": {"card": {"box": 3, "hand": 1}}})
        feed.notify()
        await feed.wait_caught_up()
        await asyncio.wait_for(feed.link.drained(), 5)

    async with Pit(mosquitto, "pit-late") as late:  # after the feed has gone: retained only
        # the broker hands a subscriber the retained messages before anything published after
        # it subscribed: a marker published now comes behind all of them
        who = mosquitto.controller
        async with aiomqtt.Client("127.0.0.1", mosquitto.port, username=who.username, password=who.password,
                                  socket_options=NODELAY) as marker:
            await marker.publish(f"croupier/{TABLE}/marker", b"after the retained ones", qos=1)
        await late.wait_for(lambda: any(leaf == "marker" for leaf, _, _ in late.messages),
                            what="the marker behind the retained messages")
    before = late.messages[: [leaf for leaf, _, _ in late.messages].index("marker")]
    assert all(retained for _, _, retained in before)
    assert {leaf for leaf, _, _ in before} - {"head"} == {"state", "prompt", "ledger", "online"}
    assert late.on("online") == [0]  # presence: the feed closed cleanly and said so
    (state,), (prompt,), (ledger,) = late.on("state"), late.on("prompt"), late.on("ledger")
    assert state["phase"] == "settling" and state["round"] == "r4" and state["v"] == 1 and state["table"] == TABLE
    assert state["ts"].endswith("Z")
    assert prompt["text"] == "Deal a card to box 3" and prompt["round"] == "r3"  # the feed's latest round
    assert ledger == {**ledger, "rounds_settled": 2, "rounds_void": 1, "stake_total": 1300, "payout_total": 2000,
                      "void_stake_total": 700, "seq": 9, "round": "r3"}


async def test_state_is_coalesced_not_queued(mosquitto: MosquittoBroker, journal: Journal, pit: Pit) -> None:
    async with make_feed(mosquitto, journal) as feed:
        await asyncio.wait_for(feed.link.wait_connected(), 5)
        for i in range(500):
            feed.set_state({"phase": "dealing", "cards": i})
        await pit.wait_for(lambda: any(s["cards"] == 499 for s in pit.on("state")))
    sent = [s["cards"] for s in pit.on("state")]
    assert sent[-1] == 499 and len(sent) <= 2  # the newest; at most one older one was already on its way


async def test_an_append_nobody_notified_still_goes_out_on_the_safety_poll(
    mosquitto: MosquittoBroker, pit: Pit
) -> None:
    with Journal(":memory:") as journal:  # an in-memory journal works too (tests, demos)
        async with make_feed(mosquitto, journal, poll_interval=0.3) as feed:
            await asyncio.wait_for(feed.link.wait_connected(), 5)
            append_round(journal, 1)  # no notify()
            await pit.wait_seqs(3, timeout=5)
            assert feed.stats.entries_sent == 3
    assert pit.seqs("round") == [3]
