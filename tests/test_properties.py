"""Invariants of Hearts and Black Maria over any valid deal (Hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from .conftest import trials
from .helpers import computed, points

SETTINGS = settings(max_examples=trials(150, 60), deadline=None)  # make stress: 150


@st.composite
def split(draw, total: int, n: int) -> list[int]:
    """``total`` items shared among ``n`` seats in any way."""
    seats = draw(st.lists(st.integers(0, n - 1), min_size=total, max_size=total))
    return [seats.count(s) for s in range(n)]


@st.composite
def black_maria_deal(draw, players=None):
    n = players or draw(st.integers(3, 6))
    hearts = 12 if n == 6 else 13
    seat = st.integers(0, n - 1)
    deal = {
        "hearts": draw(split(hearts, n)),
        "taken_by": {"QS": draw(seat), "KS": draw(seat), "AS": draw(seat)},
    }
    return n, deal


@SETTINGS
@given(black_maria_deal())
def test_a_black_maria_deal_hands_out_43_or_42_with_six(case):
    n, deal = case
    assert sum(points("black_maria", deal, n)) == (42 if n == 6 else 43)


@SETTINGS
@given(black_maria_deal(), st.integers(0, 5))
def test_omnibus_takes_ten_off_the_deal(case, jd):
    n, deal = case
    deal["taken_by"]["JD"] = jd % n
    assert sum(points("black_maria", deal, n, {"omnibus": True})) == (32 if n == 6 else 33)


@SETTINGS
@given(st.integers(0, 3))
def test_a_moon_under_others_hands_out_three_times_26(shooter):
    hearts = [0, 0, 0, 0]
    hearts[shooter] = 13
    p = points("hearts", {"hearts": hearts, "taken_by": {"QS": shooter}})
    assert sum(p) == 3 * 26 and p[shooter] == 0


@st.composite
def spot_black_maria_deal(draw):
    n = draw(st.integers(3, 6))
    ranks = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3"] + (
        [] if n == 6 else ["2"]
    )
    owners = draw(st.lists(st.integers(0, n - 1), min_size=len(ranks), max_size=len(ranks)))
    cards = [[r + "H" for r, o in zip(ranks, owners) if o == s] for s in range(n)]
    seat = st.integers(0, n - 1)
    return n, {
        "heart_cards": cards,
        "taken_by": {"QS": draw(seat), "KS": draw(seat), "AS": draw(seat)},
    }


@SETTINGS
@given(spot_black_maria_deal())
def test_a_spot_black_maria_deal_hands_out_the_whole_pack_value(case):
    # hearts 2..10 = 54, J Q K 30, A 15 → 99 (97 without 2♥); + 25 + 10 + 7
    n, deal = case
    assert sum(points("black_maria", deal, n, {"scoring": "spot"})) == (139 if n == 6 else 141)


@SETTINGS
@given(st.lists(black_maria_deal(4).map(lambda c: c[1]), max_size=8))
def test_totals_are_the_sum_of_the_deals(deals):
    c = computed("black_maria", deals, 4, {"end": "deals", "deals": 400})
    assert c["totals"] == [sum(d[s] for d in c["per_deal"]) for s in range(4)]
