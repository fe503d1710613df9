"""A match is rules + options + players + the deals as entered.

Everything else — points, totals, the next dealer, whether the match is over
and who won — is :func:`fold`, a pure function of those, so editing deal 3 of
12 re-flows every later figure and nothing can drift out of step.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .engine import entry_with_play
from .games import GAMES, EntryError, Game
from .games.base import Outcome, Plan, Score
from .i18n import _


class DealError(ValueError):
    """A deal that cannot stand: its number (1-based) and what is wrong."""

    def __init__(self, number: int, error: EntryError):
        self.number = number
        self.error = error
        self.message = _("deal %(n)s: %(message)s", n=number, message=error.message)
        super().__init__(self.message)


@dataclass
class Match:
    game: str
    options: dict
    players: list[str]
    first_dealer: int = 0
    deals: list[Any] = field(default_factory=list)

    @property
    def rules(self) -> Game:
        return GAMES[self.game](self.options, self.players)


@dataclass
class DealRow:
    number: int
    plan: Plan
    entry: dict
    score: Score
    totals: list[int]
    words: str


@dataclass
class Standings:
    rules: Game
    rows: list[DealRow]
    totals: list[int]
    finished: bool
    winners: list[int]
    places: list[int]
    next: Plan | None
    team_totals: list[tuple[tuple[int, ...], int]] | None = None
    note: str = ""
    state: Any = None  # the game's state after the last deal

    @property
    def summary(self) -> list[str]:
        return self.rules.summary(self.state)

    def computed(self) -> dict:
        """The record's ``computed`` block (RECORD.md)."""
        nxt = None
        if self.next is not None:
            nxt = {
                "dealer": self.next.dealer,
                "leader": self.next.leader,
                "pass": self.next.passing,
            }
        return {
            "per_deal": [row.score.points for row in self.rows],
            "totals": list(self.totals),
            "finished": self.finished,
            "winners": list(self.winners),
            "next": nxt,
        }


def places(values: list[int], higher_wins: bool) -> list[int]:
    """Competition ranking (1, 1, 3): equal values share a place."""
    key = [-v if higher_wins else v for v in values]
    return [1 + sum(1 for other in key if other < mine) for mine in key]


def check_entry(rules: Game, raw: Any, plan: Plan) -> dict:
    """The entry as stored. A deal that carries ``play`` (the tricks, RECORD.md)
    has its summary derived by the engine, checked against any summary given
    beside it, and keeps the ``play``."""
    if isinstance(raw, dict) and "play" in raw:
        return entry_with_play(rules, raw, plan)
    return rules.check(raw, plan)


@dataclass
class Position:
    """Where a match stands between deals."""

    state: Any  # the game's state, as ``advance`` left it
    totals: list[int]
    played: int = 0  # deals played so far
    outcome: Outcome | None = None  # after the last deal; None before the first

    @classmethod
    def start(cls, rules: Game, first_dealer: int) -> Position:
        """The position before deal 1."""
        return cls(rules.start(first_dealer), [0] * rules.n)

    @property
    def finished(self) -> bool:
        return self.outcome is not None and self.outcome.finished


@dataclass
class Step:
    """One deal taken forward: its plan, its entry as stored, its score, and
    where the match stands after it."""

    plan: Plan
    entry: dict
    score: Score
    after: Position


def step(rules: Game, before: Position, raw: Any, plan: Plan | None = None) -> Step:
    """Take one deal forward through the game's contract: plan, check, score,
    advance, outcome. The one place the contract is driven: :func:`fold` and
    the engine's ``play_match`` both step through it.

    ``raw`` is the deal as entered (a summary, or ``play``: the tricks);
    ``plan``, when the caller has already asked for it (the engine plays the
    deal from it), is not asked again. Raises EntryError if the entry cannot
    stand; whether the match was already over is the caller's to ask."""
    if plan is None:
        plan = rules.plan(before.state)
    entry = check_entry(rules, raw, plan)
    score = rules.score(entry, plan)
    totals = [t + p for t, p in zip(before.totals, score.points)]
    played = before.played + 1
    after = Position(
        rules.advance(before.state, entry, plan), totals, played, rules.outcome(totals, played)
    )
    return Step(plan, entry, score, after)


def fold(match: Match) -> Standings:
    """Play the entered deals through the rules; DealError names the first bad one."""
    rules = match.rules
    n = rules.n
    position = Position.start(rules, match.first_dealer)
    rows: list[DealRow] = []
    for number, raw in enumerate(match.deals, 1):
        if position.finished:
            raise DealError(number, EntryError(_("the match is already over")))
        try:
            deal = step(rules, position, raw)
        except EntryError as e:
            raise DealError(number, e) from None
        position = deal.after
        rows.append(
            DealRow(
                number,
                deal.plan,
                deal.entry,
                deal.score,
                position.totals,
                rules.describe(deal.entry, deal.plan),
            )
        )
    totals, outcome = position.totals, position.outcome
    teams = rules.teams()
    team_totals = [(t, sum(totals[s] for s in t)) for t in teams] if teams else None
    if team_totals:
        team_place = places([v for _t, v in team_totals], rules.higher_wins)
        seat_places = [0] * n
        for (t, _v), p in zip(team_totals, team_place):
            for s in t:
                seat_places[s] = p
    else:
        seat_places = places(totals, rules.higher_wins)
    return Standings(
        rules=rules,
        rows=rows,
        totals=totals,
        finished=position.finished,
        winners=outcome.winners if position.finished else [],
        places=seat_places,
        next=None if position.finished else rules.plan(position.state),
        team_totals=team_totals,
        note=outcome.note if outcome else "",  # the end, or why play goes on
        state=position.state,
    )


def checked_entry(match: Match, raw: Any, number: int | None = None) -> tuple[list[Any], Standings]:
    """The deals with ``raw`` added (or put in place of deal ``number``), folded.

    Returns the entries as they will be stored (each as its game checked it)
    and the standings; DealError if the new entry, or any later deal after
    the change, cannot stand."""
    deals = list(match.deals)
    if number is None:
        deals.append(raw)
    else:
        deals[number - 1] = raw
    trial = Match(match.game, match.options, match.players, match.first_dealer, deals)
    standings = fold(trial)
    return [row.entry for row in standings.rows], standings
