"""The shoe games on the pit feed (real mosquitto): the closed coup reaches the pit as the record
the journal holds, with its hand-worked settlements, and a hold reaches it as an alert with the
engine's rule code before anything is settled."""

from __future__ import annotations

import pytest

from controller.feed import Feed
from controller.process import FeedListener
from tests.integration.feed.conftest import TABLE, Pit
from tests.integration.table.conftest import bets
from tests.integration.table_games import test_catch_a_wave as caw
from tests.integration.table_games import test_russian_poker as poker
from tests.integration.table_games import test_three_card_blackjack as tcb
from tests.integration.table_games.conftest import open_with_bets
from tests.integration.table_games.test_baccarat import BETS, C3, LIMITS


async def test_baccarat_coup_and_hold_over_mosquitto(game_table, mosquitto):
    """Coup 3 of test_baccarat (Banker 6 stands on a Player third card of 9) with a card drawn
    against the tableau, burned: A 1010 -> 1969, C Banker 300 -> 585, the rest lose."""
    t = await game_table(game="baccarat", stacked=C3 + ["8D"], limits=LIMITS, table_id=TABLE)
    async with Pit(mosquitto) as pit, Feed.connect(mosquitto.tcp_url(), t.journal, TABLE, lambda c: None,
                                                   backoff_max=0.5) as feed:
        t.loop.listeners.append(FeedListener(feed))
        await open_with_bets(t, *BETS)
        await t.deal(*C3, "8D")
        await pit.wait_for(lambda: any(a.get("code") == "baccarat.tableau" for a in pit.on("alert")))
        held = next(a for a in pit.on("alert") if a["code"] == "baccarat.tableau")
        assert held["hold"] and held["severity"] == "error" and held["cards"] == ["8D"]
        await pit.wait_for(lambda: pit.on("prompt") and pit.on("prompt")[-1]["text"].startswith("HOLD baccarat.tableau"))
        assert pit.on("round") == []

        await t.cmd("burn")
        await t.cmd("settle")
        (record,) = t.rounds()
        await pit.wait_for(lambda: len(pit.on("round")) >= 1)
        (message,) = pit.on("round")
        assert {k: v for k, v in message.items() if k not in ("seq", "ts")} == record
        assert bets(message) == [(1, 1, "banker", "A", 1010, 1969), (2, 1, "player", "B", 2000, 0),
                                 (3, 1, "banker", "C", 300, 585), (3, 1, "tie", "C", 500, 0)]
        assert (message["stake_total"], message["payout_total"]) == (3810, 2554)
        assert message["game"] == "baccarat" and message["outcome"]["burned"] == ["8D"]


# game -> (table options, round-1 script up to the settle prompt, hand-worked settlements, totals);
# the scripts and their hand-working are those of each game's own end-to-end test
ROUND_ONE = {
    "three-card-blackjack": (
        {"stacked": tcb.R1, "limits": tcb.LIMITS},
        tcb._round1,
        [(1, 1, "ace_plus", "A", 500, 2000), (3, 1, "ante", "C", 500, 0), (1, 1, "ante", "A", 1000, 2000),
         (1, 1, "play", "A", 1000, 2000), (2, 1, "ante", "B", 2000, 2000), (2, 1, "play", "B", 2000, 2000)],
        (7000, 10000),
    ),
    "catch-a-wave": (
        {"stacked": caw.R1, "limits": caw.LIMITS},
        caw._round1,
        [(2, 1, "main", "B", 2000, 0), (1, 1, "main", "A", 1000, 2000), (3, 1, "main", "C", 500, 0)],
        (3500, 2000),
    ),
    "russian-poker": (
        {"stacked": poker.R1, "limits": poker.LIMITS, "preset": "exchange"},
        poker._round1,
        [(2, 1, "exchange", "B", 2000, 0), (3, 1, "ante", "C", 500, 0), (1, 1, "ante", "A", 1000, 2000),
         (1, 1, "raise", "A", 2000, 12000), (1, 1, "bonus", "A", 500, 25500), (2, 1, "ante", "B", 2000, 4000),
         (2, 1, "raise", "B", 4000, 24000)],
        (12000, 67500),
    ),
}


@pytest.mark.parametrize("game", sorted(ROUND_ONE))
async def test_round_message_carries_the_hand_worked_settlements(game_table, mosquitto, game):
    options, play, expected, totals = ROUND_ONE[game]
    t = await game_table(game=game, table_id=TABLE, **options)
    async with Pit(mosquitto) as pit, Feed.connect(mosquitto.tcp_url(), t.journal, TABLE, lambda c: None,
                                                   backoff_max=0.5) as feed:
        t.loop.listeners.append(FeedListener(feed))
        await play(t)
        await t.cmd("settle")
        (record,) = t.rounds()
        await pit.wait_for(lambda: len(pit.on("round")) >= 1)
        (message,) = pit.on("round")
        assert {k: v for k, v in message.items() if k not in ("seq", "ts")} == record
        assert message["game"] == game and message["status"] == "settled"
        assert bets(message) == expected
        assert (message["stake_total"], message["payout_total"]) == totals
