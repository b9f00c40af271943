"""When a round may open is the offer's to say (controller/table/offer.py, ``opening_refusal``):
the core refuses an ``open_round`` the offer does not take with the refusal the offer gives."""

from __future__ import annotations

from typing import Protocol

from controller.commands.models import OpenRound
from controller.records.offer import Offer
from controller.table.refusal import Refusal


class OpeningTable(Protocol):
    """What deciding whether a round may open reads of the table: its offer now."""

    @property
    def offer(self) -> Offer: ...


def check_can_open(core: OpeningTable) -> None:
    """Refusal naming the first reason a round cannot open now (the offer's)."""
    offer = core.offer
    if offer.take(OpenRound.name()) is None:
        refused = offer.refusal(OpenRound.name())
        raise Refusal(refused.code if refused else "table.round.not_now",
                      refused.reason if refused else f"a round cannot open now: {offer.prompt}")
