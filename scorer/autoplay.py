"""Whole matches played by the engine, deal after deal, through the fold's own
:func:`~scorer.match.step`: the tests' and benches' source of real matches of
every game. It sits above the fold (the fold checks a recorded play with the
engine, below it), so nothing imports in a circle: cards → games → engine →
fold → autoplay, store → web."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from .engine.table import Played, Table, entry_of, play_deal
from .games.base import Game, Plan
from .match import Position, step


def play_match(
    rules: Game,
    players: list,
    rng: random.Random,
    first_dealer: int = 0,
    given: Callable[[Plan, random.Random], dict] | None = None,
) -> Iterator[tuple[Plan, Played, dict]]:
    """Play a match deal after deal through the fold's own :func:`~scorer.match.step`
    (``plan``, ``check``, ``score``, ``advance``) until its ``outcome`` says it is
    over, yielding each deal's plan, play and checked entry. Between deals each
    player picks up the cards they took, for a deal that is not dealt afresh
    (``plan.dealt`` False). ``given(plan, rng)``: choices the caller makes
    beside the cards; the players make the rest."""
    position = Position.start(rules, first_dealer)
    table = Table([[] for _s in range(rules.n)])
    while not position.finished:
        plan = rules.plan(position.state)
        played = play_deal(rules, plan, players, rng, given(plan, rng) if given else None, table)
        deal = step(rules, position, entry_of(rules, plan, played), plan)
        yield plan, played, deal.entry
        position = deal.after
        table.hands = [list(cards) for cards in played.captured.taken]
