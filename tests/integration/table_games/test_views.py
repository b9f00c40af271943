"""Each game's typed outcome and its own views (docs/architecture.md, "adding a game").

The outcome's record is the JSON round records always carried, byte for byte (pinned below from
the dicts the engines returned before the models; ``scripts/replay_compare.py`` checks the same
on every example config); a record reads back as its model; each game's view tells the round
with suits and its own words; money is shown with its currency; and the generic modules name no
game."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.floor.edges import edges_for
from controller.games.baccarat import BaccaratRound, baccarat_rules
from controller.games.blackjack.engine import BlackjackRound
from controller.games.blackjack.rules import blackjack_rules
from controller.games.catch_a_wave import CatchAWaveRound, catch_a_wave_rules
from controller.games.roulette import RouletteRound, roulette_rules
from controller.games.russian_poker import RussianPokerRound, russian_poker_rules
from controller.games.three_card_blackjack import ThreeCardBlackjackRound, three_card_blackjack_rules
from controller.table.games.describe import outcome_lines, outcome_summary
from controller.table.registry import GAMES, adapter_for
from controller.terminal.printer import round_line

ROOT = Path(__file__).resolve().parents[3]

#: the outcome JSON of each round below as the engines wrote it before typed outcomes
RECORDED = {
    'blackjack': (
        '{"phase": "done", "dealer": {"cards": ["6D", "TH", "3S"], "face_down": [], "total": 19, "blackjack":'
        ' false}, "boxes": [{"box": 1, "owner": "ann", "insurance": 0, "hands": [{"hand": 1, "cards": ["TS", '
        '"6C", "TC"], "total": 26, "status": "bust", "multiplier": 1, "face_down": []}]}, {"box": 2, "owner":'
        ' "bob", "insurance": 0, "hands": [{"hand": 1, "cards": ["9S", "9H"], "total": 18, "status": "live", '
        '"multiplier": 1, "face_down": []}]}]}'
    ),
    'three-card-blackjack': (
        '{"phase": "done", "void": null, "dealer": {"cards": ["9H", "9D", "9C"], "value": 18, "blackjack": fa'
        'lse, "qualifies": true}, "boxes": [{"cards": ["AS", "5C", "KD"], "value": 22, "blackjack": true, "bo'
        'x": 1, "decision": "play", "ace_plus": "A-T-x"}]}'
    ),
    'catch-a-wave': (
        '{"phase": "dealer", "void": null, "boxes": [{"box": 1, "cards": ["5S", "8H"], "calls": ["higher"], "'
        'right_calls": 1, "status": "stood"}], "dealer": {"cards": ["9D", "2C"], "calls": ["lower"], "right_c'
        'alls": 1, "wrong": false}}'
    ),
    'russian-poker': (
        '{"boxes": {"2": {"cards": ["KS", "KH", "4C", "7D", "2S"], "hand": "pair", "status": "raised", "excha'
        'nged": false}}, "dealer": {"cards": ["AH", "KC", "8D", "6S", "2C"], "up": "2C", "hand": "high_card",'
        ' "qualifies": true}, "void": null}'
    ),
    'baccarat': (
        '{"player": {"cards": ["9S", "KS"], "total": 9}, "banker": {"cards": ["2D", "3C"], "total": 5}, "winn'
        'er": "player", "natural": true, "void": null}'
    ),
    'roulette': (
        '{"wheel": "european", "numbers": ["17"], "colours": ["black"], "multipliers": {}, "voids": ["miss_sp'
        'in"]}'
    ),
}


def _dealt(engine: Any, bets: list[tuple[int, str, int]], cards: str) -> Any:
    for box, kind, amount in bets:
        engine.place_bet(box, kind, amount, "ann" if box == 1 or len(bets) == 1 else "bob")
    engine.close_betting()
    for card in cards.split():
        engine.deal(card)
    return engine


def rounds() -> Iterator[tuple[str, Any]]:
    """One hand-played round per game (cards in deal order)."""
    r = _dealt(BlackjackRound(blackjack_rules("ru6")), [(1, "main", 1000), (2, "main", 500)], "TS 9S 6D 6C 9H")
    r.decide(1, 1, "hit")
    r.deal("TC")  # box 1 busts
    r.decide(2, 1, "stand")
    for card in ("TH", "3S"):  # dealer 6 T 3 = 19
        r.deal(card)
    yield "blackjack", r
    t = _dealt(ThreeCardBlackjackRound(three_card_blackjack_rules()), [(1, "ante", 500), (1, "ace_plus", 100)],
               "AS 9H 5C 9D KD 9C")
    t.decide(1, "play")
    yield "three-card-blackjack", t
    w = _dealt(CatchAWaveRound(catch_a_wave_rules()), [(1, "main", 1000)], "5S 9D")
    w.decide(1, "higher")
    w.deal("8H")
    w.decide(1, "stand")
    w.deal("2C")  # the dealer's 9 calls lower: right, then stands on 2 after one right call
    yield "catch-a-wave", w
    p = _dealt(RussianPokerRound(russian_poker_rules()), [(2, "ante", 1000)], "KS AH KH KC 4C 8D 7D 6S 2S 2C")
    p.decide(2, "raise")
    yield "russian-poker", p
    yield "baccarat", _dealt(BaccaratRound(baccarat_rules()), [(1, "player", 1000)], "9S 2D KS 3C")
    o = _dealt(RouletteRound(roulette_rules()), [(1, "red", 1000)], "")
    o.void_round("miss_spin")
    o.close_betting()
    o.wheel_result(("17",))
    yield "roulette", o


PLAYED = dict(rounds())


@pytest.mark.parametrize("game", sorted(RECORDED))
def test_the_outcome_record_is_the_json_round_records_always_carried(game: str) -> None:
    outcome = PLAYED[game].outcome()
    assert json.dumps(outcome.record()) == RECORDED[game]
    assert {**outcome, "burned": []} == {**json.loads(RECORDED[game]), "burned": []}  # as the table builds it


@pytest.mark.parametrize("game", sorted(RECORDED))
def test_a_record_reads_back_as_its_game_model(game: str) -> None:
    outcome = PLAYED[game].outcome()
    view = adapter_for(game).view
    assert view.parse({**json.loads(RECORDED[game]), "burned": ["2H"]}) == outcome
    assert view.parse({"cards": 3}) is None  # a record of another shape: no model, generic text
    assert type(outcome).from_record("not a record") is None


LINES = {
    "blackjack": ["dealer 6♦ 10♥ 3♠ (19)", "box 1.1 10♠ 6♣ 10♣ (26, bust)", "box 2.1 9♠ 9♥ (18, stood)"],
    "three-card-blackjack": ["dealer 9♥ 9♦ 9♣ (18, qualifies)", "box 1 A♠ 5♣ K♦ (blackjack, play, Ace Plus A-T-x)"],
    "catch-a-wave": ["dealer 9♦ 2♣ (1 right)", "box 1 5♠ 8♥ (1 right called higher, stood)"],
    "russian-poker": ["dealer A♥ K♣ 8♦ 6♠ 2♣ (high card, qualifies)", "box 2 K♠ K♥ 4♣ 7♦ 2♠ (pair, raised)"],
    "baccarat": ["Player 9♠ K♠ (9)", "Banker 2♦ 3♣ (5)", "Player wins, natural"],
    "roulette": ["numbers 17 black", "void spins: miss-spin"],
}


@pytest.mark.parametrize("game", sorted(LINES))
def test_each_game_tells_its_round_with_suits_and_its_own_words(game: str) -> None:
    record = {"game": game, "outcome": json.loads(RECORDED[game])}
    assert outcome_lines(record) == LINES[game]
    assert outcome_summary(record) == "; ".join(LINES[game])
    assert adapter_for(game).view.lines(PLAYED[game].outcome()) == LINES[game]


def test_an_unknown_game_or_shape_is_told_generically() -> None:
    assert outcome_lines({"game": "pai-gow", "outcome": {"dealer": {"cards": ["TD", "8D"]}}}) == ["dealer 10♦ 8♦"]
    assert outcome_lines({"game": "blackjack", "outcome": {"dealer": {"cards": ["KS"]}}}) == ["dealer K♠"]
    assert outcome_summary({"game": "roulette", "outcome": None}) == ""


def test_the_printer_shows_money_with_the_table_currency() -> None:
    record = {"round": "t-000001", "game": "baccarat", "status": "settled", "stake_total": 123456,
              "payout_total": 0, "outcome": {**json.loads(RECORDED["baccarat"]), "burned": ["TD"]},
              "corrections": [{"seq": 9, "requested_by": "d", "approved_by": "p", "reason": "misread",
                               "changes": [{"box": 1, "hand": 1, "kind": "player", "before": 0, "after": 2000}]}]}
    line = round_line(record, currency="GBP", digits=2)
    assert line.startswith("ROUND t-000001 settled: stake 1,234.56 GBP payout 0.00 GBP | Player 9♠ K♠ (9)")
    assert "burned 10♦" in line and "box 1.1 player 0.00 GBP->20.00 GBP" in line
    assert "stake 1,234 JPY" in round_line({**record, "stake_total": 1234}, currency="JPY", digits=0)


def test_the_console_positions_come_from_the_game_view() -> None:
    view = adapter_for("russian-poker").view
    (box,) = view.boxes(PLAYED["russian-poker"].outcome())
    assert box == {"box": 2, "owner": None, "hands": [
        {"hand": 1, "cards": ["KS", "KH", "4C", "7D", "2S"], "total": "pair", "state": "raised"}]}
    house = adapter_for("baccarat").view.house(PLAYED["baccarat"].outcome())
    assert [(h["name"], h["total"]) for h in house] == [("player", "9"), ("banker", "5")]
    history = adapter_for("roulette").view.history(
        [{"status": "settled", "outcome": json.loads(RECORDED["roulette"])}] * 3, None)
    assert history == {"last_numbers": ["17", "17", "17"]}  # hot and cold: the result boards'


def test_pit_edges_come_from_the_game_adapter() -> None:
    edges = edges_for("baccarat", "standard")
    assert edges is not None and 0 < edges.edge < 0.02 and set(edges.bets) == {"player", "banker", "tie"}
    assert edges_for("catch-a-wave", "standard") is None  # no cheap exact figure
    assert edges_for("pai-gow", "standard") is None
    assert edges_for("roulette", "no-such-preset") is None


GENERIC = ("controller/console/view.py", "controller/floor/edges.py", "controller/pit/views.py",
           "controller/terminal/printer.py", "controller/table/recall.py", "controller/table/games/describe.py",
           "controller/table/games/views/__init__.py", "controller/table/games/base.py", "controller/table/game.py",
           "controller/boards/__init__.py", "controller/pit/offer.py", "controller/pit/web.py",
           "controller/console/web.py", "controller/console/__init__.py", "controller/config.py",
           "controller/hil/soak.py", "controller/hil/replay.py", "controller/runtime/snapshot.py",
           "controller/runtime/wheel.py", "controller/people/batch.py", "controller/backoffice/edges.py",
           "controller/backoffice/wheel.py", "controller/backoffice/report.py")


def _code_words(path: Path) -> str:
    """The module's identifiers and string literals, without its docstrings and comments (a
    docstring may cite a game as an example; code may not branch on one)."""
    tree = ast.parse(path.read_text())
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
                  and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    words = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            words.append(node.value)
        elif isinstance(node, ast.Name):
            words.append(node.id)
        elif isinstance(node, ast.Attribute):
            words.append(node.attr)
        elif isinstance(node, ast.alias):
            words.append(node.name)
        elif isinstance(node, ast.ImportFrom) and node.module:
            words.append(node.module)
    return " ".join(words).lower().replace("_", " ")


@pytest.mark.parametrize("path", GENERIC)
def test_no_generic_module_names_a_game(path: str) -> None:
    text = _code_words(ROOT / path)
    names = {*(n.replace("-", " ") for n in GAMES), "roulette", "baccarat", "blackjack", "russian", "poker"}
    named = sorted(n for n in names if re.search(rf"\b{re.escape(n)}\b", text))
    assert named == [], f"{path} names {named}"
