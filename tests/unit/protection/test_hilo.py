from controller.protection.hilo import ShoeCount


def card(c: str, n: int) -> tuple[str, dict[str, object]]:
    return "device", {"device": "shoe", "type": "card", "card": c, "n": n}


def test_a_hand_worked_count() -> None:
    count = ShoeCount(decks=1)
    for i, c in enumerate(["2S", "6H", "7D", "9C", "TS", "AH", "KD", "3C", "4S", "5D"], start=1):
        count.apply(*card(c, i))
    # +1 +1 0 0 -1 -1 -1 +1 +1 +1 = +2 over 10 cards: 42 cards, 42/52 decks left
    assert count.running == 2 and count.seen == 10
    assert count.true_count == 2 / (42 / 52)


def test_a_resent_card_is_counted_once_and_a_new_shoe_starts_again() -> None:
    count = ShoeCount(decks=6)
    count.apply("device", {"type": "shoe_status", "shoe_id": "s-1", "n": 0, "state": "READY"})
    count.apply(*card("5H", 1))
    count.apply(*card("5H", 1))
    assert count.running == 1
    count.apply("command", {"command": "new_shoe"})
    count.apply("device", {"type": "shoe_status", "shoe_id": "s-2", "n": 0, "state": "READY"})
    assert (count.running, count.seen, count.shoes, count.shoe_id) == (0, 0, 2, "s-2")
    count.apply(*card("KH", 1))
    assert count.running == -1
    count.apply("command", {"command": "key_card", "card": "2D"})
    assert count.running == 0 and count.seen == 2


def test_the_table_start_names_the_decks() -> None:
    count = ShoeCount()
    count.apply("table_started", {"rules": {"decks": 8}})
    assert count.decks == 8 and count.decks_left == 8


def test_a_late_status_of_the_old_shoe_after_new_shoe_does_not_reset_the_new_shoe_mid_way() -> None:
    count = ShoeCount(decks=6)
    count.apply("device", {"type": "shoe_status", "shoe_id": "s-1", "n": 0, "state": "READY"})
    count.apply(*card("KH", 1))
    count.apply("command", {"command": "new_shoe"})
    count.apply("device", {"type": "shoe_status", "shoe_id": "s-1", "n": 1, "state": "LOCKED"})  # in flight
    count.apply(*card("2H", 1))
    count.apply(*card("3H", 2))
    count.apply("device", {"type": "shoe_status", "shoe_id": "s-2", "n": 2, "state": "READY"})
    assert (count.shoe_id, count.shoes, count.running, count.seen) == ("s-2", 2, 2, 2)
