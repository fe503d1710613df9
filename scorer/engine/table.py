"""A deal played at the engine's table: the table's choices (an auction),
shuffle and deal (or the game's own moves of cards), pass, play the tricks;
and a whole match, deal after deal.

Everything the rules decide comes from the game (``rules.engine_decision``,
``rules.engine_setup``, ``rules.engine_moves``, ``rules.legal``,
``rules.trick_winner``, ``rules.entry_from_play``); this module only moves
cards. Randomness comes from the ``random.Random`` the caller gives, so a seed
replays a deal exactly.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

from ..cards import RANKS, rank_of
from ..games.base import Game, Plan
from ..games.tricks import Captured, Setup, TableState, layout_legal


@dataclass
class Played:
    """A deal played out: the hands after the pass, the tricks, what each seat took."""

    setup: Setup
    hands: list[list[str]]  # after any pass, before the first lead
    tricks: list[list[tuple[int, str]]]  # each trick: (seat, card) in the order played
    captured: Captured
    laid: list[tuple[int, str]] = field(default_factory=list)  # a layout deal's cards, in order
    given: dict = field(default_factory=dict)  # the table's choices beside the cards
    stock: list[str] = field(default_factory=list)  # face down beside the hands, unplayed
    discards: list[str] = field(default_factory=list)

    def record(self) -> dict:
        """The record's ``play`` form (docs/record.md "A deal as played")."""
        return {
            "hands": [list(h) for h in self.hands],
            "tricks": [[[s, c] for s, c in trick] for trick in self.tricks],
        }


@dataclass
class Table:
    """The cards at the table between deals, for a game whose hands carry over
    (Metamorphosis): the hands, the face-down stock and the face-down discards."""

    hands: list[list[str]]
    stock: list[str] = field(default_factory=list)
    discards: list[str] = field(default_factory=list)

    def move(self, steps: list, setup: Setup, players: list, rng: random.Random) -> None:
        """Do the game's steps ``(seat, action, count, source)`` in order:

        ``shuffle`` (the whole pack is gathered and shuffled), ``deal`` (seat
        gets ``count`` cards from it; what is left is the stock), ``discard``
        (seat lays ``count`` cards of its choice face down), ``refill`` (the
        discards are shuffled into the stock), ``draw`` (seat draws ``count``
        from the stock), ``take`` (seat draws ``count`` cards unseen from the
        hand of seat ``source``)."""
        for seat, action, count, source in steps:
            if action == "shuffle":
                self.hands = [[] for _s in self.hands]
                self.stock, self.discards = list(setup.pack), []
                rng.shuffle(self.stock)
            elif action in ("deal", "draw"):
                self.hands[seat] += _off(self.stock, count)
            elif action == "discard":
                out = players[seat].give(self.hands[seat], count, setup, rng)
                self.hands[seat] = [c for c in self.hands[seat] if c not in out]
                self.discards += out
            elif action == "refill":
                self.stock += self.discards
                self.discards = []
                rng.shuffle(self.stock)
            elif action == "take":
                giver = self.hands[source]
                rng.shuffle(giver)
                self.hands[seat] += _off(giver, count)
            else:
                raise ValueError(f"unknown move of cards: {action!r}")


def _off(pile: list[str], count: int) -> list[str]:
    """The top ``count`` cards of ``pile``, taken off it."""
    if count > len(pile):
        raise ValueError(f"{count} cards wanted, {len(pile)} there")
    out = pile[:count]
    del pile[:count]
    return out


def decide(rules: Game, plan: Plan, players: list, rng: random.Random, given: dict) -> dict:
    """``given`` completed with the table's choices it does not make yet (the
    calls of an auction, declarations), each made by the player whose it is."""
    given = dict(given)
    while (d := rules.engine_decision(plan, given)) is not None:
        choice = players[d.seat].call(d.choices, rng)
        given[d.key] = [*given.get(d.key, []), choice] if d.many else choice
    return given


def deal(
    setup: Setup, n: int, rng: random.Random, dealer: int = 0
) -> tuple[list[list[str]], Setup]:
    """Shuffle and deal ``setup.tricks`` cards to each seat, from the dealer's
    neighbour round the way play goes. A card left over under ``turn_up`` (Knaves:
    the last card) is turned up, and the setup returned names it and its trump."""
    cards = list(setup.pack)
    rng.shuffle(cards)
    t = setup.tricks
    hands: list[list[str]] = [[] for _s in range(n)]
    for i in range(n):
        hands[(dealer + setup.step * (i + 1)) % n] = cards[i * t : (i + 1) * t]
    rest = cards[n * t :]
    if setup.turn_up and rest:
        setup = replace(setup, turned_up=rest[-1], trump=rest[-1][-1])
    return hands, setup


def pass_cards(
    setup: Setup, hands: list[list[str]], players: list, rng: random.Random
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


def play_tricks(
    rules: Game, setup: Setup, hands: list[list[str]], players: list, rng: random.Random
) -> Played:
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
            card = (
                legal[0] if len(legal) == 1 else players[seat].play(hand, legal, trick, state, rng)
            )
            hand.remove(card)
            trick.append((seat, card))
            seat = (seat + step) % n
        leader = trick[winner_of(trick, setup)][0]
        winners.append(leader)
        taken[leader].extend(c for _s, c in trick)
        state.suits_played.update(c[-1] for _s, c in trick)
        tricks.append(trick)
    return Played(setup, start, tricks, Captured(taken, winners, setup.turned_up))


def play_layout(setup: Setup, hands: list[list[str]], players: list, rng: random.Random) -> Played:
    """A deal laid out in rows (``setup.layout``): from the leader round the table,
    each player lays out a card the layout takes (a card of the starting rank, or
    next to an end of its suit's row), or passes when none fits; until
    ``setup.places`` players have laid out every card."""
    n = len(hands)
    start = [list(h) for h in hands]
    hands = [list(h) for h in hands]
    rows: dict[str, tuple[int, int]] = {}
    first = None if setup.layout == "any" else setup.layout
    state = TableState(setup)
    laid: list[tuple[int, str]] = []
    out: list[int] = []
    seat = setup.leader
    low_high = RANKS[::-1]
    idle = 0  # turns in a row nobody could lay out a card
    while len(out) < min(setup.places, n):
        if idle > n:
            raise ValueError("nobody can lay out a card: the layout is stuck")
        idle += 1
        if seat not in out:
            legal = layout_legal(hands[seat], rows, first, setup.pack)
            if legal:
                c = (
                    legal[0]
                    if len(legal) == 1
                    else players[seat].play(hands[seat], legal, [], state, rng)
                )
                hands[seat].remove(c)
                first = first or rank_of(c)
                k = low_high.index(rank_of(c))
                low, high = rows.get(c[-1], (k, k))
                rows[c[-1]] = (min(low, k), max(high, k))
                laid.append((seat, c))
                idle = 0
                if not hands[seat]:
                    out.append(seat)
        seat = (seat + setup.step) % n
    captured = Captured([[] for _s in range(n)], [], finished=out)
    return Played(setup, start, [], captured, laid=laid)


def play_deal(
    rules: Game,
    plan: Plan,
    players: list,
    rng: random.Random,
    given: dict | None = None,
    table: Table | None = None,
) -> Played:
    """Decide, deal (as ``plan``'s dealer), pass and play one deal of ``rules``.

    ``given``: what the table decides beside the cards (Polignac ``capot``, a
    Variety auction); the players make the choices it leaves open. A game with
    its own moves of cards (``rules.engine_moves``) does them on ``table``:
    the cards as the deal before left them (``scorer.autoplay.play_match``), or a fresh
    table when the deal starts from a shuffle."""
    given = decide(rules, plan, players, rng, given or {})
    setup = rules.engine_setup(plan, given)
    moves = rules.engine_moves(plan)
    if moves is None:
        hands, setup = deal(setup, rules.n, rng, plan.dealer)
        table = Table(hands)
    else:
        if table is None:
            if not plan.dealt:
                raise ValueError(
                    "the hands of this deal come from the deal before: play the match "
                    "with scorer.autoplay.play_match"
                )
            table = Table([[] for _s in range(rules.n)])
        table.move(moves, setup, players, rng)
    hands = pass_cards(setup, table.hands, players, rng)
    if setup.layout:
        played = play_layout(setup, hands, players, rng)
    else:
        played = play_tricks(rules, setup, hands, players, rng)
    played.given, played.stock, played.discards = given, list(table.stock), list(table.discards)
    return played


def entry_of(rules: Game, plan: Plan, played: Played, given: dict | None = None) -> dict:
    """The deal's entry, in the quick-entry shape, derived from the tricks (with
    the choices made beside them: ``played.given`` and ``given``)."""
    given = {**played.given, **(given or {})}
    derived = rules.entry_from_play(plan, played.setup, played.captured, given)
    return {**given, **derived}
