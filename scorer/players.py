"""Players across matches: a person the table names again and again.

A player is a name, known by its key (``record.name_key``: NFC, casefolded),
so "Ala", "ala" and "ALA" are one player, as they are one seat's name within
a match. No table holds players: they are what the matches a browser sees
name, and every figure here is computed from those matches' standings, so a
deal deleted or a match in the trash never counts, and one undone or restored
counts again at once. Nothing here knows Flask or the store.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .games import GAMES
from .match import Match, Standings
from .record import name_key


@dataclass
class Sheet:
    """One match as the player pages read it: its id, when it began, the match
    and its standings."""

    pub: str
    created: str
    match: Match
    standings: Standings
    scored: bool = False  # this browser scores it (and may rename its players)
    ref: int = 0  # its number inside the store: of two begun in one second, the first stored

    @property
    def rated_order(self) -> tuple[str, int]:
        """Where the ratings take it (they run in the order matches began, a tie
        by the order they were stored): the season's ZIP lists it there too."""
        return (self.created, self.ref)

    def seat_of(self, key: str) -> int | None:
        """The seat of the player with this key, or None."""
        for s, name in enumerate(self.match.players):
            if name_key(name) == key:
                return s
        return None

    def margin(self, seat: int) -> int:
        """How far the seat's total is ahead of the best other total (behind:
        negative), the game's way: in a penalty game fewer points are ahead."""
        totals = self.standings.totals
        others = [t for s, t in enumerate(totals) if s != seat]
        if self.standings.rules.higher_wins:
            return totals[seat] - max(others)
        return min(others) - totals[seat]


def names(matches: Iterable[Match]) -> list[str]:
    """The players the matches name, one spelling each (the first met: give the
    matches latest first for the latest spelling), in the order first met."""
    seen: dict[str, str] = {}
    for match in matches:
        for name in match.players:
            seen.setdefault(name_key(name), name)
    return list(seen.values())


@dataclass
class Played:
    """One match from one player's seat."""

    sheet: Sheet
    seat: int

    @property
    def place(self) -> int:
        return self.sheet.standings.places[self.seat]

    @property
    def won(self) -> bool:
        return self.seat in self.sheet.standings.winners

    @property
    def total(self) -> int:
        return self.sheet.standings.totals[self.seat]


@dataclass
class GameStats:
    """A player's figures in one game."""

    game: str
    played: list[Played] = field(default_factory=list)  # every match with a deal, latest first
    figures: dict[str, list] = field(default_factory=dict)  # key → [label, count]

    @property
    def finished(self) -> list[Played]:
        return [p for p in self.played if p.sheet.standings.finished]

    @property
    def won(self) -> int:
        return sum(1 for p in self.finished if p.won)

    @property
    def average_place(self) -> float | None:
        """The mean final place over the finished matches (None: none finished)."""
        done = self.finished
        return sum(p.place for p in done) / len(done) if done else None

    def _ranked(self) -> list[Played]:
        # the better place first; on the same place, the wider margin
        return sorted(self.finished, key=lambda p: (p.place, -p.sheet.margin(p.seat)))

    @property
    def best(self) -> Played | None:
        ranked = self._ranked()
        return ranked[0] if ranked else None

    @property
    def worst(self) -> Played | None:
        ranked = self._ranked()
        return ranked[-1] if ranked else None


@dataclass
class PlayerStats:
    name: str  # as spelt last
    key: str
    games: list[GameStats]  # in the registry's order, only games played
    matches: list[Played]  # every match naming the player, deals or not, latest first
    others: list[str]  # the players met at a table, as spelt last


def stats(sheets: list[Sheet], key: str) -> PlayerStats | None:
    """The player's figures over ``sheets`` (latest first); None when no match
    names the player. A match counts once it has a deal; places, wins and the
    best and worst match only once it is over; what the table entered
    (``Game.figures``) counts from every deal entered."""
    matches = [Played(sheet, s) for sheet in sheets if (s := sheet.seat_of(key)) is not None]
    if not matches:
        return None
    by_game: dict[str, GameStats] = {}
    for played in matches:
        sheet = played.sheet
        if not sheet.standings.rows:
            continue
        game = by_game.setdefault(sheet.match.game, GameStats(sheet.match.game))
        game.played.append(played)
        for figure in sheet.standings.rules.figures(sheet.standings.rows):
            entry = game.figures.setdefault(figure.key, [figure.label, 0])
            entry[1] += figure.counts[played.seat]
    others = names(p.sheet.match for p in matches)
    return PlayerStats(
        name=matches[0].sheet.match.players[matches[0].seat],
        key=key,
        games=[by_game[g] for g in GAMES if g in by_game],
        matches=matches,
        others=[n for n in others if name_key(n) != key],
    )


@dataclass
class Meeting:
    """Two players in one game: the matches both played, and who placed higher
    in those that are over."""

    game: str
    together: list[Sheet] = field(default_factory=list)  # latest first
    first_higher: int = 0
    second_higher: int = 0
    level: int = 0

    @property
    def finished(self) -> int:
        return self.first_higher + self.second_higher + self.level


def head_to_head(sheets: list[Sheet], first: str, second: str) -> list[Meeting]:
    """Per game (the registry's order), the matches with a deal where both
    players (keys) sat, and how often each placed higher once a match was over
    (partners in a team game share a place: level)."""
    by_game: dict[str, Meeting] = {}
    for sheet in sheets:
        a, b = sheet.seat_of(first), sheet.seat_of(second)
        if a is None or b is None or a == b or not sheet.standings.rows:
            continue
        meeting = by_game.setdefault(sheet.match.game, Meeting(sheet.match.game))
        meeting.together.append(sheet)
        if sheet.standings.finished:
            pa, pb = sheet.standings.places[a], sheet.standings.places[b]
            if pa < pb:
                meeting.first_higher += 1
            elif pb < pa:
                meeting.second_higher += 1
            else:
                meeting.level += 1
    return [by_game[g] for g in GAMES if g in by_game]


@dataclass
class Rename:
    """One match's players after a rename."""

    pub: str
    players: list[str]


def renames(matches: list[tuple[str, Match]], old: str, new: str) -> list[Rename]:
    """Every match (id, match) where a seat is called ``old`` (by key) with
    that seat called ``new``; matches where nothing would change are left out.
    Checking the new lists of names (``record.check_names``) is the caller's."""
    key = name_key(old)
    out = []
    for pub, match in matches:
        players = [new if name_key(name) == key else name for name in match.players]
        if players != match.players:
            out.append(Rename(pub, players))
    return out
