"""What became of one input the table stepped: accepted, or refused with the refusal's code and
sentence (``controller.records.offer.OutcomeBody``; docs/protocols.md, "outcome"). The loop
hands it to whoever answers the input's giver (the console's page, the feed's ``outcome``), so
no face infers it from the alerts."""

from __future__ import annotations

from typing import Any

from controller.journal import Entry

ACCEPTED, REFUSED = "accepted", "refused"


def outcome(entry: Entry, refused: tuple[str, str] | None) -> dict[str, Any]:
    """The outcome of ``entry`` (``refused``: the refusal's code and sentence, None: accepted)."""
    payload = entry.payload
    name = payload.get("command", payload.get("type"))
    ident = payload.get("id")
    body: dict[str, Any] = {"seq": entry.seq, "source": entry.source, "kind": entry.kind,
                            "status": ACCEPTED if refused is None else REFUSED}
    if isinstance(name, str):
        body["command"] = name
    if isinstance(ident, str):
        body["id"] = ident
    if refused is not None:
        body["code"], body["reason"] = refused
    return body
