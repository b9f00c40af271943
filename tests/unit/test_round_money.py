"""A round's drop and paid, by the definition the pit, the ledger and the back office share."""

from controller.feed.ledger import Ledger
from controller.journal import Entry
from controller.pit.stats import summary
from controller.round_money import counted
from controller.terminal.printer import round_line

# ru6: box 1 busts (1000 lost), box 2 surrenders (1000, half back), box 3's blackjack is paid at
# once (1000, 2500 back), then the round is voided: only box 4's 1000 still rode and is returned.
VOIDED = {"status": "void", "stake_total": 4000, "payout_total": 500 + 2500 + 1000,
          "bets": [{"box": b, "hand": 1, "kind": "main", "player": None, "stake": 1000, "payout": p}
                   for b, p in ((1, 0), (2, 500), (3, 2500), (4, 1000))],
          "outcome": {"void": {"reason": "dealer", "returned": [3], "stands": [0, 1, 2], "returned_total": 1000,
                               "stands_payout_total": 3000}}}
SETTLED = {"status": "settled", "stake_total": 2000, "payout_total": 500}
OLD_VOID = {"status": "void", "stake_total": 3000, "payout_total": 3000, "outcome": {}}


def test_a_void_counts_the_bets_that_stood_and_not_what_it_returned() -> None:
    assert counted(VOIDED) == (3000, 3000)  # the bust and the surrender paid for the blackjack: win 0
    assert counted(SETTLED) == (2000, 500)
    assert counted(OLD_VOID) == (0, 0)  # before voids kept settled bets, a void returned everything
    assert counted({**VOIDED, "outcome": {"void": {"returned_total": 99_999}}}) == (0, 0)  # nonsense: all returned


def test_the_pit_and_the_ledger_agree_on_a_void_with_standing_bets() -> None:
    stats = summary([VOIDED, SETTLED, OLD_VOID])
    assert (stats["drop"], stats["win"]) == (5000, 1500)
    ledger = Ledger()
    for seq, record in enumerate((VOIDED, SETTLED, OLD_VOID), start=1):
        ledger.apply(Entry(seq, "2026-12-01T10:00:00Z", f"r{seq}", "round_closed", "table", {**record, "round": f"r{seq}"}))
    totals = ledger.totals
    assert (totals.stake_total, totals.payout_total, totals.void_stake_total) == (5000, 3500, 1000 + 3000)
    assert (totals.rounds_settled, totals.rounds_void) == (1, 2)


def test_a_ledger_restored_from_its_state_still_knows_what_a_void_returned() -> None:
    ledger = Ledger()
    ledger.apply(Entry(1, "2026-12-01T10:00:00Z", "r1", "round_closed", "table", {**VOIDED, "round": "r1"}))
    restored = Ledger.from_state(ledger.state())
    # the same round's record again (a redelivery, a correction) replaces it: the totals stay
    restored.apply(Entry(2, "2026-12-01T10:00:01Z", "r1", "round_closed", "table", {**VOIDED, "round": "r1"}))
    assert (restored.totals.stake_total, restored.totals.payout_total, restored.totals.void_stake_total) == \
        (3000, 3000, 1000)


def test_the_text_recall_of_a_void_shows_what_stood_and_what_was_returned() -> None:
    line = round_line({**VOIDED, "round": "r1", "outcome": {**VOIDED["outcome"], "dealer": []}})
    assert line.startswith("ROUND r1 void: stood: stake 30.00 EUR payout 30.00 EUR; returned 10.00 EUR "
                           "(box 1.1 main 10.00 EUR stood, paid 0.00 EUR, box 2.1 main 10.00 EUR stood, paid "
                           "5.00 EUR, box 3.1 main 10.00 EUR stood, paid 25.00 EUR, box 4.1 main 10.00 EUR "
                           "returned 10.00 EUR)")
    assert "stake 40.00 EUR" not in line  # not the gross stake
