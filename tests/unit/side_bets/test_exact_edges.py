"""Exact side-bet edges checked against independent computations: brute force over every
hand of a small shoe with evaluators written here from the rule book, closed forms, and the
strategy module's own dealer recursion for Bust It."""

import itertools
import json
from fractions import Fraction as F
from pathlib import Path

import pytest
from typer.testing import CliRunner

from controller.analysis.side_bets import bust_distribution, line_probabilities, shoe_cards, side_bet_edges
from controller.cards import DECK
from controller.cli import app
from controller.games.blackjack.rules import blackjack_rules
from controller.games.blackjack.strategy_dealer import BUST, BUST22, dealer_outcomes

POINTS = {**{r: int(r) for r in "23456789"}, "T": 10, "J": 10, "Q": 10, "K": 10, "A": 1}
ORDER = "A23456789TJQK"


def best_total(cards) -> int:
    """Every way of counting each ace 1 or 11; the best total not over 21 (else the least)."""
    totals = {sum(t) for t in itertools.product(*[(1, 11) if c[0] == "A" else (POINTS[c[0]],) for c in cards])}
    under = [t for t in totals if t <= 21]
    return max(under) if under else min(totals)


def by_hand_21_3(cards) -> int | None:
    ranks = sorted(ORDER.index(c[0]) for c in cards)
    high = sorted(13 if r == 0 else r for r in ranks)  # the ace also above the king
    straight = any(x[1] == x[0] + 1 and x[2] == x[1] + 1 for x in (ranks, high))
    flush = len({c[1] for c in cards}) == 1
    trips = len({c[0] for c in cards}) == 1
    if trips and flush:
        return 100
    if straight and flush:
        return 40
    return 30 if trips else 10 if straight else 5 if flush else None


def by_hand_lucky_lucky(cards) -> int | None:
    suited = len({c[1] for c in cards}) == 1
    ranks = sorted(c[0] for c in cards)
    if ranks == ["7", "7", "7"]:
        return 200 if suited else 50
    if ranks == ["6", "7", "8"]:
        return 100 if suited else 30
    total = best_total(cards)
    return {21: 15 if suited else 3, 20: 2, 19: 2}.get(total)


def by_hand_hot_3(cards) -> int | None:
    if all(c[0] == "7" for c in cards):
        return 100
    suited = len({c[1] for c in cards}) == 1
    return {21: 20 if suited else 4, 20: 2, 19: 1}.get(best_total(cards))


def by_hand_suit_em_up(cards) -> int | None:
    (r1, s1), (r2, s2) = cards
    if s1 != s2:
        return None
    if r1 == r2 == "A":
        return 60
    if {r1, r2} & {"A"} and {r1, r2} & set("TJQK"):
        return 10
    if r1 == r2:
        return 5
    return 3 if "A" not in (r1, r2) and POINTS[r1] + POINTS[r2] == 11 else 2


def by_hand_perfect_pairs(cards) -> int | None:
    (r1, s1), (r2, s2) = cards
    if r1 != r2:
        return None
    return 25 if s1 == s2 else 12 if (s1 in "HD") == (s2 in "HD") else 6


def brute_edge(physical, size, pays) -> F:
    """House edge (fraction) over every unordered hand of ``size`` physical cards."""
    ev, n = F(0), 0
    for hand in itertools.combinations(physical, size):
        ratio = pays(hand)
        ev += -1 if ratio is None else ratio
        n += 1
    return -ev / n


def edge(kind: str, decks: int) -> F:
    return F(side_bet_edges_cached(decks)[kind]["house_edge_exact"])


_EDGES: dict[int, dict] = {}


def side_bet_edges_cached(decks: int) -> dict:
    if decks not in _EDGES:
        _EDGES[decks] = side_bet_edges(blackjack_rules("ru6", {"decks": decks}))
    return _EDGES[decks]


@pytest.mark.parametrize(
    ("kind", "pays"), [("21+3", by_hand_21_3), ("lucky_lucky", by_hand_lucky_lucky), ("hot_3", by_hand_hot_3)]
)
def test_three_card_bets_match_brute_force_on_one_deck(kind, pays):
    assert edge(kind, 1) == brute_edge(DECK, 3, pays)


@pytest.mark.parametrize(("kind", "pays"), [("perfect_pairs", by_hand_perfect_pairs), ("suit_em_up", by_hand_suit_em_up)])
def test_two_card_bets_match_brute_force_on_two_decks(kind, pays):
    assert edge(kind, 2) == brute_edge(DECK * 2, 2, pays)


@pytest.mark.parametrize("n", [6, 8])
def test_perfect_pairs_closed_form(n):
    # second card of the first one's rank: n-1 identical, n of the same colour, 2n of the other
    t = 52 * n - 1
    perfect, coloured, mixed = F(n - 1, t), F(n, t), F(2 * n, t)
    lose = 1 - perfect - coloured - mixed
    assert edge("perfect_pairs", n) == lose - 25 * perfect - 12 * coloured - 6 * mixed
    if n == 8:
        assert round(float(edge("perfect_pairs", n)) * 100, 2) == 4.10  # the published 8-deck figure


@pytest.mark.parametrize("n", [6, 8])
def test_crazy_7_closed_form(n):
    # first card a 7; second a 7 (same suit or not); third always taken after 7-7
    t = 52 * n
    first7 = F(4 * n, t)
    second_suited, second_other = F(n - 1, t - 1), F(3 * n, t - 1)
    third_same_suit = F(n - 2, t - 2)  # after a suited 7-7
    third_seven_after_suited = F(4 * n - 2, t - 2)
    third_seven_after_other = F(4 * n - 2, t - 2)
    ev = first7 * (1 - second_suited - second_other) * 5
    ev += (
        first7
        * second_suited
        * (third_same_suit * 2000 + (third_seven_after_suited - third_same_suit) * 500 + (1 - third_seven_after_suited) * 150)
    )
    ev += first7 * second_other * (third_seven_after_other * 500 + (1 - third_seven_after_other) * 25)
    ev -= 1 - first7
    assert edge("crazy_7", n) == -ev


@pytest.mark.parametrize(("decks", "h17"), [(6, False), (8, True)])
def test_bust_it_total_matches_the_dealer_recursion_of_the_strategy(decks, h17):
    dist = bust_distribution(shoe_cards(decks), h17)
    counts = [0] + [4 * decks] * 9 + [16 * decks]
    total = 52 * decks
    bust = 0.0
    for up in range(1, 11):
        left = list(counts)
        left[up] -= 1
        out = dealer_outcomes(up, left, h17)
        bust += counts[up] / total * (out[BUST] + out[BUST22])
    assert float(sum(p for k, p in dist.items() if k.isdigit())) == pytest.approx(bust, abs=1e-12)
    assert sum(dist.values()) == 1


def test_bust_it_by_card_count_matches_brute_force_on_a_tiny_shoe():
    # one suit plus the hearts' small cards: 18 cards, every ordered draw followed card by card
    cards = [c for c in DECK if c[1] == "S"] + ["2H", "3H", "4H", "5H", "6H"]

    def play(hand, left, p, out):
        hard = sum(POINTS[c[0]] for c in hand)
        ace = any(c[0] == "A" for c in hand)
        total = hard + 10 if ace and hard <= 11 else hard
        if len(hand) == 2 and total == 21:
            out["blackjack"] = out.get("blackjack", 0) + p
        elif hard > 21:
            out[str(len(hand))] = out.get(str(len(hand)), 0) + p
        elif total >= 17 and len(hand) >= 2:
            out["stands"] = out.get("stands", 0) + p
        else:
            for i, c in enumerate(left):
                play(hand + [c], left[:i] + left[i + 1 :], p * F(1, len(left)), out)
        return out

    expected = play([], cards, F(1), {})
    assert bust_distribution({c: 1 for c in cards}, hits_soft_17=False) == expected


def test_line_probabilities_sum_to_one():
    probs = line_probabilities(shoe_cards(1), 3, lambda *cards: ())
    assert probs == {(): 1}


def test_cli_prints_every_bet_as_one_json_object():
    result = CliRunner().invoke(app, ["house-edge", "side-bets", "--decks", "8", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["decks"] == 8
    assert list(out["bets"]) == ["perfect_pairs", "21+3", "suit_em_up", "lucky_lucky", "hot_3", "bust_it", "crazy_7"]
    assert out["bets"]["perfect_pairs"]["house_edge"] == pytest.approx(100 * 17 / 415)
    assert all(0 < bet["house_edge"] < 10 for bet in out["bets"].values())
    # the rule book publishes these 8-deck edges beside each paytable
    book = (Path(__file__).parents[3] / "docs" / "rules.md").read_text()
    for kind, bet in out["bets"].items():
        assert f"**{bet['house_edge']:.4f} %**" in book, kind


def test_cli_refuses_a_misspelt_paytable_line():
    result = CliRunner().invoke(app, ["house-edge", "side-bets", "--decks", "8", "--set", 'hot_3={"7_7_8": 100}'])
    assert result.exit_code == 2 and "did you mean '7_7_7'" in result.output
