"""The roulette layout the console is sent: exactly the bets the table's rules take, each once,
named by what it bets and placed on the layout; hot and cold numbers from the last spins."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from controller.games.roulette import roulette_rules
from controller.games.roulette.bets import parse_bet
from controller.games.roulette.layout import OUTSIDE, sort_key, wheel
from controller.games.roulette.racetrack import SECTORS
from controller.games.roulette.view import layout_offer

TABLES = st.fixed_dictionaries({
    "wheel": st.sampled_from(["european", "american"]),
    "balls": st.sampled_from([1, 2]),
    "first_four": st.booleans(),
    "racetrack": st.booleans(),
}).filter(lambda r: not (r["first_four"] and r["wheel"] == "american"))


@given(TABLES)
def test_the_layout_offers_what_the_rules_take_and_nothing_else(settings: dict[str, object]) -> None:
    rules = roulette_rules(None, settings)
    offer = layout_offer(rules)
    cells = offer["cells"]
    kinds = [c["kind"] for c in cells]
    assert len(kinds) == len(set(kinds)) and len({c["name"] for c in cells}) == len(cells)
    w = wheel(rules.wheel)
    inside = {f"{shape}:{'-'.join(sorted(numbers, key=sort_key))}"
              for shape, sets in w.shapes.items() if shape not in ("first_four", "five") for numbers in sets}
    expected = inside | {f"straight:{p}" for p in w.pockets} | set(OUTSIDE)
    if "five" in w.shapes:
        expected.add("five")
    if rules.first_four:
        expected.add("first_four")
    if rules.balls == 2:
        expected |= {"both_any"} | {f"both_on:{p}" for p in w.pockets}
    if rules.racetrack:
        expected |= {f"neighbours:{p}" for p in w.pockets}
        if rules.wheel.value == "european":
            expected |= set(SECTORS)
    assert set(kinds) == expected
    size_x, size_y = offer["size"]
    for c in cells:
        spread = c.get("spread", False)
        spec = parse_bet(f"{c['kind']}:1" if spread else c["kind"], rules)
        assert spread or spec.kind == c["kind"]  # the view's bet rows name the same kind: stakes land on it
        assert c["units"] == (1 if spread else spec.units)
        if "box" in c:
            x0, y0, x1, y1 = c["box"]
            assert 0 <= x0 < x1 <= size_x and 0 <= y0 < y1 <= size_y
        elif "at" in c:
            assert 0 <= c["at"][0] <= size_x and 0 <= c["at"][1] <= size_y
        else:
            assert c["strip"] in ("racetrack", "double_ball")


def test_cells_are_named_by_what_they_bet() -> None:
    names = {c["kind"]: c["name"] for c in layout_offer(roulette_rules("european"))["cells"]}
    assert names["straight:17"] == "17"
    assert names["split:17-20"] == "split 17-20"
    assert names["street:16-17-18"] == "street 16-18"
    assert names["corner:17-18-20-21"] == "corner 17-21"
    assert names["six_line:16-17-18-19-20-21"] == "line 16-21"
    assert names["dozen:2"] == "dozen 2" and names["column:1"] == "column 1" and names["red"] == "red"
    assert names["voisins"] == "voisins" and names["jeu_zero"] == "jeu zéro"
    assert names["neighbours:17"] == "neighbours 17"
    american = {c["kind"]: c["name"] for c in layout_offer(roulette_rules("american"))["cells"]}
    assert american["five"] == "five 0-00-1-2-3" and american["straight:00"] == "00"


def test_chips_come_from_the_table_limits() -> None:
    rules = roulette_rules("european", {"limits": {"straight": {"min": 200, "max": 5000},
                                                   "red": {"min": 1000, "max": 9000}}})
    assert layout_offer(rules)["chips"] == [200, 1000, 2000, 5000]



def test_the_offer_id_follows_what_it_holds() -> None:
    """The console is sent the offer again only when its id changes: equal offers, equal ids."""
    european = layout_offer(roulette_rules("european"))
    assert layout_offer(roulette_rules("european"))["id"] == european["id"]
    assert layout_offer(roulette_rules("american"))["id"] != european["id"]
    dearer = layout_offer(roulette_rules("european", {"limits": {"straight": {"min": 200, "max": 5000}}}))
    assert dearer["id"] != european["id"]
