"""Cards as the record writes them: rank + suit, ``QS``, ``10H``, ``2C``.

A card is a plain string in its canonical form; packs are tuples of cards in a
fixed order (suits S H D C, ranks high to low), so that pickers and exports
list them the way a player sorts a hand.

Shown to a player, a card is a :class:`Card` (:func:`display`): its suit a
symbol and its rank in the table letters of the page's language, drawn when
the page is (Д♠ in Russian, D♠ in Polish, Q♠ in English): the rules keep it as
data like any other text (scorer.i18n). What a player types is read in the
record's letters and in the table letters of every language offered
(:func:`parse`).
"""

from __future__ import annotations

from markupsafe import escape

from .i18n import Text, pgettext

SUITS = ("S", "H", "D", "C")
RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED = frozenset("HD")

# The letter on the ace and the court cards, as the table of the page's language
# writes it (docs/glossary.md, "Cards"); the other ranks are their numbers.
LETTERS = {
    # TRANSLATORS: the letter of an ace on a card, as in A♠ (Russian Т, Polish A)
    "A": pgettext("rank", "A"),
    # TRANSLATORS: the letter of a king on a card, as in K♠ (Russian К, Polish K)
    "K": pgettext("rank", "K"),
    # TRANSLATORS: the letter of a queen on a card, as in Q♠ (Russian Д, Polish D)
    "Q": pgettext("rank", "Q"),
    # TRANSLATORS: the letter of a jack on a card, as in J♠ (Russian В, Polish W)
    "J": pgettext("rank", "J"),
}

# Table letters a player may type for a rank, beside the record's (upper case):
# Polish W D, Russian В Д К Т (Cyrillic), as docs/glossary.md gives them. Czech
# and Esperanto write J Q K A. T alone is the ten, as in the record's loose form.
TYPED_RANKS = {"W": "J", "D": "Q", "В": "J", "Д": "Q", "К": "K", "Т": "A", "T": "10"}


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
    """Canonical form of a card written loosely (``qs``, ``T♥``, ``Д♠``, ``dh``:
    the record's letters or a table's), or None."""
    if not isinstance(text, str):
        return None
    t = text.strip().upper()
    for suit, symbol in SYMBOLS.items():
        t = t.replace(symbol, suit)
    rank = t[:-1]
    t = TYPED_RANKS.get(rank, rank) + t[-1:]
    return t if is_card(t) else None


def pack(ranks: tuple[str, ...] = RANKS, without: tuple[str, ...] = ()) -> tuple[str, ...]:
    """A pack in display order: every suit, the given ranks, minus removed cards."""
    return tuple(card(r, s) for s in SUITS for r in ranks if card(r, s) not in without)


FULL_PACK = pack()


class Card(Text):
    """A card as a player reads it: Q♠, 10♥ (Д♠ on a Russian page)."""

    __slots__ = ("code",)

    def __init__(self, code: str):
        self.code = code

    def _draw(self, t, locale, html: bool = False) -> str:
        rank = rank_of(self.code)
        letter = LETTERS.get(rank)
        drawn = (letter._draw(t, locale) if letter is not None else rank) + SYMBOLS[
            suit_of(self.code)
        ]
        return escape(drawn) if html else drawn


# Each card's Card made once: a long match's words name thousands of cards, and
# every object the fold keeps is one more for Python's garbage collector to walk.
_CARDS = {c: Card(c) for c in FULL_PACK}


def display(c: str) -> Card:
    """Q♠, 10♥ — the way the sheet shows a card, in the page's table letters."""
    return _CARDS.get(c) or Card(c)


def rank_letter(rank: str) -> Text | str:
    """A rank alone as the page writes it (Д for Q in Russian; 10 stays 10)."""
    return LETTERS.get(rank, rank)


def is_red(c: str) -> bool:
    return suit_of(c) in RED


def sort_key(c: str) -> tuple[int, int]:
    return (SUITS.index(suit_of(c)), RANKS.index(rank_of(c)))
