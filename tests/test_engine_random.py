"""Thousands of seeded random deals played by the engine, for every game and option.

For each deal, checked here without the game module's help: every card of
the pack is played exactly once (Knaves: all but the turned-up card); every
card was legal when played (follow suit; Hearts' first-trick and hearts-led
rules); every trick went to the right seat; and the entry the engine derives,
scored by the game module, equals the points counted straight from the
captured cards with RULES.md's figures. Some deals also go back through the
record's ``play`` form, with and without hands.

Metamorphosis and Variety are played as whole matches (``play_match``):
Metamorphosis rounds with the cards moving between deals (every hand 12 before
every deal, hands + stock + discards the whole pack, the excess discarded and
the missing drawn or taken from a neighbour); Variety from random auctions,
each followed again here (it ends by the ninth call, with two different
attackers), and from a type and attackers given outright.
"""

from __future__ import annotations

import random
import time

import pytest

from scorer.autoplay import play_match
from scorer.engine import RANDOM, SIMPLE, entry_of, entry_with_play, play_deal
from scorer.games import GAMES

from .helpers import NAMES

A_HIGH = "2 3 4 5 6 7 8 9 10 J Q K A".split()  # low to high
POLIGNAC = "7 8 9 10 A J Q K".split()  # low to high: K Q J A 10 9 8 7
SPOT = {
    "10-10-10-15": {"J": 10, "Q": 10, "K": 10, "A": 15},
    "11-12-13-14": {"J": 11, "Q": 12, "K": 13, "A": 14},
}
KNAVES_JACKS = {"JH": -4, "JD": -3, "JC": -2, "JS": -1}

# (game, players, options, deals): at least 10,000 deals in all
CONFIGS = [
    ("hearts", 4, {}, 600),
    ("hearts", 4, {"moon": "self"}, 300),
    ("hearts", 4, {"moon": "off", "omnibus": True}, 300),
    ("hearts", 4, {"scoring": "spot"}, 300),
    (
        "hearts",
        4,
        {"scoring": "spot", "spot_values": "11-12-13-14", "omnibus": True, "moon": "self"},
        300,
    ),
    ("hearts", 3, {}, 300),
    ("hearts", 3, {"scoring": "spot", "omnibus": True}, 300),
    ("hearts", 5, {"omnibus": True}, 300),
    ("hearts", 6, {}, 300),
    ("hearts", 6, {"scoring": "spot", "moon": "off"}, 300),
    ("black_maria", 3, {}, 500),
    ("black_maria", 4, {"scoring": "black_lady"}, 300),
    ("black_maria", 4, {"partnership": True, "omnibus": True}, 300),
    ("black_maria", 5, {"scoring": "spot"}, 300),
    ("black_maria", 6, {}, 300),
    ("black_maria", 6, {"scoring": "spot", "spot_values": "11-12-13-14", "omnibus": True}, 300),
    ("knaves", 3, {}, 600),
    ("knaves", 3, {"jack_values": {"JH": -5, "JS": 2}}, 300),
    ("slobberhannes", 4, {}, 500),
    ("slobberhannes", 4, {"classic": True}, 400),
    ("slobberhannes", 3, {}, 300),
    ("slobberhannes", 5, {"classic": True}, 300),
    ("slobberhannes", 6, {}, 300),
    ("polignac", 4, {}, 500),
    ("polignac", 4, {"direction": "counterclockwise"}, 300),
    ("polignac", 4, {"capot": True}, 400),
    ("polignac", 3, {}, 300),
    ("polignac", 5, {"sevens": "red", "capot": True, "direction": "counterclockwise"}, 300),
    ("polignac", 6, {}, 300),
]


def test_at_least_ten_thousand_deals():
    assert sum(c[3] for c in CONFIGS) >= 10_000


# --- the rules, written again from RULES.md for the check --------------------------------


def rank_value(card: str, game: str) -> int:
    order = POLIGNAC if game == "polignac" else A_HIGH
    return order.index(card[:-1])


def oracle_winner(trick, game: str, trump: str | None, lowest: bool = False) -> int:
    trumps = [(s, c) for s, c in trick if c[-1] == trump]
    pool = trumps or [(s, c) for s, c in trick if c[-1] == trick[0][1][-1]]
    return (min if lowest else max)(pool, key=lambda sc: rank_value(sc[1], game))[0]


def check_legal(
    game,
    hand: list[str],
    trick: list,
    card: str,
    number: int,
    broken: bool,
    lowest_club: str | None,
) -> None:
    """RULES.md: follow suit; Hearts also the first-trick and hearts-led rules."""
    assert card in hand
    if trick:
        led = trick[0][1][-1]
        if any(c[-1] == led for c in hand):
            assert card[-1] == led, (card, hand, trick)
    if game != "hearts":
        return
    if number == 0 and not trick:
        assert card == lowest_club
    if number == 0 and trick and (card[-1] == "H" or card == "QS"):
        led = trick[0][1][-1]
        others = [c for c in hand if c[-1] != "H" and c != "QS"]
        if any(c[-1] == led for c in hand):
            others = [c for c in others if c[-1] == led]
        assert not others, (card, hand)
    if number > 0 and not trick and card[-1] == "H" and not broken:
        assert all(c[-1] == "H" for c in hand), (card, hand)


def points_from_cards(
    game: str,
    opts: dict,
    n: int,
    taken: list[list[str]],
    winners: list[int],
    pack: set[str],
    capot: int | None,
) -> list[int]:
    """The deal's points straight from the captured cards (RULES.md figures)."""
    if game in ("hearts", "black_maria"):
        spot = opts["scoring"] == "spot"

        def heart(c):
            return (SPOT[opts["spot_values"]].get(c[:-1]) or int(c[:-1])) if spot else 1

        specials = {"QS": 25 if spot else 13}
        if game == "black_maria" and opts["scoring"] != "black_lady":
            specials.update(KS=10, AS=7)
        pts = [
            sum(heart(c) for c in cs if c[-1] == "H") + sum(specials.get(c, 0) for c in cs)
            for cs in taken
        ]
        if game == "hearts" and opts["moon"] != "off":
            in_play = {c for c in pack if c[-1] == "H"} | {"QS"}
            for s in range(n):
                if in_play <= set(taken[s]):
                    value = sum(heart(c) for c in in_play if c[-1] == "H") + specials["QS"]
                    pts = (
                        [0 if o == s else value for o in range(n)]
                        if opts["moon"] == "others"
                        else [-value if o == s else 0 for o in range(n)]
                    )
        if opts["omnibus"]:
            for s in range(n):
                if "JD" in taken[s]:
                    pts[s] -= 10
        return pts
    if game == "knaves":
        values = {**KNAVES_JACKS, **opts["jack_values"]}
        return [winners.count(s) + sum(values.get(c, 0) for c in taken[s]) for s in range(n)]
    if game == "slobberhannes":
        pts = [0] * n
        qc = next(s for s in range(n) if "QC" in taken[s])
        pts[winners[0]] += 1
        pts[winners[-1]] += 1
        pts[qc] += 1 if opts["classic"] else 2
        if opts["classic"] and winners[0] == winners[-1] == qc:
            pts[qc] += 1
        return pts
    if game == "polignac":
        jacks = {"JS": 2, "JC": 1, "JH": 1, "JD": 1}
        if capot is not None and all(w == capot for w in winners):
            return [0 if s == capot else 5 for s in range(n)]
        pts = [sum(jacks.get(c, 0) for c in taken[s]) for s in range(n)]
        if capot is not None:
            pts[capot] += 5
        return pts
    raise AssertionError(game)


# --- the deals --------------------------------------------------------------------------------


def check_deal(game, rules, plan, played, opts, n, capot) -> dict:
    setup = played.setup
    pack = set(setup.pack)
    # every card played exactly once, every seat once a trick, in turn
    cards = [c for trick in played.tricks for _s, c in trick]
    assert len(cards) == len(set(cards)) == setup.tricks * n
    turned = None
    if game == "knaves":
        (turned,) = pack - set(cards)
        assert turned == played.captured.turned_up
    else:
        assert set(cards) == pack
    assert sorted(c for h in played.hands for c in h) == sorted(cards)
    # legal play and the right winners, with hands followed card by card
    hands = [list(h) for h in played.hands]
    trump = turned[-1] if turned else None
    lowest_club = min((c for c in pack if c[-1] == "C"), key=lambda c: rank_value(c, game))
    leader = (
        next(s for s in range(n) if lowest_club in hands[s]) if game == "hearts" else plan.leader
    )
    broken = False
    taken: list[list[str]] = [[] for _s in range(n)]
    winners = []
    for k, trick in enumerate(played.tricks):
        seats = [s for s, _c in trick]
        assert seats == [(leader + setup.step * i) % n for i in range(n)]
        for i, (s, c) in enumerate(trick):
            check_legal(game, hands[s], trick[:i], c, k, broken, lowest_club)
            hands[s].remove(c)
        leader = oracle_winner(trick, game, trump)
        winners.append(leader)
        taken[leader] += [c for _s, c in trick]
        broken = broken or any(c[-1] == "H" for _s, c in trick)
    assert winners == played.captured.winners
    # the derived entry, scored by the game, against the count from the cards
    given = {"capot": {"seat": capot}} if capot is not None else {}
    entry = rules.check(entry_of(rules, plan, played, given), plan)
    assert rules.score(entry, plan).points == points_from_cards(
        game, opts, n, taken, winners, pack, capot
    )
    return entry


@pytest.mark.parametrize(
    "game, players, options, deals",
    CONFIGS,
    ids=[f"{c[0]}-{c[1]}-{'-'.join(f'{k}={v}' for k, v in c[2].items())}" for c in CONFIGS],
)
def test_random_deals(game, players, options, deals):
    cls = GAMES[game]
    opts = cls.normalize_options(options, players)
    rules = cls(opts, NAMES[:players])
    rng = random.Random(f"{game}/{players}/{sorted(options.items())}")
    start = time.perf_counter()
    for i in range(deals):
        # every dealer and every step of a pass cycle; half random, half simple play
        plan = rules.plan({**rules.start(i % players), "played": i})
        player = RANDOM if i % 2 else SIMPLE
        capot = rng.randrange(players) if opts.get("capot") and i % 3 == 0 else None
        played = play_deal(
            rules,
            plan,
            [player] * players,
            rng,
            {"capot": {"seat": capot}} if capot is not None else None,
        )
        entry = check_deal(game, rules, plan, played, opts, players, capot)
        if i % 10 == 0:  # back through the record's play form: with hands, and tricks alone
            record = played.record()
            beside = {"capot": {"seat": capot}} if capot is not None else {}
            with_hands = entry_with_play(rules, {"play": record, **beside}, plan)
            alone = entry_with_play(rules, {"play": {"tricks": record["tricks"]}, **beside}, plan)
            assert with_hands == {**entry, "play": record}
            assert alone == {**entry, "play": {"tricks": record["tricks"]}}
    assert time.perf_counter() - start < 20  # the whole file stays well under a minute


# --- Metamorphosis and Variety: whole matches, as the engine plays them ---------------------

PACK = sorted(r + s for s in "SHDC" for r in A_HIGH)
# RULES.md's four deals of a Metamorphosis round: trump, the suit counted (None: every
# card), points for each card counted
META_DEALS = {
    "standard": [(None, "C", -4), ("D", "H", 3), (None, None, -1), (None, "S", 4)],
    "seed001": [(None, "C", -4), ("D", "H", 4), (None, None, -1), (None, "S", -4)],
}
# (players, variant, deals): whole matches, 12 deals with 3 players, 16 with 2
META_CONFIGS = [
    (3, "standard", 720),
    (2, "standard", 640),
    (3, "seed001", 360),
    (2, "seed001", 352),
]
# RULES.md's Variety types: the trump of each; in type 6 the lowest card wins
VARIETY_TRUMPS = {1: None, 2: "C", 3: "H", 4: "D", 5: "S", 6: "C", 7: "S", 8: None}
# (options, deals, how the type is chosen: an auction, or only the type and the attackers)
VARIETY_CONFIGS = [
    ({}, 800, "auction"),
    ({"variant": "kyhote"}, 400, "auction"),
    ({"tie": "nobody"}, 400, "auction"),
    ({"variant": "kyhote", "tie": "nobody"}, 400, "untracked"),
]


def test_at_least_two_thousand_deals_of_each():
    assert sum(c[2] for c in META_CONFIGS) >= 2000
    assert sum(c[1] for c in VARIETY_CONFIGS) >= 2000


def check_tricks(played, leader: int, trump: str | None, lowest: bool, n: int):
    """Every card of the hands played once, every seat once a trick in turn, follow suit,
    the right winner (the lowest card under ``lowest``); what each seat took."""
    cards = [c for trick in played.tricks for _s, c in trick]
    assert len(cards) == len(set(cards)) == len(played.tricks) * n
    assert sorted(cards) == sorted(c for h in played.hands for c in h)
    hands = [list(h) for h in played.hands]
    taken: list[list[str]] = [[] for _s in range(n)]
    winners = []
    for k, trick in enumerate(played.tricks):
        assert [s for s, _c in trick] == [(leader + i) % n for i in range(n)]
        for i, (s, c) in enumerate(trick):
            check_legal("", hands[s], trick[:i], c, k, False, None)
            hands[s].remove(c)
        leader = oracle_winner(trick, "", trump, lowest)
        winners.append(leader)
        taken[leader] += [c for _s, c in trick]
    assert winners == played.captured.winners and taken == played.captured.taken
    return taken, winners


def back_through_play(rules, plan, played, entry) -> None:
    """The record's play form, with hands and tricks alone, gives the same entry."""
    record = played.record()
    for play in (record, {"tricks": record["tricks"]}):
        assert entry_with_play(rules, {"play": play, **played.given}, plan) == {
            **entry,
            "play": play,
        }


@pytest.mark.parametrize("players, variant, deals", META_CONFIGS)
def test_random_metamorphosis_matches(players, variant, deals):
    n = players
    rules = GAMES["metamorphosis"](
        GAMES["metamorphosis"].normalize_options({"variant": variant}, n), NAMES[:n]
    )
    rng = random.Random(f"metamorphosis/{n}/{variant}")
    table = META_DEALS[variant]

    def declare(plan, rng):  # the test declares in half the matches, the players in the rest
        return {"declarations": [rng.randint(1, 4) for _s in range(n)]} if plan.dealt else {}

    start = time.perf_counter()
    done = match = 0
    while done < deals:
        first = match % n
        player = RANDOM if match % 2 else SIMPLE
        dealer, leaders = first, []
        # what each seat took, the stock and the discards after the deal before
        # (set at the end of each deal; the first deal of a round deals afresh)
        taken: list[list[str]] = []
        stock: list[str] = []
        discards: list[str] = []
        k = -1
        for k, (plan, played, entry) in enumerate(
            play_match(rules, [player] * n, rng, first, declare if match % 4 < 2 else None)
        ):
            d = k % 4 + 1
            trump, suit, value = table[d - 1]
            # 12 each before every deal; hands, stock and discards hold the whole pack
            assert [len(h) for h in played.hands] == [12] * n
            assert sorted(sum(played.hands, []) + played.stock + played.discards) == PACK
            # how the cards came to the hands (RULES.md)
            if d == 1:
                assert len(played.stock) == 52 - 12 * n and not played.discards
            elif d == 3:  # only from the neighbours' hands: no stock, no discards touched
                assert sorted(sum(played.hands, [])) == sorted(sum(taken, []))
                assert (played.stock, played.discards) == (stock, discards)
            else:  # the excess discarded, the missing drawn from the stock
                drawn = []
                for s in range(n):
                    if len(taken[s]) >= 12:
                        assert set(played.hands[s]) <= set(taken[s])
                    else:
                        assert set(taken[s]) <= set(played.hands[s])
                        drawn += [c for c in played.hands[s] if c not in taken[s]]
                assert len(drawn) == sum(max(0, 12 - len(t)) for t in taken)
                if played.discards:  # no refill: drawn from the stock, the discards kept
                    assert set(drawn) <= set(stock) and set(discards) <= set(played.discards)
            # who leads (RULES.md "Leads")
            if d in (1, 2):  # the eldest
                leader = (dealer + 1) % n
            elif d == 3:
                leader = (leaders[1] + 1) % n
            else:
                leader = leaders[2]
            leaders.append(leader)
            taken, winners = check_tricks(played, leader, trump, False, n)
            stock, discards = played.stock, played.discards
            # the points, counted from the cards
            if d == 1:
                declared = entry["declarations"]
                assert len(declared) == n and set(declared) <= {1, 2, 3, 4}
            base = [
                value * sum(1 for c in taken[s] if suit is None or c[-1] == suit) for s in range(n)
            ]
            best = [s for s in range(n) if base[s] == max(base)]
            points = [base[s] + (10 if declared[s] == d and best == [s] else 0) for s in range(n)]
            assert rules.score(entry, plan).points == points
            if done % 10 == 0:
                back_through_play(rules, plan, played, entry)
            if d == 4:  # the next round is dealt by whoever led this round's first deal;
                # under seed001 the deal never moves
                dealer, leaders = (first if variant == "seed001" else leaders[0]), []
            done += 1
        assert k + 1 == 4 * (3 if n == 3 else 4)  # the match ran its rounds to the end
        match += 1
    assert time.perf_counter() - start < 20


def walk_auction(dealer: int, calls: list[int]) -> tuple[int, int, int]:
    """RULES.md's auction, followed call by call: the type, its first namer, the repeater."""
    first: dict[int, int] = {}
    own: list[set] = [set() for _s in range(4)]
    for j, call in enumerate(calls):
        who = (dealer + 1 + j) % 4
        assert call in VARIETY_TRUMPS and call not in own[who]
        own[who].add(call)
        if call in first:
            assert j == len(calls) - 1 and j < 9  # it ends there, by the ninth call
            assert first[call] != who
            return call, first[call], who
        first[call] = who
    raise AssertionError(f"the auction {calls} did not end")


def draw_auction(dealer: int, rng: random.Random) -> list[int]:
    """A random legal auction: each player a random type not their own earlier call."""
    calls: list[int] = []
    own: list[set] = [set() for _s in range(4)]
    while True:
        who = (dealer + 1 + len(calls)) % 4
        call = rng.choice([t for t in VARIETY_TRUMPS if t not in own[who]])
        own[who].add(call)
        if call in calls:
            return calls + [call]
        calls.append(call)


def side_points(contract: int, variant: str, tricks: int, cards: list[str]) -> int:
    """What a side scores from its tricks and cards (RULES.md's table, kyhote.com's rows)."""
    red = sum(c[-1] in "HD" for c in cards)
    tens_jacks = [c for c in cards if c[:-1] in ("10", "J")]
    kyhote = variant == "kyhote"
    return {
        1: 12 if tricks > 13 - tricks else 0,
        2: (1 if kyhote else 2) * tricks,
        3: 2 * sum(c[-1] == "S" for c in cards),
        4: red - (len(cards) - red),
        5: 5 * sum(c[-1] in "SC" for c in tens_jacks) - 5 * sum(c[-1] in "HD" for c in tens_jacks),
        6: red,
        7: -(1 if kyhote else 2) * sum(c[-1] == "C" for c in cards),
        8: -2 * tricks,
    }[contract]


@pytest.mark.parametrize(
    "options, deals, choice",
    VARIETY_CONFIGS,
    ids=[f"{c[2]}-{'-'.join(f'{k}={v}' for k, v in c[0].items())}" for c in VARIETY_CONFIGS],
)
def test_random_variety_matches(options, deals, choice):
    opts = GAMES["variety"].normalize_options(options, 4)
    rules = GAMES["variety"](opts, NAMES[:4])
    rng = random.Random(f"variety/{sorted(options.items())}/{choice}")
    count = iter(range(10**9))

    def choose(plan, rng):  # the test's own auction every other deal; the players' otherwise
        if choice == "untracked":
            return {"contract": rng.randint(1, 8), "attackers": rng.sample(range(4), 2)}
        return {"bids": draw_auction(plan.dealer, rng)} if next(count) % 2 else {}

    start = time.perf_counter()
    done = match = 0
    types = set()
    while done < deals:
        first = match % 4
        player = RANDOM if match % 2 else SIMPLE
        for k, (plan, played, entry) in enumerate(
            play_match(rules, [player] * 4, rng, first, choose)
        ):
            dealer = (first + k) % 4
            assert plan.dealer == dealer
            given = played.given
            if choice == "untracked":
                contract, (a, b) = given["contract"], given["attackers"]
            else:
                contract, a, b = walk_auction(dealer, given["bids"])
                assert entry["bids"] == given["bids"]
            assert (entry["contract"], entry["attackers"]) == (contract, [a, b])
            types.add(contract)
            taken, winners = check_tricks(
                played, (a + 1) % 4, VARIETY_TRUMPS[contract], contract == 6, 4
            )
            tricks = winners.count(a) + winners.count(b)
            att = side_points(contract, opts["variant"], tricks, taken[a] + taken[b])
            dfn = side_points(
                contract,
                opts["variant"],
                13 - tricks,
                [c for s in range(4) if s not in (a, b) for c in taken[s]],
            )
            bonus = 10 if att < dfn or (att == dfn and opts["tie"] == "defenders") else 0
            assert rules.score(entry, plan).points == [
                att if s in (a, b) else dfn + bonus for s in range(4)
            ]
            if done % 10 == 0:
                back_through_play(rules, plan, played, entry)
            done += 1
        match += 1
    assert types == set(VARIETY_TRUMPS)  # every type was played
    assert time.perf_counter() - start < 20
