"""What a closed round counts for the house: its drop (the stakes at risk) and what it paid back.

One definition for the pit's statistics, the feed's ledger and the back office's reports. A
settled round counts every bet. A void round counts the bets that stood (settled before the
void, RULES.md: a bust lost, a surrender kept half, a blackjack paid at once), read from the
record's ``outcome.void``; what the void returned is a refund and counts in neither. A void
record written before voids kept settled bets has no ``outcome.void``: everything was returned.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def amount(value: object) -> int:
    """A record's money field as minor units (anything else counts as 0)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def returned(record: Mapping[str, Any]) -> int:
    """The stakes a void round returned (0 for a settled round)."""
    if record.get("status") == "settled":
        return 0
    stake = amount(record.get("stake_total"))
    outcome = record.get("outcome")
    void = outcome.get("void") if isinstance(outcome, Mapping) else None
    refunds = void.get("returned_total") if isinstance(void, Mapping) else None
    if not isinstance(refunds, int) or isinstance(refunds, bool) or not 0 <= refunds <= stake:
        return stake  # an older void record: every stake was returned
    return refunds


def net_of_refunds(stake_total: int, payout_total: int, refunds: int) -> tuple[int, int]:
    """(drop, paid) from a record's totals and what it returned (a refund pays back its stake)."""
    return max(0, stake_total - refunds), max(0, payout_total - refunds)


def counted(record: Mapping[str, Any]) -> tuple[int, int]:
    """(drop, paid) of one closed round record, in minor units."""
    return net_of_refunds(amount(record.get("stake_total")), amount(record.get("payout_total")), returned(record))
