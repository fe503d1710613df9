"""The registry of games: the record's ``game`` key → the game's class."""

from .base import EntryError, Game
from .hearts import BlackMaria, Hearts
from .kierki import Kierki
from .king import King
from .knaves import Knaves
from .metamorphosis import Metamorphosis
from .polignac import Polignac
from .slobberhannes import Slobberhannes
from .variety import Variety

GAMES: dict[str, type[Game]] = {
    g.key: g
    for g in (
        Hearts,
        BlackMaria,
        Knaves,
        Slobberhannes,
        Polignac,
        Variety,
        Metamorphosis,
        Kierki,
        King,
    )
}

__all__ = ["GAMES", "EntryError", "Game"]
