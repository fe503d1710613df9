"""Ratings per player per game (issue 24): openskill's Plackett–Luce model over
every finished match, in the order the matches began.

A match is rated once it is over, from its final places (``Standings.places``:
equal totals share a place). Where the game seats fixed teams for the whole
match (Black Maria's partnership: ``Game.teams``) each team is one side and
its partners share its place; everywhere else each player is a side of their
own. Variety too: its attackers and defenders change every deal, but its
match is won by each player's own total, so the match's places are what is
rated, once, as in every other game.

Ties: openskill's own tie terms (Weng and Lin's) can give the players tied
first less than the player placed third (places 1, 1, 3, 4, 5 of five new
players: 26.0, 26.0, 26.6, 24.9, 21.6). A tie is therefore rated as every
order of the tied sides equally likely: openskill rates each order, tied sides
all played, and the new skills are the mean of those. Tied sides of equal
skill then move alike, and a better place never ends below a worse one.

A skill is openskill's (mu, sigma); what a player reads is the rating, the
library's ordinal mu - 3 sigma: a skill the player very likely has at least,
0 for everyone at the start. Nothing here knows Flask or the store: the
ratings are a pure function of the finished matches (``scorer.store.ratings``
keeps them).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date

from openskill.models import PlackettLuce

from .games import GAMES
from .record import name_key

MODEL = PlackettLuce()  # the library's defaults: a new player is mu 25, sigma 25/3
Z = 3  # the rating read: mu - Z sigma (openskill's ordinal)


@dataclass(frozen=True)
class Skill:
    """What openskill believes of a player in one game."""

    mu: float
    sigma: float

    @property
    def rating(self) -> float:
        """The number a player reads: mu - 3 sigma (0 at the start)."""
        return self.mu - Z * self.sigma


NEW = Skill(MODEL.mu, MODEL.sigma)  # an unrated player: the library's default

Skills = dict[tuple[str, str], Skill]  # (game, player key) → skill


@dataclass(frozen=True)
class Result:
    """A finished match as the ratings read it."""

    ref: int  # the store's number of the match: orders matches begun the same second
    pub: str
    began: str  # when it began (ISO time): the order matches are rated in
    game: str
    players: tuple[str, ...]  # as spelt, by seat
    sides: tuple[tuple[int, ...], ...]  # the seats of each side: a player alone, or a team
    ranks: tuple[int, ...]  # each side's place: 1 first; sides tied share one

    @classmethod
    def of(
        cls,
        ref: int,
        pub: str,
        began: str,
        game: str,
        options: dict,
        players: Sequence[str],
        places: Sequence[int],
    ) -> Result:
        """From a finished match's places (``Standings.places``, one per seat)."""
        sides = sides_of(game, options, players)
        return cls(
            ref, pub, began, game, tuple(players), sides, tuple(places[side[0]] for side in sides)
        )


def sides_of(game: str, options: dict, players: Sequence[str]) -> tuple[tuple[int, ...], ...]:
    """The sides of a match: its game's fixed teams (``Game.teams``), else each
    seat alone."""
    teams = GAMES[game](options, list(players)).teams()
    return tuple(tuple(t) for t in teams) if teams else tuple((s,) for s in range(len(players)))


def update(sides: Sequence[Sequence[Skill]], ranks: Sequence[int]) -> list[list[Skill]]:
    """The skills of each side's players after a match, by openskill's
    Plackett–Luce ``rate``; a tie as the mean over every order of the tied
    sides (see the module's doc)."""
    orders = [[]]
    for rank in sorted(set(ranks)):
        tied = [i for i, r in enumerate(ranks) if r == rank]
        orders = [o + list(p) for o in orders for p in itertools.permutations(tied)]
    sums = [[[0.0, 0.0] for _p in side] for side in sides]
    for order in orders:
        strict = [0] * len(sides)
        for place, i in enumerate(order, 1):
            strict[i] = place
        teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma) for s in side] for side in sides]
        for total, team in zip(sums, MODEL.rate(teams, ranks=strict)):
            for kept, player in zip(total, team):
                kept[0] += player.mu
                kept[1] += player.sigma
    n = len(orders)
    return [[Skill(mu / n, sigma / n) for mu, sigma in side] for side in sums]


@dataclass(frozen=True)
class Move:
    """One player's skill before and after one match."""

    key: str  # the player (``record.name_key``)
    name: str  # as spelt in that match
    before: Skill
    after: Skill

    @property
    def change(self) -> float:
        """How far the rating moved."""
        return self.after.rating - self.before.rating


@dataclass(frozen=True)
class Rated:
    """A match rated: each seat's move."""

    ref: int
    pub: str
    began: str
    game: str
    moves: tuple[Move, ...]  # by seat


def rate_one(result: Result, skills: Skills) -> Rated:
    """Rate one match from ``skills`` (updated in place)."""
    keys = [name_key(n) for n in result.players]
    before = [skills.get((result.game, k), NEW) for k in keys]
    after: list[Skill] = list(before)
    new = update([[before[s] for s in side] for side in result.sides], result.ranks)
    for side, skill in zip(result.sides, new):
        for s, a in zip(side, skill):
            after[s] = a
    for k, a in zip(keys, after):
        skills[(result.game, k)] = a
    moves = tuple(Move(k, n, b, a) for k, n, b, a in zip(keys, result.players, before, after))
    return Rated(result.ref, result.pub, result.began, result.game, moves)


def order(result: Result | Rated) -> tuple[str, int]:
    """Matches are rated in the order they began (the same second: as stored)."""
    return (result.began, result.ref)


def rate(results: Iterable[Result], skills: Skills | None = None) -> list[Rated]:
    """Every match rated in order, from ``skills`` (default: everyone new)."""
    skills = {} if skills is None else skills
    return [rate_one(r, skills) for r in sorted(results, key=order)]


def skills_after(rated: Iterable[Rated]) -> Skills:
    """Each player's skill per game after the matches ``rated`` (in order)."""
    skills: Skills = {}
    for match in rated:
        for move in match.moves:
            skills[(match.game, move.key)] = move.after
    return skills


@dataclass(frozen=True)
class Standing:
    """A player's line of a league."""

    key: str
    name: str  # as spelt in the player's latest match
    skill: Skill
    matches: int  # matches rated
    change: float  # how the rating moved in the latest of them
    place: int = 0  # in the league: an equal rating (to a tenth) shares a place


@dataclass(frozen=True)
class League:
    """One game's players, the best rating first."""

    game: str
    standings: list[Standing] = field(default_factory=list)

    def of(self, key: str) -> Standing | None:
        return next((s for s in self.standings if s.key == key), None)


def leagues(rated: Iterable[Rated], before: Iterable[League] = ()) -> list[League]:
    """A league per game played (the registry's order) after the matches
    ``rated`` (in order), from the leagues ``before`` them (default: none)."""
    lines: dict[str, dict[str, list]] = {
        lg.game: {s.key: [s.name, s.skill, s.matches, s.change] for s in lg.standings}
        for lg in before
    }
    for match in rated:
        game = lines.setdefault(match.game, {})
        for move in match.moves:
            line = game.setdefault(move.key, [move.name, NEW, 0, 0.0])
            line[:] = [move.name, move.after, line[2] + 1, move.change]
    out = []
    for key in GAMES:
        if key in lines:
            out.append(League(key, ranked(Standing(k, *v) for k, v in lines[key].items())))
    return out


def skills_of(found: Iterable[League]) -> Skills:
    """Each player's skill per game in the leagues ``found``."""
    return {(lg.game, s.key): s.skill for lg in found for s in lg.standings}


def shown(value: float) -> float:
    """A rating as a page shows it: to a tenth."""
    return round(value, 1) + 0.0  # no -0.0


def ranked(standings: Iterable[Standing]) -> list[Standing]:
    """The best rating first (as shown: to a tenth; then by name), each with its
    place, an equal rating sharing one."""
    lines = sorted(standings, key=lambda s: (-shown(s.skill.rating), s.name.casefold(), s.key))
    out = []
    for i, s in enumerate(lines):
        tied = out and shown(out[-1].skill.rating) == shown(s.skill.rating)
        place = out[-1].place if tied else i + 1
        out.append(Standing(s.key, s.name, s.skill, s.matches, s.change, place))
    return out


def chances(
    game: str, options: dict, players: Sequence[str], skills: Skills
) -> list[tuple[tuple[int, ...], float]]:
    """Each side's chance to win (seats, chance), from the ratings: openskill's
    ``predict_win`` (the chances add up to 1)."""
    sides = sides_of(game, options, players)
    teams = [
        [
            MODEL.rating(mu=s.mu, sigma=s.sigma)
            for s in (skills.get((game, name_key(players[seat])), NEW) for seat in side)
        ]
        for side in sides
    ]
    return list(zip(sides, MODEL.predict_win(teams)))


# --- a season -------------------------------------------------------------------


@dataclass(frozen=True)
class Season:
    """The matches a league is rated from: all of them, a year's, or those
    begun on or after a day the players choose (days as the store writes
    them: UTC)."""

    year: int | None = None
    start: date | None = None

    @classmethod
    def parse(cls, year: str | None = None, start: str | None = None) -> Season:
        """From a page's ``year`` (2025) or ``from`` (2025-03-01); ValueError
        for anything else."""
        if start:
            if not re.fullmatch(r"\d{4}-\d\d-\d\d", start):
                raise ValueError(start)
            return cls(start=date.fromisoformat(start))
        if year:
            if not re.fullmatch(r"\d{4}", year) or not 1970 <= int(year) <= 9998:
                raise ValueError(year)
            return cls(year=int(year))
        return cls()

    @property
    def key(self) -> str:
        """'' (all), '2025', or 'from 2025-03-01': what the store keeps it under."""
        if self.start:
            return f"from {self.start.isoformat()}"
        return str(self.year) if self.year else ""

    @property
    def bounds(self) -> tuple[str, str]:
        """The first day and the day after the last (ISO; '' open)."""
        if self.start:
            return self.start.isoformat(), ""
        if self.year:
            return f"{self.year:04d}-01-01", f"{self.year + 1:04d}-01-01"
        return "", ""


ALL_TIME = Season()
