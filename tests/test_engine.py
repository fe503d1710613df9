"""The engine (RULES.md's play rules; docs/record.md "A deal as played, trick by trick").

Tricks, legal cards and whole deals here are written by hand, with the
winner of each trick worked out from the rules in a comment.
"""

from __future__ import annotations

import json
import random

import pytest

from scorer.cards import FULL_PACK
from scorer.engine import RANDOM, SIMPLE, deal, pass_cards, play_deal, progress
from scorer.games import GAMES
from scorer.games.base import EntryError, Game
from scorer.games.tricks import Setup, TableState, trick_winner
from scorer.games.variety import auction
from scorer.record import RecordError, load

from .helpers import NAMES, record

ALA, BARTEK, CELINA, DAREK = 0, 1, 2, 3


def rules_for(game: str, players: int, options: dict | None = None):
    cls = GAMES[game]
    return cls(cls.normalize_options(options or {}, players), NAMES[:players])


def plan_of(rules, played: int = 0, first_dealer: int = 0):
    return rules.plan({**rules.start(first_dealer), "played": played})


def setup_of(rules, given: dict | None = None, played: int = 0):
    return rules.engine_setup(plan_of(rules, played), given or {})


def winner(rules, cards: list[str], setup: Setup | None = None, leader: int = 0) -> int:
    """The seat that wins ``cards`` played in order from ``leader``."""
    setup = setup or setup_of(rules)
    trick = [((leader + i) % rules.n, c) for i, c in enumerate(cards)]
    return trick[rules.trick_winner(trick, setup)][0]


def tricks_of(rows: list[str], leaders: list[int], n: int, step: int = 1) -> list:
    """Tricks written as "AS KS QS JS" with the leader of each: [[seat, card], …]."""
    out = []
    for row, leader in zip(rows, leaders):
        out.append([[(leader + step * i) % n, c] for i, c in enumerate(row.split())])
    return out


# --- who wins a trick ---------------------------------------------------------------


def test_hearts_and_black_maria_highest_of_the_suit_led_no_trumps():
    for game in ("hearts", "black_maria"):
        r = rules_for(game, 4)
        # 5♣ led; A♥ is off-suit and loses; K♣ is the highest club: Darek
        assert winner(r, ["5C", "AH", "3C", "KC"]) == DAREK
        # 10♦ led, everybody else discards: the leader wins
        assert winner(r, ["10D", "AS", "AH", "AC"]) == ALA


def test_knaves_trump_beats_and_off_suit_loses():
    r = rules_for("knaves", 3)
    hearts = setup_of(r, {"turn_up": "4H"})
    assert hearts.trump == "H"
    # A♠ led, 2♥ trumps it: Bartek
    assert winner(r, ["AS", "2H", "KS"], hearts) == BARTEK
    # 5♠ led, A♦ is neither spades nor trumps: 5♠ still wins (Ala)
    assert winner(r, ["5S", "AD", "3S"], hearts) == ALA
    # two trumps: the higher (3♥ over 2♥): Celina
    assert winner(r, ["AS", "2H", "3H"], hearts) == CELINA
    # a trump led is just the suit led: Q♥ beats 10♥
    assert winner(r, ["10H", "QH", "AS"], hearts) == BARTEK


def test_slobberhannes_ace_high_no_trumps():
    r = rules_for("slobberhannes", 4)
    # 9♦ led: A♦ beats 10♦; A♣ is off-suit: Bartek
    assert winner(r, ["9D", "AD", "AC", "10D"]) == BARTEK


def test_polignac_king_beats_the_ace():
    r = rules_for("polignac", 4)
    # K Q J A 10 9 8 7: K♥ beats A♥
    assert winner(r, ["AH", "KH", "7H", "8H"]) == BARTEK
    # the jack beats the ace, the ace beats the ten
    assert winner(r, ["AH", "JH", "10H", "9H"]) == BARTEK
    assert winner(r, ["10H", "AH", "9H", "7H"]) == BARTEK
    # Q♥ beats J♥; K♠ is off-suit
    assert winner(r, ["JH", "KS", "QH", "AH"]) == CELINA


def test_polignac_counterclockwise_play_goes_right():
    r = rules_for("polignac", 4, {"direction": "counterclockwise"})
    s = setup_of(r)
    # dealer Ala (seat 0): her right-hand neighbour Darek leads, then Celina, Bartek, Ala
    assert s.step == -1 and s.leader == DAREK


def test_lowest_card_wins_when_the_setup_says_so():
    # Variety type 6 (RULES.md): the lowest trump if any trump, else the lowest of the suit led
    s = Setup(pack=FULL_PACK, tricks=13, leader=0, trump="C", lowest_wins=True)
    assert trick_winner([(0, "5H"), (1, "2H"), (2, "AS"), (3, "3H")], s) == 1
    assert trick_winner([(0, "5H"), (1, "2H"), (2, "AC"), (3, "3C")], s) == 3


# --- the pack, the deal, the pass ----------------------------------------------------


@pytest.mark.parametrize(
    "game, players, options, size, removed",
    [
        ("hearts", 3, {}, 51, {"2D"}),
        ("hearts", 4, {}, 52, set()),
        ("hearts", 5, {}, 50, {"2C", "2D"}),
        ("hearts", 6, {}, 48, {"2C", "2D", "2S", "3C"}),
        ("black_maria", 3, {}, 51, {"2C"}),
        ("black_maria", 6, {}, 48, {"2S", "2H", "2D", "2C"}),
        ("knaves", 3, {}, 52, set()),
        ("slobberhannes", 4, {}, 32, {"2C", "6H"}),
        ("slobberhannes", 5, {}, 30, {"7S", "7C"}),
        ("polignac", 3, {}, 30, {"7S", "7C"}),
        ("polignac", 5, {"sevens": "red"}, 30, {"7H", "7D"}),
    ],
)
def test_packs(game, players, options, size, removed):
    s = setup_of(rules_for(game, players, options))
    assert len(s.pack) == size and not removed & set(s.pack)


def test_hearts_lowest_club_leads():
    for players, card in ((3, "2C"), (4, "2C"), (5, "3C"), (6, "4C")):
        s = setup_of(rules_for("hearts", players))
        assert s.leader is None and s.lead_card == card


def test_knaves_deal_turns_up_the_last_card_for_trump():
    r = rules_for("knaves", 3)
    hands, s = deal(setup_of(r), 3, random.Random(4), dealer=0)
    assert [len(h) for h in hands] == [17, 17, 17]
    (left,) = set(s.pack) - {c for h in hands for c in h}
    assert s.turned_up == left and s.trump == left[-1]


@pytest.mark.parametrize(
    "players, passes",
    [
        # RULES.md: 4 players left, right, across, none; 3 and 5 left, right, none;
        # 6 left, right, across (three seats away), none
        (4, [1, -1, 2, None, 1]),
        (3, [1, -1, None, 1]),
        (5, [1, -1, None, 1]),
        (6, [1, -1, 3, None, 1]),
    ],
)
def test_hearts_pass_cycle(players, passes):
    r = rules_for("hearts", players)
    for played, offset in enumerate(passes):
        s = setup_of(r, played=played)
        got = s.pass_to(0, players)
        assert got == (None if offset is None else offset % players)
        assert s.passing is None or s.passing[1] == 3


def test_black_maria_always_passes_right():
    for players in (3, 4, 5, 6):
        r = rules_for("black_maria", players)
        for played in range(5):
            assert setup_of(r, played=played).pass_to(0, players) == players - 1


def test_pass_moves_three_cards_to_the_right_seat():
    r = rules_for("hearts", 4)
    s = setup_of(r)  # deal 1: left
    hands, s = deal(s, 4, random.Random(7))
    after = pass_cards(s, hands, [SIMPLE] * 4, random.Random(7))
    for seat in range(4):
        given = set(hands[seat]) - set(after[seat])
        assert len(given) == 3 and given <= set(after[(seat + 1) % 4])
    # the simple player passes its costliest cards: whoever was dealt Q♠ passes it
    holder = next(h for h in range(4) if "QS" in hands[h])
    assert "QS" in after[(holder + 1) % 4]


# --- which cards are legal -----------------------------------------------------------


def legal(rules, hand, trick_cards, number=0, suits_played=(), leader=0):
    state = TableState(setup_of(rules), number, set(suits_played))
    trick = [((leader + i) % rules.n, c) for i, c in enumerate(trick_cards)]
    got = rules.legal(hand, trick, state)
    # the reason agrees with the list of legal cards, card by card
    for c in hand:
        assert (rules.illegal_reason(c, hand, trick, state) is None) == (c in got), c
    return sorted(got)


def test_follow_suit_else_anything_no_duty_to_trump():
    r = rules_for("knaves", 3)
    assert legal(r, ["2S", "KS", "AH", "3D"], ["5S"], 4) == ["2S", "KS"]
    # void in spades: a trump (hearts, say) or any discard
    assert legal(r, ["AH", "3D", "4C"], ["5S"], 4) == ["3D", "4C", "AH"]


def test_hearts_first_trick():
    r = rules_for("hearts", 4)
    # the holder of 2♣ must lead it
    assert legal(r, ["2C", "AC", "3D"], []) == ["2C"]
    # follow clubs if you can
    assert legal(r, ["5C", "AH", "QS"], ["2C"]) == ["5C"]
    # void in clubs: no heart and not Q♠ while anything else is held
    assert legal(r, ["AH", "QS", "3D", "KS"], ["2C"]) == ["3D", "KS"]
    # nothing else: a heart or Q♠ may go
    assert legal(r, ["AH", "QS", "2H"], ["2C"]) == ["2H", "AH", "QS"]


def test_hearts_not_led_until_a_heart_has_been_played():
    r = rules_for("hearts", 4)
    assert legal(r, ["AH", "QS", "3D"], [], number=3, suits_played="SDC") == ["3D", "QS"]
    assert legal(r, ["AH", "QS", "3D"], [], number=3, suits_played="SHC") == ["3D", "AH", "QS"]
    # the leader holds only hearts
    assert legal(r, ["AH", "2H"], [], number=3, suits_played="SDC") == ["2H", "AH"]
    # following, a heart may be discarded at any time after the first trick
    assert legal(r, ["AH", "QS"], ["3D"], number=1) == ["AH", "QS"]


def test_black_maria_has_no_first_trick_or_hearts_rule():
    r = rules_for("black_maria", 3)
    assert legal(r, ["AH", "QS", "3D"], []) == ["3D", "AH", "QS"]
    assert legal(r, ["AH", "QS", "3D"], ["5C"]) == ["3D", "AH", "QS"]


# --- whole deals written by hand -------------------------------------------------------

# Slobberhannes, 4 players, dealer Ala: Bartek (the eldest) leads.
SLOB_ROWS = [
    "AS KS QS JS",  # 1 Bartek leads, A♠ wins: Bartek (the first trick)
    "10S 9S 8S 7S",  # 2 Bartek
    "AH KH QH JH",  # 3 Bartek
    "10H 9H 8H 7H",  # 4 Bartek
    "7D AD KD QD",  # 5 Bartek leads 7♦, Celina's A♦ wins
    "JD 10D 9D 8D",  # 6 Celina leads, J♦ wins: Celina
    "7C AC KC QC",  # 7 Celina leads 7♣, Darek's A♣ wins, with Bartek's Q♣
    "JC 10C 9C 8C",  # 8 Darek leads, J♣ wins: Darek (the last trick)
]
SLOB_LEADERS = [1, 1, 1, 1, 1, 2, 2, 3]
SLOB_TRICKS = tricks_of(SLOB_ROWS, SLOB_LEADERS, 4)
SLOB_HANDS = [[c for t in SLOB_TRICKS for s, c in t if s == seat] for seat in range(4)]


def test_slobberhannes_deal_by_hand():
    # Bartek the first trick 1, Darek the last trick 1 and Q♣ 2: 0, 1, 0, 3
    for play in ({"tricks": SLOB_TRICKS}, {"tricks": SLOB_TRICKS, "hands": SLOB_HANDS}):
        m, standings = load(record("slobberhannes", [{"play": play}]))
        assert standings.computed()["per_deal"] == [[0, 1, 0, 3]]
        stored = m.deals[0]
        assert stored["taken_by"] == {"first_trick": 1, "last_trick": 3, "QC": 3}
        assert stored["play"] == play  # nothing the table entered is lost
        # the stored entry (summary + play) loads again to the same figures
        assert load(record("slobberhannes", [stored]))[1].computed()["per_deal"] == [[0, 1, 0, 3]]


def test_summary_beside_play_agreeing_is_kept():
    deal = {"play": {"tricks": SLOB_TRICKS}, "taken_by": {"QC": 3}}
    m, standings = load(record("slobberhannes", [deal]))
    assert standings.computed()["per_deal"] == [[0, 1, 0, 3]]


def refusal(game, deals, players=4, options=None) -> str:
    with pytest.raises(RecordError) as e:
        load(record(game, deals, players, options))
    return e.value.message


def test_summary_beside_play_that_disagrees_is_refused_by_name():
    deal = {"play": {"tricks": SLOB_TRICKS}, "taken_by": {"first_trick": 1, "QC": 1}}
    assert (
        refusal("slobberhannes", [deal])
        == "deal 1: Q♣: Bartek in the quick entry, Darek by the tricks"
    )


def test_illegal_card_named_with_hands():
    # trick 5: Ala discards 10♣ on the diamond lead while holding Q♦ and 9♦
    tricks = tricks_of(
        [*SLOB_ROWS[:4], "7D AD KD 10C", "JD 10D 9D 8D", "7C AC KC QC", "JC QD 9C 8C"],
        SLOB_LEADERS,
        4,
    )
    assert (
        refusal("slobberhannes", [{"play": {"tricks": tricks, "hands": SLOB_HANDS}}])
        == "deal 1: trick 5: Ala plays 10♣, but holds Q♦ and must follow ♦"
    )


def test_revoke_flagged_without_hands():
    tricks = tricks_of(
        [*SLOB_ROWS[:4], "7D AD KD 10C", "JD 10D 9D 8D", "7C AC KC QC", "JC QD 9C 8C"],
        SLOB_LEADERS,
        4,
    )
    # Ala did not follow diamonds in trick 5, then plays 9♦ in trick 6
    assert (
        refusal("slobberhannes", [{"play": {"tricks": tricks}}])
        == "deal 1: trick 5: Ala plays 10♣ on a ♦ lead, but plays 9♦ in trick 6 (a revoke)"
    )


@pytest.mark.parametrize(
    "change, message",
    [
        # a card played twice
        (lambda t: t[6].__setitem__(3, [1, "JS"]), "trick 7: J♠ was already played in trick 1"),
        # a card played twice in one trick: Bartek plays Ala's K♣ of trick 7 again
        (lambda t: t[6].__setitem__(3, [1, "KC"]), "trick 7: K♣ is played twice in it"),
        # a card not in the pack (Slobberhannes has no 2s)
        (lambda t: t[7].__setitem__(3, [2, "2C"]), "trick 8: 2♣ is not in this game's pack"),
        # a leader who did not win the last trick
        (
            lambda t: t.__setitem__(5, [[3, "10D"], [0, "9D"], [1, "8D"], [2, "JD"]]),
            "trick 6 is led by Darek, but Celina won trick 5 and leads",
        ),
        # out of turn inside a trick
        (
            lambda t: t.__setitem__(0, [[1, "AS"], [3, "QS"], [2, "KS"], [0, "JS"]]),
            "trick 1: it is Celina's turn, not Darek's",
        ),
        # trick 1 led by the wrong player
        (
            lambda t: t.__setitem__(0, [[0, "JS"], [1, "AS"], [2, "KS"], [3, "QS"]]),
            "trick 1 is led by Ala, but Bartek leads",
        ),
        # the wrong number of tricks, of cards in a trick
        (lambda t: t.pop(), "the tricks: 7 are given, where 8 are played"),
        (lambda t: t[2].pop(), "trick 3 has 3 cards, not 4"),
        (lambda t: t[2].__setitem__(0, [1, "XX"]), "trick 3: XX is not a card"),
        (lambda t: t[2].__setitem__(0, [9, "AH"]), "trick 3: 9 is not a seat (0 to 3)"),
    ],
)
def test_what_cannot_be_without_hands(change, message):
    tricks = json.loads(json.dumps(SLOB_TRICKS))
    change(tricks)
    assert refusal("slobberhannes", [{"play": {"tricks": tricks}}]) == f"deal 1: {message}"


@pytest.mark.parametrize(
    "play, message",
    [
        (
            {"tricks": SLOB_TRICKS, "hands": SLOB_HANDS[:3]},
            "hands needs one list of cards per player (4)",
        ),
        (
            {"tricks": SLOB_TRICKS, "hands": [SLOB_HANDS[0][:7], *SLOB_HANDS[1:]]},
            "hand 0 has 7 cards, but 8 each are played",
        ),
        (
            {"tricks": SLOB_TRICKS, "hands": [SLOB_HANDS[1], *SLOB_HANDS[1:]]},
            "is in two hands (0 and 1)",
        ),
        ({"tricks": SLOB_TRICKS, "cards": []}, "unknown field cards in play"),
        ({"hands": SLOB_HANDS}, "play must give the tricks"),
        ([1, 2], "play must give the tricks"),
        (None, "play must give the tricks"),
    ],
)
def test_bad_play_shapes(play, message):
    assert message in refusal("slobberhannes", [{"play": play}])


def test_card_not_in_the_hand_given():
    hands = json.loads(json.dumps(SLOB_HANDS))
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]  # Ala has A♠, Bartek J♠
    assert (
        refusal("slobberhannes", [{"play": {"tricks": SLOB_TRICKS, "hands": hands}}])
        == "deal 1: trick 1: Bartek plays A♠, which is not in Bartek's hand"
    )


# Polignac, 4 players, dealer Ala: Bartek holds K Q J A of spades and of hearts and takes
# every trick (K Q J A: the ace is below the jack).
POL_ROWS = [
    "KS 10S 8S KC",
    "QS 9S 7S QC",
    "JS KD 10D JC",
    "AS QD 9D AC",
    "KH 10H 8H 10C",
    "QH 9H 7H 9C",
    "JH JD 8D 8C",
    "AH AD 7D 7C",
]
POL_TRICKS = tricks_of(POL_ROWS, [1] * 8, 4)


def test_polignac_deal_by_hand_and_capot():
    # Bartek took every jack: 2 + 1 + 1 + 1 = 5
    m, standings = load(record("polignac", [{"play": {"tricks": POL_TRICKS}}]))
    assert standings.computed()["per_deal"] == [[0, 5, 0, 0]]
    # with the capot declared beside the tricks it is made: the others 5 each
    opts = {"capot": True}
    m, standings = load(
        record("polignac", [{"play": {"tricks": POL_TRICKS}, "capot": {"seat": 1}}], options=opts)
    )
    assert standings.computed()["per_deal"] == [[5, 0, 5, 5]]
    assert m.deals[0]["capot"] == {"seat": 1, "made": True}
    # Celina declared it: failed, 5 more for her; Bartek his jacks
    m, standings = load(
        record("polignac", [{"play": {"tricks": POL_TRICKS}, "capot": {"seat": 2}}], options=opts)
    )
    assert standings.computed()["per_deal"] == [[0, 5, 5, 0]]
    msg = refusal(
        "polignac",
        [{"play": {"tricks": POL_TRICKS}, "capot": {"seat": 2, "made": True}}],
        options=opts,
    )
    assert msg == "deal 1: capot: made in the quick entry, not made by the tricks"
    # capot beside play with the option off: refused as usual
    assert "the capot option is off" in refusal(
        "polignac", [{"play": {"tricks": POL_TRICKS}, "capot": {"seat": 1}}]
    )


def test_polignac_counterclockwise_order_is_checked():
    # dealer Ala, counter-clockwise: Darek leads, then Celina; Bartek leading is refused
    msg = refusal(
        "polignac", [{"play": {"tricks": POL_TRICKS}}], options={"direction": "counterclockwise"}
    )
    assert msg == "deal 1: trick 1 is led by Bartek, but Darek leads"
    tricks = tricks_of(POL_ROWS, [1] * 8, 4, step=-1)  # played to the right from Bartek
    # dealer Celina: the right-hand neighbour Bartek leads; Ala plays second
    m, standings = load(
        record(
            "polignac",
            [{"play": {"tricks": tricks}}],
            options={"direction": "counterclockwise"},
            first_dealer=2,
        )
    )
    assert standings.computed()["per_deal"] == [[0, 5, 0, 0]]


# --- Hearts, Knaves: engine-dealt deals through the record --------------------------------


def engine_deal(game, players, options=None, seed=1, player=RANDOM, given=None):
    r = rules_for(game, players, options)
    plan = plan_of(r)
    return r, plan, play_deal(r, plan, [player] * players, random.Random(seed), given)


def test_hearts_summary_disagreement_names_the_card():
    r, plan, p = engine_deal("hearts", 4, seed=3)
    qs = p.captured.who_took("QS")
    other = (qs + 1) % 4
    deal = {"play": {"tricks": p.record()["tricks"]}, "taken_by": {"QS": other}}
    assert (
        refusal("hearts", [deal])
        == f"deal 1: Q♠: {NAMES[other]} in the quick entry, {NAMES[qs]} by the tricks"
    )
    hearts = p.captured.taken
    counts = [sum(c[-1] == "H" for c in cs) for cs in hearts]
    wrong = [counts[1], counts[0], *counts[2:]]
    if wrong != counts:
        s = next(s for s in range(4) if wrong[s] != counts[s])
        assert (
            refusal("hearts", [{"play": p.record(), "hearts": wrong}])
            == f"deal 1: hearts ({NAMES[s]}): {wrong[s]} in the quick entry, "
            f"{counts[s]} by the tricks"
        )


def test_hearts_first_trick_rule_in_a_recorded_deal():
    # Ala holds every club, Bartek every spade, Celina every heart, Darek every diamond
    hands = [[c + s for c in ("A K Q J 10 9 8 7 6 5 4 3 2".split())] for s in "CSHD"]
    r = rules_for("hearts", 4)
    pr = progress(r, plan_of(r, played=3), {"hands": hands, "tricks": [[[0, "2C"], [1, "QS"]]]})
    assert pr.problems == [
        "trick 1: Bartek may not play Q♠ (no heart and not Q♠ on the first trick; Bartek holds A♠)"
    ]
    pr = progress(r, plan_of(r, played=3), {"hands": hands, "tricks": [[[0, "3C"]]]})
    assert pr.problems == ["trick 1: Ala may not play 3♣ (2♣ leads the first trick; Ala holds 2♣)"]
    pr = progress(r, plan_of(r, played=3), {"hands": hands, "tricks": [[[1, "AS"]]]})
    assert pr.problems == ["trick 1 is led by Bartek, but Ala holds 2♣ and leads"]
    # Celina holds nothing but hearts: a heart on the first trick is legal
    pr = progress(
        r,
        plan_of(r, played=3),
        {"hands": hands, "tricks": [[[0, "2C"], [1, "AS"], [2, "2H"], [3, "AD"]], [[0, "3C"]]]},
    )
    assert pr.problems == [] and pr.winners == [0] and pr.turn == 1
    assert pr.legal == hands[1][1:]  # void in clubs: any spade left


def test_hearts_led_before_a_heart_has_been_played():
    # Ala 2♣ and twelve hearts; Bartek spades; Celina diamonds; Darek the other clubs and 2♥
    ranks = "A K Q J 10 9 8 7 6 5 4 3 2".split()
    hands = [
        ["2C"] + [r + "H" for r in ranks[:-1]],
        [r + "S" for r in ranks],
        [r + "D" for r in ranks],
        [r + "C" for r in ranks[:-1]] + ["2H"],
    ]
    r = rules_for("hearts", 4)
    trick1 = [[0, "2C"], [1, "2S"], [2, "2D"], [3, "3C"]]  # Darek's 3♣ wins
    pr = progress(r, plan_of(r, played=3), {"hands": hands, "tricks": [trick1, [[3, "2H"]]]})
    assert pr.problems == [
        "trick 2: Darek may not play 2♥ (hearts may not be led until a "
        "heart has been played; Darek holds A♣)"
    ]
    # without the hands: Darek is seen to play A♣ later
    later = [
        trick1,
        [[3, "2H"], [0, "AH"], [1, "3S"], [2, "3D"]],
        [[0, "KH"], [1, "4S"], [2, "4D"], [3, "AC"]],
    ]
    pr = progress(r, plan_of(r, played=3), {"tricks": later})
    assert pr.problems == [
        "trick 2: Darek may not play 2♥ (hearts may not be led until a "
        "heart has been played; Darek plays A♣ in trick 3)"
    ]
    # without hands, a first trick not led with 2♣ cannot be
    pr = progress(r, plan_of(r, played=3), {"tricks": [[[1, "2S"]]]})
    assert pr.problems == ["trick 1 must be led with 2♣ (whoever holds it leads)"]


def test_knaves_turn_up_from_the_tricks():
    r, plan, p = engine_deal("knaves", 3, seed=5)
    turned = p.captured.turned_up
    tricks = p.record()["tricks"]
    m, standings = load(record("knaves", [{"play": {"tricks": tricks}}], 3))
    assert m.deals[0]["turn_up"] == turned and sum(m.deals[0]["tricks"]) == 17
    m, standings = load(
        record("knaves", [{"play": {"tricks": tricks}, "turn_up": turned.lower()}], 3)
    )
    assert m.deals[0]["turn_up"] == turned
    # naming a card that was played as the turned-up card is refused
    played = tricks[4][1][1]
    msg = refusal("knaves", [{"play": {"tricks": tricks}, "turn_up": played}], 3)
    assert msg.startswith("deal 1: trick 5: ") and msg.endswith(
        "was turned up and takes no part in play"
    )


def test_knaves_trick_winners_follow_the_trump():
    r, plan, p = engine_deal("knaves", 3, seed=11)
    trump = p.captured.turned_up[-1]
    ranks = "2 3 4 5 6 7 8 9 10 J Q K A".split()
    for trick, won in zip(p.tricks, p.captured.winners):
        trumps = [(s, c) for s, c in trick if c[-1] == trump]
        pool = trumps or [(s, c) for s, c in trick if c[-1] == trick[0][1][-1]]
        assert won == max(pool, key=lambda sc: ranks.index(sc[1][:-1]))[0]


# --- a deal in progress ---------------------------------------------------------------------


def test_progress_says_who_won_whose_turn_and_what_is_legal():
    r = rules_for("slobberhannes", 4)
    plan = plan_of(r)
    pr = progress(r, plan, {"tricks": [], "hands": SLOB_HANDS})
    assert (pr.leader, pr.turn, pr.winners, pr.problems) == (1, 1, [], [])
    assert sorted(pr.legal) == sorted(SLOB_HANDS[1])
    pr = progress(r, plan, {"tricks": SLOB_TRICKS[:4] + [SLOB_TRICKS[4][:2]], "hands": SLOB_HANDS})
    assert pr.winners == [1, 1, 1, 1] and pr.leader == 1 and pr.turn == 3
    assert sorted(pr.legal) == ["10D", "KD"]  # Darek must follow diamonds
    assert not pr.complete and pr.entry is None
    pr = progress(r, plan, {"tricks": SLOB_TRICKS})
    assert pr.complete and pr.winners == SLOB_LEADERS[1:] + [3] and pr.turn is None
    assert pr.entry["taken_by"] == {"first_trick": 1, "last_trick": 3, "QC": 3}
    pr = progress(r, plan, {"tricks": SLOB_TRICKS[:2] + [[[2, "AH"]]]})
    assert pr.problems == ["trick 3 is led by Celina, but Bartek won trick 2 and leads"]
    assert progress(r, plan, "nonsense").problems


def test_progress_knaves_needs_the_trump_to_name_winners():
    r = rules_for("knaves", 3)
    plan = plan_of(r)
    trick = [[1, "AS"], [2, "2H"], [0, "3S"]]
    assert progress(r, plan, {"tricks": [trick]}).problems == [
        "say which card was turned up: its suit is trump"
    ]
    pr = progress(r, plan, {"tricks": [trick]}, {"turn_up": "9H"})
    assert pr.winners == [2] and pr.trump == "H" and pr.turn == 2


# --- Metamorphosis and Variety ---------------------------------------------------------------


def test_metamorphosis_deal_2_diamonds_trump_beats():
    r = rules_for("metamorphosis", 3)
    _m, standings = load(
        record(
            "metamorphosis",
            [{"declarations": [1, 1, 1], "tricks": [4, 4, 4], "clubs": [0, 0, 0]}],
            3,
        )
    )
    s = r.engine_setup(standings.next, {})  # deal 2 of the round: diamonds trumps
    assert (s.trump, s.tricks, s.leader, len(s.pack)) == ("D", 12, BARTEK, 52)
    # A♠ led, 2♦ trumps it: Bartek
    assert winner(r, ["AS", "2D", "KS"], s) == BARTEK
    # two trumps: the higher, 5♦ over 2♦: Celina
    assert winner(r, ["AS", "2D", "5D"], s) == CELINA
    # K♥ led, A♣ is neither hearts nor trumps: K♥ still wins (Ala)
    assert winner(r, ["KH", "AC", "2H"], s) == ALA
    # deal 1 has no trumps: 2♦ on A♠ is only off-suit
    assert winner(r, ["AS", "2D", "KS"], setup_of(r)) == ALA


def test_variety_type_3_hearts_trump():
    r = rules_for("variety", 4)
    # calls from Bartek: 3, 1, 2, then Ala repeats 3: type 3, Bartek and Ala attack;
    # Bartek named it first, so Celina leads
    s = setup_of(r, {"bids": [3, 1, 2, 3]})
    assert (s.trump, s.leader, s.lowest_wins, s.tricks) == ("H", CELINA, False, 13)
    # A♠ led, 2♥ trumps it: Bartek
    assert winner(r, ["AS", "2H", "KS", "QS"], s) == BARTEK
    # two trumps: 9♥ over 3♥ (Darek)
    assert winner(r, ["AS", "3H", "KS", "9H"], s) == DAREK
    # 10♦ led: A♣ and A♠ are off-suit and lose; J♦ is the highest diamond (Darek)
    assert winner(r, ["10D", "AC", "AS", "JD"], s) == DAREK


def test_variety_type_6_the_lowest_card_wins():
    r = rules_for("variety", 4)
    s = setup_of(r, {"contract": 6, "attackers": [2, 0]})  # Celina named it: Darek leads
    assert (s.trump, s.leader, s.lowest_wins) == ("C", DAREK, True)
    # no club played: the lowest heart, 2♥ (Bartek); 2♦ is lower but off-suit
    assert winner(r, ["5H", "2H", "2D", "3H"], s) == BARTEK
    # a club played: the lowest club wins, 3♣ over A♣ (Darek), though 2♥ is lower
    assert winner(r, ["5H", "2H", "AC", "3C"], s) == DAREK
    # clubs led: the lowest club, 4♣ (Celina)
    assert winner(r, ["9C", "KC", "4C", "2D"], s) == CELINA
    # the same cards in type 2 (clubs trumps, the highest wins): A♣ (Celina)
    assert (
        winner(r, ["5H", "2H", "AC", "3C"], setup_of(r, {"contract": 2, "attackers": [0, 1]}))
        == CELINA
    )


def test_variety_one_trick_without_an_auction():
    # "Who won this trick?" names a type, not an auction
    r = rules_for("variety", 4)
    assert [c[2:] for c in r.contracts() if c[0] in (3, 6)] == [("H", False), ("C", True)]
    s = r.trick_setup("C", True)
    assert winner(r, ["5H", "2H", "AC", "3C"], s) == DAREK  # the lowest trump, 3♣


def test_variety_is_played_from_its_auction():
    r = rules_for("variety", 4)
    plan = plan_of(r)
    assert progress(r, plan, {"tricks": []}).problems == [
        "say the calls, or the type played and the attackers"
    ]
    assert progress(r, plan, {"tricks": []}, {"bids": [6, 3]}).problems == [
        "the auction has not ended: no type has been named twice yet (Darek calls next)"
    ]
    pr = progress(r, plan, {"tricks": [[[2, "5H"]]]}, {"bids": [6, 3, 2, 6]})
    assert (pr.problems, pr.trump, pr.turn) == ([], "C", DAREK)
    # dealt without an auction, the players make one (each a type not their own earlier call)
    p = play_deal(r, plan, [RANDOM] * 4, random.Random(2))
    calls = p.given["bids"]
    assert auction(plan.dealer, calls).ended and 2 <= len(calls) <= 9


# Metamorphosis, 2 players, dealer Ala: Bartek (the eldest) leads deals 1 and 2.
# Deal 1, no trumps, -4 a club. Ala holds A K Q J 10 9♥, A K Q♦, 2 3 4♣.
META_1 = tricks_of(
    [
        "2H AH",
        "KH 3H",
        "QH 4H",
        "JH 5H",
        "10H 6H",
        "9H 7H",  # Ala's hearts win: 6 tricks
        "AD 2D",
        "KD 3D",
        "QD 4D",  # and her diamonds: 9 tricks
        "2C AC",  # Ala leads 2♣, Bartek's A♣ wins
        "KC 3C",
        "QC 4C",  # Bartek takes his clubs and Ala's: 3 tricks, 6 clubs
    ],
    [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1],
    2,
)
# Deal 2, diamonds trumps, +3 a heart. Of the 18 cards she took Ala keeps her high hearts and
# the diamonds (2♥-7♥ go face down); Bartek draws 8♥ 5♦ 10♦ A♠ K♠ 5♣ from the stock to his
# six clubs.
META_2_HANDS = [
    ["AH", "KH", "QH", "JH", "10H", "9H", "AD", "KD", "QD", "2D", "3D", "4D"],
    ["AC", "KC", "QC", "2C", "3C", "4C", "8H", "5D", "10D", "AS", "KS", "5C"],
]
META_2 = tricks_of(
    [
        "AS 2D",  # 1 Bartek leads A♠, Ala trumps with 2♦: Ala
        "AH 8H",  # 2 Ala (a heart each)
        "KH 5D",  # 3 Bartek, void in hearts, trumps K♥: Bartek
        "KS QH",  # 4 Ala has no spade; with no duty to trump she throws Q♥: Bartek
        "AC 3D",  # 5 Ala trumps A♣
        "JH 10D",  # 6 Bartek trumps J♥
        "KC 4D",  # 7 Ala trumps K♣
        "10H 2C",
        "9H 3C",
        "AD 4C",
        "KD 5C",
        "QD QC",  # 8-12 Ala
    ],
    [1, 0, 0, 1, 1, 0, 1, 0, 0, 0, 0, 0],
    2,
)


def test_metamorphosis_deals_by_hand():
    deals = [
        {"declarations": [1, 4], "play": {"tricks": META_1}},
        {"play": {"tricks": META_2, "hands": META_2_HANDS}},
    ]
    m, standings = load(record("metamorphosis", deals, 2))
    # deal 1: Ala 9 tricks, no club; Bartek 3 tricks, 6 clubs: 0 and -24; Ala declared
    # deal 1 and won it outright: +10. Deal 2: Ala took A♥ 8♥ 10♥ 9♥, Bartek K♥ Q♥ J♥: 12, 9
    assert standings.computed()["per_deal"] == [[10, -24], [12, 9]]
    assert {k: v for k, v in m.deals[0].items() if k != "play"} == {
        "declarations": [1, 4],
        "tricks": [9, 3],
        "clubs": [0, 6],
    }
    assert {k: v for k, v in m.deals[1].items() if k != "play"} == {
        "tricks": [9, 3],
        "hearts": [4, 3],
    }
    assert m.deals[1]["play"] == deals[1]["play"]
    # a summary beside the tricks must agree
    wrong = {"play": {"tricks": META_2}, "hearts": [3, 4]}
    assert (
        refusal("metamorphosis", [deals[0], wrong], 2)
        == "deal 2: hearts (Ala): 3 in the quick entry, 4 by the tricks"
    )
    # the declarations stay beside the play, and deal 1 needs them
    assert (
        refusal("metamorphosis", [{"play": {"tricks": META_1}}], 2)
        == "deal 1: this deal opens a round: say which deal (1 to 4) each player declared"
    )
    # a card may come back in a later deal of the round, but not twice in one deal
    twice = json.loads(json.dumps(META_2))
    twice[11][0][1] = "AD"
    assert (
        refusal("metamorphosis", [deals[0], {"play": {"tricks": twice}}], 2)
        == "deal 2: trick 12: A♦ was already played in trick 10"
    )


# Variety, dealer Ala. Calls from Bartek: 6, 3, 2, Ala repeats 6: type 6 (clubs trumps, the
# lowest card wins, +1 a red card); Bartek and Ala attack, Celina (Bartek's left) leads.
VARIETY_ROWS = [
    "5H 9H KH 2H",  # 1 Celina leads; the lowest heart, 2♥: Bartek
    "3S 7S 2S AS",  # 2 Bartek leads; 2♠: Darek
    "AD 4D 3D 10D",  # 3 Darek leads; 3♦ (the ace is high): Bartek
    "9C 8C KC 3C",  # 4 Bartek leads trumps; 3♣: Ala
    "6H 8H 4H 3H",  # 5 Ala leads; 3♥: Darek
    "6S 9S 8S 4S",  # 6 Darek leads; 4♠: Celina
    "2D 5D 6D 7D",  # 7 Celina
    "KS QS JS 10S",  # 8 Celina leads; 10♠: Bartek
    "AH 7H 10H QH",  # 9 Bartek leads; 7♥: Celina
    "KD 8D 2C JD",  # 10 Celina leads; Ala trumps with 2♣, the only trump: Ala
    "JH AC 9D QC",  # 11 Ala leads; two trumps, the lower, Q♣, wins: Darek; 9♦ is off-suit
    "5S 10C 5C 6C",  # 12 Darek leads; three trumps, 5♣ the lowest: Bartek
    "QD 4C JC 7C",  # 13 Bartek leads; 4♣ the lowest trump: Celina
]
VARIETY_TRICKS = tricks_of(VARIETY_ROWS, [2, 1, 3, 1, 0, 3, 2, 2, 1, 2, 0, 3, 1], 4)
VARIETY_HANDS = [[c for t in VARIETY_TRICKS for s, c in t if s == seat] for seat in range(4)]


def test_variety_deal_by_hand():
    # the attackers took tricks 1, 3, 4, 8, 10 and 12: 6 tricks, 4 + 4 + 3 = 11 red cards;
    # the defenders 15: the attackers failed, the defenders +10 each
    for play in ({"tricks": VARIETY_TRICKS}, {"tricks": VARIETY_TRICKS, "hands": VARIETY_HANDS}):
        m, standings = load(record("variety", [{"bids": [6, 3, 2, 6], "play": play}]))
        assert standings.computed()["per_deal"] == [[11, 11, 25, 25]]
        assert {k: v for k, v in m.deals[0].items() if k != "play"} == {
            "bids": [6, 3, 2, 6],
            "contract": 6,
            "attackers": [1, 0],
            "tricks": 6,
            "red": 11,
        }
        assert m.deals[0]["play"] == play
    # the auction not tracked: the type and the attackers beside the play
    untracked = {"contract": 6, "attackers": [1, 0], "play": {"tricks": VARIETY_TRICKS}}
    assert load(record("variety", [untracked]))[1].computed()["per_deal"] == [[11, 11, 25, 25]]
    # the summary must agree
    assert (
        refusal("variety", [{**untracked, "red": 12}])
        == "deal 1: the attackers' red cards: 12 in the quick entry, 11 by the tricks"
    )
    # calls that make Celina and Ala attack: Darek (Celina's left) leads
    assert (
        refusal("variety", [{"bids": [3, 6, 2, 6], "play": {"tricks": VARIETY_TRICKS}}])
        == "deal 1: trick 1 is led by Celina, but Darek leads"
    )
    # the same cards when the highest card wins (type 2, clubs trumps): other winners
    msg = refusal(
        "variety", [{"contract": 2, "attackers": [1, 0], "play": {"tricks": VARIETY_TRICKS}}]
    )
    assert msg == "deal 1: trick 2 is led by Bartek, but Ala won trick 1 and leads"


# --- through the API and the command line --------------------------------------------------


def test_play_through_the_api(client):
    r = client.post("/api/matches", json=record("slobberhannes", []))
    mid = r.get_json()["id"]
    r = client.post(f"/api/matches/{mid}/deals", json={"play": {"tricks": SLOB_TRICKS}})
    assert r.status_code == 201, r.get_json()
    assert r.get_json()["per_deal"] == [[0, 1, 0, 3]]
    got = client.get(f"/api/matches/{mid}").get_json()
    assert got["deals"][0]["play"] == {"tricks": SLOB_TRICKS}
    bad = {"play": {"tricks": SLOB_TRICKS}, "taken_by": {"QC": 0}}
    r = client.put(f"/api/matches/{mid}/deals/1", json=bad)
    assert r.status_code == 400
    assert r.get_json()["error"] == "deal 1: Q♣: Ala in the quick entry, Darek by the tricks"
    # deal 2 is dealt by Bartek: Celina leads, so the same tricks cannot be deal 2
    r = client.post(f"/api/matches/{mid}/deals", json={"play": {"tricks": SLOB_TRICKS}})
    assert r.get_json()["error"] == "deal 2: trick 1 is led by Bartek, but Celina leads"
    # and the import of a whole record with play
    r = client.post("/api/matches", json=record("polignac", [{"play": {"tricks": POL_TRICKS}}]))
    assert r.status_code == 201 and r.get_json()["computed"]["totals"] == [0, 5, 0, 0]


def test_play_through_the_replay_command(runner):
    good = record("slobberhannes", [{"play": {"tricks": SLOB_TRICKS, "hands": SLOB_HANDS}}])
    out = runner.invoke(args=["replay", "-"], input=json.dumps(good))
    assert out.exit_code == 0, out.stderr
    assert json.loads(out.stdout)["per_deal"] == [[0, 1, 0, 3]]
    bad = json.loads(json.dumps(good))
    bad["deals"][0]["play"]["tricks"][6][3] = [1, "JS"]
    out = runner.invoke(args=["replay", "-"], input=json.dumps(bad))
    assert out.exit_code == 1 and out.stdout == ""
    assert out.stderr.strip() == "Deal 1: trick 7: J♠ was already played in trick 1"


def test_metamorphosis_and_variety_play_through_the_api_and_the_replay_command(client, runner):
    r = client.post(
        "/api/matches",
        json=record("metamorphosis", [{"declarations": [1, 4], "play": {"tricks": META_1}}], 2),
    )
    assert r.status_code == 201 and r.get_json()["computed"]["per_deal"] == [[10, -24]]
    mid = r.get_json()["id"]
    r = client.post(f"/api/matches/{mid}/deals", json={"play": {"tricks": META_2}})
    assert r.status_code == 201, r.get_json()
    assert r.get_json()["per_deal"] == [[10, -24], [12, 9]]
    good = record("variety", [{"bids": [6, 3, 2, 6], "play": {"tricks": VARIETY_TRICKS}}])
    out = runner.invoke(args=["replay", "-"], input=json.dumps(good))
    assert out.exit_code == 0, out.stderr
    assert json.loads(out.stdout)["per_deal"] == [[11, 11, 25, 25]]


def test_games_without_an_engine_yet_say_so():
    # a game module that answers no engine question refuses play by name
    class Bare(Game):
        key, name = "bare", "Bare"

        def plan(self, state):
            return None

        def check(self, entry, plan):
            return entry

        def score(self, entry, plan):
            return None

        def outcome(self, totals, played):
            return None

    with pytest.raises(EntryError, match="Bare cannot be checked trick by trick yet"):
        Bare({}, NAMES[:4]).engine_setup(None, {})
