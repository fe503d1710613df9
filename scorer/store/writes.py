"""Every change to a match, each one write transaction: the shared frame (the
lock, a repeat under an idempotency key answered as the first time, the
version precondition, the new version, the summary, the standings held), creating a match, a
deal added, edited or deleted as a page's mark names it, the players and
options, a match to the trash and back. Each change is a line of the history
(the ``events`` table), never changed, never erased.

A write may name what it was made against: ``mark``, what a page saw (a deal
page ``"<deal id>.<revision>"``, a new-deal page ``"<number of deals>.<id of
the last deal>"``), or ``if_version`` (the API's ``If-Match``); it is refused
with :class:`~scorer.store.db.Stale`, inside the transaction, when that no
longer holds."""

from __future__ import annotations

import contextlib
import hashlib
import json
import secrets
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from .. import schema
from ..i18n import _
from ..match import COMPACT, Changed, Match, Standings, checked_entry, fold, without
from .db import KeyReused, NotFound, Stale, now, writing
from .kept import held_after, hold, keep_summary, kept_before
from .listing import trash_since
from .stored import Stored, get, match_row


@dataclass
class Change:
    """The outcome of a write to a match."""

    kind: str  # "add", "edit", "delete"
    number: int | None  # the deal concerned, as numbered after the change (a delete: before)
    version: int
    standings: Standings | None = None  # None when this is the answer to a repeat
    repeat: bool = False
    event: int | None = None  # its line in the history (what Undo takes back)
    first: str | None = None  # a repeat: the computed block first answered (JSON text)
    conflict: int | None = None  # kind "conflict": the entry kept for a choice (its id)

    def computed_json(self) -> str:
        """The record's computed block after the change, as JSON text."""
        return self.first if self.standings is None else self.standings.computed_json()

    @property
    def computed(self) -> dict:
        return json.loads(self.computed_json())

    def reply_json(self) -> str:
        """What a repeat of this write is answered (JSON text, kept under its key)."""
        rest = {"kind": self.kind, "number": self.number, "version": self.version}
        rest["event"] = self.event
        if self.conflict is not None:
            rest["conflict"] = self.conflict
        rest_json = json.dumps(rest, separators=COMPACT)
        return '{"computed":' + self.computed_json() + "," + rest_json[1:]

    @classmethod
    def repeated(cls, reply: str) -> Change:
        """The answer kept under a key, given again (``reply_json``)."""
        kept = json.loads(reply)
        first = json.dumps(kept.pop("computed"), ensure_ascii=False, separators=COMPACT)
        return cls(**kept, first=first, repeat=True)


def log_event(
    db: Database,
    match_id: int,
    kind: str,
    deal: int | None,
    entry: Any,
    deal_id: int | None = None,
    before: Any = None,
    rev: int | None = None,
    undoes: int | None = None,
) -> int:
    """One line of the match's history (never changed, never erased): what was
    done, to which deal (its number then, its id), the entry it holds, the one
    it replaced (``before``), the deal's revision after it."""
    return (
        db["events"]
        .insert(
            {
                "match_id": match_id,
                "at": now(),
                "kind": kind,
                "deal": deal,
                "deal_id": deal_id,
                "entry": json.dumps(entry, ensure_ascii=False),
                "before": None if before is None else json.dumps(before, ensure_ascii=False),
                "rev": rev,
                "undoes": undoes,
            }
        )
        .last_pk
    )


def dump_entry(entry: Any) -> str:
    return json.dumps(entry, ensure_ascii=False)


def same_entry(a: Any, b: Any) -> bool:
    """Two entries of one deal say the same (``play``, how it was entered, aside)."""

    def bare(entry):
        entry = json.loads(dump_entry(entry))
        return {k: v for k, v in entry.items() if k != "play"} if isinstance(entry, dict) else entry

    return bare(a) == bare(b)


def parse_mark(text: Any) -> tuple[int, int] | None:
    """ "12.3" → (12, 3); anything else (tampered, or an old page) → None."""
    if not isinstance(text, str):
        return None
    left, dot, right = text.partition(".")
    if not (
        dot
        and left.isascii()
        and left.isdigit()
        and right.isascii()
        and right.isdigit()
        and len(left) <= 18
        and len(right) <= 18
    ):
        return None
    return int(left), int(right)


def request_digest(kind: str, target: Any, raw: Any) -> str:
    text = json.dumps([kind, target, raw], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class Frame:
    """A write in progress (:func:`match_write`): the match as it stands (None: the
    write is a repeat, answered by ``repeat``), and the change the write made."""

    stored: Stored | None
    repeat: Change | None = None
    change: Change | None = None

    def done(self, change: Change) -> Change:
        """The write's outcome: kept as the answer under its key, returned."""
        self.change = change
        return change


@contextlib.contextmanager
def match_write(
    db: Database, match_id: int, key: str | None, digest: str, if_version: int | None
) -> Iterator[Frame]:
    """The shared frame of every write to a match: the lock, the repeat, the
    match as it stands, the version precondition; then the new version, and
    the answer kept under ``key``. The caller returns ``frame.repeat`` if set,
    else ``frame.done(change)`` with the change it made."""
    held = None
    with writing(db):
        row_id = match_id if isinstance(match_id, int) else match_row(db, match_id, True)["id"]
        if key is not None:
            rows = list(
                db.query(
                    "select request, reply from replies where match_id = ? and key = ?",
                    [row_id, key],
                )
            )
            if rows:
                if rows[0]["request"] != digest:
                    raise KeyReused(
                        _(
                            "this idempotency key was already used for another "
                            "request: nothing was stored"
                        )
                    )
                yield Frame(None, repeat=Change.repeated(rows[0]["reply"]))
                return
        stored = get(db, row_id)
        if if_version is not None and if_version != stored.version:
            raise Stale(_("the match has changed since that version was read: nothing was stored"))
        frame = Frame(stored)
        yield frame
        change = frame.change
        version = stored.version + 1
        db.execute(
            "update matches set version = ?, updated = ? where id = ?", [version, now(), row_id]
        )
        change.version = version
        if change.standings is not None:
            keep_summary(db, row_id, change.standings)
            held = hold(db, stored, change.standings)
        if key is not None:
            db["replies"].insert(
                {
                    "match_id": row_id,
                    "key": key,
                    "request": digest,
                    "reply": change.reply_json(),
                    "at": now(),
                }
            )
    held_after(stored.pub, held)  # committed: this version's standings may be read


def create(
    db: Database,
    match: Match,
    kind: str = "create",
    browser: str | None = None,
    began: str | None = None,
) -> Stored:
    """Store a checked match (its deals already folded), with a new public id
    and edit key; ``browser`` scores it; ``began``: when it began, if before now
    (a season imported: ``2025-05-10T19:30:05+00:00``). Returns it as stored."""
    with writing(db):
        return get(db, _insert(db, match, kind, browser, began))


# A season imported (thousands of matches): the write lock is held this long at
# most, then left free this long, longer than the longest wait between two tries
# of another process's writer (SQLite's busy handler sleeps 100 ms at most): a
# deal saved meanwhile waits a few tenths of a second, where before it waited for
# the whole import and, past the busy timeout (10 s), failed. Under gevent the
# pause also lets the worker's other requests (and its heartbeat) run.
BATCH_SECONDS = 0.2
PAUSE_SECONDS = 0.12


def create_all(
    db: Database, matches: list[tuple[Match, str | None]], kind: str, browser: str | None
) -> int:
    """Store checked matches as ``create`` does, each with when it began, in this
    order: in transactions of at most BATCH_SECONDS of writing (a match or more
    each), with a pause between them in which other writers take their turn.
    A failure keeps the matches stored before it. Returns how many were stored."""
    done = 0
    while done < len(matches):
        if done:
            time.sleep(PAUSE_SECONDS)
        with writing(db):
            until = time.monotonic() + BATCH_SECONDS
            while True:  # a match at least
                match, began = matches[done]
                _insert(db, match, kind, browser, began)
                done += 1
                if done == len(matches) or time.monotonic() >= until:
                    break
    return done


def _insert(db: Database, match: Match, kind: str, browser: str | None, began: str | None) -> int:
    """A new match's rows, inside the caller's write: the match, its deals, its
    summary, its first line of the history, who scores it. Returns its row."""
    stamp = now()
    match_id = (
        db["matches"]
        .insert(
            {
                "game": match.game,
                "options": json.dumps(match.options),
                "players": dump_entry(match.players),
                "first_dealer": match.first_dealer,
                "created": began or stamp,
                "updated": stamp,
                "version": 1,
                "pub": schema.new_id(),
                "edit_key": secrets.token_urlsafe(16),
                "legacy": 0,
            }
        )
        .last_pk
    )
    for pos, entry in enumerate(match.deals, start=1):
        db["deals"].insert({"match_id": match_id, "pos": pos, "rev": 1, "entry": dump_entry(entry)})
    keep_summary(db, match_id, fold(match))
    log_event(
        db,
        match_id,
        kind,
        None,
        {
            "game": match.game,
            "options": match.options,
            "players": match.players,
            "first_dealer": match.first_dealer,
            "deals": len(match.deals),
        },
    )
    if browser:
        db["browsers"].upsert(
            {"browser": browser, "match_id": match_id, "role": "score", "at": stamp},
            pk=("browser", "match_id"),
        )
    return match_id


def keep_later_entries(db: Database, stored: Stored, standings: Standings, start: int) -> None:
    """After a change at deal ``start`` (1-based), store any later deal whose
    entry, as its game checks it, now reads differently."""
    for i in range(start, len(standings.rows)):
        entry = standings.rows.entries[i]
        if entry != stored.match.deals[i]:
            db.execute(
                "update deals set entry = ?, rev = rev + 1 where id = ?",
                [dump_entry(entry), stored.deal_ids[i]],
            )


def _fits_next(stored: Stored, mark: str) -> bool:
    """Is the match as a new-deal page saw it? A page drawn by an older Scorer
    (before deals had ids) remembers only the number of deals."""
    if mark == stored.next_mark():
        return True
    return (
        mark.isascii() and mark.isdigit() and len(mark) < 10 and int(mark) == len(stored.deal_ids)
    )


def add_deal(
    db: Database,
    match_id: int,
    raw: Any,
    *,
    mark: str | None = None,
    if_version: int | None = None,
    key: str | None = None,
) -> Change:
    """Add the next deal, whatever its number (the API's ``POST …/deals`` without
    a deal number). ``mark``: the new-deal page's ``Stored.next_mark()``.

    Raises NotFound (no match), Stale, KeyReused, or DealError (the entry
    refused, or the match already over)."""
    with match_write(db, match_id, key, request_digest("add", None, raw), if_version) as frame:
        if frame.repeat:
            return frame.repeat
        stored = frame.stored
        if mark is not None and not _fits_next(stored, mark):
            seen = parse_mark(mark if "." in mark else f"{mark}.0")
            if seen and seen[0] < len(stored.deal_ids):
                number = seen[0] + 1
                raise Stale(stored.match.words("saved_meanwhile", n=number), number)
            raise Stale(stored.match.words("deals_changed"))
        return frame.done(append_deal(db, stored, raw))


def append_deal(db: Database, stored: Stored, raw: Any) -> Change:
    """Store ``raw`` as the next deal, inside a write."""
    deals, standings = checked_entry(stored.match, raw, kept=kept_before(stored))
    pos = db.execute(
        "select coalesce(max(pos), 0) + 1 from deals where match_id = ?", [stored.id]
    ).fetchone()[0]
    deal_id = (
        db["deals"]
        .insert({"match_id": stored.id, "pos": pos, "rev": 1, "entry": dump_entry(deals[-1])})
        .last_pk
    )
    event = log_event(db, stored.id, "add", len(deals), deals[-1], deal_id, rev=1)
    return Change("add", len(deals), 0, standings, event=event)


def _target(stored: Stored, number: int | None, mark: str | None) -> int:
    """The number, as the match stands now, of the deal a write means: the deal
    the page's mark names (wherever it has moved), else deal ``number``."""
    if mark is None:
        if number is None or not 1 <= number <= len(stored.deal_ids):
            raise NotFound(stored.match.words("no_deal", n=number))
        return number
    seen = parse_mark(mark)
    if seen is None:
        raise Stale(_("this page is out of date"), number)
    deal_id, rev = seen
    now_number = stored.number_of(deal_id)
    if now_number is None:
        raise Stale(stored.match.words("deleted_meanwhile", n=number), None, deal_id)
    if stored.revs[now_number - 1] != rev:
        raise Stale(stored.match.words("changed_meanwhile", n=now_number), now_number)
    return now_number


def edit_deal(
    db: Database,
    match_id: int,
    number: int | None,
    raw: Any,
    *,
    mark: str | None = None,
    if_version: int | None = None,
    key: str | None = None,
) -> Change:
    """Replace a deal: the one ``mark`` names (an edit page's
    ``Stored.deal_mark``), else deal ``number``. Later deals re-flow.

    Raises NotFound, Stale, KeyReused, or DealError (this entry, or a later
    deal that cannot stand after it)."""
    digest = request_digest("edit", mark or number, raw)
    with match_write(db, match_id, key, digest, if_version) as frame:
        if frame.repeat:
            return frame.repeat
        stored = frame.stored
        return frame.done(replace_deals(db, stored, {_target(stored, number, mark): raw}))


def replace_deals(db: Database, stored: Stored, entries: dict[int, Any]) -> Change:
    """Put each entry in place of its deal (number → entry), inside a write, as one
    change (each deal edited a line of the history); later deals re-flow.
    DealError: one of them, or a later deal, cannot stand so."""
    first, m = min(entries), stored.match
    changed = Changed(m.deals, {n - 1: entry for n, entry in entries.items()})
    trial = Match(m.game, m.options, m.players, m.first_dealer, changed)
    standings = fold(trial, kept_before(stored)[: first - 1])
    checked = standings.rows.entries
    for i in range(first - 1, len(checked)):  # those edited, and later ones now read anew
        if i + 1 in entries or checked[i] != m.deals[i]:
            db.execute(
                "update deals set entry = ?, rev = rev + 1 where id = ?",
                [dump_entry(checked[i]), stored.deal_ids[i]],
            )
    for n in sorted(entries):
        event = log_event(
            db,
            stored.id,
            "edit",
            n,
            checked[n - 1],
            stored.deal_ids[n - 1],
            before=m.deals[n - 1],
            rev=stored.revs[n - 1] + 1,
        )
    return Change("edit", first, 0, standings, event=event)


def delete_deal(
    db: Database,
    match_id: int,
    number: int | None,
    *,
    mark: str | None = None,
    if_version: int | None = None,
    key: str | None = None,
) -> Change:
    """Delete a deal (the one ``mark`` names, else deal ``number``); later deals
    move up and re-flow. The row is kept, marked deleted, in its place.

    Raises NotFound, Stale, KeyReused, or DealError (a later deal that cannot
    stand without it)."""
    with match_write(
        db, match_id, key, request_digest("delete", mark or number, None), if_version
    ) as frame:
        if frame.repeat:
            return frame.repeat
        stored = frame.stored
        number = _target(stored, number, mark)
        deals = without(stored.match.deals, number - 1)
        removed = stored.match.deals[number - 1]
        trial = Match(
            stored.match.game,
            stored.match.options,
            stored.match.players,
            stored.match.first_dealer,
            deals,
        )
        standings = fold(trial, kept_before(stored)[: number - 1])
        deal_id = stored.deal_ids[number - 1]
        db.execute("update deals set deleted = ? where id = ?", [now(), deal_id])
        rest = Stored(
            stored.id,
            trial,
            stored.version,
            stored.deal_ids[: number - 1] + stored.deal_ids[number:],
            stored.revs[: number - 1] + stored.revs[number:],
            stored.updated,
        )
        keep_later_entries(db, rest, standings, number - 1)
        event = log_event(
            db, stored.id, "delete", number, removed, deal_id, rev=stored.revs[number - 1]
        )
        return frame.done(Change("delete", number, 0, standings, event=event))


def change_setup(
    db: Database,
    match_id: int | str,
    players: list[str],
    options: dict,
    *,
    key: str | None = None,
    undoes: int | None = None,
) -> Change:
    """Correct the players' names or change options, as one change of the
    history; refused (DealError, with the reason) when a stored deal could not
    stand under them. ``players`` and ``options`` as the record checks them."""
    digest = request_digest("setup", None, [players, options])
    with match_write(db, match_id, key, digest, None) as frame:
        if frame.repeat:
            return frame.repeat
        stored = frame.stored
        return frame.done(apply_setup(db, stored, players, options, undoes))


def apply_setup(
    db: Database, stored: Stored, players: list[str], options: dict, undoes: int | None
) -> Change:
    if len(players) != len(stored.match.players):
        raise Stale(_("a match keeps its number of players"))
    trial = Match(
        stored.match.game, options, players, stored.match.first_dealer, stored.match.deals
    )
    standings = fold(trial)  # DealError: a stored deal that cannot stand so
    db.execute(
        "update matches set players = ?, options = ? where id = ?",
        [dump_entry(players), json.dumps(options), stored.id],
    )
    before = {"players": stored.match.players, "options": stored.match.options}
    event = log_event(
        db,
        stored.id,
        "setup",
        None,
        {"players": players, "options": options},
        before=before,
        undoes=undoes,
    )
    return Change("setup", None, 0, standings, event=event)


def delete_match(db: Database, match_id: int, *, if_version: int | None = None) -> None:
    """Move a match to the trash (its scorers restore it from there for
    TRASH_DAYS days). Raises NotFound, Stale."""
    with writing(db):
        stored = get(db, match_id)
        if if_version is not None and if_version != stored.version:
            raise Stale(_("the match has changed since that version was read: nothing was deleted"))
        db.execute(
            "update matches set deleted = ?, version = version + 1, updated = ? where id = ?",
            [now(), now(), stored.id],
        )
        log_event(db, stored.id, "delete_match", None, None)


def restore_match(db: Database, match_id: int) -> Stored:
    """Take a match out of the trash. Raises NotFound (not there, or too old)."""
    with writing(db):
        row = match_row(db, match_id, trash=True)
        if not row["deleted"] or row["deleted"] < trash_since():
            raise NotFound(_("that match is not in the trash"))
        db.execute(
            "update matches set deleted = null, version = version + 1, updated = ? where id = ?",
            [now(), row["id"]],
        )
        log_event(db, row["id"], "restore_match", None, None)
        return get(db, row["id"])
