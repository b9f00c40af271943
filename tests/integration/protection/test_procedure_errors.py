"""A dealer's procedure errors name the dealer, so they can be counted per dealer: a card out of
turn (dealt against the rules), a wrong card keyed in, a key with nothing to key."""

from __future__ import annotations

from tests.integration.table.conftest import table_factory

__all__ = ["table_factory"]  # the blackjack table of the table tests: its shoe on a real pty


async def test_a_card_out_of_turn_names_the_dealer(table_factory) -> None:
    t = await table_factory(stacked=["TS", "7C", "8S", "QD", "5H"])
    await t.cmd("sign_in", dealer="D9")
    await t.play((1, 1000, "A"))
    await t.deal("TS", "7C", "8S")
    await t.cmd("decide", box=1, action="stand", player="A")
    await t.deal("QD")
    await t.deal("5H")  # the dealer stands on 17
    (held,) = [a for a in t.alerts() if a["hold"]]
    assert (held["code"], held["dealer"], held["cards"]) == ("blackjack.dealer.stands", "D9", ["5H"])


async def test_a_wrong_card_keyed_names_the_dealer(table_factory) -> None:
    t = await table_factory(stacked=["AS", "KD", "AH", "9C", "8C"], rules="decks = 1")
    await t.cmd("sign_in", dealer="D9")
    await t.cmd("key_card", card="AH")  # nothing waits to be keyed in
    assert (t.alerts()[-1]["code"], t.alerts()[-1]["dealer"]) == ("table.key_card.unexpected", "D9")
    await t.play((1, 1000, "A"))
    await t.deal("AS", "KD")
    t.firmware.noread_next = 1
    await t.draw("AH")
    await t.cmd("key_card", card="AS")  # already dealt: the one-deck shoe holds no other
    refused = t.alerts()[-1]
    assert (refused["code"], refused["severity"], refused["dealer"]) == ("shoe.impossible_card", "warning", "D9")
    await t.cmd("key_card", card="AH")
    assert t.core.keyin is None

