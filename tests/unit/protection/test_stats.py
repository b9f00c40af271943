"""The watches' tests against tabled values and exact forms, not against themselves."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.protection.stats import chi_square_upper_tail, correlation, normal_upper_tail, uniformity


@pytest.mark.parametrize(("statistic", "df", "p"), [
    (3.841, 1, 0.05), (6.635, 1, 0.01), (50.998, 36, 0.05), (58.619, 36, 0.01),
])
def test_chi_square_tail_matches_the_tables(statistic: float, df: int, p: float) -> None:
    assert chi_square_upper_tail(statistic, df) == pytest.approx(p, abs=2e-4)


@given(st.floats(0, 200))
def test_chi_square_tail_with_two_degrees_is_exp(x: float) -> None:
    assert chi_square_upper_tail(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-9, abs=1e-300)


def test_normal_tail() -> None:
    assert normal_upper_tail(1.959964) == pytest.approx(0.025, abs=1e-6)
    assert normal_upper_tail(0) == 0.5


def test_correlation_of_a_hand_worked_sample() -> None:
    # x = 1..5, y = 2, 4, 5, 4, 5: r = 6 / sqrt(10 * 6) = 0.7746
    result = correlation([1, 2, 3, 4, 5], [2, 4, 5, 4, 5])
    assert result.r == pytest.approx(0.774597, abs=1e-6)
    z = math.atanh(result.r) * math.sqrt(2)
    assert result.p_value == pytest.approx(normal_upper_tail(z))
    assert result.low < result.r < result.high


@given(st.lists(st.tuples(st.integers(-20, 20), st.integers(-20, 20)), min_size=5, max_size=60),
       st.floats(0.5, 100), st.floats(-50, 50))
def test_correlation_ignores_the_scale_and_origin_of_either_sample(pairs: list[tuple[int, int]], scale: float,
                                                                  shift: float) -> None:
    xs, ys = [float(p[0]) for p in pairs], [float(p[1]) for p in pairs]
    plain, moved = correlation(xs, ys), correlation([x * scale + shift for x in xs], ys)
    if math.isnan(plain.r):
        assert math.isnan(moved.r) and moved.p_value == 1.0
    else:
        assert moved.r == pytest.approx(plain.r, abs=1e-6)


def test_a_constant_sample_has_no_correlation() -> None:
    result = correlation([1, 2, 3, 4, 5, 6], [500] * 6)
    assert math.isnan(result.r) and result.p_value == 1.0


def test_uniformity() -> None:
    assert uniformity([10, 10, 10, 10]).statistic == 0
    skewed = uniformity([40, 0, 0, 0])
    assert skewed.statistic == 120 and skewed.p_value < 1e-20
