"""King (docs/rules.md "King"): every contract worked by hand, the refusals and the
rule each names, the engine's play rules (no heart led, K♥ at the first chance and
at a heart lead, the eldest naming trumps, the duty to trump), whole matches played
by the engine (each negative deal hands out its fixed total, a match adds up to 0,
the engine's derived entry scored as an independent count of the cards), and a
whole match through the phone forms."""

from __future__ import annotations

import json
from functools import partial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.engine import walk
from scorer.games import GAMES, EntryError
from scorer.games.tricks import TableState

from .helpers import (
    check_autoplayed,
    deal_points,
    deal_refusal,
    plan_of,
    rules_of,
    state_for,
)

KING = GAMES["king"]


WIKIPEDIA3 = {"boys": "kings_jacks", "eralash": False, "positive": "mirror"}


rules_for = partial(rules_of, "king")
points = deal_points
refusal = deal_refusal


# --- every contract, worked by hand (4 players A B C D; 3 players A B C) ---------------


def test_the_deals_of_a_match_in_order():
    r = rules_for()
    titles = [str(plan_of(r, k).title) for k in range(1, 12)]
    assert titles[:7] == [
        "Deal 1 of 11: no tricks",
        "Deal 2 of 11: no hearts",
        "Deal 3 of 11: no jacks",
        "Deal 4 of 11: no queens",
        "Deal 5 of 11: no last two tricks",
        "Deal 6 of 11: no king of hearts",
        "Deal 7 of 11: the eralash (everything at once)",
    ]
    assert titles[7:] == [f"Deal {k} of 11: trumps" for k in range(8, 12)]
    # the deal passes to the left; the eldest leads every deal
    assert [plan_of(r, k).dealer for k in range(1, 12)] == [0, 1, 2, 3] * 2 + [0, 1, 2]
    assert [plan_of(r, k).leader for k in range(1, 12)] == [1, 2, 3, 0] * 2 + [1, 2, 3]
    assert "Play with the 32 cards (A K Q J 10 9 8 7): 8 cards each." in map(
        str, plan_of(r, 1).notes
    )
    # three players as the English Wikipedia plays them: 36 cards, six deals (the
    # boys kings and jacks), then the same six, positive
    r3 = rules_for(3, **WIKIPEDIA3)
    assert [str(plan_of(r3, k).title) for k in (3, 7, 12)] == [
        "Deal 3 of 12: no kings or jacks",
        "Deal 7 of 12: take tricks",
        "Deal 12 of 12: take the king of hearts",
    ]
    # the eralash of the positive round (mirror), its title with one colon
    m = rules_for(positive="mirror")
    assert str(plan_of(m, 14).title) == "Deal 14 of 14: the eralash (take everything)"


def test_deal_1_no_tricks():
    # 2 a trick: 2, 3, 1, 2 → -4, -6, -2, -4 (sum -16)
    assert points(rules_for(), 1, {"tricks": [2, 3, 1, 2]}) == [-4, -6, -2, -4]
    # three players, 6 a trick: 5, 4, 3 → -30, -24, -18 (sum -72)
    assert points(rules_for(3), 1, {"tricks": [5, 4, 3]}) == [-30, -24, -18]


def test_deal_2_no_hearts():
    # 2 a heart: 0, 5, 2, 1 → 0, -10, -4, -2
    assert points(rules_for(), 2, {"hearts": [0, 5, 2, 1]}) == [0, -10, -4, -2]
    # three players, 8 a heart (9 in the 36 cards): 4, 4, 1 → -32, -32, -8
    assert points(rules_for(3), 2, {"hearts": [4, 4, 1]}) == [-32, -32, -8]


def test_deal_3_the_boys_under_each_option():
    # jacks, 4 each: 1, 0, 2, 1 → -4, 0, -8, -4
    assert points(rules_for(), 3, {"jacks": [1, 0, 2, 1]}) == [-4, 0, -8, -4]
    # kings and jacks, 2 each: 3, 2, 2, 1 → -6, -4, -4, -2
    r = rules_for(boys="kings_jacks")
    assert points(r, 3, {"kings_jacks": [3, 2, 2, 1]}) == [-6, -4, -4, -2]
    # kings, 4 each: 2, 1, 0, 1 → -8, -4, 0, -4
    assert points(rules_for(boys="kings"), 3, {"kings": [2, 1, 0, 1]}) == [-8, -4, 0, -4]
    # three players, a king or jack 9: 3, 3, 2 → -27, -27, -18
    assert points(rules_for(3, **WIKIPEDIA3), 3, {"kings_jacks": [3, 3, 2]}) == [-27, -27, -18]


def test_deal_4_no_queens():
    # 4 a queen: 2, 0, 1, 1 → -8, 0, -4, -4; three players 18 a queen
    assert points(rules_for(), 4, {"queens": [2, 0, 1, 1]}) == [-8, 0, -4, -4]
    assert points(rules_for(3), 4, {"queens": [0, 3, 1]}) == [0, -54, -18]


def test_deal_5_the_last_two_tricks():
    # 8 each: B trick 7, D the last → 0, -8, 0, -8; both to A → -16
    r = rules_for()
    assert points(r, 5, {"taken_by": {"trick_7": 1, "trick_8": 3}}) == [0, -8, 0, -8]
    assert points(r, 5, {"taken_by": {"trick_7": 0, "trick_8": 0}}) == [-16, 0, 0, 0]
    # three players: tricks 11 and 12, 36 each
    r3 = rules_for(3)
    assert points(r3, 5, {"taken_by": {"trick_11": 0, "trick_12": 2}}) == [-36, 0, -36]


def test_deal_6_no_king_of_hearts():
    assert points(rules_for(), 6, {"taken_by": {"KH": 2}}) == [0, 0, -16, 0]
    assert points(rules_for(3), 6, {"taken_by": {"KH": 1}}) == [0, -72, 0]


# the eralash of docs/rules.md's worked example
ERALASH = {
    "tricks": [3, 2, 2, 1],
    "hearts": [3, 2, 2, 1],
    "jacks": [1, 1, 1, 1],
    "queens": [1, 1, 1, 1],
    "taken_by": {"KH": 0, "trick_7": 1, "trick_8": 0},
}


def test_deal_7_the_eralash():
    """docs/rules.md's worked example: A 3 tricks (-6), 3 hearts with K♥ among them
    (-6), 1 jack (-4), 1 queen (-4), K♥ (-16) and the last trick (-8): -44. B 2 tricks,
    2 hearts, 1 jack, 1 queen and trick 7: -4 - 4 - 4 - 4 - 8 = -24. C 2, 2, 1, 1:
    -16. D 1, 1, 1, 1: -2 - 2 - 4 - 4 = -12. In all -96."""
    assert points(rules_for(), 7, ERALASH) == [-44, -24, -16, -12]


def test_the_trump_deals_and_the_positive_round():
    # +6 a trick (192 over 32 tricks): 3, 2, 2, 1 → 18, 12, 12, 6 (48 a deal)
    r = rules_for()
    assert points(r, 8, {"trump": "C", "tricks": [3, 2, 2, 1]}) == [18, 12, 12, 6]
    assert points(r, 11, {"tricks": [0, 8, 0, 0]}) == [0, 48, 0, 0]
    # without the eralash the negative part costs 96: +3 a trick
    assert points(rules_for(eralash=False), 7, {"tricks": [3, 2, 2, 1]}) == [9, 6, 6, 3]
    # the same deals again, positive: take hearts 0, 5, 2, 1 → 0, +10, +4, +2
    m = rules_for(positive="mirror")
    assert str(plan_of(m, 9).title) == "Deal 9 of 14: take hearts"
    assert points(m, 9, {"hearts": [0, 5, 2, 1]}) == [0, 10, 4, 2]
    assert points(m, 14, ERALASH) == [44, 24, 16, 12]
    # three players, take tricks: 5, 4, 3 → +30, +24, +18
    assert points(rules_for(3, **WIKIPEDIA3), 7, {"tricks": [5, 4, 3]}) == [30, 24, 18]


def test_each_deal_hands_out_its_fixed_total():
    totals = {
        (4, "trumps", True): [-16] * 6 + [-96] + [48] * 4,
        (4, "trumps", False): [-16] * 6 + [24] * 4,
        (4, "mirror", True): [-16] * 6 + [-96] + [16] * 6 + [96],
        (3, "mirror", False): [-72] * 6 + [72] * 6,  # the English Wikipedia's
        (3, "trumps", False): [-72] * 6 + [144] * 3,
        (3, "trumps", True): [-72] * 6 + [-432] + [288] * 3,
    }
    for (n, positive, eralash), want in totals.items():
        r = rules_for(n, positive=positive, eralash=eralash)
        assert [r.deal_total(c) for c in r.sequence] == want
        assert sum(want) == 0  # koon.ru: the points of a match add up to 0


def test_the_sheet_describes_and_tags_a_deal():
    r = rules_for()
    plan = plan_of(r, 7)
    entry = r.check(ERALASH, plan)
    words = str(r.describe(entry, plan))
    assert words.startswith(
        "Ala: 3 tricks, 3 hearts, 1 jack, 1 queen, K♥, the last trick; Bartek: "
    )
    assert r.score(entry, plan).tag == "∑"
    tags = [str(r.tag(plan_of(r, k).context["contract"], {})) for k in range(1, 9)]
    assert tags == ["tricks", "♥", "J", "Q", "7·8", "K♥", "∑", "trumps"]
    m = rules_for(positive="mirror")
    assert str(m.tag(plan_of(m, 9).context["contract"], {})) == "+♥"


# --- refusals, each naming its rule ---------------------------------------------------


def test_counts_must_add_up_to_what_is_in_play():
    r = rules_for()
    assert refusal(r, 1, {"tricks": [2, 3, 1, 1]}) == "Tricks taken add up to 7, but 8 are in play"
    assert refusal(r, 3, {"jacks": [2, 2, 1, 0]}) == "Jacks taken add up to 5, but 4 are in play"
    assert refusal(rules_for(3), 2, {"hearts": [4, 4, 4]}) == (
        "Hearts taken add up to 12, but 9 are in play"
    )


def test_a_count_the_deal_does_not_count_is_refused_by_name():
    r = rules_for()
    message = refusal(r, 2, {"hearts": [3, 3, 1, 1], "queens": [1, 1, 1, 1]})
    assert message == "queens: nothing of the kind is counted in deal 2 (no hearts)"
    assert refusal(r, 3, {"kings_jacks": [2, 2, 2, 2]}) == (
        "kings_jacks: nothing of the kind is counted in deal 3 (no jacks)"
    )
    assert refusal(r, 8, {"tricks": [3, 2, 2, 1], "trump": "X"}).startswith("trump must be one of")
    assert refusal(r, 6, {}) == "say who took K♥"
    assert refusal(r, 3, {}) == "say how many jacks each player took"


def test_the_eralash_counts_must_fit_in_the_tricks():
    r = rules_for()
    # Darek took 1 trick, 4 cards: 3 hearts, 2 jacks and 2 queens are 7 cards, 5 at
    # the fewest (J♥ and Q♥ may be among the hearts)
    too_many = {
        **ERALASH,
        "hearts": [2, 2, 1, 3],
        "jacks": [1, 1, 0, 2],
        "queens": [1, 1, 0, 2],
    }
    assert refusal(r, 7, too_many) == (
        "Darek took 1 trick (4 cards): too few for 3 hearts, 2 jacks, and 2 queens"
    )
    # 2 hearts, 2 jacks, 2 queens: 4 at the fewest, so they fit in 4 cards
    fits = {**too_many, "hearts": [3, 2, 1, 2]}
    assert points(r, 7, fits)[3] == -2 - 4 - 8 - 8
    # a marked trick is one of the taker's tricks
    none = {
        **ERALASH,
        "tricks": [3, 3, 0, 2],
        "hearts": [3, 3, 0, 2],
        "jacks": [1, 2, 0, 1],
        "queens": [2, 1, 0, 1],
        "taken_by": {"KH": 0, "trick_7": 1, "trick_8": 2},
    }
    assert refusal(r, 7, none) == "Celina took no trick, so cannot have the last trick"
    # K♥ is a heart (and, when kings are boys, a king)
    kh = {**ERALASH, "hearts": [4, 2, 2, 0], "taken_by": {"KH": 3, "trick_7": 1, "trick_8": 0}}
    assert refusal(r, 7, kh) == "Darek took K♥, which is a heart: Darek's hearts cannot be 0"
    kings = rules_for(boys="kings")
    kh_kings = {**kh, "hearts": [3, 2, 2, 1], "kings": [2, 1, 1, 0]}
    del kh_kings["jacks"]
    assert refusal(kings, 7, kh_kings) == (
        "Darek took K♥, which is a heart and a king too: Darek's hearts and kings cannot be 0"
    )


# --- the engine's play rules ------------------------------------------------------------


def test_no_heart_led_while_the_leader_holds_another_suit():
    r = rules_for()
    hand = ["AH", "7H", "8C"]
    for number in (2, 6, 7):
        state = state_for(r, number)
        assert r.legal(hand, [], state) == ["8C"]
        kind, words, proof = r.illegal_reason("AH", hand, [], state)
        assert (kind, proof, str(words)) == (
            "rule",
            "8C",
            "no ♥ may be led while the leader holds another suit",
        )
        assert r.legal(["AH", "7H"], [], state) == ["AH", "7H"]  # only hearts: lead one
    for number in (1, 3, 4, 5):  # hearts may be led
        assert r.legal(hand, [], state_for(r, number)) == hand
    m = rules_for(positive="mirror")  # the positive round keeps the rule
    assert m.legal(hand, [], state_for(m, 9)) == ["8C"]


def test_the_king_of_hearts_at_the_first_chance():
    r = rules_for()
    hand = ["KH", "9H", "7C"]
    spades = [(0, "AS")]  # no spade in hand
    assert r.legal(hand, spades, state_for(r, 6)) == ["KH"]
    assert r.legal(hand, spades, state_for(r, 7)) == ["KH"]
    assert r.legal(hand, spades, state_for(r, 2)) == hand  # not a K♥ deal
    assert r.legal(hand, [(0, "AH")], state_for(r, 6)) == ["KH", "9H"]  # following hearts
    kind, words, proof = r.illegal_reason("7C", hand, spades, state_for(r, 6))
    assert (kind, proof) == ("rule", "KH") and "first time its holder cannot follow" in str(words)
    # by agreement, K♥ also goes the first time hearts are led
    led = rules_for(king_led=True)
    assert led.legal(hand, [(0, "AH")], state_for(led, 6)) == ["KH"]
    kind, words, proof = led.illegal_reason("9H", hand, [(0, "AH")], state_for(led, 6))
    assert (proof, str(words)) == ("KH", "K♥ must be played the first time its suit is led")
    assert "and the first time hearts are led" in str(plan_of(led, 6).notes[-1])


def test_the_eldest_names_trumps_and_a_void_player_must_trump():
    r = rules_for()
    plan = plan_of(r, 8)  # Darek deals, Ala names trumps and leads
    decision = r.engine_decision(plan, {})
    assert (decision.key, decision.seat, decision.many) == ("trump", 0, False)
    assert r.engine_decision(plan, {"trump": "C"}) is None
    assert str(plan.fields[0].label) == "Trumps Ala named"
    setup = r.engine_setup(plan, {"trump": "C"})
    assert setup.trump == "C" and setup.leader == 0
    # a low club beats the ace of the suit led
    assert r.trick_winner([(0, "AS"), (1, "7C"), (2, "KS"), (3, "QS")], setup) == 1
    # void in spades with a club: the club it must be
    assert r.legal(["7C", "8D"], [(0, "AS")], TableState(setup)) == ["7C"]
    kind, words, proof = r.illegal_reason("8D", ["7C", "8D"], [(0, "AS")], TableState(setup))
    assert (proof, str(words)) == ("7C", "a player who cannot follow suit must trump (♣)")
    assert r.legal(["8D", "9D"], [(0, "AS")], TableState(setup)) == ["8D", "9D"]  # no trump
    with pytest.raises(EntryError, match="say which suit Ala named trumps"):
        r.engine_setup(plan, {})


# --- whole matches played by the engine -------------------------------------------------

# docs/rules.md's figures, by hand: what one of each costs, per number of players
COST = {
    4: {"trick": 2, "H": 2, "J": 4, "K": 4, "KJ": 2, "Q": 4, "KH": 16, "last": 8},
    3: {"trick": 6, "H": 8, "J": 18, "K": 18, "KJ": 9, "Q": 18, "KH": 72, "last": 36},
}
TRUMP_TRICK = {(4, True): 6, (4, False): 3, (3, True): 24, (3, False): 12}
BOY = {"jacks": ("J",), "kings": ("K",), "kings_jacks": ("K", "J")}
COUNTS = {  # what each deal counts, by its key
    "tricks": {"trick"},
    "hearts": {"H"},
    "boys": {"boy"},
    "queens": {"Q"},
    "last_two": {"last"},
    "king_of_hearts": {"KH"},
    "eralash": {"trick", "H", "boy", "Q", "last", "KH"},
}


def oracle(rules, plan, played) -> list[int]:
    """The deal's points from the cards each seat took, without the game module's
    scoring."""
    n = rules.n
    contract = plan.context["contract"]
    cap = played.captured
    if contract.trumps:
        per = TRUMP_TRICK[n, rules.opts["eralash"]]
        return [per * cap.winners.count(s) for s in range(n)]
    cost = COST[n]
    boys = BOY[rules.opts["boys"]]
    boy_cost = cost["KJ"] if len(boys) == 2 else cost[boys[0]]
    counted = COUNTS[contract.key]
    last = len(cap.winners)
    pts = [0] * n
    for s in range(n):
        cards = cap.taken[s]
        lost = 0
        if "trick" in counted:
            lost += cost["trick"] * cap.winners.count(s)
        if "H" in counted:
            lost += cost["H"] * sum(c[-1] == "H" for c in cards)
        if "boy" in counted:
            lost += boy_cost * sum(c[:-1] in boys for c in cards)
        if "Q" in counted:
            lost += cost["Q"] * sum(c[:-1] == "Q" for c in cards)
        if "KH" in counted and "KH" in cards:
            lost += cost["KH"]
        if "last" in counted:
            lost += cost["last"] * sum(cap.winners[k - 1] == s for k in (last - 1, last))
        pts[s] = lost * contract.sign
    return pts


def check_match(rules, seed: int) -> None:
    check_autoplayed(rules, seed, oracle)


OPTIONS = st.fixed_dictionaries(
    {
        "boys": st.sampled_from(["jacks", "kings_jacks", "kings"]),
        "eralash": st.booleans(),
        "positive": st.sampled_from(["trumps", "mirror"]),
        "king_led": st.booleans(),
    }
)


@settings(max_examples=40, deadline=None)
@given(n=st.sampled_from([4, 3]), options=OPTIONS, seed=st.integers(0, 10**6))
def test_autoplayed_matches_hand_out_their_totals_and_add_up_to_zero(n, options, seed):
    check_match(rules_for(n, **options), seed)


def test_many_default_matches():
    for rules in (rules_for(), rules_for(3), rules_for(3, **WIKIPEDIA3)):
        for seed in range(20):
            check_match(rules, seed)


def test_a_played_deal_breaking_a_rule_is_refused_by_its_rule():
    r = rules_for()
    plan = plan_of(r, 6)  # Bartek deals, Celina leads
    setup = r.engine_setup(plan, {})
    hands = [
        ["KH", "7D", "8D", "9D", "10D", "JD", "QD", "KD"],
        ["AC", "KC", "QC", "JC", "10C", "9C", "8C", "7C"],
        ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S"],
        ["AH", "QH", "JH", "10H", "9H", "8H", "7H", "AD"],
    ]
    # Celina leads A♠, Darek has none; Ala has none either and holds K♥: it must go
    tricks = [[(2, "AS"), (3, "AD"), (0, "7D")]]
    with pytest.raises(EntryError, match="K♥ must be discarded the first time"):
        walk(r, setup, tricks, hands, complete=False)
    walk(r, setup, [[(2, "AS"), (3, "AD"), (0, "KH"), (1, "7C")]], hands, complete=False)


# --- a whole match through the phone forms ------------------------------------------------

FOUR = {"name_0": "Ala", "name_1": "Bartek", "name_2": "Celina", "name_3": "Darek"}
DEALS = [
    {"tricks__0": "2", "tricks__1": "3", "tricks__2": "1"},  # Darek auto: 2
    {"hearts__0": "0", "hearts__1": "5", "hearts__2": "2"},
    {"jacks__0": "1", "jacks__1": "0", "jacks__2": "2"},
    {"queens__0": "2", "queens__1": "0", "queens__2": "1"},
    {"taken_by_trick_7": "1", "taken_by_trick_8": "3"},
    {"taken_by_KH": "2"},
    {
        **{f"tricks__{s}": v for s, v in enumerate("322")},
        **{f"hearts__{s}": v for s, v in enumerate("322")},
        **{f"jacks__{s}": v for s, v in enumerate("111")},
        **{f"queens__{s}": v for s, v in enumerate("111")},
        "taken_by_KH": "0",
        "taken_by_trick_7": "1",
        "taken_by_trick_8": "0",
    },
    {"trump": "C", "tricks__0": "3", "tricks__1": "2", "tricks__2": "2"},
    {"tricks__0": "1", "tricks__1": "4", "tricks__2": "2"},
    {"trump": "S", "tricks__0": "0", "tricks__1": "2", "tricks__2": "5"},
    {"trump": "D", "tricks__0": "2", "tricks__1": "2", "tricks__2": "2"},
]
# by hand: deal by deal, Ala, Bartek, Celina, Darek
PER_DEAL = [
    [-4, -6, -2, -4],
    [0, -10, -4, -2],
    [-4, 0, -8, -4],
    [-8, 0, -4, -4],
    [0, -8, 0, -8],
    [0, 0, -16, 0],
    [-44, -24, -16, -12],
    [18, 12, 12, 6],
    [6, 24, 12, 6],
    [0, 12, 30, 6],
    [12, 12, 12, 12],
]


def test_a_whole_match_through_the_phone_forms(client):
    r = client.post("/new/king", data={**FOUR, "first_dealer": "0", "opt_eralash": "y"})
    url = r.headers["Location"]
    for k, data in enumerate(DEALS):
        r = client.post(url + "/deal", data={"expect": str(k), **data})
        assert r.status_code == 302, (k + 1, r.get_data(as_text=True)[-2000:])
    record = json.loads(client.get(url + "/record.json").get_data(as_text=True))
    assert record["game"] == "king"
    assert record["options"] == {
        "players": 4,
        "boys": "jacks",
        "eralash": True,
        "positive": "trumps",
        "king_led": False,
    }
    assert record["deals"][6]["taken_by"] == {"KH": 0, "trick_7": 1, "trick_8": 0}
    assert record["computed"]["per_deal"] == PER_DEAL
    # Ala -24, Bartek 12, Celina 16, Darek -4: 0 in all, Celina wins
    assert record["computed"]["totals"] == [-24, 12, 16, -4]
    assert record["computed"]["winners"] == [2]
    sheet = client.get(url).get_data(as_text=True)
    assert "Celina wins" in sheet
    csv = client.get(url + "/sheet.csv").get_data(as_text=True)
    assert '7,"Celina","∑",-44,-60,-24,-48,-16,-50,-12,-34' in csv
    assert client.get(url + "/history").status_code == 200
    assert client.get(url + "/chart.svg").status_code in (200, 404)


def test_a_refused_deal_changes_nothing(client):
    url = client.post("/new/king", data={**FOUR, "opt_eralash": "y"}).headers["Location"]
    r = client.post(
        url + "/deal", data={"expect": "0", "tricks__0": "5", "tricks__1": "5", "tricks__2": "5"}
    )
    assert r.status_code == 400
    assert "Tricks taken add up to 15, but 8 are in play" in r.get_data(as_text=True)
    record = json.loads(client.get(url + "/record.json").get_data(as_text=True))
    assert record["deals"] == []


def test_the_check_page_plays_a_deal_trick_by_trick(client):
    url = client.post("/new/king", data={**FOUR, "opt_eralash": "y"}).headers["Location"]
    page = client.get(url + "/deal").get_data(as_text=True)
    assert "Tricks taken" in page and "trick by trick" in page
    assert client.get(url + "/check").status_code == 200


def test_the_last_two_tricks_are_asked_as_the_table_names_them():
    """Deal 5 asks for its two tricks as a player names them: "the second-to-last" and
    "the last" (a Czech reader: «Kdo vzal 7. zdvih?» made a player count to eight)."""
    labels = [str(f.label) for f in plan_of(rules_for(4), 5).fields]
    assert labels == ["Who took the second-to-last trick?", "Who took the last trick?"]
    three = [str(f.label) for f in plan_of(rules_for(3), 5).fields]  # 12 tricks each
    assert three == labels
