"""The journal head on the feed (retained ``croupier/<table>/head``, QoS 1): after every round
record and on close, the row's chain hash as verify-journal computes it; and on connecting, the
head the broker kept from the last run is checked against the journal."""

from __future__ import annotations

import json

import aiomqtt

from controller.feed.feed import HEAD_MISMATCH
from controller.journal import Journal
from controller.verify import verify_file
from tests.fixtures.mosquitto import MosquittoBroker
from tests.integration.feed.conftest import TABLE, Pit, make_feed, round_record
from tests.support.waiting import until


def _heads(pit: Pit) -> list[dict]:
    return [b for leaf, b, _ in pit.messages if leaf == "head"]


async def test_the_head_follows_every_round_record_and_is_the_verified_head(mosquitto: MosquittoBroker, tmp_path):
    path = tmp_path / "j.sqlite"
    journal = Journal(path)
    async with Pit(mosquitto) as pit, make_feed(mosquitto, journal) as feed:
        for i in (1, 2):
            journal.append("command", {"command": "open_round"}, source="dealer", round_id=f"{TABLE}-00000{i}")
            entry = journal.append("round_closed", round_record(f"{TABLE}-00000{i}", "settled", 100, 0),
                                   source="table", round_id=f"{TABLE}-00000{i}")
            feed.notify()
            await pit.wait_for(lambda e=entry: any(h["seq"] == e.seq for h in _heads(pit)))
        journal.append("command", {"command": "open_round"}, source="dealer")  # no round record: no new head yet
        feed.notify()
        await feed.wait_caught_up()
        assert max(h["seq"] for h in _heads(pit)) == entry.seq
    head = _heads(pit)[-1]  # and the close publishes the final head
    verdict = verify_file(path)
    assert head == {"v": 1, "table": TABLE, "seq": verdict.head_seq, "hash": verdict.head_hash, "ts": head["ts"]}
    assert head["ts"].endswith("Z")
    journal.close()


async def _publish_retained_head(broker: MosquittoBroker, body: dict) -> None:
    who = broker.controller
    async with aiomqtt.Client("127.0.0.1", broker.port, username=who.username, password=who.password) as client:
        await client.publish(f"croupier/{TABLE}/head", json.dumps(body).encode(), qos=1, retain=True)


async def _alerts_after_start(broker: MosquittoBroker, journal: Journal) -> list[dict]:
    async with make_feed(broker, journal) as feed:
        # the retained head arrives with the subscription; the witness has compared it (and
        # journaled any alert) once it lets this run's heads out
        await until(lambda: feed._head.checked, "the last run's head compared", within=15)
    return [e.payload for e in journal.entries() if e.kind == "alert"]


async def test_a_journal_shorter_or_other_than_the_retained_head_is_an_alert(mosquitto: MosquittoBroker, tmp_path):
    journal = Journal(tmp_path / "j.sqlite")
    for i in range(3):
        journal.append("command", {"command": "open_round", "i": i}, source="dealer")
    seq, digest = journal.head()
    assert digest is not None
    await _publish_retained_head(mosquitto, {"v": 1, "table": TABLE, "seq": seq, "hash": digest, "ts": "t"})
    assert await _alerts_after_start(mosquitto, journal) == []  # it matches: nothing to say
    # the last run had published seq 9: this journal was cut short since
    await _publish_retained_head(mosquitto, {"v": 1, "table": TABLE, "seq": 9, "hash": "a" * 64, "ts": "t"})
    alerts = await _alerts_after_start(mosquitto, journal)
    assert [a["code"] for a in alerts] == [HEAD_MISMATCH] and "ends at seq" in alerts[0]["message"]
    journal.close()
    other = Journal(tmp_path / "k.sqlite")
    for i in range(5):
        other.append("command", {"command": "open_round", "x": i}, source="dealer")
    await _publish_retained_head(mosquitto, {"v": 1, "table": TABLE, "seq": 2, "hash": "b" * 64, "ts": "t"})
    alerts = await _alerts_after_start(mosquitto, other)
    assert alerts[-1]["code"] == HEAD_MISMATCH and "rewritten" in alerts[-1]["message"]
    other.close()


async def test_the_last_runs_head_is_checked_before_this_run_publishes_its_own(mosquitto: MosquittoBroker, tmp_path):
    """A journal restored from an older copy: the head its last run published is still on the
    broker, and this run's first head (which would replace it) waits until it was compared."""
    import shutil

    path, older = tmp_path / "j.sqlite", tmp_path / "older.sqlite"
    journal = Journal(path)
    journal.append("command", {"command": "open_round"}, source="dealer")
    journal.close()
    shutil.copy(path, older)  # the backup, taken early
    journal = Journal(path)
    for i in (1, 2):
        journal.append("round_closed", round_record(f"{TABLE}-00000{i}", "settled", 100, 0), source="table",
                       round_id=f"{TABLE}-00000{i}")
    async with Pit(mosquitto) as pit, make_feed(mosquitto, journal):
        await pit.wait_for(lambda: any(h["seq"] == 3 for h in _heads(pit)))
    journal.close()
    restored = Journal(older)
    alerts = await _alerts_after_start(mosquitto, restored)
    assert [a["code"] for a in alerts] == [HEAD_MISMATCH] and "seq 3" in alerts[0]["message"]
    restored.close()
