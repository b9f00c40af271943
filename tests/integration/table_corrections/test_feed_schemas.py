"""Everything a real table publishes on the pit feed matches the feed's models (controller/feed/
schemas.py, exported as docs/schemas/feed-*.json): a blackjack table on the stacked simulated shoe
behind the CSP/1 driver, the feed and a pit client on the real mosquitto. The run goes through
what each message can hold: bets, a hold and its release, a dealer line refused at the edge, a
correction requested (pending in ``state``) and approved (a second ``round`` with its
``corrections``), a pit command refused, an alert acknowledged, a round voided by the pit."""

from __future__ import annotations

import json
from typing import Any

import aiomqtt

from controller.feed import Feed, PitCommand
from controller.process import FeedListener
from controller.records import FEED_LEAVES, AlertMessage, StateMessage, parse, parse_message, undeclared
from controller.table import inputs
from controller.terminal.keyboard import submit_line
from tests.integration.feed.conftest import NODELAY, TABLE, Pit

R1 = ["AS", "TD", "9H", "KC", "8S", "9C"]  # box 1 A-K blackjack; box 2 T-8 vs dealer 9-9
R2 = ["TS", "7C", "8H", "QD", "5H"]  # box 1 T-8 stands; dealer 7-Q stands on 17, then draws a 5


async def test_every_feed_message_of_a_real_table_matches_its_model(burn_table: Any, mosquitto: Any) -> None:
    # cards to spare after round 2: an empty shoe would end it (a new shoe needed before round 3)
    t = await burn_table(stacked=R1 + R2 + ["2C", "3D", "4H"], table_id=TABLE)

    def on_command(command: PitCommand) -> None:
        t.loop.submit(inputs.PIT_COMMAND, command.journal_payload(), f"pit:{command.sender}")

    async def boss(body: dict[str, Any] | bytes) -> None:
        async with aiomqtt.Client("127.0.0.1", mosquitto.port, username=mosquitto.pit.username,
                                  password=mosquitto.pit.password, socket_options=NODELAY) as client:
            payload = body if isinstance(body, bytes) else json.dumps({"v": 1, "sender": "pitboss-ana", **body})
            await client.publish(f"croupier/{TABLE}/command", payload, qos=1)

    def codes(pit: Pit) -> list[str]:
        return [a.get("code") for a in pit.on("alert")]

    async with Pit(mosquitto) as pit, Feed.connect(mosquitto.tcp_url(), t.journal, TABLE, on_command,
                                                   backoff_max=0.5) as feed:
        listener = FeedListener(feed)
        t.loop.listeners.append(listener)
        t.loop.outcome_listeners.append(listener)
        await t.play((1, 1000, "A"), (2, 500, "B"))
        await t.deal("AS", "TD", "9H", "KC", "8S")
        await t.cmd("decide", box=2, action="stand", player="B")
        await t.deal("9C")
        await t.cmd("settle")
        assert submit_line(t.loop, "bet box=x amount=1050.5") is not None  # refused at the edge: input.refused
        await t.cmd("correct", round=f"{TABLE}-000001", reason="box 2 held 9S, read as 8S",
                    changes=[{"box": 2, "hand": 1, "kind": "main", "player": "B", "payout": 1000}])
        await pit.wait_for(lambda: pit.on("state") != [] and pit.on("state")[-1]["corrections_pending"] != [])
        correction = pit.on("state")[-1]["corrections_pending"][0]["correction"]
        await boss({"id": "a1", "command": "approve_correction", "correction": str(correction)})
        await boss(b'{"v":1,"id":"x1","sender":"pitboss-ana","command":"void_round","round":[[1]]}')
        await boss({"id": "x2", "command": "void_round"})  # no round
        await pit.wait_for(lambda: len(pit.on("round")) >= 2 and codes(pit).count("command_refused") == 2)

        await t.play((1, 1000, "A"))  # round 2: the dealer draws on 17, the table holds
        await t.deal("TS", "7C", "8H")
        await t.cmd("decide", box=1, action="stand", player="A")
        await t.deal("QD", "5H")
        await pit.wait_for(lambda: pit.on("state")[-1]["hold"] is not None)
        (held,) = [a for a in pit.on("alert") if a["code"] == "blackjack.dealer.stands"]
        await t.cmd("burn")
        await t.cmd("settle")
        await boss({"id": "k1", "command": "acknowledge_alert", "alert": held["seq"]})
        await pit.wait_for(lambda: "pit.alert_acknowledged" in codes(pit))

        await t.play((2, 300, "B"))  # round 3: voided by the pit
        await boss({"id": "v1", "command": "void_round", "round": f"{TABLE}-000003"})
        await t.loop.until(lambda core: core.closed_rounds == 3, timeout=10)
        t.loop.command("settle")  # no round: the table refuses it, and says so on outcome
        await t.loop.settled()
        await feed.wait_caught_up()
        await pit.wait_for(lambda: pit.complete("event") >= t.journal.last_seq())
        await pit.wait_for(lambda: any(o["status"] == "refused" for o in pit.on("outcome")))

    checked: dict[str, int] = {}
    for leaf, data, _ in pit.messages:
        if leaf in FEED_LEAVES:
            message = parse(leaf, json.dumps(data).encode())  # raises, naming the field, on any mismatch
            if leaf != "alert":  # an alert carries its code's details besides (docs/pit.md)
                assert undeclared(message, data) == [], (leaf, data)  # every field the table writes is declared
            checked[leaf] = checked.get(leaf, 0) + 1
    assert set(checked) == set(FEED_LEAVES), checked
    assert checked["event"] >= t.journal.last_seq()

    rounds = [parse_message(json.dumps(r)) for r in pit.on("round")]
    assert [(r.round, r.status, len(r.corrections)) for r in rounds] == [
        (f"{TABLE}-000001", "settled", 0), (f"{TABLE}-000001", "settled", 1), (f"{TABLE}-000002", "settled", 0),
        (f"{TABLE}-000003", "void", 0)]
    assert rounds[1].corrections[0].changes[0].after == 1000
    alerts = [AlertMessage.model_validate_json(json.dumps(a)) for a in pit.on("alert")]
    refused = next(a for a in alerts if a.code == "input.refused")
    assert refused.source == "dealer" and refused.count == 1 and refused.codes == {"input.invalid": 1}
    assert next(a for a in alerts if a.code == "blackjack.dealer.stands").options == ["burn", "void_round"]
    nested, no_round = [a for a in alerts if a.code == "command_refused"]
    assert nested.id is None and nested.raw is not None and '"id":"x1"' in nested.raw and "nested 3 deep" in nested.message
    assert (no_round.id, no_round.sender) == ("x2", "pitboss-ana") and no_round.reason is not None
    outcomes = {o["seq"]: o for o in pit.on("outcome")}
    assert outcomes[max(outcomes)] == {**outcomes[max(outcomes)], "status": "refused", "command": "settle",
                                       "code": "table.settle.early", "kind": "command"}
    assert outcomes[max(outcomes)]["reason"]
    assert outcomes[max(outcomes)]["seq"] == max(e.seq for e in t.of_kind(inputs.COMMAND))
    assert {o["id"] for o in outcomes.values() if o["kind"] == "pit_command"} >= {"a1", "k1", "v1"}
    edge = next(o for o in pit.on("outcome") if o.get("id") == "x2")  # refused by the feed: never journaled
    assert (edge["seq"], edge["status"], edge["code"], edge["source"]) == (0, "refused", "command_refused", "pit:pitboss-ana")
    states = [StateMessage.model_validate_json(json.dumps(s)) for s in pit.on("state")]
    assert any(s.hold is not None and s.phase == "hold" for s in states)
    assert states[-1].journal.seq >= 1 and states[-1].journal.hash
    assert states[-1].limits["main"].max == 100000
