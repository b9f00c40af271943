"""The soak's dealer stops waiting for a card the table journaled as lost (``shoe.lost_card``)
at once, instead of giving it up only after ``LOST_AFTER`` seconds: a lost card used to hold
the next round ~20 s (the 1,000-round soak loses about twenty)."""

from __future__ import annotations

import time
from pathlib import Path

from controller.games.blackjack.engine import BlackjackRound
from controller.games.blackjack.rules import blackjack_rules
from controller.hil.dealer import LOST_AFTER, ONLINE_GRACE, Dealer
from controller.hil.rig import DrawnCard, ShoeRig
from controller.hil.tail import LiveTable
from controller.journal import Journal


def test_a_card_the_table_journaled_lost_is_not_waited_for(tmp_path: Path) -> None:
    path = tmp_path / "table.journal"
    with Journal(path) as journal:
        journal.append("device", {"type": "lost_card", "device": "shoe", "expected_n": 90, "got_n": 120},
                       source="shoe", round_id=None)  # the last shoe's
        journal.append("device", {"type": "card", "device": "shoe", "card": "AS", "n": 101}, source="shoe",
                       round_id=None)
    live = LiveTable(path, lambda: BlackjackRound(blackjack_rules("ru6")), None)
    dealer = Dealer(ShoeRig(tmp_path / "shoe", 1, 6), live)
    live.poll()
    dealer.waiting, dealer.since, dealer.drawn_at = DrawnCard(1, 102, "9C"), time.monotonic(), live.tail.seq
    # drawn, then the shoe lost power; a loss the table journaled before the draw is another card's
    dealer.step()
    assert dealer.waiting is not None  # nothing says it is lost yet: still waited for
    with Journal(path) as journal:
        journal.append("device", {"type": "lost_card", "device": "shoe", "expected_n": 102, "got_n": 103},
                       source="shoe", round_id=None)
    live.poll()
    dealer.step()
    assert time.monotonic() - dealer.since < LOST_AFTER
    assert dealer.waiting is None and [c.n for c in dealer.lost] == [102]


def test_a_card_whose_frame_went_with_the_shoes_power_is_not_waited_for(tmp_path: Path) -> None:
    """The controller was killed while the shoe lost power with a card's frame unacknowledged:
    the table, restarted, never hears of that card (no ``lost_card`` either), and the dealer
    stops waiting for it at once instead of holding the round ``LOST_AFTER`` seconds."""
    path = tmp_path / "table.journal"
    Journal(path).close()
    live = LiveTable(path, lambda: BlackjackRound(blackjack_rules("ru6")), None)
    rig = ShoeRig(tmp_path / "shoe", 1, 6)  # no link: every frame stays unacknowledged
    dealer = Dealer(rig, live)
    drawn = rig.draw()
    assert drawn is not None and rig.firmware.pending == 1
    dealer.waiting, dealer.since = drawn, time.monotonic()
    dealer.step()
    assert dealer.waiting is drawn  # still on its way
    rig.power_loss()
    rig.firmware._pending.clear()  # the HELLO of power-up, acknowledged by the driver
    dealer.step()
    assert dealer.waiting is None and dealer.lost == [drawn]


def test_a_card_acknowledged_by_a_controller_that_died_is_not_waited_for(tmp_path: Path) -> None:
    """SIGKILL between the driver's ACK and the journal row: the shoe holds no frame to send
    again and no later start hears of the card; it is lost once the dead controller's journal
    is read, not ``LOST_AFTER`` seconds later. A frame the shoe still holds is still waited for."""
    path = tmp_path / "table.journal"
    Journal(path).close()
    live = LiveTable(path, lambda: BlackjackRound(blackjack_rules("ru6")), None)
    rig = ShoeRig(tmp_path / "shoe", 1, 6)
    dealer = Dealer(rig, live)
    drawn = rig.draw()
    assert drawn is not None and rig.firmware.pending == 1
    dealer.waiting, dealer.since = drawn, time.monotonic()
    dealer.controller_gone()
    assert dealer.waiting is drawn  # unacknowledged: the shoe sends it to the next controller
    rig.firmware._pending.clear()  # the dead controller's driver acknowledged it
    dealer.controller_gone()
    assert dealer.waiting is None and dealer.lost == [drawn]


def test_a_card_drawn_for_a_controller_that_died_is_not_waited_for_once_the_next_has_the_shoe(
        tmp_path: Path) -> None:
    """Drawn, then the controller was killed; the next one's driver reset the shoe (its resend
    queue cleared) and journaled it online: once that is ``ONLINE_GRACE`` old without the card,
    the card is lost. Before that start, or before the shoe is online, it is still waited for."""
    path = tmp_path / "table.journal"
    Journal(path).close()
    live = LiveTable(path, lambda: BlackjackRound(blackjack_rules("ru6")), None)
    rig = ShoeRig(tmp_path / "shoe", 1, 6)
    dealer = Dealer(rig, live)
    drawn = rig.draw()
    assert drawn is not None
    rig.firmware._pending.clear()  # gone from the shoe's queue (a RESET)
    dealer.waiting, dealer.since, dealer.drawn_at = drawn, time.monotonic(), live.tail.seq
    with Journal(path) as journal:
        journal.append("table_started", {"game": "blackjack"}, source="table")
    live.poll()
    dealer.step()
    assert dealer.waiting is drawn  # the new controller has not heard the shoe yet
    with Journal(path) as journal:
        journal.append("device", {"type": "online", "device": "shoe"}, source="shoe")
    live.poll()
    dealer.step()
    assert dealer.waiting is drawn  # its kept cards may still be on their way to the journal
    live.shoe_online_at -= ONLINE_GRACE  # as if read a moment ago
    dealer.step()
    assert dealer.waiting is None and dealer.lost == [drawn]
