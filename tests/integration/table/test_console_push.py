"""The console's push of a step (controller/console/hub.py) on a real table loop with its
stacked shoe on a pty: a card's snapshot is handed to the pages as soon as the step's effects
are carried out, before the loop's other applied hooks (the journal's state snapshots) run, and
the flush the step also scheduled sends the pages nothing they already have."""

from __future__ import annotations

from typing import Any

from controller.auth import Session
from controller.console.hub import ConsoleHub, Page
from controller.journal import Entry
from controller.table.core import TableCore


async def test_a_cards_snapshot_is_handed_over_before_the_loops_other_hooks(table_factory: Any) -> None:
    t = await table_factory(stacked=["TS", "7H", "9C", "TD"])
    hub = ConsoleHub(t.loop, tick=3600)  # no once-a-second snapshot in between
    page = Page(Session("token", "dana", "dealer", 1e18), "dana-page")
    hub.attach(page)
    handed: list[bool] = []

    def later_hook(core: TableCore, entry: Entry) -> None:  # as the state snapshots' hook, appended after
        if entry.kind == "device" and entry.payload.get("type") == "card":
            handed.append(page.snapshot is not None and f'"{entry.payload["card"]}"' in page.snapshot)

    t.loop.applied_hooks.append(later_hook)
    try:
        await t.play((1, 1000, "A"))
        version = hub.version
        await t.deal("TS")
        assert handed == [True]
        assert hub.version == version + 1  # one snapshot for the step, not one more from its end
        await t.deal("7H")
        assert handed == [True, True] and hub.version == version + 2
    finally:
        hub.detach(page)
        await hub.close()
