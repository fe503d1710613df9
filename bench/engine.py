"""How many deals a second the engine plays at random, per game, and how many
recorded deals (the record's ``play`` form, tricks alone) it checks a second.
Metamorphosis, whose hands carry over from deal to deal, is played in whole
matches (``play_match``: the card flow between deals, and the fold's check and
score of every deal, are in its figure); the other games deal by deal, the
players making any auction.

A benchmark, not a test: it prints figures. When the optional ``open-spiel``
package is installed (``import pyspiel``), it also plays OpenSpiel's
``hearts`` under the same random play (a uniformly random chance outcome
and legal action at every step, dealing and passing included) and prints
our Hearts rate over OpenSpiel's.

    Run: .venv/bin/python bench/engine.py [seconds per figure, default 1]
"""

from __future__ import annotations

import itertools
import random
import sys
import time

try:
    import pyspiel  # optional: pip install open-spiel
except ImportError:
    pyspiel = None

from scorer.engine import RANDOM, entry_with_play, play_deal, play_match
from scorer.games import GAMES

NAMES = ["Ala", "Bartek", "Celina", "Darek", "Ewa", "Franek"]
GAMES_TIMED = [  # (label, game, players, options, whole matches)
    ("Hearts, 4 players", "hearts", 4, {}, False),
    ("Hearts, 6 players", "hearts", 6, {}, False),
    ("Black Maria, 3 players", "black_maria", 3, {}, False),
    ("Knaves", "knaves", 3, {}, False),
    ("Slobberhannes, 4 players", "slobberhannes", 4, {}, False),
    ("Polignac, 4 players", "polignac", 4, {}, False),
    ("Metamorphosis, 3 players", "metamorphosis", 3, {}, True),
    ("Metamorphosis, 2 players", "metamorphosis", 2, {}, True),
    ("Variety", "variety", 4, {}, False),
]


def rate(fn, seconds: float) -> float:
    """Calls of ``fn`` a second, run for about ``seconds``."""
    count, start = 0, time.perf_counter()
    while True:
        for _i in range(20):
            fn()
        count += 20
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return count / elapsed


def matches(rules, seats: list, rng: random.Random):
    """Deal after deal of match after match, each dealer first in turn."""
    for m in itertools.count():
        yield from play_match(rules, seats, rng, m % rules.n)


def ours(
    game: str, players: int, options: dict, seconds: float, whole: bool
) -> tuple[float, float]:
    cls = GAMES[game]
    rules = cls(cls.normalize_options(options, players), NAMES[:players])
    rng = random.Random(1)
    seats = [RANDOM] * players
    deals = iter(range(10**9))
    if whole:
        going = matches(rules, seats, rng)

        def play():
            return next(going)

        recorded = [
            (plan, played)
            for plan, played, _entry in itertools.islice(matches(rules, seats, rng), 60)
        ]
    else:
        # every dealer, every step of a pass cycle
        plans = [rules.plan({**rules.start(0), "played": k}) for k in range(12)]

        def play():
            return play_deal(rules, plans[next(deals) % len(plans)], seats, rng)

        recorded = [
            (plans[i % len(plans)], play_deal(rules, plans[i % len(plans)], seats, rng))
            for i in range(60)
        ]
    recorded = [(plan, p.record()["tricks"], p.given) for plan, p in recorded]

    def check():
        plan, tricks, given = recorded[next(deals) % len(recorded)]
        entry_with_play(rules, {"play": {"tricks": tricks}, **given}, plan)

    return rate(play, seconds), rate(check, seconds)


def openspiel_hearts(seconds: float) -> float | None:
    if pyspiel is None:
        return None
    game = pyspiel.load_game("hearts")
    rng = random.Random(1)

    def play():
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[rng.randrange(len(actions))])

    return rate(play, seconds)


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    print(f"{'game':<26} {'played/s':>9} {'checked/s':>10}")
    hearts = None
    for label, game, players, options, whole in GAMES_TIMED:
        play_rate, check_rate = ours(game, players, options, seconds, whole)
        hearts = hearts or play_rate
        print(f"{label:<26} {play_rate:>9.0f} {check_rate:>10.0f}")
    spiel = openspiel_hearts(seconds)
    if spiel is None:
        print("OpenSpiel not installed (pip install open-spiel): no comparison")
    else:
        print(f"{'OpenSpiel hearts':<26} {spiel:>9.0f}")
        print(f"Hearts, 4 players: {hearts / spiel:.2f} × OpenSpiel's random-play rate")


if __name__ == "__main__":
    main()
