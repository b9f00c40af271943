"""The pit's ``state`` says ``closing`` the moment the pit asks to close after the round, even
mid-round when the dealer's prompt does not change (and ``closing: false`` as soon as it
reopens): the state the feed publishes is what the listeners are told, not only the prompt."""

from __future__ import annotations

from typing import Any

from controller.table import inputs
from tests.integration.table.conftest import table_factory  # noqa: F401  # a real blackjack table


class StateSeen:
    """A feed-like listener: the ``closing`` of every state it is handed."""

    def __init__(self) -> None:
        self.closing: list[bool] = []

    def on_entry(self, entry: Any) -> None:
        pass

    def on_prompt(self, prompt: str, core: Any) -> None:
        self.closing.append(core.state()["closing"])

    def on_state(self, core: Any) -> None:
        self.closing.append(core.state()["closing"])


async def _pit(t: Any, command: str) -> None:
    t.loop.submit(inputs.PIT_COMMAND, {"v": 1, "id": f"c{t.journal.last_seq()}", "sender": "pat",
                                       "command": command}, "pit:pat")
    await t.loop.settled()


async def test_close_after_round_mid_round_reaches_the_pit_state_at_once(table_factory: Any) -> None:  # noqa: F811
    t = await table_factory(stacked=["TS", "7C", "8S", "QD", "5H", "9D"])
    seen = StateSeen()
    t.loop.listeners.append(seen)
    await t.play((1, 1000, "A"))
    prompt = t.prompt
    await _pit(t, "close_after_round")
    assert t.prompt == prompt  # the dealer's instruction is the same: only the pit's view changed
    assert seen.closing[-1] is True
    await _pit(t, "reopen")
    assert seen.closing[-1] is False
