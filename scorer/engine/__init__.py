"""The engine: deals played card by card, and deals recorded card by card checked.

It knows no game by name. Each game module answers its questions
(``scorer/games/tricks.py``): the pack and the deal's setup (trump, leader,
pass, rank order), which cards are legal, who wins a trick, and the deal's
entry from what each seat took.

- :func:`play_deal` deals (a seeded ``random.Random``), passes and plays a
  deal with the given players (:data:`RANDOM`, :data:`SIMPLE`), who also make
  the table's choices beside the cards (an auction); :func:`entry_of` is its
  entry in the quick-entry shape. A whole match, deal after deal, moving the
  cards between deals as the game says (a stock, discards, cards taken from a
  neighbour's hand: :class:`Table`), is played through the fold by
  ``scorer.autoplay.play_match``, above the fold.
- :func:`entry_with_play` is the fold's check of a record's ``play`` form.
- :func:`progress` checks a deal being entered trick by trick and says who
  won each trick, whose turn it is, what may be played and what is wrong.
"""

from .check import Progress, Walk, differences, entry_with_play, progress, read, walk
from .players import RANDOM, SIMPLE, RandomPlayer, SimplePlayer
from .table import (
    Played,
    Table,
    deal,
    decide,
    entry_of,
    pass_cards,
    play_deal,
    play_tricks,
)

__all__ = [
    "Played",
    "Progress",
    "differences",
    "RANDOM",
    "SIMPLE",
    "RandomPlayer",
    "SimplePlayer",
    "Table",
    "Walk",
    "deal",
    "decide",
    "entry_of",
    "entry_with_play",
    "pass_cards",
    "play_deal",
    "play_tricks",
    "progress",
    "read",
    "walk",
]
