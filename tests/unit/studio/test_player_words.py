"""The player's page says every refusal of the protocol in a sentence of its own (never the code),
and its results and payouts in words (controller/studio/page/static/words.js, run by node)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from controller.studio.protocol import REASONS

ROOT = Path(__file__).resolve().parents[3]
WORDS = ROOT / "controller" / "studio" / "page" / "static" / "words.js"
CROUPIER = ROOT / "controller" / "web" / "static" / "croupier.js"
#: refusals of a message the page itself got wrong: one sentence for them all
UNREADABLE = {"malformed", "too_large", "too_deep", "invalid"}


def said(script: str) -> Any:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    program = (f"global.Croupier = require({json.dumps(str(CROUPIER))}); const W = require({json.dumps(str(WORDS))});"
               f" process.stdout.write(JSON.stringify({script}));")
    out = subprocess.run([node, "-e", program], capture_output=True, text=True, timeout=60, check=True)
    return json.loads(out.stdout)


def test_every_refusal_reason_has_its_own_sentence() -> None:
    sentences = said(f"{json.dumps(list(REASONS))}.map((r) => [r, W.refusal(r), W.ends(r)])")
    fallback = said('W.refusal("no_such_reason")')
    for reason, sentence, _ in sentences:
        assert sentence.endswith(".") and sentence[0].isupper(), (reason, sentence)
        assert "_" not in sentence, (reason, sentence)  # no code: a sentence
        assert (sentence == fallback) == (reason in UNREADABLE), (reason, sentence)
    ending = {reason for reason, _, ends in sentences if ends}
    assert ending == {"token_invalid", "token_expired", "token_replayed", "token_refused", "unknown_table", "currency"}


def test_results_and_payouts_in_words() -> None:
    roulette = {"wheel": "european", "numbers": ["17", "0"], "colours": ["black", "green"]}
    baccarat = {"player": {"cards": ["3S", "3C"], "total": 6}, "banker": {"cards": ["6C", "TC", "AH"], "total": 7},
                "winner": "banker"}
    blackjack = {"dealer": {"cards": ["KS", "7H"]}, "boxes": [{"box": 3, "hands": [{"cards": ["AC", "KD"]}]}]}
    got = said(f"[W.result({json.dumps(roulette)}), W.result({json.dumps(baccarat)}), W.result({json.dumps(blackjack)}),"
               " W.paid(700, 7200, false, (m) => `${m / 100} EUR`), W.paid(500, 0, false, (m) => `${m / 100} EUR`),"
               " W.paid(500, 500, true, (m) => `${m / 100} EUR`), W.verdict('sealed', 500, null)]")
    assert got == ["17 black and 0 green", "Banker wins, 7 to 6: banker 6♣ 10♣ A♥, player 3♠ 3♣",
                   "dealer K♠ 7♥ · box 3 A♣ K♦", "You won: 72 EUR paid on a stake of 7 EUR.",
                   "No win this round (stake 5 EUR).", "Your bets were returned: 5 EUR.", "waiting for the result"]


def test_a_bets_kind_in_words() -> None:
    got = said('["straight:17", "red", "main@3", "21+3@3", "behind@5+double+split", "banker"].map(W.kind)')
    assert got == ["straight 17", "red", "main, box 3", "21+3, box 3", "bet behind, box 5, follows double and split",
                   "banker"]


def test_a_balance_still_owed_by_the_operator_in_words() -> None:
    got = said("[W.CONFIRMING, ...['settled', 'refunded', 'sealed', 'open'].map(W.finished)]")
    assert got == ["Your casino is confirming your balance…", True, True, False, False]
