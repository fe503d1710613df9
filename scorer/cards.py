"""Cards as the table writes them: rank + suit, ``QS``, ``10H``, ``2C``.

A card is a plain string in its canonical form; packs are tuples of cards in a
fixed order (suits S H D C, ranks high to low), so that pickers and exports
list them the way a player sorts a hand.
"""

from __future__ import annotations

SUITS = ("S", "H", "D", "C")
RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED = frozenset("HD")


def card(rank: str, suit: str) -> str:
    return f"{rank}{suit}"


def rank_of(c: str) -> str:
    return c[:-1]


def suit_of(c: str) -> str:
    return c[-1]


def is_card(text: object) -> bool:
    return (
        isinstance(text, str) and len(text) in (2, 3) and text[-1] in SUITS and text[:-1] in RANKS
    )


def parse(text: object) -> str | None:
    """Canonical form of a card written loosely (``qs``, ``T♥``), or None."""
    if not isinstance(text, str):
        return None
    t = text.strip().upper()
    for suit, symbol in SYMBOLS.items():
        t = t.replace(symbol, suit)
    if t[:1] == "T":
        t = "10" + t[1:]
    return t if is_card(t) else None


def pack(ranks: tuple[str, ...] = RANKS, without: tuple[str, ...] = ()) -> tuple[str, ...]:
    """A pack in display order: every suit, the given ranks, minus removed cards."""
    return tuple(card(r, s) for s in SUITS for r in ranks if card(r, s) not in without)


FULL_PACK = pack()


def display(c: str) -> str:
    """Q♠, 10♥ — the way the sheet shows a card."""
    return rank_of(c) + SYMBOLS[suit_of(c)]


def is_red(c: str) -> bool:
    return suit_of(c) in RED


def sort_key(c: str) -> tuple[int, int]:
    return (SUITS.index(suit_of(c)), RANKS.index(rank_of(c)))
