"""Metamorphosis (RULES.md "Metamorphosis"): every figure below is worked out by
hand from the rules, the arithmetic in a comment, and most go through the
record loader so that options, the entry check, the score and the fold are
all on the path. The card-flow helper (who discards, draws or takes how many
cards before each deal) is checked on hand-worked cases and, with
Hypothesis, by playing its steps out on any sequence of trick counts."""

from __future__ import annotations

import html

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.games import GAMES
from scorer.games.base import EntryError
from scorer.record import RecordError, load

NAMES3 = ["Ala", "Bartek", "Celina"]
NAMES2 = ["Ala", "Bartek"]
A, B, C = 0, 1, 2


def record(deals, names=NAMES3, options=None, first_dealer=0):
    rec = {
        "format": "scorer-record",
        "version": 1,
        "game": "metamorphosis",
        "players": names,
        "first_dealer": first_dealer,
        "deals": deals,
    }
    if options is not None:
        rec["options"] = options
    return rec


def standings(deals, **kw):
    return load(record(deals, **kw))[1]


def per_deal(deals, **kw):
    return standings(deals, **kw).computed()["per_deal"]


def refused(deals, **kw) -> str:
    with pytest.raises(RecordError) as e:
        load(record(deals, **kw))
    return e.value.message


# Neutral deals: everyone takes the same, nobody wins a deal outright.
EVEN3 = [4, 4, 4]
EVEN2 = [6, 6]


def neutral_round(n, decl=None):
    """Four deals where every seat scores alike (so ties, no bonus)."""
    t = EVEN3 if n == 3 else EVEN2
    z = [0] * n
    return [
        {"declarations": decl or [1] * n, "tricks": t, "clubs": z},
        {"tricks": t, "hearts": z},
        {"tricks": t},
        {"tricks": t, "spades": z},
    ]


# --- scoring: the worked example and the deal table --------------------------------


def test_worked_example_three_players_deal_one():
    # RULES.md: A 3 clubs, B 5, C 0 → -4×3 = -12, -4×5 = -20, 0;
    # C declared deal 1 (ace) and 0 is strictly the highest → C 0 + 10 = 10
    deal = {"declarations": [2, 4, 1], "tricks": [4, 4, 4], "clubs": [3, 5, 0]}
    assert per_deal([deal]) == [[-12, -20, 10]]


def test_worked_example_lines_note_and_tag():
    deal = {"declarations": [1, 4, 1], "tricks": [4, 4, 4], "clubs": [3, 5, 0]}
    row = standings([deal]).rows[0]
    assert row.score.lines[A] == "3 clubs → −12, declared, not won"
    assert row.score.lines[B] == "5 clubs → −20"
    assert row.score.lines[C] == "nothing → 0, declared and won +10 → 10"  # as every game says it
    assert "Celina won the deal" in row.score.note and "+10" in row.score.note
    assert row.score.tag == "R1·1"
    # ✓ won the deal outright (Celina, who declared it too); ✗ declared it, did not win (Ala)
    assert row.score.marks == ["✗", "", "✓"]


def test_each_deal_of_the_round_scores_per_the_table():
    deals = [
        # deal 1: -4 a club: 2 clubs → -8, 0 → 0, 4 → -16 (C declared 4, no effect here)
        {"declarations": [3, 2, 4], "tricks": [2, 3, 7], "clubs": [2, 0, 4]},
        # deal 2: +3 a heart: 1 → 3, 5 → 15, 2 → 6; B declared 2, strictly best: 15 + 10 = 25
        {"tricks": [1, 6, 5], "hearts": [1, 5, 2]},
        # deal 3: -1 a card, 3 cards a trick: 5 tricks → -15, 4 → -12, 3 → -9
        # A declared 3 but -15 is the lowest: nothing
        {"tricks": [5, 4, 3]},
        # deal 4: +4 a spade: 0, 3 → 12, 6 → 24; C declared 4, best: 24 + 10 = 34
        {"tricks": [1, 4, 7], "spades": [0, 3, 6]},
    ]
    assert per_deal(deals) == [[-8, 0, -16], [3, 25, 6], [-15, -12, -9], [0, 12, 34]]


def test_deal_three_with_two_players_is_minus_two_a_trick():
    # 2 players: 2 cards a trick. A 7 tricks → -14, B 5 → -10; B declared 3 and
    # -10 > -14 is strictly best: -10 + 10 = 0
    deals = [
        {"declarations": [2, 3], "tricks": EVEN2, "clubs": [0, 0]},
        {"tricks": EVEN2, "hearts": [0, 0]},
        {"tricks": [7, 5]},
    ]
    assert per_deal(deals, names=NAMES2)[2] == [-14, 0]


def test_seed001_variant_deal_two_plus_four_deal_four_minus_four():
    deals = [
        # deal 1 as standard: -4 a club: 1 → -4, 0, 0; nobody declared 1
        {"declarations": [2, 4, 3], "tricks": [4, 4, 4], "clubs": [1, 0, 0]},
        # deal 2: +4 a heart: 3 → 12, 2 → 8, 0 → 0; A declared 2 and is strictly best → 22
        {"tricks": [4, 4, 4], "hearts": [3, 2, 0]},
        # deal 3 as standard: 4 tricks → -12 each, a three-way tie
        {"tricks": [4, 4, 4]},
        # deal 4: -4 a spade: 2 → -8, 1 → -4, 4 → -16; B declared 4 and -4 is best → 6
        {"tricks": [4, 4, 4], "spades": [2, 1, 4]},
    ]
    assert per_deal(deals, options={"variant": "seed001"}) == [
        [-4, 0, 0],
        [22, 8, 0],
        [-12, -12, -12],
        [-8, 6, -16],
    ]
    # the same hands under the standard table: deal 2 +3 → 9, 6, 0 (A 9 + 10 = 19);
    # deal 4 +4 → 8, 4, 16: C is best, but B declared 4: nobody gets the bonus
    assert per_deal(deals)[1] == [19, 6, 0] and per_deal(deals)[3] == [8, 4, 16]


def test_unknown_variant_is_refused():
    assert "variant" in refused([], options={"variant": "russian"})


# --- the declaration bonus ---------------------------------------------------------


def test_declared_and_won_outright():
    # A declared 1: 0 clubs, B -4, C -8 → A strictly best: 0 + 10 = 10
    deal = {"declarations": [1, 2, 3], "tricks": [4, 4, 4], "clubs": [0, 1, 2]}
    assert per_deal([deal]) == [[10, -4, -8]]


def test_declared_and_tied_for_best_gets_nothing():
    # A and B 0 clubs, C 3 → -12; A declared 1 but shares the best: no bonus
    deal = {"declarations": [1, 2, 3], "tricks": [4, 4, 4], "clubs": [0, 0, 3]}
    assert per_deal([deal]) == [[0, 0, -12]]
    line = standings([deal]).rows[0].score.lines[A]
    assert "tied" in line and "+10" not in line
    assert "Ala and Bartek tied" in standings([deal]).rows[0].score.note  # the language's list


def test_declared_and_lost_costs_nothing():
    # C declared 1 and took 5 clubs: -20, no penalty; A 0, B -4
    deal = {"declarations": [2, 2, 1], "tricks": [4, 4, 4], "clubs": [0, 1, 5]}
    assert per_deal([deal]) == [[0, -4, -20]]


def test_two_players_declaring_the_same_deal():
    # A and C both declared 1. A 0 clubs is strictly best: A 10; C -4 gets nothing
    deal = {"declarations": [1, 2, 1], "tricks": [4, 4, 4], "clubs": [0, 2, 1]}
    assert per_deal([deal]) == [[10, -8, -4]]
    # both declared 1 and tie for best at 0 clubs: neither gets it
    deal = {"declarations": [1, 2, 1], "tricks": [4, 4, 4], "clubs": [0, 2, 0]}
    assert per_deal([deal]) == [[0, -8, 0]]


def test_a_declaration_counts_for_its_deal_only_and_lasts_the_round():
    # B declared 3. Deal 3: A 6 tricks → -18, B 2 → -6, C 4 → -12: B best → -6 + 10 = 4.
    # Round 2 starts with new declarations (all 2): deal 3 of round 2 gets no bonus.
    r1 = [
        {"declarations": [1, 3, 1], "tricks": EVEN3, "clubs": [1, 1, 1]},
        {"tricks": EVEN3, "hearts": [0, 0, 0]},
        {"tricks": [6, 2, 4]},
        {"tricks": EVEN3, "spades": [0, 0, 0]},
    ]
    r2 = [
        {"declarations": [2, 2, 2], "tricks": EVEN3, "clubs": [1, 1, 1]},
        {"tricks": EVEN3, "hearts": [0, 0, 0]},
        {"tricks": [6, 2, 4]},
    ]
    p = per_deal(r1 + r2)
    assert p[2] == [-18, 4, -12]
    assert p[6] == [-18, -6, -12]


# --- leads and dealers -------------------------------------------------------------


def dealers_and_leaders(deals, **kw):
    st_ = standings(deals, **kw)
    plans = [row.plan for row in st_.rows] + ([st_.next] if st_.next else [])
    return [(p.dealer, p.leader) for p in plans]


def test_leads_and_dealers_standard_three_players_two_rounds():
    # Round 1: dealer A; deals 1, 2 the eldest B; deal 3 left of B = C; deal 4 C.
    # Round 2: dealt by B (led deal 1 of round 1); eldest C leads 1, 2; A leads 3, 4.
    # Round 3 (the next plan): dealt by C; A leads.
    got = dealers_and_leaders(neutral_round(3) + neutral_round(3))
    assert got == [(A, B), (A, B), (A, C), (A, C), (B, C), (B, C), (B, A), (B, A), (C, A)]


def test_leads_and_dealers_standard_two_players_two_rounds():
    # first dealer B: round 1 A leads 1, 2; B (left of A) 3, 4. Round 2 dealt by A, B leads
    # 1, 2 and A 3, 4; round 3 dealt by B again.
    got = dealers_and_leaders(neutral_round(2) + neutral_round(2), names=NAMES2, first_dealer=B)
    assert got == [(B, A), (B, A), (B, B), (B, B), (A, B), (A, B), (A, A), (A, A), (B, A)]


def test_leads_and_dealers_seed001_three_players_two_rounds():
    # RULES.md: under seed001 the deal never moves; every round is led eldest, eldest,
    # the eldest's left-hand neighbour, the same again.
    # Dealer A every round; eldest B leads deals 1 and 2, C (left of B) deals 3 and 4.
    got = dealers_and_leaders(neutral_round(3) + neutral_round(3), options={"variant": "seed001"})
    assert got == [(A, B), (A, B), (A, C), (A, C), (A, B), (A, B), (A, C), (A, C), (A, B)]


def test_leads_and_dealers_seed001_first_dealer_c():
    # Dealer C every round; eldest A leads deals 1 and 2, B deals 3 and 4.
    got = dealers_and_leaders(neutral_round(3) * 3, options={"variant": "seed001"}, first_dealer=C)
    assert got == [(C, A), (C, A), (C, B), (C, B)] * 3


def test_leads_and_dealers_seed001_two_players_two_rounds():
    # Dealer A every round; eldest B leads deals 1 and 2, A (left of B) deals 3 and 4.
    got = dealers_and_leaders(
        neutral_round(2) + neutral_round(2), names=NAMES2, options={"variant": "seed001"}
    )
    assert got == [(A, B), (A, B), (A, A), (A, A), (A, B), (A, B), (A, A), (A, A), (A, B)]


def led_by(leader: int, n: int = 3) -> dict:
    """A deal played as 12 tricks, each three cards of one suit, the leader playing
    the highest each time: the leader takes every trick and leads them all."""
    ranks = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3"]
    tricks = []
    for suit in "SCH":
        for k in range(0, 12, 3):
            tricks.append([[(leader + i) % n, ranks[k + i] + suit] for i in range(n)])
    return {"play": {"tricks": tricks}}


def test_seed001_deal_six_is_led_by_deal_five_s_leader():
    # seed001, dealer A throughout: deal 5 (round 2, deal 1) and deal 6 (deal 2) are both
    # led by the eldest, B. B takes all 12 tricks of deal 6 and all 12 hearts in them:
    # +4 a heart → 48; nobody declared deal 2 (round 2 all declared 1).
    deals = neutral_round(3) + neutral_round(3)[:1] + [led_by(B)]
    assert per_deal(deals, options={"variant": "seed001"})[5] == [0, 48, 0]
    # the standard game: round 2 is dealt by B (who led deal 1 of round 1), so C leads
    assert refused(deals) == "deal 6: trick 1 is led by Bartek, but Celina leads"


def test_plan_title_trump_and_fields():
    st_ = standings(neutral_round(3) + neutral_round(3)[:2])
    plans = [row.plan for row in st_.rows] + [st_.next]
    assert plans[0].title == "Deal 1 (round 1, deal 1 of 4): no trumps, −4 for every club taken"
    assert (
        plans[1].title == "Deal 2 (round 1, deal 2 of 4): diamonds trumps, +3 for every heart taken"
    )
    assert plans[6].title == "Deal 7 (round 2, deal 3 of 4): no trumps, −1 for every card taken"
    assert plans[3].title == "Deal 4 (round 1, deal 4 of 4): no trumps, +4 for every spade taken"
    assert [p.trump for p in plans[:4]] == [None, "D", None, None]
    assert [f.name for f in plans[0].fields] == ["declarations", "tricks", "clubs"]
    assert [f.name for f in plans[1].fields] == ["tricks", "hearts"]
    assert [f.name for f in plans[2].fields] == ["tricks"]
    assert [f.name for f in plans[3].fields] == ["tricks", "spades"]
    decl = plans[0].fields[0]
    assert decl.kind == "choice" and decl.per_seat
    assert [(v, str(label)) for v, label in decl.choices] == [
        (1, "A (1)"),
        (2, "2"),
        (3, "3"),
        (4, "4"),
    ]
    assert plans[0].fields[1].total == 12 and plans[0].fields[2].total is None
    assert not plans[0].fields[2].optional
    seed = standings([], options={"variant": "seed001"}).next
    assert (
        standings(neutral_round(3)[:1], options={"variant": "seed001"}).next.title
        == "Deal 2 (round 1, deal 2 of 4): diamonds trumps, +4 for every heart taken"
    )
    assert seed.trump is None


def test_declarations_shown_once_made():
    deals = [{"declarations": [2, 4, 2], "tricks": EVEN3, "clubs": [0, 0, 0]}]
    assert not any(n.startswith("Declarations:") for n in standings([]).next.notes)
    assert "Declarations: Ala deal 2, Bartek deal 4, Celina deal 2" in standings(deals).next.notes
    # a new round: the old declarations are gone
    nxt = standings(neutral_round(3)).next
    assert not any(n.startswith("Declarations:") for n in nxt.notes)


# --- the end ------------------------------------------------------------------------


def winning_round():
    # deal 1 all 0 clubs: a tie, no bonus; deal 2 A 3 hearts → 9, others 0;
    # deal 3 4 tricks each → -12 each; deal 4 no spades counted → 0.
    # A: 0 + 9 - 12 + 0 = -3; B, C: -12 each
    return [
        {"declarations": [1, 1, 1], "tricks": EVEN3, "clubs": [0, 0, 0]},
        {"tricks": EVEN3, "hearts": [3, 0, 0]},
        {"tricks": EVEN3},
        {"tricks": EVEN3, "spades": [0, 0, 0]},
    ]


def test_three_players_play_three_rounds_highest_wins():
    deals = winning_round() * 3
    c11 = standings(deals[:11]).computed()
    assert not c11["finished"] and c11["next"] is not None
    c = standings(deals).computed()
    # 3 rounds: A 3 × -3 = -9; B, C 3 × -12 = -36
    assert c["finished"] and c["totals"] == [-9, -36, -36] and c["winners"] == [A]
    assert c["next"] is None
    assert "already over" in refused(
        deals + [{"declarations": [1, 1, 1], "tricks": EVEN3, "clubs": [0, 0, 0]}]
    )


def test_two_players_play_four_rounds_and_a_tie_is_shared():
    deals = neutral_round(2) * 4
    assert not standings(deals[:15], names=NAMES2).computed()["finished"]
    c = standings(deals, names=NAMES2).computed()
    # every deal alike for both: deal 3 6 tricks → -12 each, 4 rounds → -48 each
    assert c["finished"] and c["totals"] == [-48, -48] and c["winners"] == [A, B]
    assert "deal 17: the match is already over" in refused(
        deals + neutral_round(2)[:1], names=NAMES2
    )


def test_players_option_two_or_three_default_three():
    assert GAMES["metamorphosis"].player_counts[0] == 3  # the new-match form's default
    assert "2 or 3" in refused([], names=["Ala", "Bartek", "Celina", "Darek"])
    assert load(record([], names=NAMES2, options={"players": 2}))[0].options == {
        "players": 2,
        "variant": "standard",
    }
    assert "players says 3" in refused([], names=NAMES2, options={"players": 3})


# --- bad entries ---------------------------------------------------------------------

DEAL1 = {"declarations": [1, 2, 3], "tricks": EVEN3, "clubs": [0, 0, 0]}


@pytest.mark.parametrize(
    "deals, message",
    [
        (
            [{"tricks": EVEN3, "clubs": [0, 0, 0]}],
            "deal 1: this deal opens a round: say which deal (1 to 4) each player declared",
        ),
        (
            [DEAL1, {"declarations": [1, 2, 3], "tricks": EVEN3, "hearts": [0, 0, 0]}],
            "deal 2: declarations are made once a round, with its first deal; "
            "this is deal 2 of the round",
        ),
        ([{**DEAL1, "declarations": [1, 5, 3]}], "Bartek's declaration must be between 1 and 4"),
        (
            [{**DEAL1, "declarations": [1, 2]}],
            "declarations needs one deal (1 to 4) per player (3)",
        ),
        ([{**DEAL1, "tricks": [4, 4, 3]}], "deal 1: tricks add up to 11, but 12 are in play"),
        (
            [{**DEAL1, "tricks": [1, 5, 6], "clubs": [4, 0, 0]}],
            "deal 1: Ala took 1 trick (3 cards): too few for 4 clubs",
        ),
        (
            [{**DEAL1, "tricks": [0, 6, 6], "clubs": [1, 0, 0]}],
            "Ala took no trick, so cannot have 1 club",
        ),
        ([{**DEAL1, "clubs": [5, 5, 4]}], "deal 1: clubs add up to 14, but the pack has only 13"),
        ([{**DEAL1, "bids": [1, 2, 3]}], "deal 1: unknown field bids in this deal"),
        ([{**DEAL1, "hearts": [0, 0, 0]}], "hearts are not counted in this deal"),
        (
            [DEAL1, {"tricks": EVEN3, "hearts": [0, 0, 0]}, {"tricks": EVEN3, "clubs": [0, 0, 0]}],
            "deal 3: clubs are not counted in this deal",
        ),
        ([{"declarations": [1, 2, 3], "tricks": EVEN3}], "say how many clubs each player took"),
        ([{**DEAL1, "clubs": [0, -1, 0]}], "clubs must be between 0 and 1,000"),
        (["four"], "a deal must be a JSON object"),
    ],
)
def test_bad_entries_are_refused(deals, message):
    assert message in refused(deals)


def test_a_count_may_use_every_card_taken():
    # 2 players: a trick is 2 cards; A 3 tricks = 6 cards, 6 spades is the most
    deals = neutral_round(2)[:3] + [{"tricks": [3, 9], "spades": [6, 7]}]
    # +4 a spade: 24, 28; nobody declared 4 (all declared 1)
    assert per_deal(deals, names=NAMES2)[3] == [24, 28]
    assert "Ala took 3 tricks (6 cards): too few for 7 spades" in refused(
        neutral_round(2)[:3] + [{"tricks": [3, 9], "spades": [7, 6]}], names=NAMES2
    )


# --- the card-flow helper ----------------------------------------------------------


def game(n=3, options=None):
    cls = GAMES["metamorphosis"]
    names = NAMES3 if n == 3 else NAMES2
    return cls(cls.normalize_options(options or {}, n), names)


def state_after(g, deals, first_dealer=0):
    """The fold by hand (start → plan → check → advance), to reach the state."""
    state = g.start(first_dealer)
    for raw in deals:
        plan = g.plan(state)
        state = g.advance(state, g.check(raw, plan), plan)
    return state


def test_flow_before_the_first_deal_shuffle_and_deal():
    g = game(3)
    flow = g.card_flow(g.start(0))
    # A deals 12 each, from her left: B, C, A; 52 - 36 = 16 in the stock
    assert flow.steps == [
        (A, "shuffle", 52, None),
        (B, "deal", 12, "stock"),
        (C, "deal", 12, "stock"),
        (A, "deal", 12, "stock"),
    ]
    assert (flow.hands, flow.stock, flow.discards) == ([12, 12, 12], 16, 0)
    g2 = game(2)
    assert g2.card_flow(g2.start(1)).stock == 28  # 52 - 24


def test_flow_after_deal_one_discard_and_draw():
    g = game(3)
    state = state_after(g, [{"declarations": [1, 1, 1], "tricks": [1, 5, 6], "clubs": [0, 0, 0]}])
    # hands 3, 15, 18 (3 cards a trick); stock 16. Deal 2 led by B: B, C, A in turn.
    # B discards 3, C discards 6 (discards 9); A draws 9 of 16 → stock 7
    assert (state["hands"], state["stock"], state["discards"]) == ([3, 15, 18], 16, 0)
    flow = g.card_flow(state)
    assert flow.steps == [(B, "discard", 3, None), (C, "discard", 6, None), (A, "draw", 9, "stock")]
    assert (flow.hands, flow.stock, flow.discards) == ([12, 12, 12], 7, 9)
    notes = g.plan(state).notes
    assert (
        "No new deal: each player picks up the cards they took "
        "(Ala 3, Bartek 15, Celina 18); the stock holds 16 cards." in notes
    )
    assert "Bartek discards 3 cards face down." in notes
    assert "Ala draws 9 cards from the stock." in notes
    assert "Everyone now holds 12; the stock holds 7 cards." in notes


def test_flow_deal_two_chain_in_an_order_that_works():
    g = game(3)
    state = state_after(
        g,
        [
            {"declarations": [1, 1, 1], "tricks": EVEN3, "clubs": [0, 0, 0]},
            {"tricks": [0, 0, 12], "hearts": [0, 0, 0]},
        ],
    )
    # hands 0, 0, 36. x_s = 12 - h_s + x_(s-1):
    # x_A = 12 + x_C, x_B = 12 + x_A, x_C = 12 - 36 + x_B. Smallest ≥ 0: x_C = 0,
    # x_A = 12, x_B = 24 (check: x_C = -24 + 24 = 0). B must take 24 from C first
    # (C holds 36); then A takes 12 from B (who now holds 24). A first would fail: B holds 0.
    flow = g.card_flow(state)
    assert flow.steps == [(B, "take", 24, C), (A, "take", 12, B)]
    assert flow.hands == [12, 12, 12]
    notes = g.plan(state).notes
    assert notes.index("Bartek takes 24 cards from the hand of Celina.") < notes.index(
        "Ala takes 12 cards from the hand of Bartek."
    )


def test_flow_deal_two_chain_through_a_full_hand():
    g = game(3)
    state = state_after(
        g,
        [
            {"declarations": [1, 1, 1], "tricks": EVEN3, "clubs": [0, 0, 0]},
            {"tricks": [2, 4, 6], "hearts": [0, 0, 0]},
        ],
    )
    # hands 6, 12, 18: x_A = 6 + x_C, x_B = 0 + x_A, x_C = -6 + x_B → x_C = 0, x_A = x_B = 6:
    # B (holding 12) takes 6 from C, then A takes 6 from B
    assert g.card_flow(state).steps == [(B, "take", 6, C), (A, "take", 6, B)]
    notes = g.plan(state).notes
    assert (
        notes.index("Bartek takes 6 cards from the hand of Celina.")
        < notes.index("Ala takes 6 cards from the hand of Bartek.")
        < notes.index(
            "The cards are taken blind: the giver holds their hand face down and the "
            "taker draws without seeing it."
        )
    )


def test_flow_deal_two_chain_two_players():
    g = game(2)
    state = state_after(
        g,
        [
            {"declarations": [1, 1], "tricks": EVEN2, "clubs": [0, 0]},
            {"tricks": [2, 10], "hearts": [0, 0]},
        ],
    )
    # hands 4, 20: A takes 8 from B (her left-hand neighbour)
    assert g.card_flow(state).steps == [(A, "take", 8, B)]


def test_flow_nothing_to_do_when_everyone_took_four_tricks():
    g = game(3)
    state = state_after(g, [{"declarations": [1, 1, 1], "tricks": EVEN3, "clubs": [0, 0, 0]}])
    flow = g.card_flow(state)
    assert flow.steps == [] and flow.stock == 16
    assert "Everyone holds 12: nothing to exchange." in g.plan(state).notes
    assert not any("blind" in note for note in g.plan(state).notes)


def test_flow_stock_refill_from_the_discards():
    g = game(3)
    deals = [
        {"declarations": [1, 1, 1], "tricks": [2, 4, 6], "clubs": [0, 0, 0]},
        {"tricks": EVEN3, "hearts": [0, 0, 0]},
        {"tricks": [0, 0, 12]},
    ]
    # after deal 1: hands 6, 12, 18: C discards 6, A draws 6 → stock 16 - 6 = 10, discards 6.
    # deal 2: 12 each, nothing to take. After deal 3: hands 0, 0, 36; deal 4 led by C
    # (deal 3's leader: left of B), so C, A, B in turn: C discards 24 → discards 30;
    # 24 needed > 10 in the stock: the 30 discards go into it → 40; A and B draw 12 each → 16.
    state = state_after(g, deals)
    assert (state["stock"], state["discards"]) == (10, 6)
    flow = g.card_flow(state)
    assert flow.steps == [
        (C, "discard", 24, None),
        (None, "refill", 30, "discards"),
        (A, "draw", 12, "stock"),
        (B, "draw", 12, "stock"),
    ]
    assert (flow.hands, flow.stock, flow.discards) == ([12, 12, 12], 16, 0)
    assert (
        "The stock has only 10 cards and 24 are needed: shuffle the 30 face-down discards "
        "into it (house rule)." in g.plan(state).notes
    )


def test_flow_after_deal_one_refill_at_once():
    g = game(3)
    state = state_after(g, [{"declarations": [1, 1, 1], "tricks": [12, 0, 0], "clubs": [0, 0, 0]}])
    # hands 36, 0, 0; B leads deal 2, so B, C, A: A discards 24; 24 needed > 16:
    # refill with the 24 → 40; B and C draw 12 → 16 left
    flow = g.card_flow(state)
    assert flow.steps == [
        (A, "discard", 24, None),
        (None, "refill", 24, "discards"),
        (B, "draw", 12, "stock"),
        (C, "draw", 12, "stock"),
    ]
    assert flow.stock == 16


def test_flow_new_round_reshuffles_and_the_next_dealer_deals():
    g = game(3)
    state = state_after(g, neutral_round(3))
    flow = g.card_flow(state)
    # round 2 dealt by B (led deal 1 of round 1): C, A, B get 12 each
    assert flow.steps[0] == (B, "shuffle", 52, None)
    assert [s.seat for s in flow.steps[1:]] == [C, A, B]
    assert (
        "Bartek shuffles the whole pack and deals 12 cards to each player; the other 16 "
        "cards lie face down as the stock." in g.plan(state).notes
    )


# --- the property: the helper's steps always work with real cards ---------------------


@st.composite
def split12(draw, n):
    seats = draw(st.lists(st.integers(0, n - 1), min_size=12, max_size=12))
    return [seats.count(s) for s in range(n)]


@st.composite
def games(draw):
    n = draw(st.sampled_from([2, 3]))
    variant = draw(st.sampled_from(["standard", "seed001"]))
    length = draw(st.integers(1, 16 if n == 2 else 12))
    tricks = [draw(split12(n)) for _ in range(length)]
    first_dealer = draw(st.integers(0, n - 1))
    return n, variant, first_dealer, tricks


def play_out(steps, hands, stock, discards):
    """Do the steps in order with counts of cards; fail on taking what is not there."""
    hands = list(hands)
    for seat, action, count, source in steps:
        assert count > 0
        if action == "shuffle":
            hands, stock, discards = [0] * len(hands), 52, 0
        elif action in ("deal", "draw"):
            assert source == "stock" and count <= stock
            stock -= count
            hands[seat] += count
        elif action == "discard":
            assert count <= hands[seat]
            hands[seat] -= count
            discards += count
        elif action == "refill":
            assert source == "discards" and count <= discards
            discards -= count
            stock += count
        elif action == "take":
            assert source == (seat + 1) % len(hands)  # the left-hand neighbour
            assert count <= hands[source], (steps, hands)
            hands[source] -= count
            hands[seat] += count
        else:
            raise AssertionError(action)
    return hands, stock, discards


@settings(max_examples=300, deadline=None)
@given(games())
def test_the_helper_leaves_twelve_each_before_every_deal(case):
    n, variant, first_dealer, tricks = case
    g = game(n, {"variant": variant})
    state = g.start(first_dealer)
    for t in tricks:
        plan = g.plan(state)
        flow = plan.context["flow"]
        hands, stock, discards = play_out(
            flow.steps, state["hands"], state["stock"], state["discards"]
        )
        assert hands == [12] * n
        assert (flow.hands, flow.stock, flow.discards) == (hands, stock, discards)
        assert sum(hands) + stock + discards == 52
        deal = {"tricks": t}
        counted = plan.context["rule"].counted
        if counted != "cards":
            deal[counted] = [0] * n
        if plan.context["deal"] == 1:
            deal["declarations"] = [1] * n
        state = g.advance(state, g.check(deal, plan), plan)
        assert sum(state["hands"]) == 12 * n  # every card played went to a trick-taker


def test_check_refuses_directly_too():
    g = game(3)
    plan = g.plan(g.start(0))
    with pytest.raises(EntryError) as e:
        g.check(
            {
                "declarations": [1, 1, 1],
                "tricks": [12, 0, 0],
                "clubs": [0, 0, 0],
                "spades": [0, 0, 0],
            },
            plan,
        )
    assert e.value.field == "spades"


# --- words: the CSV and the rules page ---------------------------------------------------


def test_describe_in_words():
    st_ = standings(
        [
            {"declarations": [2, 4, 1], "tricks": [4, 4, 4], "clubs": [3, 5, 0]},
            {"tricks": [0, 6, 6], "hearts": [0, 1, 2]},
            {"tricks": [1, 2, 9]},
        ]
    )
    assert st_.rows[0].words == (
        "Ala: 4 tricks, 3 clubs; Bartek: 4 tricks, 5 clubs; "
        "Celina: 4 tricks, 0 clubs; "
        "declarations: Ala deal 2, Bartek deal 4, Celina deal 1"
    )
    assert (
        st_.rows[2].words == "Ala: 1 trick, 3 cards; Bartek: 2 tricks, 6 cards; "
        "Celina: 9 tricks, 27 cards"
    )


def test_rules_page_names_sources(client):
    page = html.unescape(client.get("/rules/metamorphosis").get_data(as_text=True))
    assert "Metamorphosis" in page and "The short Russian summary" in page
    assert "House rule" in page and "Mendelev's encyclopedia and the Polish card-game book" in page
    # RULES.md: under the short Russian summary the deal never moves
    assert "The deal never moves: the game's first dealer deals every round." in page
    # cards taken from a neighbour's hand are taken blind
    assert "These cards are taken blind" in page


def test_deal_form_takes_declarations_and_counts(client):
    r = client.post("/api/matches", json=record([]))
    assert r.status_code == 201, r.get_data(as_text=True)
    mid = r.get_json()["id"]
    page = client.get(f"/m/{mid}/deal").get_data(as_text=True)
    assert "A (1)" in page and "Ala shuffles the whole pack" in page
    form = {"expect": "0"}
    for s, (d, t, c) in enumerate([(2, 4, 3), (4, 4, 5), (1, 4, 0)]):
        form.update({f"declarations__{s}": str(d), f"tricks__{s}": str(t), f"clubs__{s}": str(c)})
    r = client.post(f"/m/{mid}/deal", data=form)
    assert r.status_code == 302, r.get_data(as_text=True)
    got = client.get(f"/api/matches/{mid}").get_json()
    assert got["deals"] == [{"declarations": [2, 4, 1], "tricks": [4, 4, 4], "clubs": [3, 5, 0]}]
    assert got["computed"]["per_deal"] == [[-12, -20, 10]]  # the worked example
    page = client.get(f"/m/{mid}/deal").get_data(as_text=True)
    assert "Declarations: Ala deal 2, Bartek deal 4, Celina deal 1" in page
