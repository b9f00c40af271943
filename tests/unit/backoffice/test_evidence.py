"""The advantage-play evidence read from the feed: any JSON at all reads as typed figures or
"not given", never an exception."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from controller.backoffice.evidence import Evidence

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
                    max_leaves=20)
FIELDS = st.sampled_from(["test", "statistic", "ci", "p_value", "rounds", "average_bet", "edge_per_hour",
                          "index_plays", "bets_by_count"])


@given(st.dictionaries(FIELDS, JSON) | JSON)
def test_any_json_reads_as_typed_figures(raw: Any) -> None:
    e = Evidence.read(raw)
    assert e.test is None or isinstance(e.test, str)
    for value in (e.statistic, e.p_value, *e.ci):
        assert value is None or (isinstance(value, float) and math.isfinite(value))
    for whole in (e.rounds, e.average_bet, e.edge_per_hour, *e.index_plays.values()):
        assert whole is None or (isinstance(whole, int) and not isinstance(whole, bool))
    assert all(math.isfinite(x) and math.isfinite(y) for x, y in e.bets_by_count)


def test_good_evidence_reads_whole() -> None:
    e = Evidence.read({"test": "bet_ramp", "statistic": 0.41, "ci": [0.3, 0.51], "p_value": 1e-9, "rounds": 240,
                       "index_plays": {"situations": 30, "with_count": 9, "missed": ""}, "bets_by_count": [[1, 2]]})
    assert (e.test, e.statistic, e.ci, e.rounds) == ("bet_ramp", 0.41, (0.3, 0.51), 240)
    assert e.index_plays == {"situations": 30, "with_count": 9} and e.bets_by_count == [(1.0, 2.0)]
