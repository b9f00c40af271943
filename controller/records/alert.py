"""The ``alert`` message (docs/protocols.md §4): procedure errors, holds, device faults and
disconnects, refused input, pit actions; the table journals it as an ``alert`` entry and the
feed publishes that entry under its envelope."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field, Strict

from controller.records.limits import MAX_BETS, MAX_CODE, MAX_ID, MAX_MESSAGE, MAX_SEQ
from controller.records.wire import Envelope, Seq

Code = Annotated[str, Field(min_length=1, max_length=MAX_CODE)]


class AlertMessage(Envelope):
    """``croupier/<table>/alert`` (QoS 1). Besides the fields below an alert may carry details of
    its code (``cards``, ``n``, ``raw``, ``dealer``, ``by``, ``returned``, ...), named in
    docs/pit.md: those are kept as they came."""

    model_config = ConfigDict(extra="allow", title="feed alert")

    seq: Seq = Field(description="the alert's journal seq: the id the pit acknowledges it by")
    severity: Literal["info", "warning", "error"] = Field(
        description="error: needs the pit (open until acknowledged); warning: refused or odd input; info: a fact")
    code: Code = Field(description="stable, dotted: input.refused, device.offline, blackjack.dealer.stands, ...")
    message: str = Field(max_length=MAX_MESSAGE, description="one sentence for people")
    cause: Annotated[int, Strict(), Field(ge=0, le=MAX_SEQ)] | None = Field(
        None, description="the journal seq of the input that raised it (0: none)")
    hold: bool | None = Field(None, description="true when the table holds until the pit or dealer acts")
    options: list[Annotated[str, Field(max_length=MAX_ID)]] | None = Field(
        None, max_length=32, description="the ways out of the hold: burn, void_round, resume, ...")
    source: str | None = Field(None, max_length=MAX_CODE,
                               description="input.refused: the source refused (spot:3, pit, dealer, ...)")
    count: int | None = Field(None, ge=1, description="input.refused: how many inputs this alert counts")
    codes: dict[Code, int] | None = Field(None, max_length=MAX_BETS, description="input.refused: those inputs by "
                                                                                  "refusal code (input.invalid, ...)")
    reason: str | None = Field(None, max_length=MAX_MESSAGE, description="command_refused: why the pit command was "
                                                                         "refused")
    raw: str | None = Field(None, max_length=MAX_MESSAGE, description="the start of the refused input, as text")
    id: str | None = Field(None, max_length=MAX_ID, description="command_refused: the refused command's id, if any")
    sender: str | None = Field(None, max_length=MAX_CODE,
                               description="command_refused: the refused command's sender, if it had one")
