"""Thousands of seeded random deals played by the engine, for every game and option.

For each deal, checked here without the game module's help: every card of
the pack is played exactly once (Knaves: all but the turned-up card); every
card was legal when played (follow suit; Hearts' first-trick and hearts-led
rules); every trick went to the right seat; and the entry the engine derives,
scored by the game module, equals the points counted straight from the
captured cards with RULES.md's figures. Some deals also go back through the
record's ``play`` form, with and without hands.
"""

from __future__ import annotations

import random
import time

import pytest

from scorer.engine import RANDOM, SIMPLE, entry_of, entry_with_play, play_deal
from scorer.games import GAMES

from .helpers import NAMES

A_HIGH = "2 3 4 5 6 7 8 9 10 J Q K A".split()  # low to high
POLIGNAC = "7 8 9 10 A J Q K".split()  # low to high: K Q J A 10 9 8 7
SPOT = {"10-10-10-15": {"J": 10, "Q": 10, "K": 10, "A": 15},
        "11-12-13-14": {"J": 11, "Q": 12, "K": 13, "A": 14}}
KNAVES_JACKS = {"JH": -4, "JD": -3, "JC": -2, "JS": -1}

# (game, players, options, deals): at least 10,000 deals in all
CONFIGS = [
    ("hearts", 4, {}, 600),
    ("hearts", 4, {"moon": "self"}, 300),
    ("hearts", 4, {"moon": "off", "omnibus": True}, 300),
    ("hearts", 4, {"scoring": "spot"}, 300),
    ("hearts", 4, {"scoring": "spot", "spot_values": "11-12-13-14", "omnibus": True,
                   "moon": "self"}, 300),
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


def oracle_winner(trick, game: str, trump: str | None) -> int:
    trumps = [(s, c) for s, c in trick if c[-1] == trump]
    pool = trumps or [(s, c) for s, c in trick if c[-1] == trick[0][1][-1]]
    return max(pool, key=lambda sc: rank_value(sc[1], game))[0]


def check_legal(game, hand: list[str], trick: list, card: str, number: int, broken: bool,
                lowest_club: str | None) -> None:
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


def points_from_cards(game: str, opts: dict, n: int, taken: list[list[str]],
                      winners: list[int], pack: set[str], capot: int | None) -> list[int]:
    """The deal's points straight from the captured cards (RULES.md figures)."""
    if game in ("hearts", "black_maria"):
        spot = opts["scoring"] == "spot"

        def heart(c):
            return (SPOT[opts["spot_values"]].get(c[:-1]) or int(c[:-1])) if spot else 1

        specials = {"QS": 25 if spot else 13}
        if game == "black_maria" and opts["scoring"] != "black_lady":
            specials.update(KS=10, AS=7)
        pts = [sum(heart(c) for c in cs if c[-1] == "H") + sum(specials.get(c, 0) for c in cs)
               for cs in taken]
        if game == "hearts" and opts["moon"] != "off":
            in_play = {c for c in pack if c[-1] == "H"} | {"QS"}
            for s in range(n):
                if in_play <= set(taken[s]):
                    value = sum(heart(c) for c in in_play if c[-1] == "H") + specials["QS"]
                    pts = ([0 if o == s else value for o in range(n)] if opts["moon"] == "others"
                           else [-value if o == s else 0 for o in range(n)])
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
    leader = (next(s for s in range(n) if lowest_club in hands[s]) if game == "hearts"
              else plan.leader)
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
        game, opts, n, taken, winners, pack, capot)
    return entry


@pytest.mark.parametrize("game, players, options, deals", CONFIGS,
                         ids=[f"{c[0]}-{c[1]}-{'-'.join(f'{k}={v}' for k, v in c[2].items())}"
                              for c in CONFIGS])
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
        played = play_deal(rules, plan, [player] * players, rng,
                           {"capot": {"seat": capot}} if capot is not None else None)
        entry = check_deal(game, rules, plan, played, opts, players, capot)
        if i % 10 == 0:  # back through the record's play form: with hands, and tricks alone
            record = played.record()
            beside = {"capot": {"seat": capot}} if capot is not None else {}
            with_hands = entry_with_play(rules, {"play": record, **beside}, plan)
            alone = entry_with_play(rules, {"play": {"tricks": record["tricks"]}, **beside},
                                    plan)
            assert with_hands == {**entry, "play": record}
            assert alone == {**entry, "play": {"tricks": record["tricks"]}}
    assert time.perf_counter() - start < 20  # the whole file stays well under a minute
