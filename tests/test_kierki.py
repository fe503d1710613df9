"""Kierki (docs/rules.md "Kierki"): every contract worked by hand, the refusals and
the rule each names, the engine's play rules, whole matches played by the engine
(each negative deal hands out its fixed total, a match adds up to 0, the engine's
derived entry scored as the engine's own count of the cards), and a whole match
through the phone forms."""

from __future__ import annotations

import json
import random
import re
from functools import partial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.engine import RANDOM, entry_with_play, play_deal
from scorer.games import GAMES, EntryError
from scorer.games.tricks import TableState, layout_legal

from .helpers import (
    check_autoplayed,
    deal_points,
    deal_refusal,
    plan_of,
    rules_of,
    state_for,
)

KIERKI = GAMES["kierki"]
LOW_HIGH = "2 3 4 5 6 7 8 9 10 J Q K A".split()


rules_for = partial(rules_of, "kierki")
points = deal_points
refusal = deal_refusal


# --- every contract, worked by hand (4 players A B C D; 3 players A B C) ---------------


def test_the_deals_of_a_match_in_order():
    r = rules_for()
    titles = [str(plan_of(r, k).title) for k in range(1, 13)]
    assert titles[0] == "Deal 1 of 12: no tricks"
    assert titles[5] == "Deal 6 of 12: no 7th and last trick"
    assert titles[6] == "Deal 7 of 12: the robber (everything at once)"
    assert titles[7:11] == [f"Deal {k} of 12: trumps" for k in range(8, 12)]
    assert titles[11] == "Deal 12 of 12: fan tan"
    # the deal passes to the left; the eldest leads every deal
    assert [plan_of(r, k).dealer for k in range(1, 13)] == [0, 1, 2, 3] * 3
    assert [plan_of(r, k).leader for k in range(1, 13)] == [1, 2, 3, 0] * 3
    assert len(rules_for(3).sequence) == 11  # 7 negative, 3 trump deals, the fan tan


def test_deal_1_no_tricks():
    # 20 a trick: 3, 4, 2, 4 tricks → -60, -80, -40, -80 (sum -260)
    assert points(rules_for(), 1, {"tricks": [3, 4, 2, 4]}) == [-60, -80, -40, -80]
    # three players, 15 a trick: 5, 7, 5 → -75, -105, -75 (sum -255)
    assert points(rules_for(3), 1, {"tricks": [5, 7, 5]}) == [-75, -105, -75]


def test_deal_2_no_hearts():
    # 20 a heart: 0, 6, 4, 3 → 0, -120, -80, -60 (sum -260)
    assert points(rules_for(), 2, {"hearts": [0, 6, 4, 3]}) == [0, -120, -80, -60]


def test_deal_3_no_queens():
    # 60 a queen: 2, 0, 1, 1 → -120, 0, -60, -60 (sum -240)
    assert points(rules_for(), 3, {"queens": [2, 0, 1, 1]}) == [-120, 0, -60, -60]


def test_deal_4_no_kings_or_jacks():
    # 30 a king or jack: 3, 2, 2, 1 → -90, -60, -60, -30 (sum -240)
    assert points(rules_for(), 4, {"kings_jacks": [3, 2, 2, 1]}) == [-90, -60, -60, -30]


def test_deal_5_no_king_of_hearts():
    assert points(rules_for(), 5, {"taken_by": {"KH": 2}}) == [0, 0, -150, 0]
    assert points(rules_for(3), 5, {"taken_by": {"KH": 0}}) == [-140, 0, 0]


def test_deal_6_the_marked_tricks_under_each_option():
    # the 7th and the last (13th): 75 each; one player may take both
    assert points(rules_for(), 6, {"taken_by": {"trick_7": 1, "trick_13": 3}}) == [0, -75, 0, -75]
    assert points(rules_for(), 6, {"taken_by": {"trick_7": 0, "trick_13": 0}}) == [-150, 0, 0, 0]
    # the last two: tricks 12 and 13
    r = rules_for(sixth="last_two")
    assert points(r, 6, {"taken_by": {"trick_12": 2, "trick_13": 2}}) == [0, 0, -150, 0]
    # the last alone: 150
    assert points(rules_for(sixth="last"), 6, {"taken_by": {"trick_13": 1}}) == [0, -150, 0, 0]
    assert points(
        rules_for(sixth="third_eighth"), 6, {"taken_by": {"trick_3": 0, "trick_8": 1}}
    ) == [
        -75,
        -75,
        0,
        0,
    ]
    # three players: 17 tricks, 70 each (140 in all)
    r3 = rules_for(3)
    assert points(r3, 6, {"taken_by": {"trick_7": 1, "trick_17": 2}}) == [0, -70, -70]
    assert points(rules_for(3, sixth="last"), 6, {"taken_by": {"trick_17": 2}}) == [0, 0, -140]


# the robber of docs/rules.md's worked example
ROBBER = {
    "tricks": [4, 3, 3, 3],
    "hearts": [5, 3, 3, 2],
    "queens": [1, 1, 1, 1],
    "kings_jacks": [3, 2, 2, 1],
    "taken_by": {"KH": 0, "trick_7": 1, "trick_13": 0},
}


def test_deal_7_the_robber():
    """docs/rules.md's worked example: A 4 tricks (-80), 5 hearts with K♥ among them
    (-100), 1 queen (-60), 3 kings or jacks (-90), K♥ (-150) and the last trick (-75):
    -555. B 3 tricks (-60), 3 hearts (-60), 1 queen (-60), 2 kings or jacks (-60),
    trick 7 (-75): -315. C 3, 3, 1, 2: -240. D 3 tricks, 2 hearts, 1 queen, 1 king or
    jack: -60 - 40 - 60 - 30 = -190. In all -1,300."""
    assert points(rules_for(), 7, ROBBER) == [-555, -315, -240, -190]


def test_the_trump_deals_and_the_fan_tan():
    # +25 a trick: 4, 3, 3, 3 → 100, 75, 75, 75 (325 a deal); the trumps named may be said
    r = rules_for()
    assert points(r, 8, {"trump": "H", "tricks": [4, 3, 3, 3]}) == [100, 75, 75, 75]
    assert points(r, 9, {"tricks": [0, 13, 0, 0]}) == [0, 325, 0, 0]
    # the fan tan: 800 to the first out, 500 to the second
    assert points(r, 12, {"first": 2, "second": 0}) == [500, 0, 800, 0]
    # three players: 17 tricks at 25 (425 a deal); 790 and 485
    r3 = rules_for(3)
    assert points(r3, 8, {"tricks": [6, 6, 5]}) == [150, 150, 125]
    assert points(r3, 11, {"first": 1, "second": 2}) == [0, 790, 485]


def test_each_deal_hands_out_its_fixed_total():
    totals = {
        4: [-260, -260, -240, -240, -150, -150, -1300, 325, 325, 325, 325, 1300],
        3: [-255, -260, -240, -240, -140, -140, -1275, 425, 425, 425, 1275],
    }
    for n, want in totals.items():
        r = rules_for(n)
        assert [r.deal_total(c) for c in r.sequence] == want
        assert sum(want) == 0  # pagat.com: the points of a match add up to 0


def test_the_sheet_describes_and_tags_a_deal():
    r = rules_for()
    plan = plan_of(r, 7)
    entry = r.check(ROBBER, plan)
    words = str(r.describe(entry, plan))
    assert words.startswith(
        "Ala: 4 tricks, 5 hearts, 1 queen, 3 kings or jacks, K♥, the last trick; Bartek: "
    )
    assert r.score(entry, plan).tag == "∑"
    plan = plan_of(r, 12)
    assert str(r.describe({"first": 2, "second": 0}, plan)) == "Celina out first, Ala out second"


# --- refusals, each naming its rule ---------------------------------------------------


def test_counts_must_add_up_to_what_is_in_play():
    r = rules_for()
    assert refusal(r, 1, {"tricks": [3, 4, 2, 3]}) == (
        "Tricks taken add up to 12, but 13 are in play"
    )
    assert refusal(r, 3, {"queens": [2, 2, 1, 0]}) == (
        "Queens taken add up to 5, but 4 are in play"
    )


def test_a_count_the_deal_does_not_count_is_refused_by_name():
    r = rules_for()
    message = refusal(r, 2, {"hearts": [3, 3, 3, 4], "queens": [1, 1, 1, 1]})
    assert message == "queens: nothing of the kind is counted in deal 2 (no hearts)"
    assert refusal(r, 8, {"tricks": [4, 3, 3, 3], "trump": "X"}).startswith("trump must be one of")
    assert refusal(r, 5, {}) == "say who took K♥"


def test_the_fan_tan_needs_two_different_players():
    r = rules_for()
    assert refusal(r, 12, {"first": 1}) == "say who went out second"
    assert refusal(r, 12, {"first": 1, "second": 1}) == (
        "Bartek cannot go out both first and second: two players go out"
    )


def test_the_robber_counts_must_fit_in_the_tricks():
    r = rules_for()
    good = ROBBER
    # Darek took 1 trick, 4 cards: 1 heart, 2 queens and 3 kings or jacks are 6 cards,
    # 5 at the fewest (the heart may be Q♥ or J♥, counted twice; K♥ is Ala's)
    too_many = {
        **good,
        "tricks": [4, 3, 5, 1],
        "hearts": [5, 3, 4, 1],
        "queens": [1, 1, 0, 2],
        "kings_jacks": [3, 2, 0, 3],
    }
    assert refusal(r, 7, too_many) == (
        "Darek took 1 trick (4 cards): too few for 1 heart, 2 queens, and 3 kings or jacks"
    )
    # 1 heart, 1 queen, 3 kings or jacks: 4 at the fewest, so they fit in 4 cards
    fits = {**too_many, "queens": [1, 1, 1, 1]}
    assert points(r, 7, fits)[3] == -20 - 20 - 60 - 90
    # a marked trick is one of the taker's tricks
    none = {
        **good,
        "tricks": [4, 0, 6, 3],
        "hearts": [5, 0, 6, 2],
        "queens": [1, 0, 2, 1],
        "kings_jacks": [3, 0, 4, 1],
    }
    assert refusal(r, 7, none) == "Bartek took no trick, so cannot have trick 7"
    # K♥ is a heart and a king
    kh = {**good, "taken_by": {"KH": 3, "trick_7": 1, "trick_13": 0}, "hearts": [5, 3, 5, 0]}
    assert refusal(r, 7, kh).startswith("Darek took K♥, which is a heart and a king too")


# --- the engine's play rules ------------------------------------------------------------


def test_no_heart_led_while_the_leader_holds_another_suit():
    r = rules_for()
    hand = ["AH", "2H", "3C"]
    for number in (2, 5, 7):
        state = state_for(r, number)
        assert r.legal(hand, [], state) == ["3C"]
        kind, words, proof = r.illegal_reason("AH", hand, [], state)
        assert (kind, proof) == ("rule", "3C")
        assert str(words) == "no ♥ may be led while the leader holds another suit"
        assert r.legal(["AH", "2H"], [], state) == ["AH", "2H"]  # only hearts: lead one
    for number in (1, 3, 4, 6):  # hearts may be led
        assert r.legal(hand, [], state_for(r, number)) == hand


def test_the_king_of_hearts_at_the_first_chance():
    r = rules_for()
    hand = ["KH", "5H", "2C"]
    trick = [(0, "AS")]  # spades led; no spade in hand
    assert r.legal(hand, trick, state_for(r, 5)) == ["KH"]
    assert r.legal(hand, trick, state_for(r, 7)) == ["KH"]
    assert r.legal(hand, trick, state_for(r, 2)) == hand  # not a K♥ deal
    assert r.legal(hand, [(0, "9H")], state_for(r, 5)) == ["KH", "5H"]  # following hearts
    kind, words, proof = r.illegal_reason("2C", hand, trick, state_for(r, 5))
    assert (kind, proof) == ("rule", "KH") and "first time its holder cannot follow" in str(words)
    off = rules_for(king_first=False)
    assert off.legal(hand, trick, state_for(off, 5)) == hand


def test_trump_deals_the_dealer_names_trumps():
    r = rules_for()
    plan = plan_of(r, 8)
    decision = r.engine_decision(plan, {})
    assert (decision.key, decision.seat, decision.many) == ("trump", 3, False)
    assert r.engine_decision(plan, {"trump": "C"}) is None
    setup = r.engine_setup(plan, {"trump": "C"})
    assert setup.trump == "C" and setup.leader == 0
    # a low club beats the ace of the suit led; no duty to trump
    assert r.trick_winner([(0, "AS"), (1, "2C"), (2, "KS"), (3, "QS")], setup) == 1
    assert r.legal(["2C", "3D"], [(0, "AS")], TableState(setup)) == ["2C", "3D"]
    with pytest.raises(EntryError, match="say which suit Darek named trumps"):
        r.engine_setup(plan, {})


def test_the_fan_tan_layout():
    # any first card; then every row starts at its rank and grows one card at a time
    assert layout_legal(["2S", "9H"], {}, None) == ["2S", "9H"]
    rows = {"H": (LOW_HIGH.index("9"), LOW_HIGH.index("9"))}
    assert layout_legal(["8H", "10H", "JH", "9S", "2S"], rows, "9") == ["8H", "10H", "9S"]
    # with three players 2♣ is out: a clubs row that would start at 2♣ starts at 3♣
    pack3 = rules_for(3).engine_pack()
    assert layout_legal(["3C", "4C"], {"S": (0, 0)}, "2", pack3) == ["3C"]
    assert layout_legal(["3C"], {"S": (0, 0)}, "2", rules_for().engine_pack()) == []


def test_the_fan_tan_is_not_checked_trick_by_trick():
    r = rules_for()
    plan = plan_of(r, 12)
    assert not r.checks(plan) and r.checks(plan_of(r, 1))
    with pytest.raises(EntryError, match="laid out in rows, not played in tricks"):
        entry_with_play(r, {"play": {"tricks": []}}, plan)


def test_a_fan_tan_played_by_the_engine():
    for start in ("any", "8"):
        r = rules_for(fan_tan_start=start)
        plan = plan_of(r, 12)
        for seed in range(30):
            played = play_deal(r, plan, [RANDOM] * 4, random.Random(seed))
            setup = played.setup
            assert setup.layout == start and played.tricks == []
            # replay the layout: every card fits when laid; the first two out are the entry
            rows: dict = {}
            first = None if start == "any" else "8"
            hands = [list(h) for h in played.hands]
            out = []
            for s, c in played.laid:
                assert c in layout_legal(hands[s], rows, first, setup.pack)
                first = first or c[:-1]
                k = LOW_HIGH.index(c[:-1])
                low, high = rows.get(c[-1], (k, k))
                rows[c[-1]] = (min(low, k), max(high, k))
                hands[s].remove(c)
                if not hands[s]:
                    out.append(s)
            assert out == played.captured.finished and len(out) == 2
            if start == "8":
                assert played.laid[0][1][:-1] == "8"


# --- whole matches played by the engine -------------------------------------------------


def oracle(rules, plan, played) -> list[int]:
    """The deal's points from the cards each seat took (docs/rules.md's figures),
    without the game module's scoring."""
    n = rules.n
    four = n == 4
    per = {"trick": 20 if four else 15, "H": 20, "Q": 60, "KJ": 30}
    kh = 150 if four else 140
    marked_total = 150 if four else 140
    key = plan.context["contract"].key
    cap = played.captured
    if key == "fan_tan":
        prizes = (800, 500) if four else (790, 485)
        pts = [0] * n
        for place, s in enumerate(cap.finished):
            pts[s] += prizes[place]
        return pts
    if key == "trumps":
        return [25 * cap.winners.count(s) for s in range(n)]
    last = len(cap.winners)
    marked = {
        "seventh_last": [7, last],
        "last_two": [last - 1, last],
        "last": [last],
        "third_seventh": [3, 7],
        "third_eighth": [3, 8],
    }[rules.opts["sixth"]]
    pts = [0] * n
    for s in range(n):
        cards = cap.taken[s]
        if key in ("tricks", "robber"):
            pts[s] -= per["trick"] * cap.winners.count(s)
        if key in ("hearts", "robber"):
            pts[s] -= per["H"] * sum(c[-1] == "H" for c in cards)
        if key in ("queens", "robber"):
            pts[s] -= per["Q"] * sum(c[:-1] == "Q" for c in cards)
        if key in ("kings_jacks", "robber"):
            pts[s] -= per["KJ"] * sum(c[:-1] in ("K", "J") for c in cards)
        if key in ("king_of_hearts", "robber") and "KH" in cards:
            pts[s] -= kh
        if key in ("marked", "robber"):
            pts[s] -= marked_total // len(marked) * sum(cap.winners[k - 1] == s for k in marked)
    return pts


def check_match(rules, seed: int) -> None:
    check_autoplayed(rules, seed, oracle)


OPTIONS = st.fixed_dictionaries(
    {
        "sixth": st.sampled_from(
            ["seventh_last", "last_two", "last", "third_seventh", "third_eighth"]
        ),
        "king_first": st.booleans(),
        "fan_tan_start": st.sampled_from(["any", "8"]),
    }
)


@settings(max_examples=40, deadline=None)
@given(n=st.sampled_from([4, 3]), options=OPTIONS, seed=st.integers(0, 10**6))
def test_autoplayed_matches_hand_out_their_totals_and_add_up_to_zero(n, options, seed):
    check_match(rules_for(n, **options), seed)


def test_many_default_matches():
    for n in (4, 3):
        rules = rules_for(n)
        for seed in range(25):
            check_match(rules, seed)


# --- a whole match through the phone forms ------------------------------------------------

FOUR = {"name_0": "Ala", "name_1": "Bartek", "name_2": "Celina", "name_3": "Darek"}
DEALS = [
    {"tricks__0": "3", "tricks__1": "4", "tricks__2": "2"},  # Darek auto: 4
    {"hearts__0": "3", "hearts__1": "4", "hearts__2": "2"},
    {"queens__0": "1", "queens__1": "1", "queens__2": "1"},
    {"kings_jacks__0": "1", "kings_jacks__1": "3", "kings_jacks__2": "2"},
    {"taken_by_KH": "2"},
    {"taken_by_trick_7": "1", "taken_by_trick_13": "3"},
    {
        **{f"tricks__{s}": v for s, v in enumerate("433")},
        **{f"hearts__{s}": v for s, v in enumerate("533")},
        **{f"queens__{s}": v for s, v in enumerate("111")},
        **{f"kings_jacks__{s}": v for s, v in enumerate("322")},
        "taken_by_KH": "0",
        "taken_by_trick_7": "1",
        "taken_by_trick_13": "0",
    },
    {"trump": "H", "tricks__0": "4", "tricks__1": "3", "tricks__2": "3"},
    {"tricks__0": "2", "tricks__1": "5", "tricks__2": "3"},
    {"trump": "S", "tricks__0": "1", "tricks__1": "3", "tricks__2": "6"},
    {"trump": "C", "tricks__0": "3", "tricks__1": "3", "tricks__2": "3"},
    {"first": "2", "second": "0"},
]
# by hand: deal by deal, Ala, Bartek, Celina, Darek
PER_DEAL = [
    [-60, -80, -40, -80],
    [-60, -80, -40, -80],
    [-60, -60, -60, -60],
    [-30, -90, -60, -60],
    [0, 0, -150, 0],
    [0, -75, 0, -75],
    [-555, -315, -240, -190],
    [100, 75, 75, 75],
    [50, 125, 75, 75],
    [25, 75, 150, 75],
    [75, 75, 75, 100],
    [500, 0, 800, 0],
]


def test_a_whole_match_through_the_phone_forms(client):
    r = client.post("/new/kierki", data={**FOUR, "first_dealer": "0", "opt_king_first": "y"})
    url = r.headers["Location"]
    for k, data in enumerate(DEALS):
        r = client.post(url + "/deal", data={"expect": str(k), **data})
        assert r.status_code == 302, (k + 1, r.get_data(as_text=True)[-2000:])
    record = json.loads(client.get(url + "/record.json").get_data(as_text=True))
    assert record["game"] == "kierki"
    assert record["options"] == {
        "players": 4,
        "sixth": "seventh_last",
        "king_first": True,
        "fan_tan_start": "any",
    }
    assert record["deals"][11] == {"first": 2, "second": 0}
    assert record["computed"]["per_deal"] == PER_DEAL
    # Ala -15, Bartek -350, Celina 585, Darek -220: 0 in all; Celina wins
    assert record["computed"]["totals"] == [-15, -350, 585, -220]
    assert record["computed"]["winners"] == [2]
    sheet = client.get(url).get_data(as_text=True)
    assert "Celina wins" in sheet
    csv = client.get(url + "/sheet.csv").get_data(as_text=True)
    assert '7,"Celina","∑",-555,-765' in csv
    assert client.get(url + "/history").status_code == 200


def test_a_refused_deal_changes_nothing(client):
    url = client.post("/new/kierki", data={**FOUR, "first_dealer": "0"}).headers["Location"]
    r = client.post(
        url + "/deal", data={"expect": "0", "tricks__0": "9", "tricks__1": "9", "tricks__2": "9"}
    )
    assert r.status_code == 400
    assert "Tricks taken add up to 27, but 13 are in play" in r.get_data(as_text=True)
    record = json.loads(client.get(url + "/record.json").get_data(as_text=True))
    assert record["deals"] == []


def test_the_fan_tan_form_offers_no_check_and_the_check_page_says_why(client):
    url = client.post("/new/kierki", data={**FOUR, "first_dealer": "0"}).headers["Location"]
    for k, data in enumerate(DEALS[:11]):
        assert client.post(url + "/deal", data={"expect": str(k), **data}).status_code == 302
    page = client.get(url + "/deal").get_data(as_text=True)
    assert "Who went out first?" in page and "trick by trick" not in page
    check = client.get(url + "/check").get_data(as_text=True)
    assert re.search(r"laid out in rows, not played in tricks", check)


def test_the_rules_page_writes_the_robbers_total_as_each_language_writes_numbers(client):
    """−1,300 is English only: Czech groups thousands with a space (−1 300, as the
    sheet writes totals); Polish and Russian write four digits ungrouped (−1300:
    CLDR's minimumGroupingDigits 2 for Polish, Russian typography)."""
    written_in = (("en", "−1,300"), ("ru", "−1300"), ("cs", "−1\xa0300"), ("pl", "−1300"))
    for lang, written in written_in:
        page = client.get("/rules/kierki", headers={"Accept-Language": lang}).get_data(True)
        assert f"<td>{written}</td>" in page, lang


@pytest.mark.parametrize("game", ["kierki", "king"])
def test_the_king_of_hearts_is_asked_as_a_card_and_a_trick_as_a_trick(app, game):
    """Polish asks for a card "Kto wziął K♥?" and for a trick the same way, the trick
    its object: "Kto wziął 7. lewę?" (the king asked as a trick, "Czyja K♥?", a
    feminine pronoun for a masculine card, gave the translation away; a trick
    asked "Czyja 7. lewa?" beside "Kto wziął K♥?" was two ways on one form)."""
    r = GAMES[game](GAMES[game].normalize_options({}, 4), ["Ala", "Bartek", "Celina", "Darek"])
    asked = {}
    for k in range(1, len(r.sequence) + 1):
        for field in plan_of(r, k).fields:
            if field.kind == "owner":
                asked[field.name] = field.label
    with app.test_request_context(headers={"Accept-Language": "pl"}):
        assert str(asked["taken_by.KH"]) == "Kto wziął K♥?"
        tricks = [str(v) for k, v in asked.items() if k.startswith("taken_by.trick")]
        assert tricks and all(t.startswith("Kto wziął ") for t in tricks), tricks
        assert "Kto wziął 7.\u00a0lewę?" in tricks or "Kto wziął ostatnią lewę?" in tricks, tricks
