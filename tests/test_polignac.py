"""Polignac (RULES.md "Polignac"): figures worked out by hand from the rules
(arithmetic in comments), driven through the record loader."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.record import RecordError, load

from .helpers import bind

NAMES = ["Ala", "Bartek", "Celina", "Darek", "Ewa", "Franek"]
A, B, C, D = 0, 1, 2, 3
JACKS = ("JS", "JC", "JH", "JD")


def jacks(js, jc, jh, jd):
    return {"taken_by": {"JS": js, "JC": jc, "JH": jh, "JD": jd}}


# A J♠, B J♣ and J♥, C J♦
EXAMPLE = jacks(A, B, B, C)
CAPOT = {"capot": True}


record, computed, refused = bind("polignac")


# --- scoring -----------------------------------------------------------------


def test_jacks():
    # A J♠ 2; B J♣ 1 + J♥ 1 = 2; C J♦ 1; D 0: sum 5
    c = computed([EXAMPLE])
    assert c["per_deal"] == [[2, 2, 1, 0]]
    # all four to D: 2 + 1 + 1 + 1 = 5
    assert computed([jacks(D, D, D, D)])["per_deal"] == [[0, 0, 0, 5]]
    # J♠ alone is worth 2: B J♠, A the three others
    assert computed([jacks(B, A, A, A)])["per_deal"] == [[3, 2, 0, 0]]


def test_default_options():
    match, _standings = load(record([]))
    assert match.options == {
        "players": 4,
        "sevens": "black",
        "capot": False,
        "end": "target",
        "target": 20,
        "deals": 8,
        "direction": "clockwise",
    }


def test_made_capot():
    # D declares and takes every trick: D 0, every other player 5; jacks not scored: 15 = 5 × 3
    deal = {"capot": {"seat": D, "made": True}}
    match, standings = load(record([deal], options=CAPOT))
    assert standings.computed()["per_deal"] == [[5, 5, 5, 0]]
    assert standings.rows[0].score.tag == "capot"
    assert match.deals[0]["capot"] == {"seat": D, "made": True}
    # taken_by may be given, every jack the declarer's
    assert computed([{**deal, **jacks(D, D, D, D)}], options=CAPOT)["per_deal"] == [[5, 5, 5, 0]]
    # 3 players, B makes it: 5 × 2 = 10
    assert computed([{"capot": {"seat": B, "made": True}}], options=CAPOT, players=3)[
        "per_deal"
    ] == [[5, 0, 5]]


def test_failed_capot():
    # B declares and fails, and took J♠: B 5 + 2 = 7; A J♣ 1; C J♥ 1; D J♦ 1: sum 10
    deal = {"capot": {"seat": B, "made": False}, **jacks(B, A, C, D)}
    _match, standings = load(record([deal], options=CAPOT))
    assert standings.computed()["per_deal"] == [[1, 7, 1, 1]]
    assert standings.rows[0].score.tag != ""
    # failed, no jack: C declares, A takes them all: A 5, C 5
    deal = {"capot": {"seat": C, "made": False}, **jacks(A, A, A, A)}
    assert computed([deal], options=CAPOT)["per_deal"] == [[5, 0, 5, 0]]


def test_capot_must_say_whether_it_was_made():
    # RULES.md: {"seat": s, "made": true|false}; the form sends false for an unticked box
    deal = {"capot": {"seat": B}, **jacks(B, A, C, D)}
    assert "capot made must be true or false" in refused([deal], options=CAPOT)


def test_no_capot_in_a_capot_match():
    assert computed([EXAMPLE], options=CAPOT)["per_deal"] == [[2, 2, 1, 0]]
    assert computed([{**EXAMPLE, "capot": None}], options=CAPOT)["per_deal"] == [[2, 2, 1, 0]]


# --- the pack and the plan ----------------------------------------------------


@pytest.mark.parametrize(
    "players, sevens, removed, hand",
    [
        (3, "black", "7♠ and 7♣", 10),  # (32 - 2) / 3 = 10
        (3, "red", "7♥ and 7♦", 10),
        (4, "black", None, 8),  # 32 / 4 = 8
        (4, "red", None, 8),  # the sevens option does not apply to 4 players
        (5, "black", "7♠ and 7♣", 6),  # (32 - 2) / 5 = 6
        (6, "red", "7♥ and 7♦", 5),  # (32 - 2) / 6 = 5
    ],
)
def test_the_plan_tells_the_pack_and_the_card_order(players, sevens, removed, hand):
    _match, standings = load(record([], players=players, options={"sevens": sevens}))
    notes = " ".join(map(str, standings.next.notes))
    assert "K Q J A 10 9 8 7" in notes
    assert f"{hand} cards each" in notes
    if removed:
        assert f"take out {removed}" in notes
    else:
        assert "take out" not in notes
    assert standings.next.trump is None


def test_the_capot_fields_are_asked_only_with_the_option():
    _match, standings = load(record([]))
    assert [f.name for f in standings.next.fields] == [
        "taken_by.JS",
        "taken_by.JC",
        "taken_by.JH",
        "taken_by.JD",
    ]
    _match, standings = load(record([], options=CAPOT))
    assert "capot.seat" in [f.name for f in standings.next.fields]


# --- direction ---------------------------------------------------------------


def test_clockwise_deal_moves_left_and_the_left_hand_neighbour_leads():
    assert computed([])["next"] == {"dealer": 0, "leader": 1, "pass": None}
    assert computed([EXAMPLE])["next"] == {"dealer": 1, "leader": 2, "pass": None}
    # first dealer 3: after one deal (3 + 1) mod 4 = 0, leader 1
    assert computed([EXAMPLE], first_dealer=3)["next"] == {"dealer": 0, "leader": 1, "pass": None}


def test_counterclockwise_deal_moves_right_and_the_right_hand_neighbour_leads():
    opts = {"direction": "counterclockwise"}
    # seat 0 deals, its right is 0 - 1 = -1 mod 4 = 3
    assert computed([], options=opts)["next"] == {"dealer": 0, "leader": 3, "pass": None}
    # one deal later: dealer 3, leader 2; two: dealer 2, leader 1; four: round to 0
    assert computed([EXAMPLE], options=opts)["next"] == {"dealer": 3, "leader": 2, "pass": None}
    assert computed([EXAMPLE] * 2, options=opts)["next"] == {"dealer": 2, "leader": 1, "pass": None}
    assert computed([EXAMPLE] * 4, options=opts)["next"] == {"dealer": 0, "leader": 3, "pass": None}
    # 5 players, first dealer 1: after three deals (1 - 3) mod 5 = 3, leader 2
    assert computed([EXAMPLE] * 3, options=opts, players=5, first_dealer=1)["next"] == {
        "dealer": 3,
        "leader": 2,
        "pass": None,
    }
    _match, standings = load(record([], options=opts))
    assert any("right" in note for note in standings.next.notes)


# --- the end -----------------------------------------------------------------

ALL_A = jacks(A, A, A, A)  # A 5
# d1 A 5; d2 A 5; d3 J♠ B 2, J♣ C 1, J♥ D 1, J♦ A 1; d4 A 5; d5 A 5
RACE = [ALL_A, ALL_A, jacks(B, C, D, A), ALL_A, ALL_A]


def test_the_first_to_reach_twenty_loses_and_the_others_share_the_win():
    c = computed(RACE[:4])
    # A 5 + 5 + 1 + 5 = 16; B 2; C 1; D 1
    assert c["totals"] == [16, 2, 1, 1] and not c["finished"]
    _match, standings = load(record(RACE))
    c = standings.computed()
    # A 16 + 5 = 21 >= 20: A loses; B, C and D share the win
    assert c["totals"] == [21, 2, 1, 1]
    assert c["finished"] and c["winners"] == [B, C, D]
    # ranked by lowest total: C and D first, B third, A last
    assert standings.places == [4, 3, 1, 1]
    assert standings.ranked_winners == [C, D, B]  # as the sheet's sentence names them
    assert "Ala" in standings.note
    assert "deal 6" in refused(RACE + [EXAMPLE])


def test_reaching_the_target_exactly_loses():
    # four deals all to A: 4 × 5 = 20 >= 20
    c = computed([ALL_A] * 4)
    assert c["totals"] == [20, 0, 0, 0]
    assert c["finished"] and c["winners"] == [B, C, D]


def test_everyone_at_or_over_the_target_loses():
    opts = {"target": 6}
    # d1: J♠ A, J♣ A, J♥ B, J♦ B → A 3, B 2
    # d2: J♠ B, J♣ B, J♥ A, J♦ A → A 3 + 2 = 5, B 2 + 3 = 5
    # d3: J♠ A, J♣ B, J♥ B, J♦ C → A 5 + 2 = 7, B 5 + 2 = 7, C 1
    deals = [jacks(A, A, B, B), jacks(B, B, A, A), jacks(A, B, B, C)]
    c = computed(deals, options=opts)
    assert c["totals"] == [7, 7, 1, 0]
    # A and B both reach 6 in the same deal: both lose; C and D share the win
    assert c["finished"] and c["winners"] == [C, D]


def test_if_everyone_is_over_the_target_the_lowest_wins():
    # target 1: A J♠ 2, B J♣ 1, C J♥ 1, D J♦ 1: everyone at or over 1; lowest 1: B, C, D
    c = computed([jacks(A, B, C, D)], options={"target": 1})
    assert c["totals"] == [2, 1, 1, 1]
    assert c["finished"] and c["winners"] == [B, C, D]
    # 3 players, target 2: A J♠ 2, B J♣ + J♦ 2, C J♥ 1: A and B lose, C wins
    c = computed([jacks(A, B, C, B)], players=3, options={"target": 2})
    assert c["totals"] == [2, 2, 1]
    assert c["finished"] and c["winners"] == [C]


def test_a_made_capot_can_end_the_match():
    # 3 players, target 5, A makes a capot: B 5 and C 5 reach 5 and lose; A wins
    c = computed(
        [{"capot": {"seat": A, "made": True}}], players=3, options={"capot": True, "target": 5}
    )
    assert c["totals"] == [0, 5, 5]
    assert c["finished"] and c["winners"] == [A]


def test_a_fixed_number_of_deals_lowest_wins():
    opts = {"end": "deals"}  # 2 × 4 = 8 deals
    # five deals all to A: 25, past 20, but the match is played to 8 deals
    c = computed([ALL_A] * 5, options=opts)
    assert c["totals"] == [25, 0, 0, 0] and not c["finished"]
    deals = [ALL_A] * 5 + [EXAMPLE, EXAMPLE, jacks(C, D, D, D)]
    c = computed(deals[:7], options=opts)
    assert not c["finished"]
    c = computed(deals, options=opts)
    # A 25 + 2 + 2 = 29; B 2 + 2 = 4; C 1 + 1 + 2 = 4; D 3
    assert c["totals"] == [29, 4, 4, 3]
    assert c["finished"] and c["winners"] == [D]
    assert "deal 9" in refused(deals + [EXAMPLE], options=opts)
    # a tie for lowest is shared: 2 deals
    c = computed([EXAMPLE, jacks(D, A, B, C)], options={"end": "deals", "deals": 2})
    # A 2 + 1 = 3; B 2 + 1 = 3; C 1 + 1 = 2; D 0 + 2 = 2
    assert c["totals"] == [3, 3, 2, 2]
    assert c["finished"] and c["winners"] == [C, D]


# --- refused entries and options ----------------------------------------------


@pytest.mark.parametrize(
    "deal, options, words",
    [
        ({"taken_by": {"JS": A, "JC": B, "JH": C}}, {}, "say who took J♦"),
        ({}, {}, "say who took J♠"),
        ({"taken_by": {**EXAMPLE["taken_by"], "QS": A}}, {}, "Q♠ is not scored"),
        ({"taken_by": {**EXAMPLE["taken_by"], "JS": 4}}, {}, "J♠ must be a seat from 0 to 3"),
        ({**EXAMPLE, "tricks": [2, 2, 2, 2]}, {}, "unknown field tricks"),
        # capot with the option off
        ({**EXAMPLE, "capot": {"seat": A, "made": True}}, {}, "capot option is off"),
        ({"capot": {"seat": A, "made": True}}, {}, "capot option is off"),
        # a made capot takes every jack
        (
            {"capot": {"seat": A, "made": True}, "taken_by": {"JS": B}},
            CAPOT,
            "Ala made a capot and took every trick, so J♠ cannot be Bartek's",
        ),
        ({"capot": {"seat": A, "made": True}, "taken_by": {"QC": A}}, CAPOT, "Q♣ is not scored"),
        # a failed capot still needs the jacks
        ({"capot": {"seat": A, "made": False}}, CAPOT, "say who took J♠"),
        ({"capot": {"made": True}}, CAPOT, "say who declared the capot"),
        ({"capot": {"seat": 4, "made": True}}, CAPOT, "must be a seat from 0 to 3"),
        ({"capot": {"seat": A, "made": "yes"}}, CAPOT, "true or false"),
        ({"capot": {"seat": A, "made": True, "tricks": 8}}, CAPOT, "unknown field tricks"),
        ({"capot": A}, CAPOT, "capot must say who declared it"),
    ],
)
def test_impossible_entries_are_refused_by_name(deal, options, words):
    message = refused([deal], options=options)
    assert message.startswith("deal 1: ") and words in message


@pytest.mark.parametrize(
    "options, words",
    [
        ({"capot": "yes"}, "option capot must be true or false"),
        ({"sevens": "green"}, "option sevens must be one of black, red"),
        ({"direction": "left"}, "option direction must be one of clockwise, counterclockwise"),
        ({"end": "deals", "deals": 0}, "option deals"),
        ({"target": -1}, "option target"),
        ({"players": 3}, "option players says 3"),
        ({"jack_values": {}}, "unknown option jack_values"),
    ],
)
def test_bad_options_are_refused(options, words):
    assert words in refused([], options=options)


# --- properties --------------------------------------------------------------


@settings(max_examples=300)
@given(st.sampled_from([3, 4, 5, 6]), st.data())
def test_a_deal_totals_5_unless_capot(players, data):
    seat = st.integers(0, players - 1)
    deal = {"taken_by": {j: data.draw(seat) for j in JACKS}}
    capot = data.draw(st.sampled_from([None, True, False]))
    declarer = data.draw(seat)
    if capot is not None:
        deal["capot"] = {"seat": declarer, "made": capot}
        if capot:
            del deal["taken_by"]
    points = computed([deal], players=players, options=CAPOT)["per_deal"][0]
    if capot is None:
        assert sum(points) == 5  # J♠ 2 + 1 + 1 + 1
    elif capot:
        assert sum(points) == 5 * (players - 1)
        assert points[declarer] == 0
    else:
        assert sum(points) == 10  # the jacks 5 + the failed capot 5
        assert points[declarer] >= 5


@settings(max_examples=100)
@given(
    st.lists(st.tuples(*[st.integers(0, 3)] * 4), min_size=1, max_size=15),
    st.sampled_from(["clockwise", "counterclockwise"]),
    st.integers(0, 3),
)
def test_the_fold_follows_the_rules(seats, direction, first):
    deals = [jacks(*s) for s in seats]
    try:
        c = computed(deals, options={"direction": direction}, first_dealer=first)
    except RecordError as e:
        assert "over" in e.message  # only a deal after the end is refused
        return
    assert c["totals"] == [sum(p[s] for p in c["per_deal"]) for s in range(4)]
    if c["finished"]:
        assert max(c["totals"]) >= 20
        assert (
            c["winners"] == [s for s in range(4) if c["totals"][s] < 20] or min(c["totals"]) >= 20
        )
    else:
        assert max(c["totals"]) < 20
        step = 1 if direction == "clockwise" else -1
        dealer = (first + step * len(deals)) % 4
        assert c["next"] == {"dealer": dealer, "leader": (dealer + step) % 4, "pass": None}


# --- the rules page ----------------------------------------------------------


def test_rules_page(client):
    page = client.get("/rules/polignac").get_data(as_text=True)
    assert "K Q J A 10 9 8 7" in page and "Boussac (1896)" in page and "house rule" in page


def test_the_sheet_and_the_home_list_name_the_shared_win_ranked(client):
    """The race above, through the web: B 2, C 1, D 1 win (the others of who reached
    the target, not a tie), said ranked by lowest total (C and D, then B) on the
    sheet and in the home page's list."""
    names = ["Ala", "Bartek", "Celina", "Darek"]
    made = client.post(
        "/api/matches", json={"game": "polignac", "players": names, "deals": RACE}
    ).get_json()
    sheet = client.get(f"/m/{made['id']}").get_data(as_text=True)
    assert "Celina, Darek, and Bartek win" in sheet and "share the win" not in sheet
    home = client.get("/").get_data(as_text=True)
    item = home[home.index(f"/m/{made['id']}") :]
    assert "won by Celina, Darek, and Bartek" in item[: item.index("</li>")]
