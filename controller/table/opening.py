"""When a round may open is the offer's to say (controller/table/offer.py, ``open_round_refusal``):
the core refuses an ``open_round`` the offer does not take with the refusal the offer gives."""

from __future__ import annotations

from controller.table.offer import OfferedTable, open_round_refusal
from controller.table.refusal import Refusal

#: what deciding whether a round may open reads of the table: what its offer reads
OpeningTable = OfferedTable


def check_can_open(core: OpeningTable) -> None:
    """Refusal naming the first reason a round cannot open now (the offer's)."""
    refused = open_round_refusal(core)
    if refused is not None:
        raise Refusal(refused.code, refused.reason)
