"""A model of the table (issue 35, item 3): the one machine that
tests/test_table_model.py runs under Hypothesis and bench/table_model.py drives
for a million phone steps.

tests/table_sim.py plays evenings whose deals are only ever added: nobody
deletes, edits, undoes or restores one. Here the scorers do, while other phones
wait offline with deals typed on pages drawn before: a deal's identity (the
page's mark, "the k-th deal after L", docs/phones.md "What identifies a deal")
must survive every such change.

Hypothesis's stateful testing (``RuleBasedStateMachine``), not table_sim's
generator: the events here depend on the state (a phantom to delete, a phone's
own last change to undo, a choice to answer), which rules with preconditions
say directly, and a failure shrinks to the few steps that make it. Each rule
takes a phone and a number to choose with, so that the bench calls the same
rules with plain random numbers.

The model keeps, apart from the store:

- the table's true deals (the engine's, of a game whose end cannot come early:
  Black Maria to a number of deals, Hearts and Knaves to a far target; every
  entry of a table differs from the others, so an entry says which deal it is);
- a shadow of the deals table: every row (deleted ones too, in their place)
  with the table's deal it records (a phantom: the deal it copies), its entry,
  its revision, when it was added and last deleted (history line ids, from the
  answers);
- each phone: online or not, the page it last drew (its mark, and the deal its
  last row records), and its queue of waiting deals (number, entry, mark, key),
  sent head first as static/queue.js sends them.

A phone types the table's deal t on its page (c deals, the last recording deal
m) as deal c + (t - m): the number its form offers. Every answer is checked as
it comes against the shadow, placed by the rule docs/phones.md gives (``place``):
the kind and the number (an add at the wrong number, a same that differs, a
Gap or Undone where the rule places the deal, an undo refused or taken against
what the shadow says), and, for an add, that the deals before it are the
table's deals before it (``misplaced``: doubled or misnumbered). After every
step the store's deals, ids and revisions are the shadow's.

At the end (``finale``) every phone comes online, everything is sent, held
deals are sent again as the table would (after the deal undone is entered
again; a phantom's, from a page drawn now), every choice is answered as the
table would, phantoms left are deleted and typos put right: the stored deals
must then be the table's, each once, and every entry typed ended stored, the
same, refused with a reason (then put right), or a choice.

Not covered: Metamorphosis and Variety (a deal's questions depend on the deal
before); a true deal deleted from the middle (only phantoms are; an add is
undone with the sheet's one-tap Undo, while it is the match's latest change);
edits and deletes from pages drawn before another change of that deal (the
pages' tests cover them); a match that ends early (typos cannot end these);
the web layer (queue.js, the forms): the store is called as the pages call it.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field, fields
from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from sqlite_utils import Database

from scorer import store
from scorer.autoplay import play_match
from scorer.engine.players import RandomPlayer
from scorer.games import GAMES
from scorer.match import DealError, Match

from .table_sim import NAMES, against_truth, canon, invalid, reordered, typo

# The games and player counts played, each with options under which typos cannot
# end the match before the table's last deal.
TABLES = [
    ("black_maria", 3, {"end": "deals", "deals": 30}),
    ("black_maria", 4, {"end": "deals", "deals": 32}),
    ("hearts", 4, {"target": 100_000}),
    ("knaves", 3, {"target": 100_000}),
    ("polignac", 4, {"end": "deals", "deals": 32}),
    ("slobberhannes", 4, {"end": "deals", "deals": 32}),
]
TRUTHS = 4  # engine-played evenings of each
DEALS = 10  # the table's deals, at most


def rules_of(game: str, n: int, extra: dict):
    raw = {"players": n, **extra} if game == "black_maria" else extra
    options = GAMES[game].normalize_options(raw, n)
    return GAMES[game](options, NAMES[:n]), options


_TRUTH: dict[tuple[int, int], tuple[list, list]] = {}


def truth(table: int, seed: int) -> tuple[list, list]:
    """The table's deals (their plans, their entries): the engine's, cut before an
    entry that repeats an earlier one (kept: the engine is slow beside the store)."""
    if (table, seed) not in _TRUTH:
        game, n, extra = TABLES[table]
        rules, _options = rules_of(game, n, extra)
        plans, entries = [], []
        for plan, _played, entry in play_match(rules, [RandomPlayer()] * n, random.Random(seed)):
            if canon(entry) in map(canon, entries) or len(entries) == DEALS:
                break
            plans.append(plan)
            entries.append(json.loads(json.dumps(entry)))
        _TRUTH[(table, seed)] = (plans, entries)
    return _TRUTH[(table, seed)]


@dataclass
class Counts:
    """What the runs did, added up (bench/table_model.py prints them)."""

    runs: int = 0
    steps: int = 0  # rules that did something: a deal typed, sent, deleted, chosen …
    typed: int = 0  # entries typed on phones (phantoms and entries typed again too)
    sends: int = 0
    stored: int = 0  # answered add
    same: int = 0
    conflicts: int = 0  # answered conflict (a conflict met again is one more)
    held: int = 0  # answered Undone
    gaps: int = 0
    refused: int = 0  # DealError: kept with the reason, put right
    repeats: int = 0  # answers lost, asked again under the key
    phantoms: int = 0
    deleted_middle: int = 0
    deleted_last: int = 0
    undos: int = 0
    undos_refused: int = 0
    restores: int = 0
    edits: int = 0
    keeps: int = 0
    replaces: int = 0
    nexts: int = 0
    entered_again: int = 0  # the table types a deal again (after an Undo, a choice)
    in_doubt: int = 0  # added where it could not be placed for sure (see ``misplaced``)
    saved_here: int = 0  # a deal waiting for an earlier one saved on a page drawn now
    hand_fixes: int = 0  # evenings the table put right by hand after such an add
    stale_pages: int = 0
    browser_restarts: int = 0
    server_restarts: int = 0
    lost: int = 0
    doubled: int = 0
    misnumbered: int = 0
    anomalies: list[str] = field(default_factory=list)

    def __iadd__(self, other: Counts) -> Counts:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))
        return self

    def line(self) -> str:
        skip = {"anomalies"}
        parts = [f"{f.name} {getattr(self, f.name):,}" for f in fields(self) if f.name not in skip]
        return "  ".join(parts) + f"  anomalies {len(self.anomalies)}"


class Server:
    """The server's connection to one database file (``synchronous=OFF``: the logic
    is tested here, not durability); restarted, a new connection to the same file."""

    def __init__(self, path: str):
        self.path = path
        self.db = self._connect()

    def _connect(self) -> Database:
        db = store.connect(self.path)
        db.execute("PRAGMA synchronous = OFF")
        store.schema.migrate(db)
        return db

    def restart(self) -> None:
        self.db.close()
        self.db = self._connect()

    def close(self) -> None:
        self.db.close()


@dataclass
class Row:
    """A row of the deals table as the model knows it."""

    deal_id: int
    deal: int  # the table's deal it records; a phantom: the deal it copies
    phantom: bool
    raw: Any  # its entry
    rev: int
    born: int  # its add's history line
    gone: int | None = None  # its last delete's history line; None: standing
    doubt: bool = False  # added where it could not be placed for sure (``misplaced``)

    @property
    def text(self) -> str:
        return canon(self.raw)


@dataclass
class Obs:
    """A deal waiting on a phone: what it typed for the table's ``deal``."""

    deal: int
    number: int  # as its page numbered it
    anchor: str  # its page's mark
    raw: Any  # what goes out (after a refusal, the table's entry)
    key: str
    kind: str  # true, typo, copy, invalid, again
    first: store.Change | None = None  # an answer lost on the way: the repeat must say it
    held: int | None = None  # Undone: the id of the deal deleted after its page was drawn
    refused: bool = False


@dataclass
class Phone:
    online: bool
    mark: str = "0.0"  # the new-deal page it last drew
    last_deal: int = 0  # the table's deal its page's last row records (0: none)
    stale: bool = False  # its page is not drawn again (kept open, from before)
    queue: list[Obs] = field(default_factory=list)
    last: int | None = None  # its own last change (a history line), for its Undo
    met: set[tuple[str, int]] = field(default_factory=set)  # (mark, number) sent: a conflict

    def page_number(self, deal: int) -> int:
        """The number its page gives the table's ``deal``."""
        count = int(self.mark.split(".")[0])
        return count + deal - self.last_deal


@dataclass
class Open:
    """A conflict kept for a choice, as the model knows it."""

    id: int
    deal_id: int
    raw: Any
    deals: list[int]  # the table's deals of the entries that met it
    closed_by: int | None = None  # the choice's history line


@dataclass
class Line:
    """A change of the history the model made (what Undo takes back)."""

    kind: str  # add, edit, delete, restore, keep
    deal_id: int | None
    rev: int | None  # the deal's revision after it
    before: Any = None  # an edit: the entry it replaced
    conflict: int | None = None  # a keep: the conflict it closed


def _sending(m: TableModel) -> bool:
    return any(p.online and p.queue for p in m.phones)


def _may_enter_twice(m: TableModel) -> bool:
    return 0 < len(m.live()) < 20 and any(p.online and not p.queue for p in m.phones)


def _phantom_stands(m: TableModel) -> bool:
    return any(r.phantom for r in m.live())


def _may_undo(m: TableModel) -> bool:
    return any(p.online and p.last for p in m.phones)


def _typo_stands(m: TableModel) -> bool:
    return any(m.typo_at(r) for r in m.live())


def _choice_waits(m: TableModel) -> bool:
    return bool(m.waiting())


class TableModel(RuleBasedStateMachine):
    """The table, its phones and the store (see the module's doc)."""

    server: Server | None = None  # set by the test (a file a module) or the bench
    counts: Counts = Counts()

    def __init__(self) -> None:
        super().__init__()
        self.c = Counts()
        self.phones: list[Phone] = []
        self.rows: list[Row] = []
        self.open: dict[int, Open] = {}  # conflicts, by id (closed ones too)
        self.lines: dict[int, Line] = {}
        self.latest = 0  # the match's latest history line that changed it
        self.keys = 0
        self.played = 0
        self.observed: list[tuple[int, str, str]] = []  # (deal, entry, outcome)
        self.doubts: list[str] = []  # adds in doubt (``misplaced``)

    # --- the table and its phones ---------------------------------------------------

    @initialize(
        table=st.integers(0, len(TABLES) - 1),
        seed=st.integers(0, TRUTHS - 1),
        phones=st.integers(2, 4),
        online=st.integers(0, 15),
    )
    def start(self, table: int, seed: int, phones: int, online: int) -> None:
        game, n, extra = TABLES[table]
        self.table = table
        self.rules, options = rules_of(game, n, extra)
        self.plans, self.truth = truth(table, seed)
        self.texts = [canon(e) for e in self.truth]
        self.match_id = store.create(self.db, Match(game, options, NAMES[:n], 0, [])).id
        self.phones = [Phone(bool(online >> i & 1) or i == 0) for i in range(phones)]
        for phone in self.phones:
            self.draw(phone)
        self.c.runs += 1

    @property
    def db(self) -> Database:
        return self.server.db

    def live(self) -> list[Row]:
        return [r for r in self.rows if r.gone is None]

    def row(self, deal_id: int) -> Row:
        return next(r for r in self.rows if r.deal_id == deal_id)

    def phone(self, i: int) -> Phone:
        return self.phones[i % len(self.phones)]

    def key(self) -> str:
        self.keys += 1
        return f"k{self.keys}"

    def note(self, what: str) -> None:
        self.c.anomalies.append(f"{TABLES[self.table][:2]} {what}")

    def next_mark(self) -> str:
        live = self.live()
        return f"{len(live)}.{live[-1].deal_id if live else 0}"

    def draw(self, phone: Phone, force: bool = False) -> None:
        """The phone draws its new-deal page (a stale one is kept open, unless ``force``)."""
        if phone.online and (force or not phone.stale):
            live = self.live()
            phone.mark, phone.last_deal = self.next_mark(), live[-1].deal if live else 0

    @rule(phone=st.integers(0, 3), pick=st.integers(0, 2**16 - 1))
    def table_plays(self, phone: int, pick: int) -> None:
        """The table plays its next deal; the phone records it as it was, and each
        other phone perhaps, the same, a copy, a typo, or one the rules refuse."""
        if self.played == len(self.truth):
            return
        self.played += 1
        t = self.played
        rng = random.Random(pick)
        sure = self.phone(phone)
        for p in self.phones:
            if p is not sure and rng.random() < 0.4:
                continue
            raw, kind = self.truth[t - 1], "true"
            if p is not sure:
                r = rng.random()
                if r < 0.25:
                    raw, kind = self.typo(t, rng), "typo"
                elif r < 0.35:
                    raw, kind = invalid(self.rules, self.plans[t - 1], raw, rng), "invalid"
                elif r < 0.5:
                    kind = "copy"
                if raw is None:
                    raw, kind = self.truth[t - 1], "true"
            self.type(p, t, reordered(raw) if rng.random() < 0.3 else raw, kind)
        self.c.steps += 1

    def typo(self, t: int, rng: random.Random) -> Any | None:
        """Another entry the rules take for deal t, not another deal's."""
        wrong = typo(self.rules, self.plans[t - 1], self.truth[t - 1], t - 1, rng)
        return None if wrong is None or canon(wrong) in self.texts else wrong

    def type(self, phone: Phone, t: int, raw: Any, kind: str, again: bool = False) -> None:
        """The phone types the table's deal t on its page: it waits in its queue. A
        deal typed ``again`` (the table enters it once more) on a page drawn now,
        queued before the phone's later deals, as queue.js sends them (the lowest
        number first)."""
        self.draw(phone, force=again)
        obs = Obs(t, phone.page_number(t), phone.mark, raw, self.key(), kind)
        later = [i for i, o in enumerate(phone.queue) if o.deal > t]
        phone.queue.insert(later[0] if again and later else len(phone.queue), obs)
        self.c.typed += 1

    @rule(phone=st.integers(0, 3))
    def toggle(self, phone: int) -> None:
        """The phone loses the network, or finds it again (and draws its page)."""
        p = self.phone(phone)
        p.online = not p.online
        self.draw(p)
        self.c.steps += 1

    @rule(phone=st.integers(0, 3), pick=st.integers(0, 3))
    def page_goes_stale(self, phone: int, pick: int) -> None:
        """The phone's page is left open (not drawn again), or drawn again at last (one
        draw in four, as ``server_restarts``)."""
        if pick:
            return
        p = self.phone(phone)
        p.stale = not p.stale
        self.draw(p)
        self.c.stale_pages += p.stale
        self.c.steps += 1

    @rule(phone=st.integers(0, 3), pick=st.integers(0, 3))
    def browser_restarts(self, phone: int, pick: int) -> None:
        """The phone's browser is killed and opened again: its queue is kept (an
        answer on the way is lost: the head is sent again under its key), its page
        drawn again where it can be, or its kept copy. Nothing changes in the store
        (one draw in four, as ``server_restarts``)."""
        if pick:
            return
        p = self.phone(phone)
        p.stale = False
        self.draw(p)
        self.c.browser_restarts += 1
        self.c.steps += 1

    @rule(pick=st.integers(0, 7))
    def server_restarts(self, pick: int) -> None:
        """The server restarts (one draw in eight: Hypothesis favours rules without
        arguments): a new connection to the same file."""
        if pick == 0:
            self.server.restart()
            self.c.server_restarts += 1

    # --- a phone sends --------------------------------------------------------------

    @precondition(_sending)
    @rule(phone=st.integers(0, 3), pick=st.integers(0, 2**16 - 1))
    def send(self, phone: int, pick: int) -> None:
        """An online phone sends the deal at the head of its queue (now and then its
        answer is lost, and it is sent again under its key)."""
        ready = [p for p in self.phones if p.online and p.queue]
        p = ready[phone % len(ready)]
        self.send_head(p, lose=pick % 10 == 0)
        self.c.steps += 1

    def place(self, number: int, anchor: str, raw: Any = None) -> tuple[int, int | None]:
        """Where the rule of docs/phones.md puts deal ``number`` of a page drawn at
        ``anchor`` (typed as ``raw``), among the deals as the shadow has them: its
        number now, and whether it is held (the place of the page's last deal, deleted
        since as the match's last)."""
        count, last = (int(x) for x in anchor.split("."))
        if last == 0:
            return number, None
        seen = self.row(last)
        live = self.live()
        if seen.gone is None:
            return live.index(seen) + 1 + number - count, None
        at = self.rows.index(seen)
        before = sum(1 for r in self.rows[:at] if r.gone is None)
        if before < len(live) and live[before].text == seen.text:
            return before + 1 + number - count, None  # entered again after it: it stands for it
        middle = any(r.gone is None and r.born < seen.gone for r in self.rows[at + 1 :])
        if middle:
            return before + number - count, None
        place = before + 1 + number - count
        if live and place == len(live) + 1 and raw is not None:
            if canon(raw) == live[-1].text:  # the last deal again (entered in its place
                return len(live), None  # since, or the one undone was it entered twice)
        return place, before + 1 if place > len(live) + 1 else None

    def choice_before(self, number: int, anchor: str) -> bool:
        """A deal after the page's last one and before its deal ``number`` waits for a
        choice: the store holds the page's next deal until the table chooses."""
        count, last = (int(x) for x in anchor.split("."))
        first = 0 if last == 0 else self.place(count, anchor)[0]
        waiting = {o.deal_id for o in self.open.values() if o.closed_by is None}
        return any(r.deal_id in waiting for r in self.live()[first : number - 1])

    def send_head(self, p: Phone, lose: bool = False) -> str:
        """Send the phone's head; check the answer. What became of it: add, same,
        conflict, refused, gap, held."""
        obs = p.queue[0]
        if obs.held is not None:
            self.resolve_held(p, obs)
        self.c.sends += 1
        live = self.live()
        place, held = self.place(obs.number, obs.anchor, obs.raw)
        choice = place == len(live) + 1 and held is None and self.choice_before(place, obs.anchor)
        try:
            change = store.record_deal(
                self.db,
                self.match_id,
                obs.number,
                obs.raw,
                anchor=obs.anchor,
                key=obs.key,
                browser=f"phone-{self.phones.index(p)}",
            )
        except store.Undone as e:
            self.c.held += 1
            if obs.first is not None or held is None or place <= len(live) + 1:
                self.note(f"Undone {e.gone}/{e.number} for deal {obs.number}@{obs.anchor}")
            elif (e.gone, e.number) != (held, len(live) + 1):
                self.note(f"Undone {e.gone}/{e.number}, the shadow {held}/{len(live) + 1}")
            obs.held = int(obs.anchor.split(".")[1])
            return "held"
        except store.Gap as e:
            self.c.gaps += 1
            if (
                obs.first is not None
                or held is not None
                or (1 <= place <= len(live) + 1 and not choice)
            ):
                self.note(f"Gap for deal {obs.number}@{obs.anchor}, placed {place}")
            elif e.number != len(live) + 1:
                self.note(f"Gap says {e.number}, the shadow {len(live) + 1}")
            return "gap"
        except DealError as e:
            self.c.refused += 1
            if obs.first is not None or obs.refused or not e.message:
                self.note(f"deal {obs.number} refused: {e.message}")
            obs.refused = True
            self.observed.append((obs.deal, canon(obs.raw), "refused"))
            obs.raw = self.truth[obs.deal - 1]  # the table puts it right, under its key
            return "refused"
        if obs.first is not None:
            self.c.repeats += 1
            first = obs.first
            said = (change.kind, change.number, change.conflict)
            if not change.repeat or said != (first.kind, first.number, first.conflict):
                self.note(f"a repeat answered {said}, first {first}")
        else:
            if change.repeat:
                self.note(f"deal {obs.number}: a first send answered as a repeat")
            self.answered(p, obs, change, place)
            if lose:
                obs.first = change
                return change.kind
        p.queue.pop(0)
        if change.kind == "add":
            p.last = change.event  # its own change, once it hears of it
        self.draw(p)
        return change.kind

    def answered(self, p: Phone, obs: Obs, change: store.Change, place: int) -> None:
        """Check a first answer against the shadow, and follow it there."""
        live = self.live()
        text = canon(obs.raw)
        self.observed.append((obs.deal, text, change.kind))
        if change.number != place:
            self.note(f"deal {obs.number}@{obs.anchor} answered {change.kind} {change.number}")
        if change.kind == "add":
            self.c.stored += 1
            if place != len(live) + 1:
                self.note(f"an add at {change.number}, {len(live)} stored")
            doubt = self.misplaced(p, obs)
            self.rows.append(
                Row(self.deal_id(change.number), obs.deal, False, obs.raw, 1, change.event)
            )
            self.rows[-1].doubt = doubt
            self.lines[change.event] = Line("add", self.rows[-1].deal_id, 1)
            self.latest = change.event
        elif change.kind == "same":
            self.c.same += 1
            if not 1 <= place <= len(live) or live[place - 1].text != text:
                self.note(f"'same' for deal {obs.number}, placed {place}")
        elif change.kind == "conflict":
            self.c.conflicts += 1
            if not 1 <= place <= len(live) or live[place - 1].text == text:
                self.note(f"a conflict for deal {obs.number}, placed {place}")
                return
            target = live[place - 1]
            p.met.add((obs.anchor, obs.number))
            known = [
                o for o in self.open.values() if o.closed_by is None and o.deal_id == target.deal_id
            ]
            known = [o for o in known if canon(o.raw) == text]
            if known and known[0].id != change.conflict:
                self.note(f"a second conflict for one deal and entry: {change.conflict}")
            if known:
                known[0].deals.append(obs.deal)
            else:
                if change.conflict in self.open:
                    self.note(f"conflict {change.conflict} given again for another entry")
                self.open[change.conflict] = Open(
                    change.conflict, target.deal_id, obs.raw, [obs.deal]
                )
                self.latest = change.event
        else:
            self.note(f"deal {obs.number} answered {change.kind}")

    def deal_id(self, number: int) -> int:
        """The id of deal ``number`` as stored now (a new row's, from the store)."""
        return store.get(self.db, self.match_id).deal_ids[number - 1]

    def misplaced(self, p: Phone, obs: Obs) -> bool:
        """An add of the table's deal: the deals before it, phantoms aside, must be
        the table's deals before it (else it is doubled or misnumbered), unless it
        could not be placed for sure: the page's deal before it met another entry (a
        conflict), or a deal entered twice stands after the page's last deal, unseen.
        The store appends (tests/test_deal_n.py's two xfail cases): counted
        (``in_doubt``), and the table puts the deals right by hand at the end; the
        later adds of such an evening are not judged (counted ``in_doubt`` too)."""
        deal = obs.deal
        before = [r.deal for r in self.live() if not r.phantom]
        if before == list(range(1, deal)):
            return False
        what = f"deal {obs.number}@{obs.anchor} (the table's {deal}) stored after {before}"
        if self.in_doubt(p, obs):
            self.c.in_doubt += 1
            self.doubts.append(what)
            return True
        if deal in before:
            self.c.doubled += 1
        else:
            self.c.misnumbered += 1
        self.note(what)
        return False

    def in_doubt(self, p: Phone, obs: Obs) -> bool:
        if self.doubts:
            return True  # the deals are off already: put right by hand at the end
        if (obs.anchor, obs.number - 1) in p.met:
            return True
        last = int(obs.anchor.split(".")[1])
        live = self.live()
        if last == 0:
            start = 0
        elif (seen := self.row(last)).doubt:
            return True  # the page counted a deal added in doubt
        elif seen.gone is None:
            start = live.index(seen) + 1
            if any(r.deal == seen.deal for r in live[start:]):
                return True  # that deal again after it (restored after it was typed again)
            if seen.phantom and any(r.deal > seen.deal for r in live[: start - 1]):
                return True  # a deal entered twice, after a later deal restored since
        else:
            start = sum(1 for r in self.rows[: self.rows.index(seen)] if r.gone is None)
            if any(r.born > seen.gone for r in live[start:]):
                return True  # entered in its place since: that deal again, or the next?
        return any(r.phantom or r.doubt for r in live[start:])

    def resolve_held(self, p: Phone, obs: Obs) -> None:
        """A deal held after the page's last deal was deleted, sent again as the table
        says: a phantom deleted, from a page drawn now ("If it is deal 13, save it
        here"); a deal undone, as it was, once entered again (until then, held again)."""
        gone = self.row(obs.held)
        if gone.phantom and gone.gone is not None:
            self.draw(p, force=True)
            obs.number, obs.anchor = p.page_number(obs.deal), p.mark
        obs.held = None

    # --- scorers -------------------------------------------------------------------

    def scorer(self, phone: int) -> Phone | None:
        online = [p for p in self.phones if p.online]
        return online[phone % len(online)] if online else None

    @precondition(_may_enter_twice)
    @rule(phone=st.integers(0, 3))
    def enter_twice(self, phone: int) -> None:
        """A scorer saves the last deal again as the next one, by mistake: a phantom
        (on a phone with nothing waiting: its form offers the next deal)."""
        ready = [p for p in self.phones if p.online and not p.queue]
        p = ready[phone % len(ready)]
        last = self.live()[-1]
        self.draw(p, force=True)
        number = int(p.mark.split(".")[0]) + 1
        change = store.record_deal(self.db, self.match_id, number, last.raw, anchor=p.mark)
        if (change.kind, change.number) != ("add", number):
            self.note(f"a phantom answered {change.kind} {change.number}")
        self.rows.append(Row(self.deal_id(number), last.deal, True, last.raw, 1, change.event))
        self.lines[change.event] = Line("add", self.rows[-1].deal_id, 1)
        self.latest = p.last = change.event
        self.draw(p)
        self.c.phantoms += 1
        self.c.steps += 1

    @precondition(_phantom_stands)
    @rule(phone=st.integers(0, 3), pick=st.integers(0, 2**16 - 1))
    def delete_phantom(self, phone: int, pick: int) -> None:
        """A scorer deletes a deal entered twice (from its deal page, by its mark)."""
        p = self.scorer(phone)
        if p is None:
            return
        live = self.live()
        phantoms = [r for r in live if r.phantom]
        target = phantoms[pick % len(phantoms)]
        number = live.index(target) + 1
        change = store.delete_deal(
            self.db, self.match_id, number, mark=f"{target.deal_id}.{target.rev}"
        )
        if (change.kind, change.number) != ("delete", number):
            self.note(f"a delete of deal {number} answered {change.kind} {change.number}")
        target.gone = change.event
        self.deleted(p, target)
        self.lines[change.event] = Line("delete", target.deal_id, target.rev)
        self.latest = p.last = change.event
        if number == len(live):
            self.c.deleted_last += 1
        else:
            self.c.deleted_middle += 1
        self.draw(p)
        self.c.steps += 1

    @precondition(_may_undo)
    @rule(phone=st.integers(0, 3), pick=st.integers(0, 1))
    def undo_own(self, phone: int, pick: int) -> None:
        """A scorer undoes its own last change: from the sheet's one-tap Undo
        (``latest``: refused once the match changed since; always so where it
        deletes a deal of the table) or from the history."""
        ready = [p for p in self.phones if p.online and p.last]
        p = ready[phone % len(ready)]
        line = self.lines[p.last]
        deletes = line.kind in ("add", "restore") and not self.row(line.deal_id).phantom
        latest = bool(pick) or deletes  # a deal of the table deleted only as the last
        self.undo(p, p.last, latest)
        self.c.steps += 1

    def undo(self, p: Phone, event: int, latest: bool) -> None:
        """Undo ``event``; the store must refuse it exactly when the shadow says so."""
        line = self.lines[event]
        why = self.not_undoable(event, line, latest)
        try:
            change = store.undo(self.db, self.match_id, event, latest=latest)
        except store.Stale as e:
            self.c.undos_refused += 1
            if why is None:
                self.note(f"undo of {line} refused: {e.message}")
            return
        if why is not None:
            self.note(f"undo of {line} taken, though {why}")
        self.c.undos += 1
        self.latest = p.last = change.event
        if line.kind == "keep":
            self.open[line.conflict].closed_by = None
            p.last = None  # the choice waits again: nothing of its own to undo
            return
        row = self.row(line.deal_id)
        if line.kind in ("add", "restore"):
            row.gone = change.event
            self.deleted(p, row)
            self.lines[change.event] = Line("delete", row.deal_id, row.rev)
            if not row.phantom and not any(r.deal == row.deal for r in self.live()):
                self.c.entered_again += 1  # an Undo to enter it again
                self.type(p, row.deal, self.truth[row.deal - 1], "again", again=True)
        elif line.kind == "delete":
            row.gone = None
            self.c.restores += 1
            if not row.phantom and any(r.deal == row.deal and r is not row for r in self.live()):
                row.phantom = True  # restored after it was entered again: entered twice
            elif not row.phantom:  # restored, not typed again: what waited to be is dropped
                for q in self.phones:
                    q.queue = [o for o in q.queue if not (o.kind == "again" and o.deal == row.deal)]
            self.lines[change.event] = Line("restore", row.deal_id, row.rev)
        else:
            before = row.raw
            row.raw, row.rev = line.before, row.rev + 1
            self.lines[change.event] = Line("edit", row.deal_id, row.rev, before)
        self.draw(p)

    def not_undoable(self, event: int, line: Line, latest: bool) -> str | None:
        """Why the store must refuse to undo ``event`` now (None: it must take it)."""
        if latest and self.latest != event:
            return "the match changed since"
        if line.kind == "keep":
            ok = self.open[line.conflict].closed_by == event
            return (
                None
                if ok and self.row(self.open[line.conflict].deal_id).gone is None
                else "reopened"
            )
        row = self.row(line.deal_id)
        if row.rev != line.rev or (row.gone is not None) != (line.kind == "delete"):
            return "the deal changed since"
        if line.kind == "delete":  # restored, the deal after it is it entered again
            after = next((r for r in self.rows[self.rows.index(row) + 1 :] if r.gone is None), None)
            if after is not None and after.text == row.text and after.born > row.gone:
                return "it was entered again since"
        return None

    @precondition(_typo_stands)
    @rule(phone=st.integers(0, 3))
    def put_right(self, phone: int) -> None:
        """A scorer edits a deal typed wrong to what the table played."""
        p = self.scorer(phone)
        if p is None:
            return
        self.edit(p)
        self.c.steps += 1

    def typo_at(self, row: Row) -> bool:
        return not row.phantom and row.text != self.texts[row.deal - 1]

    def edit(self, p: Phone) -> None:
        live = self.live()
        row = next(r for r in live if self.typo_at(r))
        number = live.index(row) + 1
        change = store.edit_deal(
            self.db,
            self.match_id,
            number,
            self.truth[row.deal - 1],
            mark=f"{row.deal_id}.{row.rev}",
        )
        if (change.kind, change.number) != ("edit", number):
            self.note(f"an edit of deal {number} answered {change.kind} {change.number}")
        before = row.raw
        row.raw, row.rev = self.truth[row.deal - 1], row.rev + 1
        self.lines[change.event] = Line("edit", row.deal_id, row.rev, before)
        self.latest = p.last = change.event
        self.c.edits += 1

    def waiting(self) -> list[Open]:
        """The choices that wait (on a deal standing: one deleted cannot be chosen)."""
        return [
            o
            for o in self.open.values()
            if o.closed_by is None and self.row(o.deal_id).gone is None
        ]

    @precondition(_choice_waits)
    @rule(phone=st.integers(0, 3), pick=st.integers(0, 2**16 - 1))
    def choose(self, phone: int, pick: int) -> None:
        """A scorer answers a choice as the table would."""
        p = self.scorer(phone)
        if p is None:
            return
        waiting = self.waiting()
        self.answer(p, waiting[pick % len(waiting)])
        self.c.steps += 1

    def answer(self, p: Phone, o: Open) -> None:
        """The table's answer: the entry that is the table's deal stays. The stored
        deal is that deal: replaced if the other entry is the table's. Otherwise (a
        phantom, or a deal the page counted differently) the other entry is another
        deal: kept out if that deal is stored; else added as the next deal if it is
        (the stored one is the last, and the deals before it are the table's deals
        before that one), or kept out and entered again on this phone."""
        live = self.live()
        target = self.row(o.deal_id)
        deal = o.deals[0]
        theirs = canon(o.raw)
        stored_elsewhere = any(r.deal == deal and not r.phantom for r in live)
        before = [r.deal for r in live if not r.phantom]
        if target.deal == deal and not target.phantom:
            choice = "replace" if theirs == self.texts[deal - 1] != target.text else "keep"
        elif stored_elsewhere:
            choice = "keep"
        elif target is live[-1] and before == list(range(1, deal)):
            choice = "next"
        else:
            choice = "keep"
        try:
            change = store.choose(self.db, self.match_id, o.id, choice)
        except store.Stale as e:
            self.note(f"choice {choice} on {o} refused: {e.message}")
            return
        o.closed_by = change.event
        self.latest = p.last = change.event
        if choice == "replace":
            before_raw = target.raw
            target.raw, target.rev = o.raw, target.rev + 1
            self.lines[change.event] = Line("edit", target.deal_id, target.rev, before_raw)
            self.c.replaces += 1
        elif choice == "next":
            self.rows.append(Row(self.deal_id(change.number), deal, False, o.raw, 1, change.event))
            self.lines[change.event] = Line("add", self.rows[-1].deal_id, 1)
            self.c.nexts += 1
        else:
            self.lines[change.event] = Line("keep", target.deal_id, None, conflict=o.id)
            self.c.keeps += 1
            self.enter_again(p, o, deal, stored_elsewhere or target.deal == deal)
        self.draw(p)

    def enter_again(self, p: Phone, o: Open, deal: int, stored: bool) -> None:
        """A deal whose only entry was kept out: the table types it again (unless the
        deals are to be put right by hand: ``misplaced``)."""
        waits = any(ob.deal == deal and ob.first is None for q in self.phones for ob in q.queue)
        if not stored and not self.doubts and not waits:
            self.c.entered_again += 1
            self.type(p, deal, o.raw, "again", again=True)

    def deleted(self, p: Phone, row: Row) -> None:
        """``row`` deleted: a choice that waited on it cannot be made (the deal is gone);
        an entry of a deal not stored, kept there, is typed again."""
        for o in self.open.values():
            if o.closed_by is None and o.deal_id == row.deal_id:
                deal = o.deals[0]
                self.enter_again(p, o, deal, any(r.deal == deal for r in self.live()))

    # --- what holds after every step ---------------------------------------------------

    @invariant()
    def the_store_is_the_shadow(self) -> None:
        if not self.phones:
            return
        stored = store.get(self.db, self.match_id)
        live = self.live()
        assert stored.deal_ids == [r.deal_id for r in live], (stored.deal_ids, live)
        assert stored.revs == [r.rev for r in live], (stored.revs, live)
        assert [canon(e) for e in stored.match.deals] == [r.text for r in live]
        listed = store.conflicts(self.db, stored)
        assert {c["id"] for c in listed} == {
            o.id for o in self.open.values() if o.closed_by is None
        }
        assert {c["id"] for c in listed if c["number"]} == {o.id for o in self.waiting()}
        assert self.c.anomalies == [], self.c.anomalies

    # --- the end of the evening -----------------------------------------------------

    def finale(self) -> None:
        """Every phone online; everything sent, every choice answered, phantoms deleted
        and typos put right, as the table would, until nothing is left to do. Where a
        deal was added in doubt (``misplaced``) and the deals are not the table's, the
        table deletes them from the first wrong one and enters them again."""
        for p in self.phones:
            p.online, p.stale = True, False
            self.draw(p)
        while self.played < len(self.truth):
            self.table_plays(self.played, self.played)
        self.settle()
        if self.doubts and self.wrong() is not None:
            self.hand_fix()
            self.settle()
        self.the_store_is_the_shadow()
        self.check()

    def settle(self) -> None:
        for _round in range(200):
            moved = False
            for p in self.phones:
                while p.queue:
                    outcome = self.send_head(p)
                    if outcome in ("gap", "held"):
                        break
                    moved = True
            for o in self.waiting():
                self.answer(self.phones[0], o)
                moved = True
            if moved:
                continue
            phantoms = [r for r in self.live() if r.phantom]
            if any(p.queue for p in self.phones):
                held = [o for p in self.phones for o in p.queue[:1] if o.held is not None]
                for p in self.phones:
                    if p.queue and p.queue[0].held is not None:
                        self.resolve_held(p, p.queue[0])
                if held:
                    continue
                if phantoms:
                    self.delete_phantom(0, 0)
                    continue
                if self.save_here():
                    continue
                return  # stuck: said by check()
            if phantoms:
                self.delete_phantom(0, 0)
                continue
            if any(self.typo_at(r) for r in self.live()):
                self.edit(self.phones[0])
                continue
            return

    def save_here(self) -> bool:
        """Deals wait for an earlier one that no phone will send ("This was typed as
        deal 6, but deal 4 is not entered yet. If it is deal 4, save it here"): the
        table opens the first of the table's deals waiting, if the deals before it
        are in, and saves it on a page drawn now."""
        stored = [r.deal for r in self.live() if not r.phantom]
        for p in self.phones:
            if (
                p.queue
                and p.queue[0].deal == len(stored) + 1
                and stored == list(range(1, len(stored) + 1))
            ):
                obs = p.queue[0]
                self.draw(p, force=True)
                obs.number, obs.anchor = p.page_number(obs.deal), p.mark
                self.c.saved_here += 1
                return True
        return False

    def wrong(self) -> int | None:
        """The first stored deal that is not the table's deal there (None: all are)."""
        live = self.live()
        for i, r in enumerate(live):
            if r.phantom or r.deal != i + 1 or r.text != self.texts[i]:
                return i
        return None if len(live) == self.played else len(live)

    def hand_fix(self) -> None:
        """The table deletes the deals from the first wrong one, last first, throws away
        what still waits on the phones, and enters the table's deals from there again
        on a phone."""
        self.c.hand_fixes += 1
        first = self.wrong()
        p = self.phones[0]
        for phone in self.phones:
            phone.queue.clear()
        for row in reversed(self.live()[first:]):
            number = self.live().index(row) + 1
            mark = f"{row.deal_id}.{row.rev}"
            change = store.delete_deal(self.db, self.match_id, number, mark=mark)
            row.gone = change.event
            self.lines[change.event] = Line("delete", row.deal_id, row.rev)
            self.latest = change.event
        self.draw(p, force=True)
        for t in range(first + 1, self.played + 1):
            self.type(p, t, self.truth[t - 1], "again", again=True)

    def check(self) -> None:
        """The stored deals are the table's, each once; every entry typed ended stored,
        the same, refused with a reason, or a choice; nothing waits."""
        c = self.c
        waiting = [
            (i, o.deal, o.number, o.held) for i, p in enumerate(self.phones) for o in p.queue
        ]
        if waiting:
            self.note(f"still waiting: {waiting}")
        stored = [canon(e) for e in store.get(self.db, self.match_id).match.deals]
        true = self.texts[: self.played]
        for kind, what in against_truth(stored, true):
            setattr(c, kind, getattr(c, kind) + 1)
            self.note(what)
        extra = Counter(stored) - Counter(true)
        c.doubled += sum(extra.values())
        if extra:
            self.note(f"{sum(extra.values())} deals stored beyond the table's")
        history = {
            canon(json.loads(e["entry"]))
            for e in store.events(self.db, self.match_id)
            if e["kind"] in ("add", "same", "conflict")
        }
        for deal, text, outcome in self.observed:
            if outcome != "refused" and text not in history:
                c.lost += 1
                self.note(f"deal {deal}: {outcome}, yet not in the history")

    def teardown(self) -> None:
        if not self.phones:
            return
        try:
            self.finale()
        finally:
            TableModel.counts += self.c
        assert self.c.anomalies == [], "\n".join(self.c.anomalies)
        assert (self.c.lost, self.c.doubled, self.c.misnumbered) == (0, 0, 0)


# The rules as the bench draws them (how often, beside each other; whether one may
# be taken now): the Hypothesis rules above, with plain random numbers.
RULES = [
    ("table_plays", 3.0, None),
    ("toggle", 2.0, None),
    ("page_goes_stale", 0.5, None),
    ("browser_restarts", 0.5, None),
    ("server_restarts", 0.2, None),
    ("send", 6.0, _sending),
    ("enter_twice", 0.7, _may_enter_twice),
    ("delete_phantom", 1.0, _phantom_stands),
    ("undo_own", 1.0, _may_undo),
    ("put_right", 1.0, _typo_stands),
    ("choose", 2.0, _choice_waits),
]


def play(seed: int, steps: int = 40, trace: list[str] | None = None) -> Counts:
    """One evening, its rules drawn by ``random.Random(seed)``: what it counted
    (AssertionError: what went wrong; ``trace`` gets the steps taken)."""
    rng = random.Random(seed)
    m = TableModel()
    args = {
        "table": rng.randrange(len(TABLES)),
        "seed": rng.randrange(TRUTHS),
        "phones": rng.randint(2, 4),
        "online": rng.randrange(16),
    }
    m.start(**args)
    if trace is not None:
        trace.append(f"start({args})")
    names = [name for name, _weight, _can in RULES]
    weights = [weight for _name, weight, _can in RULES]
    try:
        for _step in range(steps):
            name = rng.choices(names, weights)[0]
            can = RULES[names.index(name)][2]
            if can is not None and not can(m):
                continue
            method = getattr(m, name)
            kwargs = {"phone": rng.randrange(4), "pick": rng.getrandbits(16)}
            kwargs = {
                k: v
                for k, v in kwargs.items()
                if k in getattr(TableModel, name).__code__.co_varnames
            }
            if name == "undo_own":
                kwargs["pick"] %= 2
            if name == "server_restarts":
                kwargs["pick"] %= 8
            if name in ("page_goes_stale", "browser_restarts"):
                kwargs["pick"] = 0  # drawn by its weight here
            if trace is not None:
                trace.append(f"{name}({kwargs})")
            method(**kwargs)
            m.the_store_is_the_shadow()
    finally:
        if trace is not None:
            trace.append("teardown()")
    m.teardown()
    return m.c
