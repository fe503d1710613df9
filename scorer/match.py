"""A match is rules + options + players + the deals as entered.

Everything else — points, totals, the next dealer, whether the match is over
and who won — is :func:`fold`, a pure function of those, so editing deal 3 of
12 re-flows every later figure and nothing can drift out of step.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from markupsafe import escape

from .engine.check import entry_with_play
from .games import GAMES, EntryError, Game
from .games.base import Outcome, Plan, Score
from .i18n import Text, _, lowered

COMPACT = (",", ":")  # JSON without spaces: every deal's points, as kept and answered


class DealError(ValueError):
    """A deal that cannot stand: its number (1-based) and what is wrong, in the
    words of its game (``rules``: a Metamorphosis deal is a play)."""

    def __init__(self, number: int, error: EntryError, rules: Game | type[Game]):
        self.number = number
        self.error = error
        # after "deal 3:" the reason's first word small ("wzięte lewy", not "Wzięte")
        self.message = rules.words("refused", n=number, message=lowered(error.message))
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

    def words(self, key: str, **params) -> Text:
        """A deal's words in this match's game (Game.words)."""
        return GAMES[self.game].words(key, **params)


@dataclass
class DealRow:
    number: int
    plan: Plan
    entry: dict
    score: Score
    totals: list[int]
    words: str


@dataclass
class Kept:
    """What is kept of one deal once it is folded: what the sheet's table, the
    chart, the exports and the record's ``computed`` block show of it, and the
    game's state after it, from which the fold goes on without the deals
    before (scorer/store/kept.py keeps a match's, in memory, for its next
    change)."""

    number: int
    dealer: int
    points: list[int]
    totals: list[int]
    tag: str
    marks: list[str]
    words: str
    axis: tuple[str, str]  # what the chart writes under the deal
    state: Any

    @classmethod
    def of(cls, rules: Game, deal: Step, number: int, before: Any) -> Kept:
        """``before``: the game's state before the deal (its plan is worked out
        from it again if the deal's words are drawn)."""
        return cls(
            number,
            deal.plan.dealer,
            deal.score.points,
            deal.after.totals,
            deal.score.tag,
            deal.score.marks,
            Described(rules, deal.entry, before),
            rules.chart_axis(deal.plan, deal.entry),
            deal.after.state,
        )


class Entries(Sequence):
    """Deal entries as stored (JSON text), each read when it is first used: a
    page that shows the last deal reads one."""

    def __init__(self, texts: list[str]):
        self.texts = texts
        self.read: dict[int, Any] = {}

    def __len__(self) -> int:
        return len(self.texts)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self.texts)
        if i not in self.read:
            self.read[i] = json.loads(self.texts[i])
        return self.read[i]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence):
            return list(self) == list(other)
        return NotImplemented


def without(deals: Sequence, i: int) -> Sequence:
    """``deals`` but the one at index ``i``: as stored, each still read when first
    used (a delete at deal 2,000 parses no entry)."""
    if isinstance(deals, Entries):
        return Entries(deals.texts[:i] + deals.texts[i + 1 :])
    return list(deals[:i]) + list(deals[i + 1 :])


class Changed(Sequence):
    """``base`` with some entries in place of its own (``changes``: index → entry;
    an index just past the end adds one), without reading the others."""

    def __init__(self, base: Sequence, changes: dict[int, Any]):
        self.base, self.changes = base, changes
        self.length = max([len(base), *(i + 1 for i in changes)])

    def __len__(self) -> int:
        return self.length

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += self.length
        if not 0 <= i < self.length:
            raise IndexError(i)
        return self.changes[i] if i in self.changes else self.base[i]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence):
            return list(self) == list(other)
        return NotImplemented


class Described(Text):
    """A deal's words (``Game.describe``), worked out when first drawn or kept:
    a fold draws none (the sheet draws the last few deals', the exports all),
    and a fold of 1,000 deals spent a quarter of its time writing them.

    It holds what the fold keeps anyway: the checked entry and the game's
    state before the deal (the plan is worked out from it again, as
    :class:`Rows` does), so it adds one object a deal, not a plan's."""

    __slots__ = ("rules", "entry", "before", "_text")

    def __init__(self, rules: Game, entry: Any, before: Any):
        self.rules, self.entry, self.before = rules, entry, before
        self._text: Any = Described  # not worked out yet

    @property
    def text(self) -> Any:
        if self._text is Described:
            rules = self.rules
            self._text = rules.describe(self.entry, rules.plan(self.before))
        return self._text

    def _draw(self, t, locale, html: bool = False) -> str:
        text = self.text
        if isinstance(text, Text):
            return text._draw(t, locale, html)
        return escape(text) if html else str(text)

    def __bool__(self) -> bool:
        return bool(self.text)


class Rows(Sequence):
    """The deals as rows with their plans and scores, each worked out when it
    is first read, from the kept state before it (a page that shows one deal
    pays for one)."""

    def __init__(self, rules: Game, entries: Sequence, kept: Sequence[Kept], first_dealer: int):
        self.rules, self.source, self.kept, self.first_dealer = rules, entries, kept, first_dealer
        self.known: dict[int, DealRow] = {}
        self.checked: dict[int, Any] = {}  # index → the entry as its game checked it

    def entry(self, i: int) -> Any:
        """Deal ``i + 1``'s entry as its game checked it."""
        return self.checked[i] if i in self.checked else self.source[i]

    @property
    def entries(self) -> Sequence:
        """Every deal's entry as its game checked it (each read when used)."""
        return Changed(self.source, dict(self.checked))

    def __len__(self) -> int:
        return len(self.kept)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        if i not in self.known:
            before = position_after(self.rules, self.kept, self.first_dealer, i)
            deal = step(self.rules, before, self.entry(i))
            kept = self.kept[i]
            self.checked[i] = deal.entry
            self.known[i] = DealRow(
                i + 1, deal.plan, deal.entry, deal.score, kept.totals, kept.words
            )
        return self.known[i]


def ranked(winners: list[int], places: list[int]) -> list[int]:
    """The winners as a sentence names them: by their place, then their seat
    (Polignac's others share the win ranked by lowest total; the record keeps
    ``winners`` in seat order)."""
    return sorted(winners, key=lambda s: (places[s], s))


@dataclass
class Standings:
    rules: Game
    rows: Sequence[DealRow]
    totals: list[int]
    finished: bool
    winners: list[int]
    places: list[int]
    next: Plan | None
    team_totals: list[tuple[tuple[int, ...], int]] | None = None
    note: str = ""
    state: Any = None  # the game's state after the last deal
    kept: list[Kept] = field(default_factory=list)  # per deal, what is kept
    folded_from: int = 0  # the deals before this one came from an earlier fold's kept

    @property
    def summary(self) -> list[str]:
        return self.rules.summary(self.state)

    @property
    def ranked_winners(self) -> list[int]:
        return ranked(self.winners, self.places)

    @property
    def win_kind(self) -> str:
        """How the end names its winners: ``one``; ``team``, a partnership's pair;
        ``tie``, several on the same best total; ``side``, winners on different
        totals (Polignac's: all but who reached the target)."""
        if len(self.winners) == 1:
            return "one"
        if self.team_totals and any(set(t) == set(self.winners) for t, _v in self.team_totals):
            return "team"
        return "tie" if len({self.totals[s] for s in self.winners}) == 1 else "side"

    def computed(self) -> dict:
        """The record's ``computed`` block (docs/record.md)."""
        return {"per_deal": [k.points for k in self.kept], **self._after()}

    def computed_json(self) -> str:
        """The same block as JSON text."""
        return json.dumps(self.computed(), ensure_ascii=False, separators=COMPACT)

    def _after(self) -> dict:
        """The computed block but every deal's points: the totals and what follows."""
        nxt = None
        if self.next is not None:
            nxt = {
                "dealer": self.next.dealer,
                "leader": self.next.leader,
                "pass": self.next.passing,
            }
        return {
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
    """The entry as stored. A deal that carries ``play`` (the tricks, docs/record.md)
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
    ``scorer.autoplay.play_match`` both step through it.

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


def position_after(
    rules: Game, kept: Sequence[Kept], first_dealer: int, played: int | None = None
) -> Position:
    """Where the match stands after its first ``played`` deals (by default all
    that ``kept`` holds; before deal 1: none)."""
    played = len(kept) if played is None else played
    if not played:
        return Position.start(rules, first_dealer)
    last = kept[played - 1]
    return Position(last.state, last.totals, played, rules.outcome(last.totals, played))


def fold(match: Match, kept: Sequence[Kept] = ()) -> Standings:
    """Play the entered deals through the rules; DealError names the first bad one.

    ``kept``: what an earlier fold kept of the first deals (as they still
    stand, under the same rules): the fold goes on from the last of them."""
    rules = match.rules
    n = rules.n
    kept = list(kept[: len(match.deals)])
    start = len(kept)
    position = position_after(rules, kept, match.first_dealer)
    rows = Rows(rules, match.deals, kept, match.first_dealer)
    for number in range(start + 1, len(match.deals) + 1):
        if position.finished:
            raise DealError(number, EntryError(_("the match is already over")), rules)
        try:
            deal = step(rules, position, match.deals[number - 1])
        except EntryError as e:
            raise DealError(number, e, rules) from None
        kept.append(Kept.of(rules, deal, number, position.state))
        position = deal.after
        # the entry as checked, not its row (plan, score, words): a row is drawn
        # again if read, for rows kept of every deal are thousands of objects that
        # Python's garbage collector walks again and again (1,000 deals took 3×)
        rows.checked[number - 1] = deal.entry
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
        kept=kept,
        folded_from=start,
    )


def checked_entry(
    match: Match, raw: Any, number: int | None = None, kept: Sequence[Kept] = ()
) -> tuple[list[Any], Standings]:
    """The deals with ``raw`` added (or put in place of deal ``number``), folded
    (from what ``kept`` holds of the deals before the change).

    Returns the entries as they will be stored (each as its game checked it)
    and the standings; DealError if the new entry, or any later deal after
    the change, cannot stand."""
    start = len(match.deals) if number is None else number - 1
    deals = Changed(match.deals, {start: raw})
    trial = Match(match.game, match.options, match.players, match.first_dealer, deals)
    standings = fold(trial, kept[:start])
    return standings.rows.entries, standings
