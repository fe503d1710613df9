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
from .games.base import Plan, Score
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
            nxt = {"dealer": self.next.dealer, "leader": self.next.leader,
                   "pass": self.next.passing}
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


def fold(match: Match) -> Standings:
    """Play the entered deals through the rules; DealError names the first bad one."""
    rules = match.rules
    n = rules.n
    state = rules.start(match.first_dealer)
    totals = [0] * n
    rows: list[DealRow] = []
    outcome = None
    finished = False
    for i, raw in enumerate(match.deals):
        number = i + 1
        if finished:
            raise DealError(number, EntryError(_("the match is already over")))
        plan = rules.plan(state)
        try:
            entry = check_entry(rules, raw, plan)
        except EntryError as e:
            raise DealError(number, e) from None
        score = rules.score(entry, plan)
        totals = [t + p for t, p in zip(totals, score.points)]
        rows.append(DealRow(number, plan, entry, score, totals, rules.describe(entry, plan)))
        state = rules.advance(state, entry, plan)
        outcome = rules.outcome(totals, number)
        finished = outcome.finished
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
        finished=finished,
        winners=outcome.winners if finished and outcome else [],
        places=seat_places,
        next=None if finished else rules.plan(state),
        team_totals=team_totals,
        note=outcome.note if outcome else "",  # the end, or why play goes on
        state=state,
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
