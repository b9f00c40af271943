"""The hub keeps the connections open now, not the day's: players who came and went leave no
entry behind (a day of 10,000 players once each is no index of 10,000 empty sets)."""

from __future__ import annotations

from controller.studio.book import Player
from controller.studio.hub import Hub, Seat


def test_players_gone_leave_nothing_in_the_hub() -> None:
    hub = Hub()
    for n in range(1000):
        seat = Seat()
        hub.seat(seat, "rl-eu", Player("casino-a", f"p{n}", f"P{n}", "EUR"))
        hub.leave(seat)
    assert (hub.players, hub.seated, hub.seats_at("rl-eu")) == (0, 0, [])


def test_a_player_stays_while_one_of_their_connections_is_open() -> None:
    hub, anna = Hub(), Player("casino-a", "anna", "Anna", "EUR")
    first, second = Seat(), Seat()
    hub.seat(first, "rl-eu", anna)
    hub.seat(second, "rl-eu", anna)
    hub.leave(first)
    assert hub.connected("rl-eu", "casino-a", "anna") and hub.players == 1
    hub.to_player("rl-eu", "casino-a", "anna", {"type": "balance"})
    assert second.outbox.get_nowait() == {"type": "balance"} and first.outbox.empty()
    hub.leave(second)
    assert not hub.connected("rl-eu", "casino-a", "anna") and hub.players == 0
