"""Variety (RULES.md "Variety"): the auction, the eight deal types, the bonus,
the options and the end. Every expected figure was worked out by hand from
the rule, the arithmetic in a comment beside it; records go through
scorer.record.load so the options, the entry check, the score and the fold
are all on the path.

Seats: Ala 0, Bartek 1, Celina 2, Darek 3. With the first dealer 0, the calls
go Bartek, Celina, Darek, Ala, Bartek, ...
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.games import GAMES, EntryError
from scorer.games.variety import TYPES, VARIANTS, AuctionState, Variety, auction, caller
from scorer.match import fold
from scorer.record import RecordError, load

from .helpers import NAMES, computed, points, record

ALA, BARTEK, CELINA, DAREK = 0, 1, 2, 3


def refused(deals, options=None, match="", first_dealer=0) -> str:
    with pytest.raises(RecordError) as e:
        load(record("variety", deals, 4, options, first_dealer))
    assert match in e.value.message, e.value.message
    return e.value.message


def deal(contract, attackers, **took):
    return {"contract": contract, "attackers": list(attackers), **took}


def pts(entry, options=None):
    return points("variety", entry, 4, options)


# --- RULES.md's worked examples ----------------------------------------------


def test_type_2_seven_tricks_no_bonus():
    # attackers 7 tricks × 2 = 14 each; defenders 13 - 7 = 6 tricks × 2 = 12 each; 14 > 12
    assert pts(deal(2, [ALA, CELINA], tricks=7)) == [14, 12, 14, 12]


def test_type_8_eight_tricks_defenders_bonus():
    # attackers 8 × -2 = -16; defenders 5 × -2 = -10; -16 is not more: -10 + 10 = 0
    assert pts(deal(8, [BARTEK, DAREK], tricks=8)) == [0, -16, 0, -16]


def test_type_5_ten_of_spades_jack_of_clubs_ten_of_diamonds():
    # attackers 10♠ J♣ (2 black) and 10♦ (1 red): 2 × 5 - 1 × 5 = 5
    # defenders J♠ 10♣ (2 black), J♦ 10♥ J♥ (3 red): 10 - 15 = -5; 5 > -5, no bonus
    assert pts(deal(5, [ALA, BARTEK], black_tj=2, red_tj=1)) == [5, 5, -5, -5]


def test_type_5_two_and_two_is_a_tie_and_a_failure_by_default():
    # both sides 2 black, 2 red: 10 - 10 = 0 and 0: a tie; defenders 0 + 10
    entry = deal(5, [ALA, BARTEK], black_tj=2, red_tj=2)
    assert pts(entry) == [0, 0, 10, 10]
    assert pts(entry, {"tie": "defenders"}) == [0, 0, 10, 10]
    # tie "nobody": no bonus at all
    assert pts(entry, {"tie": "nobody"}) == [0, 0, 0, 0]


# --- every type ----------------------------------------------------------------


@pytest.mark.parametrize(
    "tricks, expected",
    [
        (7, [12, 12, 0, 0]),  # 7 of 13 is more: attackers 12, defenders 0; 12 > 0
        (13, [12, 12, 0, 0]),  # all 13: the same
        (6, [0, 0, 22, 22]),  # defenders 7 is more: 12; attackers 0 < 12: 12 + 10 = 22
        (0, [0, 0, 22, 22]),
    ],
)
def test_type_1_twelve_to_the_side_with_more_tricks(tricks, expected):
    assert pts(deal(1, [ALA, BARTEK], tricks=tricks)) == expected


def test_type_2_failure_and_variant():
    # 6 tricks: 12 against 7 × 2 = 14: defenders 14 + 10 = 24
    assert pts(deal(2, [ALA, CELINA], tricks=6)) == [12, 24, 12, 24]
    # kyhote +1 a trick: 7 against 6, no bonus
    assert pts(deal(2, [ALA, CELINA], tricks=7), {"variant": "kyhote"}) == [7, 6, 7, 6]
    # kyhote, 6 tricks: 6 against 7: defenders 7 + 10 = 17
    assert pts(deal(2, [ALA, CELINA], tricks=6), {"variant": "kyhote"}) == [6, 17, 6, 17]


def test_type_3_two_for_each_spade():
    # 7 spades × 2 = 14; defenders 6 × 2 = 12; no bonus
    assert pts(deal(3, [CELINA, DAREK], spades=7)) == [12, 12, 14, 14]
    # 4 spades: 8 against 9 × 2 = 18: defenders 18 + 10 = 28
    assert pts(deal(3, [CELINA, DAREK], spades=4)) == [28, 28, 8, 8]
    # tricks may be given; 2 tricks = 8 cards hold 4 spades
    assert pts(deal(3, [CELINA, DAREK], spades=4, tricks=2)) == [28, 28, 8, 8]


def test_type_4_red_plus_black_minus():
    # 7 tricks = 28 cards, 16 red, 28 - 16 = 12 black: 16 - 12 = 4
    # defenders 26 - 16 = 10 red, 26 - 12 = 14 black: 10 - 14 = -4; 4 > -4
    assert pts(deal(4, [ALA, DAREK], tricks=7, red=16)) == [4, -4, -4, 4]
    # 6 tricks = 24 cards, 10 red, 14 black: -4; defenders 16 red, 12 black: 4
    # -4 < 4: defenders 4 + 10 = 14
    assert pts(deal(4, [ALA, DAREK], tricks=6, red=10)) == [-4, 14, 14, -4]
    # 6 tricks, 12 red, 12 black: 0; defenders 14 red, 14 black: 0; a tie
    assert pts(deal(4, [ALA, DAREK], tricks=6, red=12)) == [0, 10, 10, 0]
    assert pts(deal(4, [ALA, DAREK], tricks=6, red=12), {"tie": "nobody"}) == [0, 0, 0, 0]
    # 13 tricks = all 52: 26 red, 26 black: 0; defenders nothing: 0; a tie
    assert pts(deal(4, [ALA, DAREK], tricks=13, red=26)) == [0, 10, 10, 0]
    # 0 tricks, 0 red: 0 and 0 (defenders 26 - 26 = 0): a tie as well
    assert pts(deal(4, [ALA, DAREK], tricks=0, red=0), {"tie": "nobody"}) == [0, 0, 0, 0]


def test_type_5_more():
    # attackers all four black 10/J, no red: 20; defenders 4 red: -20
    assert pts(deal(5, [BARTEK, CELINA], black_tj=4, red_tj=0)) == [-20, 20, 20, -20]
    # attackers 1 black, 3 red: 5 - 15 = -10; defenders 3 black, 1 red: 15 - 5 = 10
    # -10 < 10: defenders 10 + 10 = 20
    assert pts(deal(5, [BARTEK, CELINA], black_tj=1, red_tj=3)) == [20, -10, -10, 20]
    # with tricks given only to check the fit: 2 tricks = 8 cards ≥ 4 + 0
    assert pts(deal(5, [BARTEK, CELINA], black_tj=4, red_tj=0, tricks=2)) == [-20, 20, 20, -20]


def test_type_6_one_for_each_red_card():
    # 14 red; defenders 26 - 14 = 12; no bonus
    assert pts(deal(6, [ALA, BARTEK], red=14)) == [14, 14, 12, 12]
    # 13 and 13: a tie; default defenders 13 + 10 = 23; "nobody": 13 each
    assert pts(deal(6, [ALA, BARTEK], red=13)) == [13, 13, 23, 23]
    assert pts(deal(6, [ALA, BARTEK], red=13), {"tie": "nobody"}) == [13, 13, 13, 13]
    # 3 red: 3 against 23: defenders 23 + 10 = 33
    assert pts(deal(6, [ALA, BARTEK], red=3)) == [3, 3, 33, 33]


def test_type_7_minus_two_a_club_and_variant():
    # 3 clubs × -2 = -6; defenders 10 × -2 = -20; -6 > -20
    assert pts(deal(7, [CELINA, ALA], clubs=3)) == [-6, -20, -6, -20]
    # 7 clubs: -14 against 6 × -2 = -12: defenders -12 + 10 = -2
    assert pts(deal(7, [CELINA, ALA], clubs=7)) == [-14, -2, -14, -2]
    # kyhote -1 a club: -7 against -6: defenders -6 + 10 = 4
    assert pts(deal(7, [CELINA, ALA], clubs=7), {"variant": "kyhote"}) == [-7, 4, -7, 4]
    # kyhote, 3 clubs: -3 against -10, no bonus
    assert pts(deal(7, [CELINA, ALA], clubs=3), {"variant": "kyhote"}) == [-3, -10, -3, -10]


def test_type_8_fewer_tricks_wins():
    # 5 tricks: -10; defenders 8: -16; -10 > -16, no bonus
    assert pts(deal(8, [BARTEK, DAREK], tricks=5)) == [-16, -10, -16, -10]
    # 0 tricks: 0; defenders 13: -26
    assert pts(deal(8, [BARTEK, DAREK], tricks=0)) == [-26, 0, -26, 0]


def test_the_variant_changes_only_types_2_and_7():
    standard, kyhote = VARIANTS["standard"], VARIANTS["kyhote"]
    assert [n for n in TYPES if standard[n] != kyhote[n]] == [2, 7]
    # the other six score the same under both: type 3, 7 spades → 14 / 12
    for opts in ({"variant": "standard"}, {"variant": "kyhote"}):
        assert pts(deal(3, [CELINA, DAREK], spades=7), opts) == [12, 12, 14, 14]
        assert pts(deal(8, [BARTEK, DAREK], tricks=8), opts) == [0, -16, 0, -16]


def test_types_are_data_with_seed_trumps():
    assert [(t.number, t.trump) for t in TYPES.values()] == [
        (1, None),
        (2, "C"),
        (3, "H"),
        (4, "D"),
        (5, "S"),
        (6, "C"),
        (7, "S"),
        (8, None),
    ]
    assert TYPES[6].lowest_wins and not any(t.lowest_wins for n, t in TYPES.items() if n != 6)


# --- the auction ----------------------------------------------------------------


def test_auction_seed_first_example():
    # A 2, B 3, C 6, D 2: type 2; A and D attack B and C. Dealer 3 → A is seat 0.
    a = auction(3, [2, 3, 6, 2])
    assert a.ended and a.contract == 2
    assert a.attackers == (ALA, DAREK) and a.defenders == (BARTEK, CELINA)
    assert a.leader == BARTEK  # the left of Ala, who named 2 first
    assert a.turn is None


def test_auction_seed_second_example():
    # A 5, B 1, C 8, D 4, A 7, B 3, C 4: type 4; D (first) and C (repeater) attack A and B;
    # the leader is D's left, A. Dealer 3 → A seat 0, B 1, C 2, D 3.
    a = auction(3, [5, 1, 8, 4, 7, 3, 4])
    assert (a.contract, a.attackers, a.defenders, a.leader) == (
        4,
        (DAREK, CELINA),
        (ALA, BARTEK),
        ALA,
    )
    assert a.called == ((5, 7), (1, 3), (8, 4), (4,))


def test_auction_in_progress_turn_and_barred():
    # dealer 3: after A 5, B 1, C 8, D 4 it is A's turn; A may not name 5
    a = auction(3, [5, 1, 8, 4])
    assert not a.ended and a.turn == ALA and a.barred == (5,)
    assert a.contract is None and a.attackers is None and a.leader is None
    # no calls yet: the dealer's left calls, nothing barred
    a = auction(1, [])
    assert a.turn == CELINA and a.barred == () and not a.ended
    assert [caller(1, j) for j in range(5)] == [CELINA, DAREK, ALA, BARTEK, CELINA]


def test_auction_repeat_on_the_second_call():
    # dealer 0: Bartek 4, Celina 4 → Bartek and Celina attack, Celina (Bartek's left) leads
    a = auction(0, [4, 4])
    assert a.ended and (a.contract, a.attackers, a.defenders, a.leader) == (
        4,
        (BARTEK, CELINA),
        (ALA, DAREK),
        CELINA,
    )
    # through the record: type 2, 7 tricks → 14 to Bartek and Celina, 12 to the others
    assert pts({"bids": [2, 2], "tricks": 7}) == [12, 14, 14, 12]


def test_auction_ends_on_the_ninth_call():
    # dealer 0: Bartek 1, Celina 2, Darek 3, Ala 4, Bartek 5, Celina 6, Darek 7, Ala 8;
    # all eight named; Bartek's third call must repeat another's: 3, named by Darek
    calls = [1, 2, 3, 4, 5, 6, 7, 8, 3]
    a = auction(0, calls)
    assert a.ended and (a.contract, a.attackers, a.defenders, a.leader) == (
        3,
        (DAREK, BARTEK),
        (ALA, CELINA),
        ALA,
    )
    assert not auction(0, calls[:8]).ended
    assert auction(0, calls[:8]).turn == BARTEK and auction(0, calls[:8]).barred == (1, 5)
    # spades 7 → Darek and Bartek 14, Ala and Celina 12
    assert pts({"bids": calls, "spades": 7}) == [12, 14, 12, 14]
    # a tenth call is too many
    with pytest.raises(EntryError, match="ended at call 9.*call 10 is one too many"):
        auction(0, calls + [4])
    # on the ninth call Bartek may not name his own 1 or 5
    with pytest.raises(EntryError, match="call 9: Bartek already named type 5"):
        auction(0, calls[:8] + [5], NAMES[:4])


def test_a_player_may_not_repeat_their_own_call():
    # dealer 0: Bartek 5, Celina 1, Darek 8, Ala 4, Bartek 5 again
    with pytest.raises(EntryError) as e:
        auction(0, [5, 1, 8, 4, 5], NAMES[:4])
    assert e.value.message == (
        "call 5: Bartek already named type 5 in this auction and may not name it again"
    )
    refused(
        [{"bids": [5, 1, 8, 4, 5, 1], "black_tj": 2, "red_tj": 2}],
        match="deal 1: call 5: Bartek already named type 5",
    )


def test_calls_after_the_end_are_refused():
    with pytest.raises(EntryError, match="ended at call 4"):
        auction(0, [2, 3, 6, 2, 5])
    refused(
        [{"bids": [2, 3, 6, 2, 5], "tricks": 7}],
        match="the auction ended at call 4, when Ala named type 2 again; call 5 is one too many",
    )


def test_an_unfinished_auction_is_refused_in_the_record():
    refused(
        [{"bids": [2, 3, 6], "tricks": 7}],
        match="the auction has not ended: no type has been named twice yet (Ala calls next)",
    )
    refused([{"bids": [], "tricks": 7}], match="has not ended")


@pytest.mark.parametrize(
    "bids, message",
    [
        ([0, 2, 2], "call 1 (Bartek) must be a deal type from 1 to 8"),
        ([2, 9], "call 2 (Celina) must be a deal type from 1 to 8"),
        ([2, "2"], "call 2 (Celina) must be a deal type from 1 to 8"),
        ([2, True], "call 2 (Celina) must be a deal type from 1 to 8"),
        ("2 2", "bids must list the calls in order"),
    ],
)
def test_bad_calls(bids, message):
    refused([{"bids": bids, "tricks": 7}], match=message)


def test_bids_and_contract_attackers_must_agree():
    # dealer 0: Bartek 2, Celina 3, Darek 6, Ala 2 → type 2, Bartek and Ala attack
    good = {"bids": [2, 3, 6, 2], "contract": 2, "attackers": [BARTEK, ALA], "tricks": 7}
    assert pts(good) == [14, 14, 12, 12]  # 7 × 2 = 14; 6 × 2 = 12
    refused([{**good, "contract": 3}], match="the calls choose type 2, but the type played is 3")
    refused(
        [{**good, "attackers": [ALA, BARTEK]}],
        match="the calls make Bartek and Ala the attackers, but the attackers given are Ala and "
        "Bartek",
    )
    refused(
        [{**good, "attackers": [BARTEK, CELINA]}],
        match="but the attackers given are Bartek and Celina",
    )
    # one of them alone beside the bids is checked too
    assert pts({"bids": [2, 3, 6, 2], "contract": 2, "tricks": 7}) == [14, 14, 12, 12]
    refused(
        [{"bids": [2, 3, 6, 2], "attackers": [CELINA, ALA], "tricks": 7}],
        match="the calls make Bartek and Ala",
    )


def test_the_stored_entry_carries_the_contract_and_attackers():
    match, _standings = load(record("variety", [{"bids": [2, 3, 6, 2], "tricks": 7}]))
    assert match.deals == [{"bids": [2, 3, 6, 2], "contract": 2, "attackers": [1, 0], "tricks": 7}]
    # and it loads again as stored
    again, _standings = load(record("variety", match.deals))
    assert again.deals == match.deals


@pytest.mark.parametrize(
    "entry, message",
    [
        ({"tricks": 7}, "say the calls, or the type played and the attackers"),
        ({"contract": 2, "tricks": 7}, "say who attacked"),
        ({"attackers": [0, 1], "tricks": 7}, "say which type was played"),
        (deal(2, [1, 1], tricks=7), "the two attackers must be two different players"),
        (deal(2, [1], tricks=7), "attackers must be two players"),
        (deal(2, [1, 2, 3], tricks=7), "attackers must be two players"),
        (deal(2, [1, 4], tricks=7), "attackers must be a seat from 0 to 3"),
        (deal(9, [1, 2], tricks=7), "contract must be between 1 and 8"),
        (deal(0, [1, 2], tricks=7), "contract must be between 1 and 8"),
        ({"contract": 2, "attackers": "0,1", "tricks": 7}, "attackers must be two players"),
    ],
)
def test_contract_and_attackers_checked(entry, message):
    assert refused([entry], match=message).startswith("deal 1: ")


# --- the counts: what each type needs, and what cannot happen ----------------------


@pytest.mark.parametrize(
    "entry, message",
    [
        # a field the type does not count
        (deal(3, [0, 1], spades=7, red=10), "type 3 counts spades; red has no place in it"),
        (deal(2, [0, 1], tricks=7, clubs=3), "type 2 counts tricks; clubs has no place in it"),
        (deal(5, [0, 1], black_tj=2, red_tj=2, spades=1), "spades has no place"),
        (deal(6, [0, 1], red=13, red_tj=2), "red_tj has no place"),
        (deal(7, [0, 1], clubs=3, spades=3), "spades has no place"),
        (deal(1, [0, 1], tricks=7, red=13), "type 1 counts tricks; red has no place"),
        # a count the type needs is missing
        (deal(2, [0, 1]), "type 2: say how many tricks the attackers took"),
        (deal(4, [0, 1], red=10), "type 4: say how many tricks the attackers took"),
        (deal(4, [0, 1], tricks=6), "type 4: say how many red cards the attackers took"),
        (deal(5, [0, 1], black_tj=2), "type 5: say how many red tens and jacks the attackers took"),
        (deal(7, [0, 1]), "type 7: say how many clubs"),
        # out of range
        (deal(1, [0, 1], tricks=14), "the attackers' tricks must be between 0 and 13"),
        (deal(8, [0, 1], tricks=-1), "the attackers' tricks must be between 0 and 13"),
        (deal(2, [0, 1], tricks=6.5), "the attackers' tricks must be a whole number"),
        (deal(3, [0, 1], spades=14), "the attackers' spades must be between 0 and 13"),
        (deal(4, [0, 1], tricks=7, red=27), "the attackers' red cards must be between 0 and 26"),
        (deal(5, [0, 1], black_tj=5, red_tj=0), "black tens and jacks must be between 0 and 4"),
        (deal(5, [0, 1], black_tj=0, red_tj=5), "red tens and jacks must be between 0 and 4"),
        (deal(6, [0, 1], red=27), "the attackers' red cards must be between 0 and 26"),
        (deal(7, [0, 1], clubs=14), "the attackers' clubs must be between 0 and 13"),
        # cards that do not fit the tricks
        # type 4: 5 tricks are 20 cards, not 22 red
        (
            deal(4, [0, 1], tricks=5, red=22),
            "the attackers took 5 tricks, 20 cards, so not 22 red ones",
        ),
        # type 4: 8 tricks are 32 cards; 4 red → 28 black > 26
        (
            deal(4, [0, 1], tricks=8, red=4),
            "the attackers took 8 tricks, 32 cards: with 4 red that makes 28 black, "
            "but there are only 26",
        ),
        # type 3: 1 trick, 4 cards, cannot hold 5 spades
        (
            deal(3, [0, 1], spades=5, tricks=1),
            "the attackers took 1 trick, 4 cards: too few for 5 spades",
        ),
        # type 3: all 13 tricks but only 12 spades: the defenders hold 1 spade in no cards
        (
            deal(3, [0, 1], spades=12, tricks=13),
            "the defenders took no trick, so cannot have 1 spade",
        ),
        # type 5: 1 trick, 4 cards, not 3 + 2 tens and jacks
        (
            deal(5, [0, 1], black_tj=3, red_tj=2, tricks=1),
            "the attackers took 1 trick, 4 cards: too few for 3 black 10/J, 2 red 10/J",
        ),
        # type 6: 0 tricks but 3 red cards
        (
            deal(6, [0, 1], red=3, tricks=0),
            "the attackers took no trick, so cannot have 3 red cards",
        ),
        # type 6: 12 tricks (48 cards) leave the defenders 4 cards for 26 - 20 = 6 red
        (
            deal(6, [0, 1], red=20, tricks=12),
            "the defenders took 1 trick, 4 cards: too few for 6 red cards",
        ),
        # type 7: 2 tricks, 8 cards, not 9 clubs
        (
            deal(7, [0, 1], clubs=9, tricks=2),
            "the attackers took 2 tricks, 8 cards: too few for 9 clubs",
        ),
        # unknown field
        (deal(2, [0, 1], tricks=7, bonus=10), "unknown field bonus"),
    ],
)
def test_bad_counts_are_refused_in_table_words(entry, message):
    assert refused([entry], match=message).startswith("deal 1: ")


def test_tricks_is_only_checked_for_fit_where_the_type_does_not_count_it():
    # type 7 with 4 tricks (16 cards) holding 3 clubs: scored on the clubs alone: -6 / -20
    assert pts(deal(7, [CELINA, ALA], clubs=3, tricks=4)) == [-6, -20, -6, -20]
    # type 6, 13 tricks: every red card, 26; defenders 0
    assert pts(deal(6, [ALA, BARTEK], red=26, tricks=13)) == [26, 26, 0, 0]


# --- dealer, caller and leader over the deals ---------------------------------------


def test_dealer_moves_left_and_the_dealers_left_calls_first():
    entry = deal(2, [ALA, CELINA], tricks=7)
    m, _standings = load(record("variety", [], 4, None, first_dealer=2))
    seen = []
    for k in range(5):
        m, _standings = load(record("variety", [entry] * k, 4, None, first_dealer=2))
        plan = fold(m).next
        seen.append((plan.dealer, plan.context["first_caller"]))
        assert (
            plan.leader is None
            and plan.leader_text == "The first namer's left-hand neighbour leads"
        )
        assert plan.title == f"Deal {k + 1}"
        assert NAMES[(plan.dealer + 1) % 4] + " calls first" in plan.notes[0]
        assert plan.fields == []
    # 2, 3, 0, 1, 2; the caller is always the dealer's left
    assert seen == [(2, 3), (3, 0), (0, 1), (1, 2), (2, 3)]
    c = computed("variety", [entry], 4, None, first_dealer=2)
    assert c["next"] == {"dealer": 3, "leader": None, "pass": None}


def test_the_bids_are_read_from_each_deals_dealer():
    # deal 1 dealt by Ala: Bartek 2, Celina 2 → Bartek and Celina
    # deal 2 dealt by Bartek: Celina 2, Darek 2 → Celina and Darek
    # 7 tricks each time: 14 to the attackers, 12 to the defenders
    c = computed("variety", [{"bids": [2, 2], "tricks": 7}] * 2)
    assert c["per_deal"] == [[12, 14, 14, 12], [12, 12, 14, 14]]
    assert c["totals"] == [24, 26, 28, 26]


def test_the_leader_is_named_in_the_deals_words():
    m, standings = load(
        record("variety", [{"bids": [5, 1, 8, 4, 7, 3, 4], "tricks": 7, "red": 14}], first_dealer=3)
    )
    row = standings.rows[0]
    # dealer Darek: Ala 5, Bartek 1, Celina 8, Darek 4, Ala 7, Bartek 3, Celina 4
    # → Darek and Celina attack, Ala (Darek's left) leads
    assert row.words == (
        "calls 5, 1, 8, 4, 7, 3, 4; type 4, ♦ trumps; Darek and Celina attack, "
        "Ala and Bartek defend, Ala leads; "
        "the attackers took 7 tricks, 14 red and 14 black"
    )
    # 14 - 14 = 0; defenders 12 red, 12 black: 0; a tie → Ala and Bartek +10
    assert row.score.points == [10, 10, 0, 0]
    assert row.score.tag == "4 ♦"
    assert row.score.note == (
        "Type 4, ♦ trumps: Darek and Celina 0, Ala and Bartek 0. "
        "A tie counts as the attackers' failure: "
        "the defenders get +10 each."
    )
    assert row.score.lines == [
        "defender: 12 red and 12 black → 0, +10 → 10",
        "defender: 12 red and 12 black → 0, +10 → 10",
        "attacker: 14 red and 14 black → 0",
        "attacker: 14 red and 14 black → 0",
    ]


def test_score_words_for_other_types():
    m, standings = load(
        record(
            "variety",
            [deal(1, [ALA, BARTEK], tricks=5), deal(6, [2, 3], red=13)],
            options={"tie": "nobody"},
        )
    )
    one, six = standings.rows
    assert one.score.tag == "1 NT" and six.score.tag == "6 ♣"
    assert one.score.note.endswith("The attackers failed: the defenders get +10 each.")
    assert one.score.lines[0] == "attacker: 5 tricks → 0"
    assert one.score.lines[2] == "defender: 8 tricks → 12, +10 → 22"
    assert six.score.note.endswith("A tie: no bonus.")
    assert one.words == (
        "type 1, no trumps; Ala and Bartek attack, Celina and Darek defend, "
        "Bartek leads; the attackers took 5 tricks"
    )


# --- who called what -------------------------------------------------------------------


def test_types_called_so_far_are_kept_per_player():
    deals = [
        {"bids": [5, 1, 8, 4, 7, 3, 4], "tricks": 7, "red": 14},  # dealer Ala: B C D A B C D
        deal(2, [CELINA, ALA], tricks=7),  # only the attackers are known
    ]
    m, standings = load(record("variety", deals))
    # deal 1: Bartek 5 7, Celina 1 3, Darek 8 4, Ala 4; deal 2: Celina and Ala named 2
    expected = [[2, 4], [5, 7], [1, 2, 3], [4, 8]]
    assert standings.next.context["called"] == expected
    assert fold(load(record("variety", []))[0]).next.context["called"] == [[], [], [], []]


# --- options and the end --------------------------------------------------------------


def test_deals_option_multiples_of_four():
    assert load(record("variety", []))[0].options == {
        "deals": 8,
        "tie": "defenders",
        "variant": "standard",
    }
    assert load(record("variety", [], options={"deals": 4}))[0].options["deals"] == 4
    assert load(record("variety", [], options={"deals": 12}))[0].options["deals"] == 12
    refused([], {"deals": 6}, match="the number of deals must be 4, 8 or another multiple of 4")
    refused([], {"deals": 2}, match="option deals must be between 4 and")
    refused([], {"deals": "8"}, match="option deals must be a whole number")
    refused([], {"tie": "attackers"}, match="option tie must be one of defenders, nobody")
    refused([], {"variant": "seed001"}, match="option variant must be one of standard, kyhote")
    with pytest.raises(RecordError, match="played by 4 players, not 3"):
        load(record("variety", [], 3))


TWO = deal(2, [ALA, BARTEK], tricks=7)  # 14, 14, 12, 12


def test_the_match_ends_after_eight_deals_highest_wins():
    # deals 1–7: Ala and Bartek 7 tricks: 7 × 14 = 98 each; Celina, Darek 7 × 12 = 84
    c = computed("variety", [TWO] * 7)
    assert not c["finished"] and c["totals"] == [98, 98, 84, 84]
    # deal 8: Celina and Darek attack with 7: +14 → 98; Ala and Bartek +12 → 110
    c = computed("variety", [TWO] * 7 + [deal(2, [CELINA, DAREK], tricks=7)])
    assert c["finished"] and c["totals"] == [110, 110, 98, 98]
    assert c["winners"] == [ALA, BARTEK] and c["next"] is None  # a tie for highest is shared
    refused([TWO] * 9, match="deal 9: the match is already over")


def test_four_deals_single_winner():
    # 1: Ala+Bartek 7 tricks      → 14, 14, 12, 12
    # 2: Celina+Darek 7 tricks    → 12, 12, 14, 14 → 26, 26, 26, 26
    # 3: Ala+Bartek 7 tricks      → 40, 40, 38, 38
    # 4: Ala+Celina 6 tricks: 12 against 14 → Bartek, Darek 14 + 10 = 24
    #    → 52, 64, 50, 62: Bartek wins alone
    deals = [TWO, deal(2, [CELINA, DAREK], tricks=7), TWO, deal(2, [ALA, CELINA], tricks=6)]
    c = computed("variety", deals, options={"deals": 4})
    assert c["finished"] and c["totals"] == [52, 64, 50, 62] and c["winners"] == [BARTEK]
    assert not computed("variety", deals[:3], options={"deals": 4})["finished"]


def test_twelve_deals():
    c = computed("variety", [TWO] * 11, options={"deals": 12})
    assert not c["finished"]
    c = computed("variety", [TWO] * 12, options={"deals": 12})
    # 12 × 14 = 168, 12 × 12 = 144
    assert c["finished"] and c["totals"] == [168, 168, 144, 144] and c["winners"] == [0, 1]


def test_registered_with_its_name():
    assert GAMES["variety"] is Variety
    assert Variety.higher_wins and Variety.player_counts == (4,) and str(Variety.name) == "Variety"


# --- properties -------------------------------------------------------------------------


@st.composite
def legal_auctions(draw):
    """A dealer and a legal sequence of calls, up to the end of the auction."""
    dealer = draw(st.integers(0, 3))
    calls: list[int] = []
    while len(calls) < 20 and not auction(dealer, calls).ended:  # 20: far past any end
        barred = auction(dealer, calls).barred
        calls.append(draw(st.sampled_from([t for t in range(1, 9) if t not in barred])))
    return dealer, calls


@settings(max_examples=300, deadline=None)
@given(legal_auctions())
def test_every_legal_auction_ends_by_the_ninth_call_with_two_attackers(case):
    dealer, calls = case
    a = auction(dealer, calls)
    assert isinstance(a, AuctionState) and a.ended
    assert 2 <= len(calls) <= 9
    first, repeater = a.attackers
    assert first != repeater
    assert sorted(a.attackers + a.defenders) == [0, 1, 2, 3]
    assert a.contract in a.called[first] and a.contract in a.called[repeater]
    assert calls.count(a.contract) == 2 and calls[-1] == a.contract
    assert caller(dealer, len(calls) - 1) == repeater
    assert caller(dealer, calls.index(a.contract)) == first
    assert a.leader == (first + 1) % 4
    # every prefix before the last call was still open
    assert all(not auction(dealer, calls[:k]).ended for k in range(len(calls)))


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 3), st.lists(st.integers(-1, 10), max_size=12))
def test_any_calls_give_a_state_or_a_table_error(dealer, calls):
    try:
        a = auction(dealer, calls)
    except EntryError as e:
        assert e.message and e.field == "bids"
        return
    assert a.ended or len(calls) < 9


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(range(1, 9)),
    st.integers(0, 13),
    st.integers(0, 26),
    st.integers(0, 4),
    st.integers(0, 4),
)
def test_a_side_scores_what_the_other_does_not_count_twice(contract, tricks, red, btj, rtj):
    """Every accepted type-4 and type-5 deal is zero-sum before the bonus; a refusal is an
    EntryError-based RecordError, never a crash."""
    took = {
        1: {"tricks": tricks},
        2: {"tricks": tricks},
        3: {"spades": min(tricks, 13)},
        4: {"tricks": tricks, "red": red},
        5: {"black_tj": btj, "red_tj": rtj},
        6: {"red": red},
        7: {"clubs": min(tricks, 13)},
        8: {"tricks": tricks},
    }[contract]
    try:
        p = pts(deal(contract, [ALA, CELINA], **took), {"tie": "nobody"})
    except RecordError as e:
        assert e.message.startswith("deal 1: ")
        return
    if contract in (4, 5):
        att, dfn = p[ALA], p[BARTEK]
        # the bonus goes to the defenders only when they score more than the attackers
        assert att + dfn == (10 if dfn - 10 > att else 0)
