"""A deal played at the engine's table: shuffle and deal, pass, play the tricks.

Everything the rules decide comes from the game (``rules.engine_setup``,
``rules.legal``, ``rules.trick_winner``, ``rules.entry_from_play``); this
module only moves cards. Randomness comes from the ``random.Random`` the
caller gives, so a seed replays a deal exactly.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from ..games.base import Game, Plan
from ..games.tricks import Captured, Setup, TableState


@dataclass
class Played:
    """A deal played out: the hands after the pass, the tricks, what each seat took."""

    setup: Setup
    hands: list[list[str]]  # after any pass, before the first lead
    tricks: list[list[tuple[int, str]]]  # each trick: (seat, card) in the order played
    captured: Captured

    def record(self) -> dict:
        """The record's ``play`` form (RECORD.md "A deal as played")."""
        return {"hands": [list(h) for h in self.hands],
                "tricks": [[[s, c] for s, c in trick] for trick in self.tricks]}


def deal(setup: Setup, n: int, rng: random.Random, dealer: int = 0
         ) -> tuple[list[list[str]], Setup]:
    """Shuffle and deal ``setup.tricks`` cards to each seat, from the dealer's
    neighbour round the way play goes. A card left over under ``turn_up`` (Knaves:
    the last card) is turned up, and the setup returned names it and its trump."""
    cards = list(setup.pack)
    rng.shuffle(cards)
    t = setup.tricks
    hands: list[list[str]] = [[] for _s in range(n)]
    for i in range(n):
        hands[(dealer + setup.step * (i + 1)) % n] = cards[i * t:(i + 1) * t]
    rest = cards[n * t:]
    if setup.turn_up and rest:
        setup = replace(setup, turned_up=rest[-1], trump=rest[-1][-1])
    return hands, setup


def pass_cards(setup: Setup, hands: list[list[str]], players: list, rng: random.Random
               ) -> list[list[str]]:
    """Every seat picks its cards at once, then hands them on (RULES.md's pass)."""
    if not setup.passing:
        return hands
    n = len(hands)
    count = setup.passing[1]
    given = [players[s].give(hands[s], count, setup, rng) for s in range(n)]
    out = [[c for c in hands[s] if c not in given[s]] for s in range(n)]
    for s in range(n):
        out[setup.pass_to(s, n)].extend(given[s])
    return out


def first_leader(setup: Setup, hands: list[list[str]]) -> int:
    if setup.leader is not None:
        return setup.leader
    return next(s for s, h in enumerate(hands) if setup.lead_card in h)


def play_tricks(rules: Game, setup: Setup, hands: list[list[str]], players: list,
                rng: random.Random) -> Played:
    """Play every trick, each seat choosing among the cards the rules allow."""
    n = len(hands)
    start = [list(h) for h in hands]
    hands = [list(h) for h in hands]
    legal_cards, winner_of, step = rules.legal, rules.trick_winner, setup.step
    leader = first_leader(setup, hands)
    state = TableState(setup)
    tricks, winners = [], []
    taken: list[list[str]] = [[] for _s in range(n)]
    for k in range(setup.tricks):
        state.number = k
        trick: list[tuple[int, str]] = []
        seat = leader
        for _i in range(n):
            hand = hands[seat]
            legal = legal_cards(hand, trick, state)
            card = legal[0] if len(legal) == 1 else players[seat].play(hand, legal, trick,
                                                                      state, rng)
            hand.remove(card)
            trick.append((seat, card))
            seat = (seat + step) % n
        leader = trick[winner_of(trick, setup)][0]
        winners.append(leader)
        taken[leader].extend(c for _s, c in trick)
        state.suits_played.update(c[-1] for _s, c in trick)
        tricks.append(trick)
    return Played(setup, start, tricks, Captured(taken, winners, setup.turned_up))


def play_deal(rules: Game, plan: Plan, players: list, rng: random.Random,
              given: dict | None = None) -> Played:
    """Deal (as ``plan``'s dealer), pass and play one deal of ``rules``.

    ``given``: what the table decides beside the cards (Polignac ``capot``);
    games whose hands come from elsewhere (Metamorphosis) call
    :func:`play_tricks` with their own hands."""
    setup = rules.engine_setup(plan, given or {})
    hands, setup = deal(setup, rules.n, rng, plan.dealer)
    hands = pass_cards(setup, hands, players, rng)
    return play_tricks(rules, setup, hands, players, rng)


def entry_of(rules: Game, plan: Plan, played: Played, given: dict | None = None) -> dict:
    """The deal's entry, in the quick-entry shape, derived from the tricks."""
    given = given or {}
    derived = rules.entry_from_play(plan, played.setup, played.captured, given)
    return {**given, **derived}
