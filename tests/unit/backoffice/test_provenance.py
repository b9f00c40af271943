"""A corrected version against the journal rows it carries (controller/backoffice/provenance.py),
the rows written by the real Journal and carried as the real feed builds them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from controller.backoffice import provenance
from controller.backoffice.records import RoundRow, parse
from tests.integration.backoffice import journaled

ROUND = "croupier/bj1/round"


def corrected(tmp_path: Path, key: bytes | None = journaled.KEY) -> dict[str, Any]:
    table = journaled.corrected_round(tmp_path / "bj1.db", key=key)
    return json.loads([m.payload for m in table.messages if m.topic == ROUND][-1])


def verdict(body: dict[str, Any], key: bytes | None) -> provenance.Verdict:
    [row] = parse(ROUND, json.dumps(body).encode())
    assert isinstance(row, RoundRow)
    return provenance.check(row, provenance.Trust(key))


def test_a_first_version_needs_no_proof(tmp_path: Path) -> None:
    first = journaled.corrected_round(tmp_path / "bj1.db").first
    assert verdict(first, journaled.KEY) == provenance.Verdict()


def test_a_genuine_correction_verifies_with_the_key_and_names_its_heads_without(tmp_path: Path) -> None:
    body = corrected(tmp_path)
    assert verdict(body, journaled.KEY) == provenance.Verdict()
    without = verdict(body, None)
    assert without.refused is None
    # the row before the approval, the approval, the record (row 1 declares the journal's key)
    assert [seq for seq, _ in without.heads] == [3, 4, 5]


def tampered(body: dict[str, Any], row: int, **changes: Any) -> dict[str, Any]:
    rows = [dict(r) for r in body["journal"]["rows"]]
    rows[row].update(changes)
    return {**body, "journal": {**body["journal"], "rows": rows}}


@pytest.mark.parametrize(("change", "said"), [
    (lambda b: {k: v for k, v in b.items() if k != "journal"}, "without the journal rows"),
    (lambda b: {**b, "payout_total": 9000, "bets": [{**b["bets"][0], "payout": 9000}]}, "differ from its journal row"),
    (lambda b: tampered(b, -1, payload=json.dumps({**json.loads(b["journal"]["rows"][-1]["payload"]),
                                                    "payout_total": 9000})), "hash mismatch"),
    (lambda b: tampered(b, 0, mac="0" * 64), "MAC mismatch"),
    (lambda b: tampered(b, 0, mac=None), "no MAC"),
    (lambda b: {**b, "journal": {**b["journal"], "prev": "0" * 64}}, "hash mismatch"),
    (lambda b: {**b, "corrections": [{**b["corrections"][0], "approval": 1}]}, "differ from its journal row"),
    (lambda b: {**b, "seq": 99}, "not this round's record"),
])
def test_a_changed_version_or_proof_is_refused_with_the_key(tmp_path: Path, change: Any, said: str) -> None:
    refused = verdict(change(corrected(tmp_path)), journaled.KEY).refused
    assert refused is not None and said in refused


def test_rows_of_another_key_are_refused(tmp_path: Path) -> None:
    refused = verdict(corrected(tmp_path, key=b"f" * 32), journaled.KEY).refused
    assert refused is not None and "MAC mismatch" in refused


def test_an_unkeyed_journals_rows_are_refused_by_a_back_office_holding_a_key(tmp_path: Path) -> None:
    refused = verdict(corrected(tmp_path, key=None), journaled.KEY).refused
    assert refused is not None and "no MAC" in refused
