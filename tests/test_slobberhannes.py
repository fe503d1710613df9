"""Slobberhannes (RULES.md "Slobberhannes"): figures worked out by hand from
the rules (arithmetic in comments), driven through the record loader."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.record import load

from .helpers import bind

NAMES = ["Ala", "Bartek", "Celina", "Darek", "Ewa", "Franek"]
A, B, C, D = 0, 1, 2, 3


def took(first, last, qc):
    return {"taken_by": {"first_trick": first, "last_trick": last, "QC": qc}}


# RULES.md example: A first trick, B Q♣, C last trick
EXAMPLE = took(first=A, last=C, qc=B)


record, computed, refused = bind("slobberhannes")


# --- scoring -----------------------------------------------------------------


def test_worked_example():
    # first trick 1 (A), Q♣ 2 (B), last trick 1 (C), D nothing: sum 4
    c = computed([EXAMPLE])
    assert c["per_deal"] == [[1, 2, 1, 0]]
    assert c["totals"] == [1, 2, 1, 0]


def test_one_player_may_take_all_three():
    # seed scoring: 1 + 1 + 2 = 4, no extra
    assert computed([took(A, A, A)])["per_deal"] == [[4, 0, 0, 0]]
    # first and Q♣ to D, last to B: D 1 + 2 = 3, B 1
    assert computed([took(D, B, D)])["per_deal"] == [[0, 1, 0, 3]]


def test_classic_scoring():
    opts = {"classic": True}
    # Q♣ costs 1: A 1, B 1, C 1, D 0: sum 3
    assert computed([EXAMPLE], options=opts)["per_deal"] == [[1, 1, 1, 0]]
    # all three to A: 1 + 1 + 1 + 1 more = 4
    assert computed([took(A, A, A)], options=opts)["per_deal"] == [[4, 0, 0, 0]]
    # two of the three is no bonus: A first + Q♣ = 2, C last = 1: sum 3
    assert computed([took(A, C, A)], options=opts)["per_deal"] == [[2, 0, 1, 0]]
    _match, standings = load(record([took(B, B, B)], options=opts))
    assert "Bartek" in standings.rows[0].score.note


def test_default_options():
    match, _standings = load(record([]))
    assert match.options == {
        "players": 4,
        "classic": False,
        "end": "target",
        "target": 10,
        "deals": 8,
    }  # deals default 2 × 4
    match, _standings = load(record([], players=5))
    assert match.options["deals"] == 10  # 2 × 5


# --- the pack ----------------------------------------------------------------


@pytest.mark.parametrize(
    "players, removed, hand",
    [
        (3, True, 10),  # (32 - 2) / 3 = 10
        (4, False, 8),  # 32 / 4 = 8
        (5, True, 6),  # (32 - 2) / 5 = 6
        (6, True, 5),  # (32 - 2) / 6 = 5
    ],
)
def test_the_plan_says_which_cards_to_take_out_and_the_hand(players, removed, hand):
    _match, standings = load(record([], players=players))
    notes = " ".join(map(str, standings.next.notes))
    assert f"{hand} cards each" in notes
    assert ("7♠ and 7♣" in notes) == removed
    assert "A K Q J 10 9 8 7" in notes
    assert standings.next.trump is None


# --- dealer and leader -------------------------------------------------------


def test_dealer_moves_left_and_eldest_leads():
    assert computed([], first_dealer=3)["next"] == {"dealer": 3, "leader": 0, "pass": None}
    # one deal later: dealer 3 + 1 = 4 mod 4 = 0, eldest 1
    assert computed([EXAMPLE], first_dealer=3)["next"] == {"dealer": 0, "leader": 1, "pass": None}
    # 5 players, first dealer 4: after two deals dealer (4 + 2) mod 5 = 1, eldest 2
    assert computed([EXAMPLE] * 2, players=5, first_dealer=4)["next"] == {
        "dealer": 1,
        "leader": 2,
        "pass": None,
    }


# --- the end -----------------------------------------------------------------

# d1: first A, last B, Q♣ C          → A 1, B 1, C 2        totals 1 1 2 0
# d2: first D, last A, Q♣ A          → A 1 + 2 = 3, D 1     totals 4 1 2 1
# d3: all three A                    → A 4                  totals 8 1 2 1
# d4: first B, last C, Q♣ A          → A 2, B 1, C 1        totals 10 2 3 1
RACE = [took(A, B, C), took(D, A, A), took(A, A, A), took(B, C, A)]


def test_the_match_ends_at_ten_and_the_lowest_wins():
    c = computed(RACE[:3])
    assert c["totals"] == [8, 1, 2, 1] and not c["finished"]
    assert c["next"] == {"dealer": 3, "leader": 0, "pass": None}  # 3 deals after seat 0
    c = computed(RACE)
    assert c["per_deal"] == [[1, 1, 2, 0], [3, 0, 0, 1], [4, 0, 0, 0], [2, 1, 1, 0]]
    # A reaches exactly 10: over; D has the lowest total, 1
    assert c["totals"] == [10, 2, 3, 1]
    assert c["finished"] and c["winners"] == [D]
    assert c["next"] is None


def test_a_tie_for_lowest_is_shared():
    # A takes all three every deal: 4, 8, 12 >= 10; B C D all 0
    c = computed([took(A, A, A)] * 3)
    assert c["totals"] == [12, 0, 0, 0]
    assert c["finished"] and c["winners"] == [B, C, D]


def test_target_option():
    # target 12: A at 10 plays on
    c = computed(RACE, options={"target": 12})
    assert c["totals"] == [10, 2, 3, 1] and not c["finished"]
    # classic with target 3: deal 1 A 1, B 1, C 1 → nobody at 3; deal 2 all A: A 1 + 4 = 5
    c = computed([EXAMPLE, took(A, A, A)], options={"classic": True, "target": 3})
    assert c["totals"] == [5, 1, 1, 0]
    assert c["finished"] and c["winners"] == [D]


def test_a_deal_after_the_end_is_refused():
    message = refused(RACE + [EXAMPLE])
    assert message.startswith("deal 5: ") and "over" in message


def test_a_fixed_number_of_deals():
    opts = {"end": "deals", "deals": 3}
    # all three to A twice: 4 + 4 = 8; 2 deals of 3 played
    c = computed([took(A, A, A)] * 2, options=opts)
    assert c["totals"] == [8, 0, 0, 0] and not c["finished"]
    c = computed([EXAMPLE, took(B, B, B), took(C, D, D)], options=opts)
    # A 1 + 0 + 0 = 1; B 2 + 4 + 0 = 6; C 1 + 0 + 1 = 2; D 0 + 0 + (1 + 2) = 3
    assert c["totals"] == [1, 6, 2, 3]
    assert c["finished"] and c["winners"] == [A]
    assert "deal 4" in refused([EXAMPLE] * 4, options=opts)


def test_fixed_deals_default_twice_round_and_ignores_the_target():
    # 3 players, end deals: 2 × 3 = 6 deals. All three to A each deal: 4 a deal
    opts = {"end": "deals"}
    c = computed([took(A, A, A)] * 5, options=opts, players=3)
    assert c["totals"] == [20, 0, 0] and not c["finished"]  # 5 × 4 = 20, past 10: plays on
    c = computed([took(A, A, A)] * 6, options=opts, players=3)
    assert c["totals"] == [24, 0, 0]
    assert c["finished"] and c["winners"] == [B, C]  # shared


# --- refused entries and options ----------------------------------------------


@pytest.mark.parametrize(
    "deal, words",
    [
        ({"taken_by": {"first_trick": A, "last_trick": B}}, "say who took Q♣"),
        ({"taken_by": {"first_trick": A, "QC": B}}, "say who took the last trick"),
        (
            {"taken_by": {"last_trick": A, "QC": B, "first_trick": None}},
            "say who took the first trick",
        ),
        ({}, "say who took the first trick, the last trick, and Q♣"),
        ({"taken_by": {**EXAMPLE["taken_by"], "QS": A}}, "Q♠ is not scored in this deal"),
        ({"taken_by": {**EXAMPLE["taken_by"], "QC": 4}}, "must be a seat from 0 to 3"),
        ({"taken_by": {**EXAMPLE["taken_by"], "QC": "B"}}, "must be a seat from 0 to 3"),
        ({"taken_by": [A, C, B]}, "taken_by must say who took"),
        ({**EXAMPLE, "tricks": [2, 2, 2, 2]}, "unknown field tricks"),
    ],
)
def test_impossible_entries_are_refused_by_name(deal, words):
    message = refused([deal])
    assert message.startswith("deal 1: ") and words in message


@pytest.mark.parametrize(
    "options, players, words",
    [
        ({"classic": "yes"}, 4, "option classic must be true or false"),
        ({"end": "never"}, 4, "option end must be one of target, deals"),
        ({"deals": 0}, 4, "option deals"),
        ({"target": None}, 4, "option target"),
        ({"players": 5}, 4, "option players says 5"),
        ({"players": 2}, 2, "option players must be one of"),
        ({}, 2, "3 to 6 players, not 2"),
        ({"moon": "off"}, 4, "unknown option moon"),
    ],
)
def test_bad_options_are_refused(options, players, words):
    assert words in refused([], options=options, players=players)


# --- properties --------------------------------------------------------------


@settings(max_examples=300)
@given(st.sampled_from([3, 4, 5, 6]), st.booleans(), st.data())
def test_a_deal_totals_4_or_under_classic_3_or_4(players, classic, data):
    seats = st.integers(0, players - 1)
    first, last, qc = data.draw(seats), data.draw(seats), data.draw(seats)
    c = computed([took(first, last, qc)], players=players, options={"classic": classic})
    points = c["per_deal"][0]
    everything = first == last == qc
    if classic:
        assert sum(points) == (4 if everything else 3)
        assert sum(points) in (3, 4)
    else:
        assert sum(points) == 4
    assert all(p >= 0 for p in points)
    # only the three takers can score
    assert {s for s, p in enumerate(points) if p} == {first, last, qc}


# --- the rules page ----------------------------------------------------------


def test_rules_page(client):
    page = client.get("/rules/slobberhannes").get_data(as_text=True)
    assert "The Polish card-game book" in page and "Q♣" in page and "7♠ and 7♣" in page
