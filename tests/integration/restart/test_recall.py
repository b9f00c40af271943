"""``recall --last N`` reads the newest records through the kind index and agrees with a full read."""

from __future__ import annotations

from controller.journal import Journal
from controller.table.recall import last_records, recall, round_records


def test_last_rounds_match_the_full_read_including_a_later_correction(synthesised):
    path = synthesised(3000)
    everything = round_records(path)
    assert len(everything) > 50
    assert last_records(path, 10) == everything[-10:]
    # A correction of an older round, closed again later: still that round's place, newest record.
    old = everything[-5]
    corrected = {**old, "payout_total": old["payout_total"] + 100, "corrections": [{"seq": 1}]}
    with Journal(path) as j:
        j.append("round_closed", corrected, source="table", round_id=old["round"])
    again = round_records(path)
    assert last_records(path, 10) == again[-10:]
    assert last_records(path, 10)[-5] == corrected
    assert recall(path, round_id=old["round"]) == [corrected]
    assert recall(path, last=None) == again
