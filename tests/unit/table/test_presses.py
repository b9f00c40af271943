"""Spot presses through the core alone: what each press means now, what is refused and why, and
that replaying the journal gives the same table (presses are inputs like any other)."""

from __future__ import annotations

from typing import Any

from controller.journal import Journal
from controller.runtime.recovery import replay
from controller.table import inputs
from controller.table.presses import lamp_options
from tests.unit.table.test_core import Live, new_core


def press(live: Live, spot: int, button: str, seq: int, **extra: Any) -> list[dict[str, Any]]:
    payload = {"type": "press", "spot": spot, "device": f"spot-{spot}", "button": button, "seq": seq, **extra}
    effects = live.put(inputs.DEVICE, payload, f"spot:{spot}")
    return [e.payload for e in effects if getattr(e, "kind", None) == inputs.ALERT]


def card(live: Live, text: str, n: int) -> None:
    live.put(inputs.DEVICE, {"type": "card", "device": "shoe", "card": text, "n": n}, "shoe")


def test_presses_bet_and_decide_and_refusals_change_nothing(tmp_path) -> None:
    with Journal(tmp_path / "j.sqlite") as journal:
        live = Live(journal)
        core = live.core
        (alert,) = press(live, 1, "bet", 1, amount=500)
        assert alert["code"] == "spot.no_round" and core.engine is None
        assert core.prompt() == "Open betting [spot 1 bet refused: spot 1 pressed bet: no round is open]"
        live.put(inputs.COMMAND, inputs.command("open_round"), "dealer")
        assert "refused" not in core.prompt()  # the state changed: the reason is gone
        assert press(live, 1, "bet", 2, amount=500) == []
        assert press(live, 2, "bet", 1, amount=300) == []
        assert press(live, 2, "clear", 2) == []
        assert [(b.box, b.stake, b.player) for b in core.adapter.open_bets(core.engine)] == [(1, 500, "spot-1")]
        live.put(inputs.COMMAND, inputs.command("close_betting"), "dealer")
        (alert,) = press(live, 1, "bet", 3, amount=500)
        assert alert["code"] == "spot.betting_closed"
        for n, c in enumerate(["TS", "6D", "6C"], start=1):
            card(live, c, n)
        expect = core.engine.expects()
        assert expect.box == 1 and "hit" in expect.options
        serial = core.serial
        (alert,) = press(live, 1, "split", 4)
        assert alert["code"] == "spot.not_legal" and core.serial == serial
        (alert,) = press(live, 2, "hit", 3)
        assert alert["code"] == "spot.out_of_turn" and "box 1 is to act" in alert["message"]
        assert press(live, 1, "stand", 5) == []
        assert core.engine.expects().kind.name == "DEALER_CARD"

        rebuilt = new_core()
        replay(journal, rebuilt)
        assert (rebuilt.serial, rebuilt.prompt(), rebuilt.engine.outcome()) == (
            core.serial, core.prompt(), core.engine.outcome())


def test_stand_declines_insurance_and_lamps_name_the_buttons(tmp_path) -> None:
    with Journal(tmp_path / "j.sqlite") as journal:
        live = Live(journal)
        live.put(inputs.COMMAND, inputs.command("open_round"), "dealer")
        press(live, 1, "bet", 1, amount=1000)
        live.put(inputs.COMMAND, inputs.command("close_betting"), "dealer")
        for n, c in enumerate(["TS", "AD", "7C"], start=1):
            card(live, c, n)
        expect = live.core.engine.expects()
        assert expect.options == ("insurance", "no_insurance")
        assert lamp_options(expect.options) == "INSURANCE STAND=NO"
        assert press(live, 1, "stand", 2) == []
        assert live.core.engine.outcome()["boxes"][0].get("insurance", 0) == 0
        assert live.core.engine.expects().options[:2] == ("hit", "stand")
