"""The registry of games: the record's ``game`` key → the game's class."""

from .base import EntryError, Game
from .hearts import BlackMaria, Hearts

GAMES: dict[str, type[Game]] = {g.key: g for g in (Hearts, BlackMaria)}

__all__ = ["GAMES", "EntryError", "Game"]
