"""What the engine (``scorer.engine``) asks a game about play, as data.

A game answers :meth:`Game.engine_setup` with a :class:`Setup`: the cards in
play, how many tricks, who leads trick 1, the trump, the order of the ranks,
the pass, which way play goes, and what cards cost (for the simple player).
The engine then plays or checks tricks with the game's ``legal``,
``illegal_reason`` and ``trick_winner`` — whose defaults here are the
conventions of RULES.md: follow suit if you can, else any card (no duty to
trump or to beat); the highest trump wins, else the highest card of the suit
led. A game overrides only where its rules differ.

Two more questions for games that need them: ``engine_decision`` asks for the
table's choices beside the cards one :class:`Decision` at a time (Variety's
auction, Metamorphosis's declarations), and ``engine_moves`` says how the cards
reach the hands when it is not a plain shuffle and deal (Metamorphosis's stock,
discards and draws: steps ``(seat, action, count, source)``, see
``scorer.engine.table.Table``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..cards import RANKS, SYMBOLS, rank_of

PASS_WAYS = ("left", "right", "across")


@dataclass
class Setup:
    """One deal as the engine plays it."""

    pack: tuple[str, ...]  # every card in this game's pack (with the RULES.md removals)
    tricks: int  # tricks in the deal = cards each player holds after any pass
    leader: int | None  # who leads trick 1; None: whoever holds ``lead_card``
    lead_card: str | None = None  # Hearts: the lowest club, led to trick 1 by its holder
    trump: str | None = None  # a suit letter
    turn_up: bool = False  # Knaves: a card left after the deal is turned up for trump
    turned_up: str | None = None  # that card, once known (out of play)
    ranks: tuple[str, ...] = RANKS  # high to low (Polignac: K Q J A 10 9 8 7)
    lowest_wins: bool = False  # Variety type 6: the lowest trump, else lowest of the suit led
    step: int = 1  # +1: play goes left (clockwise); -1: to the right
    passing: tuple[str, int] | None = None  # ("left", 3); None: no pass
    costs: dict[str, int] = field(default_factory=dict)  # what taking a card costs (simple player)
    trick_cost: int = 0  # what taking a trick costs (Knaves: -1, a trick is worth a point)
    no_lead: str | None = None  # Kierki, King: a suit not led while the leader holds another
    first_chance: str | None = None  # Kierki, King: a card discarded when its holder is first void
    first_chance_led: bool = False  # King (option): that card played, too, when its suit is led
    must_trump: bool = False  # King's trump deals: a player void in the suit led must trump
    # A deal laid out in rows, not played in tricks (Kierki's fan tan): "any" (the first
    # card's rank starts every row) or the rank every row starts from ("8"); it ends when
    # ``places`` players have laid out every card.
    layout: str | None = None
    places: int = 0
    power: dict[str, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        top = len(self.ranks)
        sign = -1 if self.lowest_wins else 1
        self.power = {c: sign * (top - self.ranks.index(rank_of(c))) for c in self.pack}

    def pass_to(self, seat: int, n: int) -> int | None:
        """The seat that ``seat`` passes to, or None when there is no pass."""
        if not self.passing:
            return None
        way = self.passing[0]
        if way == "left":
            return (seat + 1) % n
        if way == "right":
            return (seat - 1) % n
        return (seat + n // 2) % n  # across: two seats away with 4, three with 6


def parse_passing(text: str | None) -> tuple[str, int] | None:
    """A plan's ``passing`` ("left 3", "none") as data."""
    if not text or text == "none":
        return None
    way, count = text.split()
    return (way, int(count)) if way in PASS_WAYS else None


@dataclass(frozen=True)
class Decision:
    """A choice the table makes beside the cards: ``seat`` picks one of
    ``choices``, which is added to the list ``given[key]`` (a call in an
    auction, a player's declaration), or, not ``many``, is ``given[key]`` itself
    (the trumps a dealer names)."""

    key: str
    seat: int
    choices: tuple
    many: bool = True


@dataclass
class TableState:
    """Where a deal stands, for ``legal`` and ``illegal_reason``."""

    setup: Setup
    number: int = 0  # the trick being played, from 0
    suits_played: set = field(default_factory=set)  # suits seen in finished tricks


@dataclass
class Captured:
    """What each seat took in a deal played card by card."""

    taken: list[list[str]]  # the cards each seat took
    winners: list[int]  # the seat that won each trick, in order
    turned_up: str | None = None
    finished: list[int] = field(default_factory=list)  # a layout: the seats in the order out

    def tricks(self) -> list[int]:
        return [self.winners.count(s) for s in range(len(self.taken))]

    def who_took(self, card: str) -> int | None:
        for s, cards in enumerate(self.taken):
            if card in cards:
                return s
        return None


def follow(hand, trick) -> list[str]:
    """The cards of ``hand`` that may be played to ``trick`` under follow suit."""
    if not trick:
        return list(hand)
    led = trick[0][1][-1]
    same = [c for c in hand if c[-1] == led]
    return same or list(hand)


def follow_reason(card: str, hand, trick) -> tuple[str, str, str] | None:
    """Why ``card`` breaks follow suit: ("follow", the suit symbol, a card of it held)."""
    if not trick:
        return None
    led = trick[0][1][-1]
    if card[-1] == led:
        return None
    for c in hand:
        if c[-1] == led:
            return ("follow", SYMBOLS[led], c)
    return None


def layout_legal(hand, rows: dict, start: str | None, pack=()) -> list[str]:
    """The cards of ``hand`` that may be laid out (a layout deal): a card of the rank
    every row starts from (``start``; None: any card, before the first), or one next
    in rank to an end of its suit's row. ``rows``: suit → (lowest, highest) laid out,
    as indexes of the ranks low to high. A row whose starting card is out of the
    ``pack`` (2♣ with three players) starts at the next card inward (house rule)."""
    if start is None:
        return list(hand)
    low_high = RANKS[::-1]
    first = low_high.index(start)
    inward = first + 1 if first < len(low_high) // 2 else first - 1
    out = []
    for c in hand:
        row = rows.get(c[-1])
        k = low_high.index(rank_of(c))
        if row:
            fits = k in (row[0] - 1, row[1] + 1)
        else:
            fits = k == first or (k == inward and pack and low_high[first] + c[-1] not in pack)
        if fits:
            out.append(c)
    return out


def trick_winner(trick, setup: Setup) -> int:
    """The position in ``trick`` (a list of (seat, card)) of the card that wins it."""
    power = setup.power
    trump = setup.trump
    best = 0
    top = trick[0][1]
    suit = top[-1]
    for i in range(1, len(trick)):
        c = trick[i][1]
        s = c[-1]
        if s == suit:
            if power[c] > power[top]:
                best, top = i, c
        elif s == trump:
            best, top, suit = i, c, s
    return best
