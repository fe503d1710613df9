"""Players for the engine's table: one picks any legal card at random, one plays
a simple sensible game.

A player has ``give(hand, count, setup, rng)`` (the cards it passes or
discards), ``call(choices, rng)`` (its choice beside the cards: a call in an
auction, a declaration) and ``play(hand, legal, trick, state, rng)`` (the card
it plays, one of ``legal``). The simple player knows only what the game's
setup says cards and tricks cost (``Setup.costs``, ``Setup.trick_cost``); it
knows no game by name, so its choices beside the cards are random too.
"""

from __future__ import annotations

import random

from ..games.tricks import Setup, TableState, trick_winner


class RandomPlayer:
    """Any legal card, any cards to pass: the engine's test and benchmark player."""

    def give(self, hand: list[str], count: int, setup: Setup, rng: random.Random) -> list[str]:
        return rng.sample(hand, count)

    def call(self, choices: tuple, rng: random.Random):
        return choices[rng.randrange(len(choices))]

    def play(
        self, hand: list[str], legal: list[str], trick: list, state: TableState, rng: random.Random
    ) -> str:
        return legal[rng.randrange(len(legal))]


class SimplePlayer:
    """Ducks a trick that costs something, sheds its costliest and highest cards
    when it cannot follow, takes a trick that is worth having, leads low; passes
    and discards its costliest and highest cards; chooses at random beside the
    cards."""

    call = RandomPlayer.call

    def give(self, hand: list[str], count: int, setup: Setup, rng: random.Random) -> list[str]:
        costs, power = setup.costs, setup.power
        return sorted(hand, key=lambda c: (costs.get(c, 0), power[c]), reverse=True)[:count]

    def play(
        self, hand: list[str], legal: list[str], trick: list, state: TableState, rng: random.Random
    ) -> str:
        setup = state.setup
        costs, power = setup.costs, setup.power
        if not trick:  # lead the lowest card that costs nothing, else the lowest
            cheap = [c for c in legal if costs.get(c, 0) <= 0] or legal
            return min(cheap, key=power.__getitem__)
        on_table = sum(costs.get(c, 0) for _s, c in trick) + setup.trick_cost

        def wins(c: str) -> bool:  # would c take the trick as it stands?
            return trick_winner(trick + [(-1, c)], setup) == len(trick)

        losing = [c for c in legal if not wins(c)]
        winning = [c for c in legal if wins(c)]
        worth = [c for c in winning if on_table + costs.get(c, 0) < 0]
        if worth:  # a trick worth taking: take it as cheaply as possible
            return min(worth, key=power.__getitem__)
        if losing:  # duck, and shed the costliest, then the highest card that still loses
            return max(losing, key=lambda c: (costs.get(c, 0), power[c]))
        # every card wins: keep costly cards, spend the highest
        return max(winning, key=lambda c: (-costs.get(c, 0), power[c]))


RANDOM = RandomPlayer()
SIMPLE = SimplePlayer()
