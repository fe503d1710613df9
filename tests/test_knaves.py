"""Knaves (RULES.md "Knaves"): every figure below is worked out by hand from
the rules, the arithmetic in a comment, and driven through the record loader
so options, the entry check, the score and the fold are all on the path."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scorer.cards import FULL_PACK
from scorer.record import RecordError, load

from .helpers import bind

NAMES = ["Ala", "Bartek", "Celina"]
A, B, C = 0, 1, 2
DEFAULT_VALUES = {"JH": -4, "JD": -3, "JC": -2, "JS": -1}

# The worked example of RULES.md: A 7 tricks + J♥, B 6 + J♦ + J♠, C 4 + J♣.
EXAMPLE = {"tricks": [7, 6, 4], "taken_by": {"JH": A, "JD": B, "JC": C, "JS": B}, "turn_up": "5H"}


record, computed, refused = bind("knaves", names=NAMES, players=3)


# --- scoring -----------------------------------------------------------------


def test_worked_example():
    c = computed([EXAMPLE])
    # A 7 - 4 = 3; B 6 - 3 - 1 = 2; C 4 - 2 = 2; 3 + 2 + 2 = 7 = 17 - 10
    assert c["per_deal"] == [[3, 2, 2]]
    assert c["totals"] == [3, 2, 2]
    assert not c["finished"] and c["winners"] == []


def test_turn_up_names_the_trump_on_the_sheet_not_before_the_deal():
    _match, standings = load(record([EXAMPLE]))
    assert standings.rows[0].score.tag == "♥"  # 5♥ turned up: hearts are trump
    assert standings.rows[0].plan.trump is None  # unknown until the card is turned
    assert standings.next.trump is None
    assert "5♥" in standings.rows[0].words


def test_turn_up_is_optional_and_stored_canonical():
    no_card = {"tricks": [7, 6, 4], "taken_by": {"JH": A, "JD": B, "JC": C, "JS": B}}
    match, standings = load(record([no_card]))
    assert standings.computed()["per_deal"] == [[3, 2, 2]]  # as in the worked example
    assert standings.rows[0].score.tag == ""
    assert "turn_up" not in match.deals[0]
    match, standings = load(record([{**EXAMPLE, "turn_up": "10s"}]))
    assert match.deals[0]["turn_up"] == "10S"
    assert standings.rows[0].score.tag == "♠"


def test_a_turned_up_jack_is_out_of_play():
    # J♥ turned up: it scores for nobody; 17 tricks are still played.
    deal = {"tricks": [6, 6, 5], "taken_by": {"JD": A, "JC": B, "JS": C}, "turn_up": "JH"}
    # A 6 - 3 = 3; B 6 - 2 = 4; C 5 - 1 = 4; 3 + 4 + 4 = 11 = 17 - 3 - 2 - 1
    assert computed([deal])["per_deal"] == [[3, 4, 4]]
    # the turned-up jack may also be given as null
    deal_null = {**deal, "taken_by": {**deal["taken_by"], "JH": None}}
    assert computed([deal_null])["per_deal"] == [[3, 4, 4]]
    match, standings = load(record([deal]))
    assert standings.rows[0].score.tag == "J♥"  # the turned jack named, not only its suit


def test_spade_jack_turned_up():
    deal = {"tricks": [5, 6, 6], "taken_by": {"JH": A, "JD": B, "JC": C}, "turn_up": "JS"}
    # A 5 - 4 = 1; B 6 - 3 = 3; C 6 - 2 = 4; 1 + 3 + 4 = 8 = 17 - 4 - 3 - 2
    assert computed([deal])["per_deal"] == [[1, 3, 4]]


def test_a_player_may_take_every_trick_and_every_jack():
    deal = {"tricks": [17, 0, 0], "taken_by": {"JH": A, "JD": A, "JC": A, "JS": A}}
    # A 17 - 4 - 3 - 2 - 1 = 7; B and C 0
    assert computed([deal])["per_deal"] == [[7, 0, 0]]


# --- options -----------------------------------------------------------------


def test_jack_values_option_changes_only_the_jacks_named():
    match, standings = load(record([EXAMPLE], options={"jack_values": {"JH": -5}}))
    assert match.options["jack_values"] == {"JH": -5, "JD": -3, "JC": -2, "JS": -1}
    # A 7 - 5 = 2; B 6 - 3 - 1 = 2; C 4 - 2 = 2
    assert standings.computed()["per_deal"] == [[2, 2, 2]]
    # a positive value is allowed: J♠ +1: B 6 - 3 + 1 = 4
    assert computed([EXAMPLE], options={"jack_values": {"JS": 1}})["per_deal"] == [[3, 4, 2]]


def test_default_options():
    match, _standings = load(record([]))
    # docs/record.md names no players option for Knaves: not accepted, not exported
    assert match.options == {"target": 20, "jack_values": DEFAULT_VALUES}
    assert "unknown option players" in refused([], options={"players": 3})


@pytest.mark.parametrize(
    "value, words",
    [
        (None, "jack_values"),
        ([-4, -3, -2, -1], "jack_values"),
        ({"QS": -13}, "QS is not one of JH, JD, JC, JS"),
        ({"JH": "-4"}, "J♥ must be a whole number"),
        ({"JH": True}, "J♥ must be a whole number"),
        ({"JH": -4.5}, "J♥ must be a whole number"),
        ({"JH": -1000}, "J♥ must be between"),
    ],
)
def test_bad_jack_values_are_refused_by_name(value, words):
    message = refused([], options={"jack_values": value})
    assert "jack_values" in message and words in message


@pytest.mark.parametrize(
    "options, words",
    [
        ({"target": 0}, "option target"),
        ({"target": "20"}, "option target"),
        ({"trumps": True}, "unknown option trumps"),
        ({"players": 4}, "option players"),
    ],
)
def test_bad_options_are_refused(options, words):
    assert words in refused([], options=options)


def test_three_players_only():
    assert "3" in refused([], names=["Ala", "Bartek", "Celina", "Darek"])


# --- dealer and leader -------------------------------------------------------


def test_dealer_moves_left_and_eldest_leads():
    # first dealer seat 2: eldest is 2 + 1 = 3 mod 3 = 0
    assert computed([], first_dealer=2)["next"] == {"dealer": 2, "leader": 0, "pass": None}
    # after one deal the deal moves left to seat 0, eldest 1
    assert computed([EXAMPLE], first_dealer=2)["next"] == {"dealer": 0, "leader": 1, "pass": None}
    assert computed([EXAMPLE] * 2, first_dealer=2)["next"] == {
        "dealer": 1,
        "leader": 2,
        "pass": None,
    }


# --- the end -----------------------------------------------------------------

# A 10 tricks, B 4 tricks + J♥ J♦, C 3 tricks + J♣ J♠:
# A 10; B 4 - 4 - 3 = -3; C 3 - 2 - 1 = 0; sum 7
A_TEN = {"tricks": [10, 4, 3], "taken_by": {"JH": B, "JD": B, "JC": C, "JS": C}}


def test_the_match_ends_at_twenty_and_the_highest_wins():
    c = computed([A_TEN])
    assert c["totals"] == [10, -3, 0] and not c["finished"]
    c = computed([A_TEN, A_TEN])
    # A 10 + 10 = 20 >= 20: over; A has the highest total
    assert c["totals"] == [20, -6, 0]
    assert c["finished"] and c["winners"] == [A]
    assert c["next"] is None


def test_target_option():
    # target 21 (some sources): 20 is not enough
    c = computed([A_TEN, A_TEN], options={"target": 21})
    assert c["totals"] == [20, -6, 0] and not c["finished"]
    c = computed([A_TEN], options={"target": 10})
    assert c["finished"] and c["winners"] == [A]


def test_a_deal_after_the_end_is_refused():
    message = refused([A_TEN, A_TEN, EXAMPLE])
    assert "deal 3" in message and "over" in message


# J♠ turned up; A 8 tricks, B 8 tricks, C 1 trick (3 cards) + J♥ J♦ J♣:
# A 8; B 8; C 1 - 4 - 3 - 2 = -8; sum 8 = 17 - 9
LEVEL = {"tricks": [8, 8, 1], "taken_by": {"JH": C, "JD": C, "JC": C}, "turn_up": "JS"}


def test_a_tie_for_the_highest_at_the_target_plays_on():
    c = computed([LEVEL] * 2)
    assert c["totals"] == [16, 16, -16] and not c["finished"]  # nobody at 20 yet
    match, standings = load(record([LEVEL] * 3))
    c = standings.computed()
    # A 24 and B 24 both >= 20 and level at the top: play on
    assert c["totals"] == [24, 24, -24]
    assert not c["finished"] and c["winners"] == []
    assert c["next"] == {"dealer": 0, "leader": 1, "pass": None}  # 3 deals: round to seat 0
    assert "play on" in standings.note
    # deal 4: A 9 tricks, B 7, C 1 + J♥ J♦ J♣ (J♠ turned up): A 9, B 7, C -8
    c = computed([LEVEL] * 3 + [{**LEVEL, "tricks": [9, 7, 1]}])
    assert c["totals"] == [33, 31, -32]  # 24 + 9, 24 + 7, -24 - 8
    assert c["finished"] and c["winners"] == [A]


def test_a_tie_below_the_highest_does_not_matter():
    # A 10 tricks + J♣ J♠, B 4 + J♥, C 3 + J♦: A 10 - 2 - 1 = 7; B 4 - 4 = 0; C 3 - 3 = 0
    deal = {"tricks": [10, 4, 3], "taken_by": {"JH": B, "JD": C, "JC": A, "JS": A}}
    c = computed([deal] * 3)
    # A 21 >= 20 alone on top; B and C level at 0 below: over
    assert c["totals"] == [21, 0, 0]
    assert c["finished"] and c["winners"] == [A]


# --- refused entries ---------------------------------------------------------


@pytest.mark.parametrize(
    "deal, words",
    [
        ({**EXAMPLE, "tricks": [7, 6, 3]}, "tricks add up to 16, but 17 are in play"),
        ({**EXAMPLE, "tricks": [7, 6, 5]}, "tricks add up to 18, but 17 are in play"),
        ({**EXAMPLE, "tricks": [7, 10]}, "one number per player (3)"),
        ({**EXAMPLE, "tricks": [7, 6, -4]}, "tricks must be between"),
        ({"taken_by": EXAMPLE["taken_by"]}, "tricks"),
        # Bartek: 1 trick is 3 cards, not room for 4 jacks
        (
            {"tricks": [16, 1, 0], "taken_by": {"JH": B, "JD": B, "JC": B, "JS": B}},
            "Bartek took 1 trick (3 cards): too few for 4 jacks",
        ),
        # Celina took no trick at all, so no jack
        (
            {"tricks": [10, 7, 0], "taken_by": {"JH": A, "JD": B, "JC": C, "JS": B}},
            "Celina took no trick, so cannot have 1 jack",
        ),
        # J♥ said to be out of play (null) while 5♥ was turned up: it was in play
        (
            {**EXAMPLE, "taken_by": {"JH": None, "JD": B, "JC": C, "JS": B}},
            "J♥ was not turned up, so it was in play: say who took it",
        ),
        # and with no card given as turned up: perhaps it was, and was not said
        (
            {"tricks": [7, 6, 4], "taken_by": {"JH": None, "JD": B, "JC": C, "JS": B}},
            "J♥ is out of play only if it was the turned-up card: pick it there, "
            "or say who took it",
        ),
        ({"tricks": [7, 6, 4], "taken_by": {"JD": B, "JC": C, "JS": B}}, "say who took J♥"),
        # J♦ turned up does not excuse J♥
        ({"tricks": [7, 6, 4], "taken_by": {"JC": C, "JS": B}, "turn_up": "JD"}, "say who took J♥"),
        # a turned-up jack takes no part in play
        ({**EXAMPLE, "turn_up": "JC"}, "J♣ was turned up"),
        ({**EXAMPLE, "turn_up": "1X"}, "turn_up must be a card"),
        ({**EXAMPLE, "turn_up": 10}, "turn_up must be a card"),
        ({**EXAMPLE, "taken_by": {**EXAMPLE["taken_by"], "QS": A}}, "Q♠ is not scored"),
        (
            {**EXAMPLE, "taken_by": {**EXAMPLE["taken_by"], "JH": 3}},
            "J♥ must be a seat from 0 to 2",
        ),
        ({**EXAMPLE, "taken_by": [0, 1, 2, 1]}, "taken_by"),
        ({**EXAMPLE, "hearts": [1, 2, 3]}, "unknown field hearts"),
        ([7, 6, 4], "JSON object"),
    ],
)
def test_impossible_entries_are_refused_by_name(deal, words):
    message = refused([deal])
    assert message.startswith("deal 1: ")
    assert words in message


def test_the_second_deal_is_named():
    assert refused([EXAMPLE, {**EXAMPLE, "tricks": [1, 1, 1]}]).startswith("deal 2: ")


# --- properties --------------------------------------------------------------

JACKS = ("JH", "JD", "JC", "JS")


@st.composite
def deals(draw):
    a = draw(st.integers(0, 17))
    b = draw(st.integers(0, 17 - a))
    tricks = [a, b, 17 - a - b]
    turn_up = draw(st.none() | st.sampled_from(FULL_PACK))
    taken_by = {j: draw(st.sampled_from([A, B, C])) for j in JACKS if j != turn_up}
    return {"tricks": tricks, "taken_by": taken_by, **({"turn_up": turn_up} if turn_up else {})}


def fits(deal) -> bool:
    return all(list(deal["taken_by"].values()).count(s) <= 3 * deal["tricks"][s] for s in (A, B, C))


@settings(max_examples=300)
@given(deals())
def test_a_deal_totals_seven_unless_a_jack_is_turned_up(deal):
    if not fits(deal):
        with pytest.raises(RecordError):
            load(record([deal]))
        return
    points = computed([deal])["per_deal"][0]
    turned = deal.get("turn_up")
    if turned in JACKS:
        # 17 minus the other three jacks' values (J♥ 4, J♦ 3, J♣ 2, J♠ 1)
        cost = {"JH": 4, "JD": 3, "JC": 2, "JS": 1}
        assert sum(points) == 17 - sum(cost[j] for j in JACKS if j != turned)
    else:
        assert sum(points) == 7  # 17 - 10


@settings(max_examples=200)
@given(deals(), st.dictionaries(st.sampled_from(JACKS), st.integers(-100, 100)))
def test_a_deal_totals_17_plus_the_jacks_in_play(deal, values):
    assume(fits(deal))
    points = computed([deal], options={"jack_values": values})["per_deal"][0]
    worth = {**DEFAULT_VALUES, **values}
    assert sum(points) == 17 + sum(worth[j] for j in deal["taken_by"])
    # each seat: its tricks plus the jacks it took
    for s in (A, B, C):
        assert points[s] == deal["tricks"][s] + sum(
            worth[j] for j, who in deal["taken_by"].items() if who == s
        )


@settings(max_examples=100)
@given(st.lists(deals(), min_size=1, max_size=12), st.integers(0, 2))
def test_the_fold_agrees_with_the_deals(entries, first):
    entries = [d for d in entries if fits(d)]
    try:
        _match, standings = load(record(entries, first_dealer=first))
    except RecordError as e:
        assert "over" in e.message  # only a deal after the end is refused
        return
    c = standings.computed()
    assert c["totals"] == [sum(p[s] for p in c["per_deal"]) for s in (A, B, C)]
    top = max(c["totals"])
    if c["finished"]:
        assert top >= 20 and c["winners"] == [c["totals"].index(top)]
        assert c["totals"].count(top) == 1
    else:
        assert top < 20 or c["totals"].count(top) > 1
        n = len(entries)
        assert c["next"] == {"dealer": (first + n) % 3, "leader": (first + n + 1) % 3, "pass": None}


# --- the rules page ----------------------------------------------------------


def test_rules_page(client):
    page = client.get("/rules/knaves").get_data(as_text=True)
    assert "J♥ −4" in page and "The Polish card-game book" in page and "House rule" in page
