"""Persistence with sqlite-utils: matches, their deals, an append-only events
log, and the answers given to writes that carried an idempotency key.

Only what the table said is stored (game, options, players, first dealer, the
deal entries); every figure is computed by ``scorer.match``.

Identity and preconditions. Every deal has an id that no other deal ever gets
and a revision that grows with each edit; every match has a version that grows
with each change. A write may name what it was made against:

- ``mark``: what a page saw. For a deal page, ``"<deal id>.<revision>"``; for
  a new-deal page, ``"<number of deals>.<id of the last deal>"``;
- ``if_version``: the match version (the API's ``If-Match``);

and is refused with :class:`Stale`, inside the write transaction, when that no
longer holds. ``key``: a repeat of a write with the same key answers as the
first one did and changes nothing (a double tap, a client retrying after a
lost answer).

Every write is one ``BEGIN IMMEDIATE`` transaction: two phones (or two server
workers) saving at once are serialised.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from flask import Flask, current_app, g
from sqlite_utils import Database

from . import schema
from .i18n import _
from .match import DealError, Match, Standings, checked_entry, fold


class StoreError(Exception):
    """A write that cannot be made, with a message for the table."""

    def __init__(self, message: str, number: int | None = None):
        super().__init__(message)
        self.message = message
        self.number = number  # the deal concerned, numbered as the match stands now


class NotFound(StoreError):
    """The match, or the deal, is not there (never was, or has gone)."""


class Stale(StoreError):
    """What the write was made against no longer holds: nothing was changed."""


class KeyReused(StoreError):
    """An idempotency key already used for a different request."""


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


# --- connections (as flaskr's db.py) ------------------------------------------


def connect(path: str) -> Database:
    """A connection with a busy timeout: a writer waits for another's lock."""
    conn = sqlite3.connect(path, timeout=10, check_same_thread=False)
    db = Database(conn)
    db.execute("PRAGMA busy_timeout = 10000")
    return db


def get_db() -> Database:
    """The request's (or command's) connection, opened on first use."""
    if "db" not in g:
        g.db = connect(current_app.config["DATABASE"])
    return g.db


def close_db(_exc: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.close()


def init_app(app: Flask) -> None:
    """Close the connection after each request; bring the schema up to date."""
    app.teardown_appcontext(close_db)
    db = connect(app.config["DATABASE"])
    try:
        schema.migrate(db)
    finally:
        db.close()


@contextlib.contextmanager
def writing(db: Database) -> Iterator[Database]:
    """One write transaction, its lock taken before anything is read.

    (``db.atomic()`` begins a deferred transaction: under WAL a reader that
    then writes after another writer has committed fails with "database is
    locked" at once, whatever the busy timeout. IMMEDIATE waits its turn.)"""
    db.conn.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.conn.execute("ROLLBACK")
        raise
    else:
        db.conn.execute("COMMIT")


# --- reading --------------------------------------------------------------------


@dataclass
class Stored:
    """A stored match as the pages and the API see it."""

    id: int
    match: Match
    version: int
    deal_ids: list[int]
    revs: list[int]
    updated: str

    @property
    def etag(self) -> str:
        """Changes with every change to the match (quoted, as HTTP has it)."""
        return f'"{self.id}.{self.version}"'

    def deal_mark(self, number: int) -> str:
        """What an edit or delete page of deal ``number`` remembers of it."""
        return f"{self.deal_ids[number - 1]}.{self.revs[number - 1]}"

    def next_mark(self) -> str:
        """What a new-deal page remembers: the deals so far and the last one's id."""
        return f"{len(self.deal_ids)}.{self.deal_ids[-1] if self.deal_ids else 0}"

    def number_of(self, deal_id: int) -> int | None:
        try:
            return self.deal_ids.index(deal_id) + 1
        except ValueError:
            return None


def _match_row(db: Database, match_id: int) -> dict:
    rows = list(db.query("select * from matches where id = ?", [match_id]))
    if not rows:
        raise NotFound(_("there is no such match (it may have been deleted)"))
    return rows[0]


def _stored(db: Database, row: dict) -> Stored:
    deals = list(
        db.query(
            "select id, rev, entry from deals where match_id = ? and deleted is null order by pos",
            [row["id"]],
        )
    )
    match = Match(
        row["game"],
        json.loads(row["options"]),
        json.loads(row["players"]),
        row["first_dealer"],
        [json.loads(d["entry"]) for d in deals],
    )
    return Stored(
        row["id"],
        match,
        row["version"],
        [d["id"] for d in deals],
        [d["rev"] for d in deals],
        row["updated"],
    )


def get(db: Database, match_id: int) -> Stored:
    """The match with its live deals in order. Raises NotFound."""
    return _stored(db, _match_row(db, match_id))


def listing(db: Database) -> list[Stored]:
    """Every match, the latest changed first."""
    rows = list(db.query("select * from matches order by updated desc, id desc"))
    return [_stored(db, r) for r in rows]


def events(db: Database, match_id: int) -> list[dict]:
    """The match's events, oldest first (each entry as JSON text)."""
    return list(db.query("select * from events where match_id = ? order by id", [match_id]))


# --- writing --------------------------------------------------------------------


@dataclass
class Change:
    """The outcome of a write to a match."""

    kind: str  # "add", "edit", "delete"
    number: int | None  # the deal concerned, as numbered after the change (a delete: before)
    computed: dict  # the record's computed block after the change
    version: int
    standings: Standings | None = None  # None when this is the answer to a repeat
    repeat: bool = False

    def reply(self) -> dict:
        return {
            "kind": self.kind,
            "number": self.number,
            "computed": self.computed,
            "version": self.version,
        }


def _event(
    db: Database, match_id: int, kind: str, deal: int | None, entry: Any, deal_id: int | None = None
) -> None:
    db["events"].insert(
        {
            "match_id": match_id,
            "at": now(),
            "kind": kind,
            "deal": deal,
            "deal_id": deal_id,
            "entry": json.dumps(entry, ensure_ascii=False),
        }
    )


def _dump(entry: Any) -> str:
    return json.dumps(entry, ensure_ascii=False)


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


def _request_digest(kind: str, target: Any, raw: Any) -> str:
    text = json.dumps([kind, target, raw], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@contextlib.contextmanager
def _write(
    db: Database, match_id: int, key: str | None, digest: str, if_version: int | None
) -> Iterator[tuple[Stored | None, list]]:
    """The shared frame of every write to a match: the lock, the repeat, the
    match as it stands, the version precondition; then the new version, and
    the answer kept under ``key``. Yields (the match, or None for a repeat,
    and a one-item list the caller puts its Change in)."""
    with writing(db):
        if key is not None:
            rows = list(
                db.query(
                    "select request, reply from replies where match_id = ? and key = ?",
                    [match_id, key],
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
                reply = json.loads(rows[0]["reply"])
                yield None, [Change(**reply, repeat=True)]
                return
        stored = get(db, match_id)
        if if_version is not None and if_version != stored.version:
            raise Stale(_("the match has changed since that version was read: nothing was stored"))
        out: list[Change] = []
        yield stored, out
        version = stored.version + 1
        db.execute(
            "update matches set version = ?, updated = ? where id = ?", [version, now(), match_id]
        )
        out[0].version = version
        if key is not None:
            db["replies"].insert(
                {
                    "match_id": match_id,
                    "key": key,
                    "request": digest,
                    "reply": json.dumps(out[0].reply(), ensure_ascii=False),
                    "at": now(),
                }
            )


def create(db: Database, match: Match, kind: str = "create") -> int:
    """Store a checked match (its deals already folded) and return its id."""
    with writing(db):
        stamp = now()
        match_id = (
            db["matches"]
            .insert(
                {
                    "game": match.game,
                    "options": json.dumps(match.options),
                    "players": _dump(match.players),
                    "first_dealer": match.first_dealer,
                    "created": stamp,
                    "updated": stamp,
                    "version": 1,
                }
            )
            .last_pk
        )
        for pos, entry in enumerate(match.deals, start=1):
            db["deals"].insert({"match_id": match_id, "pos": pos, "rev": 1, "entry": _dump(entry)})
        _event(
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
    return match_id


def _keep_later_entries(db: Database, stored: Stored, standings: Standings, start: int) -> None:
    """After a change at deal ``start`` (1-based), store any later deal whose
    entry, as its game checks it, now reads differently."""
    for i in range(start, len(standings.rows)):
        entry = standings.rows[i].entry
        if entry != stored.match.deals[i]:
            db.execute(
                "update deals set entry = ?, rev = rev + 1 where id = ?",
                [_dump(entry), stored.deal_ids[i]],
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
    """Add the next deal. ``mark``: the new-deal page's ``Stored.next_mark()``.

    Raises NotFound (no match), Stale, KeyReused, or DealError (the entry
    refused, or the match already over)."""
    with _write(db, match_id, key, _request_digest("add", None, raw), if_version) as (stored, out):
        if stored is None:
            return out[0]
        if mark is not None and not _fits_next(stored, mark):
            seen = parse_mark(mark if "." in mark else f"{mark}.0")
            if seen and seen[0] < len(stored.deal_ids):
                number = seen[0] + 1
                raise Stale(_("deal %(n)s was saved on another phone meanwhile", n=number), number)
            raise Stale(_("the deals changed on another phone meanwhile"))
        deals, standings = checked_entry(stored.match, raw)
        pos = db.execute(
            "select coalesce(max(pos), 0) + 1 from deals where match_id = ?", [match_id]
        ).fetchone()[0]
        deal_id = (
            db["deals"]
            .insert({"match_id": match_id, "pos": pos, "rev": 1, "entry": _dump(deals[-1])})
            .last_pk
        )
        _event(db, match_id, "add", len(deals), deals[-1], deal_id)
        out.append(Change("add", len(deals), standings.computed(), 0, standings))
    return out[0]


def _target(stored: Stored, number: int | None, mark: str | None) -> int:
    """The number, as the match stands now, of the deal a write means: the deal
    the page's mark names (wherever it has moved), else deal ``number``."""
    if mark is None:
        if number is None or not 1 <= number <= len(stored.deal_ids):
            raise NotFound(_("there is no deal %(n)s", n=number))
        return number
    seen = parse_mark(mark)
    if seen is None:
        raise Stale(_("this page is out of date"), number)
    deal_id, rev = seen
    now_number = stored.number_of(deal_id)
    if now_number is None:
        raise Stale(_("deal %(n)s was deleted on another phone meanwhile", n=number), None)
    if stored.revs[now_number - 1] != rev:
        raise Stale(
            _("deal %(n)s was changed on another phone meanwhile", n=now_number), now_number
        )
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
    digest = _request_digest("edit", mark or number, raw)
    with _write(db, match_id, key, digest, if_version) as (stored, out):
        if stored is None:
            return out[0]
        number = _target(stored, number, mark)
        deals, standings = checked_entry(stored.match, raw, number)
        deal_id = stored.deal_ids[number - 1]
        db.execute(
            "update deals set entry = ?, rev = rev + 1 where id = ?",
            [_dump(deals[number - 1]), deal_id],
        )
        _keep_later_entries(db, stored, standings, number)
        _event(db, match_id, "edit", number, deals[number - 1], deal_id)
        out.append(Change("edit", number, standings.computed(), 0, standings))
    return out[0]


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
    with _write(db, match_id, key, _request_digest("delete", mark or number, None), if_version) as (
        stored,
        out,
    ):
        if stored is None:
            return out[0]
        number = _target(stored, number, mark)
        deals = list(stored.match.deals)
        removed = deals.pop(number - 1)
        trial = Match(
            stored.match.game,
            stored.match.options,
            stored.match.players,
            stored.match.first_dealer,
            deals,
        )
        standings = fold(trial)
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
        _keep_later_entries(db, rest, standings, number - 1)
        _event(db, match_id, "delete", number, removed, deal_id)
        out.append(Change("delete", number, standings.computed(), 0, standings))
    return out[0]


def delete_match(db: Database, match_id: int, *, if_version: int | None = None) -> None:
    """Delete a match and its deals. Raises NotFound, Stale."""
    with writing(db):
        stored = get(db, match_id)
        if if_version is not None and if_version != stored.version:
            raise Stale(_("the match has changed since that version was read: nothing was deleted"))
        db.execute("delete from deals where match_id = ?", [match_id])
        db.execute("delete from replies where match_id = ?", [match_id])
        db.execute("delete from matches where id = ?", [match_id])
        _event(db, match_id, "delete_match", None, None)


__all__ = [
    "Change",
    "DealError",
    "KeyReused",
    "NotFound",
    "Stale",
    "StoreError",
    "Stored",
    "add_deal",
    "close_db",
    "connect",
    "create",
    "delete_deal",
    "delete_match",
    "edit_deal",
    "events",
    "get",
    "get_db",
    "init_app",
    "listing",
    "parse_mark",
]
