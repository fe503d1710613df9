"""Hearts and Black Maria, rule by rule (RULES.md). Every expected figure was
worked out by hand from the rule; the arithmetic is in the comment beside it."""

from __future__ import annotations

import pytest

from scorer.match import fold
from scorer.record import RecordError, load

from .helpers import computed, points, record

ALL_HEARTS = ["AH", "KH", "QH", "JH", "10H", "9H", "8H", "7H", "6H", "5H", "4H", "3H", "2H"]


def refused(game, deals, players=4, options=None, match=""):
    with pytest.raises(RecordError) as e:
        load(record(game, deals, players, options))
    assert match in e.value.message, e.value.message
    return e.value.message


# --- Black Maria: the worked examples ----------------------------------------


def test_black_maria_three_players_worked_example():
    # A 4♥ + Q♠ 13 = 17; B 6♥ + K♠ 10 + A♠ 7 = 23; C 3♥ = 3; 17 + 23 + 3 = 43
    deal = {"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}
    assert points("black_maria", deal, 3) == [17, 23, 3]


def test_black_maria_omnibus_worked_example():
    # as above, C also took J♦: 3 - 10 = -7; 17 + 23 - 7 = 33
    deal = {"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1, "JD": 2}}
    assert points("black_maria", deal, 3, {"omnibus": True}) == [17, 23, -7]


def test_black_maria_six_players_has_twelve_hearts_and_sums_to_42():
    # 2♥ is out: 12 hearts. 2 each; Q♠ to seat 0, K♠ to 1, A♠ to 2:
    # 2+13=15, 2+10=12, 2+7=9, 2, 2, 2 → 42
    deal = {"hearts": [2, 2, 2, 2, 2, 2], "taken_by": {"QS": 0, "KS": 1, "AS": 2}}
    assert points("black_maria", deal, 6) == [15, 12, 9, 2, 2, 2]
    refused(
        "black_maria",
        [{"hearts": [3, 2, 2, 2, 2, 2], "taken_by": {"QS": 0, "KS": 1, "AS": 2}}],
        6,
        match="hearts add up to 13, but 12 are in play",
    )


def test_black_maria_no_moon_taking_everything_pays_everything():
    # 13 hearts + 13 + 10 + 7 = 43 to one player
    deal = {"hearts": [13, 0, 0], "taken_by": {"QS": 0, "KS": 0, "AS": 0}}
    assert points("black_maria", deal, 3) == [43, 0, 0]


def test_black_lady_scores_hearts_and_queen_only():
    # hearts 1, Q♠ 13: 5 + 13 = 18, 4, 4 → 26
    deal = {"hearts": [5, 4, 4], "taken_by": {"QS": 0}}
    assert points("black_maria", deal, 3, {"scoring": "black_lady"}) == [18, 4, 4]
    refused(
        "black_maria",
        [{"hearts": [5, 4, 4], "taken_by": {"QS": 0, "KS": 1}}],
        3,
        {"scoring": "black_lady"},
        match="K♠ is not scored",
    )


def spot_deal(ks=1, as_=2):
    # A: A♥ K♥ 2♥ and Q♠; B: the other ten hearts; C: nothing
    return {
        "heart_cards": [
            ["AH", "KH", "2H"],
            ["QH", "JH", "10H", "9H", "8H", "7H", "6H", "5H", "4H", "3H"],
            [],
        ],
        "taken_by": {"QS": 0, "KS": ks, "AS": as_},
    }


def test_spot_black_maria_worked_example():
    # A: 15 + 10 + 2 + Q♠ 25 = 52
    # B: Q♥ 10 + J♥ 10 + 10+9+8+7+6+5+4+3 (52) = 72, + K♠ 10 = 82
    # C: A♠ 7. Whole deal 99 + 25 + 10 + 7 = 141 = 52 + 82 + 7
    p = points("black_maria", spot_deal(), 3, {"scoring": "spot"})
    assert p == [52, 82, 7]


def test_spot_values_11_12_13_14():
    # A: A♥ 14 + K♥ 13 + 2♥ 2 + Q♠ 25 = 54
    # B: Q♥ 12 + J♥ 11 + 52 = 75, + K♠ 10 = 85; C: A♠ 7
    p = points("black_maria", spot_deal(), 3, {"scoring": "spot", "spot_values": "11-12-13-14"})
    assert p == [54, 85, 7]


def test_spot_requires_heart_cards_and_target_500():
    refused(
        "black_maria",
        [{"hearts": [3, 10, 0], "taken_by": {"QS": 0, "KS": 1, "AS": 2}}],
        3,
        {"scoring": "spot"},
        match="which hearts",
    )
    match, _standings = load(record("black_maria", [], 3, {"scoring": "spot"}))
    assert match.options["target"] == 500
    match, _standings = load(record("black_maria", [], 3))
    assert match.options["target"] == 100


def test_heart_cards_and_hearts_must_agree():
    deal = spot_deal()
    deal["hearts"] = [3, 10, 0]
    assert points("black_maria", deal, 3) == [3 + 13, 10 + 10, 7]  # counted 1 a heart
    deal["hearts"] = [4, 9, 0]
    refused("black_maria", [deal], 3, match="hearts says 4, but 3 heart cards")


def test_heart_cards_must_be_a_partition_of_the_hearts_in_play():
    twice = {
        "heart_cards": [["AH", "AH"], ALL_HEARTS[1:], []],
        "taken_by": {"QS": 0, "KS": 0, "AS": 0},
    }
    refused("black_maria", [twice], 3, match="A♥ is listed twice")
    short = {"heart_cards": [["AH"], ALL_HEARTS[2:], []], "taken_by": {"QS": 0, "KS": 0, "AS": 0}}
    refused("black_maria", [short], 3, match="nobody took K♥")
    # with 6 players 2♥ is out of play
    six = {"heart_cards": [ALL_HEARTS, [], [], [], [], []], "taken_by": {"QS": 0, "KS": 0, "AS": 0}}
    refused("black_maria", [six], 6, match="2♥ is not a heart in play")
    spade = {"heart_cards": [["AS"], ALL_HEARTS, []], "taken_by": {"QS": 0, "KS": 0, "AS": 0}}
    refused("black_maria", [spade], 3, match="A♠ is not a heart in play")


# --- Hearts -------------------------------------------------------------------

MOON = {"hearts": [13, 0, 0, 0], "taken_by": {"QS": 0}}


def test_hearts_standard_deal():
    # 1 a heart, Q♠ 13: 3 + 13 = 16, 4, 6, 0 → 26
    assert points("hearts", {"hearts": [3, 4, 6, 0], "taken_by": {"QS": 0}}) == [16, 4, 6, 0]


def test_hearts_moon_others_and_self_and_off():
    assert points("hearts", MOON) == [0, 26, 26, 26]
    assert points("hearts", MOON, options={"moon": "self"}) == [-26, 0, 0, 0]
    assert points("hearts", MOON, options={"moon": "off"}) == [26, 0, 0, 0]


def test_no_moon_when_queen_and_hearts_are_split():
    # all 13 hearts but not Q♠: 13 and 13, no moon
    assert points("hearts", {"hearts": [13, 0, 0, 0], "taken_by": {"QS": 1}}) == [13, 13, 0, 0]


def test_hearts_moon_with_omnibus_worked_example():
    # others: A 0, B 26 - 10 = 16, C 26, D 26
    deal = {"hearts": [13, 0, 0, 0], "taken_by": {"QS": 0, "JD": 1}}
    assert points("hearts", deal, options={"omnibus": True}) == [0, 16, 26, 26]


def test_hearts_moon_self_with_jack_of_diamonds():
    # self: -26, then J♦ -10 → -36 (RULES.md)
    deal = {"hearts": [13, 0, 0, 0], "taken_by": {"QS": 0, "JD": 0}}
    assert points("hearts", deal, options={"omnibus": True, "moon": "self"}) == [-36, 0, 0, 0]


def test_spot_moon_is_worth_the_whole_deal():
    # spot hearts 2..10 = 54, J Q K 30, A 15 → 99; + Q♠ 25 = 124
    deal = {"heart_cards": [ALL_HEARTS, [], [], []], "taken_by": {"QS": 0}}
    assert points("hearts", deal, options={"scoring": "spot"}) == [0, 124, 124, 124]
    deal["taken_by"]["JD"] = 0
    assert points("hearts", deal, options={"scoring": "spot", "moon": "self", "omnibus": True}) == [
        -134,
        0,
        0,
        0,
    ]


def test_hearts_spot_scores_no_black_king_or_ace():
    deal = {"heart_cards": [["AH"], ALL_HEARTS[1:], [], []], "taken_by": {"QS": 2}}
    # A♥ 15; the other 12: 99 - 15 = 84; Q♠ 25
    assert points("hearts", deal, options={"scoring": "spot"}) == [15, 84, 25, 0]
    refused(
        "hearts",
        [{**deal, "taken_by": {"QS": 2, "KS": 1}}],
        options={"scoring": "spot"},
        match="K♠ is not scored",
    )


def test_jack_of_diamonds_refused_without_omnibus():
    refused(
        "hearts",
        [{"hearts": [3, 4, 6, 0], "taken_by": {"QS": 0, "JD": 1}}],
        match="J♦ is not scored",
    )


def test_hearts_removed_cards_keep_thirteen_hearts():
    for n in (3, 5, 6):
        refused(
            "hearts",
            [{"hearts": [12] + [0] * (n - 1), "taken_by": {"QS": 0}}],
            n,
            match="hearts add up to 12, but 13 are in play",
        )
        assert points("hearts", {"hearts": [13] + [0] * (n - 1), "taken_by": {"QS": 1}}, n)[0] == 13


@pytest.mark.parametrize(
    "n, cycle",
    [
        (4, ["left 3", "right 3", "across 3", "none", "left 3"]),
        (3, ["left 3", "right 3", "none", "left 3"]),
        (5, ["left 3", "right 3", "none", "left 3"]),
        (6, ["left 3", "right 3", "across 3", "none", "left 3"]),
    ],
)
def test_hearts_pass_cycle(n, cycle):
    deal = {"hearts": [13] + [0] * (n - 1), "taken_by": {"QS": 1}}
    seen = []
    for played in range(len(cycle)):
        seen.append(
            computed("hearts", [deal] * played, n, {"moon": "off", "target": 10_000})["next"][
                "pass"
            ]
        )
    assert seen == cycle


def test_black_maria_always_passes_right():
    deal = {"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}
    for played in range(4):
        assert computed("black_maria", [deal] * played, 3)["next"]["pass"] == "right 3"


def test_dealer_moves_left_and_eldest_leads_black_maria():
    deal = {"hearts": [0, 0, 13, 0], "taken_by": {"QS": 1, "KS": 1, "AS": 1}}
    nexts = [computed("black_maria", [deal] * k, 4, first_dealer=2)["next"] for k in range(3)]
    # first dealer 2; then 3, then 0; the eldest (dealer's left) leads
    assert [(x["dealer"], x["leader"]) for x in nexts] == [(2, 3), (3, 0), (0, 1)]


def test_hearts_leader_is_whoever_holds_the_lowest_club():
    m, _standings = load(record("hearts", [], 5))
    plan = fold(m).next
    assert plan.leader is None and "3♣" in plan.leader_text
    m, _standings = load(record("hearts", [], 6))
    assert "4♣" in fold(m).next.leader_text
    m, _standings = load(record("hearts", [], 4))
    assert "2♣" in fold(m).next.leader_text


# --- the end --------------------------------------------------------------------


def bm(q, k, a, hearts):
    return {"hearts": hearts, "taken_by": {"QS": q, "KS": k, "AS": a}}


def test_target_ends_the_match_lowest_wins():
    # seat 0 takes everything (43) each deal: 43, 86, 129 ≥ 100 after deal 3
    deal = bm(0, 0, 0, [13, 0, 0])
    c = computed("black_maria", [deal, deal], 3)
    assert not c["finished"] and c["totals"] == [86, 0, 0]
    c = computed("black_maria", [deal] * 3, 3)
    assert c["finished"] and c["winners"] == [1, 2] and c["next"] is None  # 0 and 0 share
    refused("black_maria", [deal] * 4, 3, match="deal 4: the match is already over")


def test_reaching_the_target_exactly_ends_it():
    # 26 a deal under black_lady; target 52: 26, 52 → over after deal 2
    deal = {"hearts": [13, 0, 0], "taken_by": {"QS": 0}}
    c = computed("black_maria", [deal, deal], 3, {"scoring": "black_lady", "target": 52})
    assert c["finished"] and c["winners"] == [1, 2]


def test_fixed_number_of_deals():
    deal = bm(0, 1, 2, [4, 6, 3])  # 17, 16, 10
    opts = {"end": "deals", "deals": 3}
    assert not computed("black_maria", [deal] * 2, 3, opts)["finished"]
    c = computed("black_maria", [deal] * 3, 3, opts)
    # 3 × (17, 16, 10) = 51, 48, 30 → seat 2 wins
    assert c["totals"] == [51, 48, 30] and c["finished"] and c["winners"] == [2]
    # default: 2 × players deals
    match, _standings = load(record("black_maria", [], 3, {"end": "deals"}))
    assert match.options["deals"] == 6
    refused("black_maria", [], 3, {"end": "deals", "deals": 4}, match="multiple of the players")


def test_partnership_lower_team_total_wins():
    # seats 0+2 against 1+3. Deal: seat 1 takes Q♠ K♠ A♠ (30) and 13 hearts → 43 each deal
    deal = bm(1, 1, 1, [0, 13, 0, 0])
    c = computed("black_maria", [deal] * 3, 4, {"partnership": True})
    # seat 1: 129 ≥ 100 → over; teams 0+2 = 0, 1+3 = 129 → seats 0 and 2 win
    assert c["finished"] and c["winners"] == [0, 2]
    refused("black_maria", [], 3, {"partnership": True}, match="partnership play needs 4 players")


def test_partnership_team_totals_shown():
    m, _ = load(record("black_maria", [bm(0, 1, 2, [1, 2, 3, 7])], 4, {"partnership": True}))
    standings = fold(m)
    # seat 0: 1 + 13 = 14; 1: 2 + 10 = 12; 2: 3 + 7 = 10; 3: 7 → teams 24 and 19
    assert standings.team_totals == [((0, 2), 24), ((1, 3), 19)]
    assert standings.places == [2, 1, 2, 1]


def test_tie_for_lowest_is_shared():
    # hearts target 26: deal 1 seat 0 takes Q♠ and 13 hearts... moon. Use moon off:
    # seat 0 26, others 0 → over; seats 1, 2, 3 share
    c = computed(
        "hearts",
        [{"hearts": [13, 0, 0, 0], "taken_by": {"QS": 0}}],
        4,
        {"moon": "off", "target": 26},
    )
    assert c["finished"] and c["winners"] == [1, 2, 3]


# --- the entry is checked ---------------------------------------------------------


@pytest.mark.parametrize(
    "deal, message",
    [
        (
            {"hearts": [4, 6, 2], "taken_by": {"QS": 0, "KS": 1, "AS": 1}},
            "hearts add up to 12, but 13 are in play",
        ),
        ({"hearts": [4, 6], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}, "one number per player"),
        ({"hearts": [4, 6, "3"], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}, "whole number"),
        ({"hearts": [4, 6, True], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}, "whole number"),
        ({"hearts": [-1, 7, 7], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}, "between 0 and"),
        ({"hearts": [10**30, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}, "between 0 and"),
        ({"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1}}, "say who took A♠"),
        (
            {"hearts": [4, 6, 3], "taken_by": {"QS": 3, "KS": 1, "AS": 1}},
            "Q♠ must be a seat from 0 to 2",
        ),
        (
            {"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1, "XX": 1}},
            "XX is not scored",
        ),
        ({"hearts": [4, 6, 3]}, "say who took"),
        ({"taken_by": {"QS": 0, "KS": 1, "AS": 1}}, "say how many hearts"),
        (
            {"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1}, "bonus": 1},
            "unknown field bonus",
        ),
        ([4, 6, 3], "a deal must be a JSON object"),
    ],
)
def test_bad_entries_are_refused_with_a_reason(deal, message):
    text = refused("black_maria", [deal], 3, match=message)
    assert text.startswith("deal 1: ")


def test_a_later_bad_deal_is_named_by_number():
    good = bm(0, 1, 1, [4, 6, 3])
    refused(
        "black_maria", [good, good, bm(0, 1, 1, [4, 6, 4])], 3, match="deal 3: hearts add up to 14"
    )


def test_each_deal_in_words():
    m, _standings = load(
        record("black_maria", [{"hearts": [4, 8, 1], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}], 3)
    )
    row = fold(m).rows[0]
    # 4 + 13 = 17; 8 + 10 + 7 = 25; 1
    assert row.score.lines == ["4 hearts, Q♠ → 17", "8 hearts, K♠, A♠ → 25", "1 heart → 1"]
    # a count of hearts in words: "4♥" reads as the four of hearts
    assert row.words == "Ala: 4 hearts, Q♠; Bartek: 8 hearts, K♠, A♠; Celina: 1 heart"
