"""Persistence with sqlite-utils: matches, their deals, an append-only events
log, and the answers given to writes that carried an idempotency key.

What the table said is the truth stored (game, options, players, first dealer,
the deal entries); every figure is computed by ``scorer.match``, and what the
fold gives is kept beside it as a cache (see "the fold, kept" below).

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
import pickle
import secrets
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from flask import Flask, current_app, g
from sqlite_utils import Database

from . import schema
from .games import EntryError
from .i18n import _
from .match import (
    COMPACT,
    DealError,
    Entries,
    KeptList,
    Match,
    Standings,
    check_entry,
    checked_entry,
    fold,
)


class StoreError(Exception):
    """A write that cannot be made, with a message for the table."""

    def __init__(self, message: str, number: int | None = None):
        super().__init__(message)
        self.message = message
        self.number = number  # the deal concerned, numbered as the match stands now


class NotFound(StoreError):
    """The match, or the deal, is not there (never was, or has gone)."""


class Stale(StoreError):
    """What the write was made against no longer holds: nothing was changed.
    ``deal_id``: the deal the write meant, where it was deleted meanwhile."""

    def __init__(self, message: str, number: int | None = None, deal_id: int | None = None):
        super().__init__(message, number)
        self.deal_id = deal_id


class Gap(StoreError):
    """An entry for a deal after the next one (deal 14 while deal 13 is not in):
    it waits until the deals before it are (``number``: the next deal now)."""


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

    id: int  # the row's number, inside the store only
    match: Match
    version: int
    deal_ids: list[int]
    revs: list[int]
    updated: str
    pub: str = ""  # the match's id in addresses and the API: nobody can guess it
    edit_key: str = ""
    created: str = ""
    deleted: str | None = None  # when it went to the trash
    kept: str | None = None  # the code and version its deals' kept folds were made by
    points: str | None = None  # every deal's points, kept beside them (JSON)

    @property
    def etag(self) -> str:
        """Changes with every change to the match (quoted, as HTTP has it)."""
        return f'"{self.pub}.{self.version}"'

    def key_is(self, key: str | None) -> bool:
        return keys_match(self.edit_key, key)

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


def _match_row(db: Database, ref: int | str, trash: bool = False) -> dict:
    """The row of a match by its number (inside the store) or its public id.
    A match in the trash is found only with ``trash``."""
    column = "id" if isinstance(ref, int) else "pub"
    rows = list(db.query(f"select * from matches where {column} = ?", [ref]))
    if not rows or (rows[0]["deleted"] and not trash) or not rows[0]["game"]:
        raise NotFound(_("there is no such match (it may have been deleted)"))
    return rows[0]


def keys_match(edit_key: str, key: str | None) -> bool:
    """Is ``key`` the match's edit key (compared in constant time)?"""
    return bool(key and edit_key) and secrets.compare_digest(key, edit_key)


def edit_key(db: Database, ref: int | str) -> str:
    """A match's edit key, from its row alone (an API write checks it before the
    write reads the match). Raises NotFound as ``get`` does."""
    return _match_row(db, ref)["edit_key"]


def _stored(db: Database, row: dict) -> Stored:
    deals = db.execute(
        "select id, rev, entry from deals where match_id = ? and deleted is null order by pos",
        [row["id"]],
    ).fetchall()
    match = Match(
        row["game"],
        json.loads(row["options"]),
        json.loads(row["players"]),
        row["first_dealer"],
        Entries([entry for _id, _rev, entry in deals]),
    )
    return Stored(
        row["id"],
        match,
        row["version"],
        [d[0] for d in deals],
        [d[1] for d in deals],
        row["updated"],
        row["pub"],
        row["edit_key"],
        row["created"],
        row["deleted"],
        row["kept"],
        row["points"],
    )


def get(db: Database, ref: int | str, trash: bool = False) -> Stored:
    """The match (by its number inside the store, or its public id) with its live
    deals in order. Raises NotFound (a match in the trash too, unless ``trash``)."""
    return _stored(db, _match_row(db, ref, trash))


# --- the fold, kept -------------------------------------------------------------
#
# Each live deal keeps what its fold gave (scorer.match.Kept, pickled): the
# sheet, the chart, the API read and the exports draw from it, and a change
# folds on from the deal it changed. The match row says which code and which
# version of the match made them (``kept``); anything else is stale and the
# standings are folded afresh from the entries and kept again. The pickles are
# written only here; a restored database has them all dropped first.


def _code_stamp() -> str:
    """Changes with any change to Scorer's code (the rules above all)."""
    digest = hashlib.sha256(f"{pickle.HIGHEST_PROTOCOL}".encode())
    for path in sorted(Path(__file__).parent.rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


STAMP = _code_stamp()


def _kept(db: Database, stored: Stored, lazy: bool = False) -> KeptList:
    """What the deals of the match keep of their fold, in order (each loaded
    when read), if it is all there and current; else none (fold from deal 1).

    ``lazy``: inside a write (its lock holds the match still), each deal's
    pickle is read only when the fold reads it; a read takes them all at once,
    as they stand with the match it read."""
    if stored.kept != f"{STAMP}:{stored.version}":
        return KeptList([])
    if lazy:
        count, whole = db.execute(
            "select count(*), total(substr(kept, 1, 2) = ? and substr(kept, -1) = X'2E') "
            "from deals where match_id = ? and deleted is null",
            [_PROTOCOL, stored.id],
        ).fetchone()
        if count != len(stored.deal_ids) or whole != count:
            return KeptList([])
        ids = stored.deal_ids

        def load(first: int, stop: int) -> list[bytes | None]:
            wanted = ids[first:stop]
            marks = ", ".join("?" * len(wanted))
            found = dict(db.execute(f"select id, kept from deals where id in ({marks})", wanted))
            return [found.get(i) for i in wanted]

        return KeptList([None] * count, load=load, text=stored.points)
    blobs = [
        r[0]
        for r in db.execute(
            "select kept from deals where match_id = ? and deleted is null order by pos",
            [stored.id],
        )
    ]
    if len(blobs) != len(stored.deal_ids) or not all(map(_whole_pickle, blobs)):
        return KeptList([])
    return KeptList(blobs, text=stored.points)


def _whole_pickle(blob: bytes | None) -> bool:
    """Looks like a pickle this code wrote, whole (its protocol, its end)."""
    return isinstance(blob, bytes) and blob[:2] == _PROTOCOL and blob[-1:] == b"."


_PROTOCOL = pickle.dumps(None, pickle.HIGHEST_PROTOCOL)[:2]


def _keep(db: Database, match_id: int, version: int, st: Standings) -> None:
    """Keep what the fold gave for the deals it folded (from ``st.folded_from``),
    and the match's summary and points, as of ``version`` of the match."""
    folded = [
        r[0] for r in db.execute(_LIVE_IDS + " limit -1 offset ?", [match_id, st.folded_from])
    ]
    db.conn.executemany(
        "update deals set kept = ? where id = ?",
        [
            (pickle.dumps(k, pickle.HIGHEST_PROTOCOL), deal_id)
            for k, deal_id in zip(st.kept[st.folded_from :], folded)
        ],
    )
    summary = {
        "deals": len(st.kept),
        "totals": st.totals,
        "finished": st.finished,
        "winners": st.winners,
        "places": st.places,
    }
    db.execute(
        "update matches set kept = ?, summary = ?, points = ? where id = ?",
        [f"{STAMP}:{version}", json.dumps(summary), st.kept.points_json(), match_id],
    )


def rebuild(db: Database) -> tuple[int, list[tuple[str, str]]]:
    """Fold every match (the trash's too) afresh from its entries and keep that.
    Returns how many matches there are, and (public id, why) for each whose
    kept figures were current yet differed from the fresh fold, or whose
    entries these rules cannot read."""
    ids = [r[0] for r in db.execute("select id from matches where game != '' order by id")]
    differed = []
    for match_id in ids:
        stored = get(db, match_id, trash=True)
        old = _kept(db, stored)
        summary = db.execute("select summary from matches where id = ?", [match_id]).fetchone()[0]
        try:
            st = fold(stored.match)
        except DealError as e:
            differed.append((stored.pub, str(e.message)))
            continue
        with writing(db):
            _keep(db, stored.id, stored.version, st)
            now_summary = db.execute(
                "select summary from matches where id = ?", [match_id]
            ).fetchone()[0]
        if old and (old != st.kept or summary != now_summary):
            first = next((k.number for k, f in zip(old, st.kept) if k != f), len(old))
            differed.append((stored.pub, _("kept figures differed from deal %(n)s", n=first)))
    return len(ids), differed


def forget_kept(db: Database) -> None:
    """Drop every kept fold (a restored database: only its entries are trusted);
    each match is folded afresh when it is next read."""
    with writing(db):
        db.execute("update deals set kept = null")
        db.execute("update matches set kept = null, summary = null, points = null")


def pass_versions(db: Database, before: dict[str, int]) -> None:
    """Move every match's version past what it was here and what ``before``
    (public id → version: the database a restore replaces) says it was. A
    restore is a change: whatever a phone, an API client or a worker drew or
    read of a version before it is never taken for what follows."""
    with writing(db):
        rows = db.execute("select id, pub, version from matches").fetchall()
        db.conn.executemany(
            "update matches set version = ? where id = ?",
            [(max(version, before.get(pub, 0)) + 1, row_id) for row_id, pub, version in rows],
        )


def standings(db: Database, stored: Stored) -> Standings:
    """The standings of a stored match: what the sheet, the API read and the
    exports draw. From what its deals keep; folded afresh (and kept) when that
    is missing or stale. Raises DealError for a stored deal these rules can no
    longer read."""
    kept = _kept(db, stored)
    st = fold(stored.match, kept)
    if st.folded_from < len(st.kept):
        with contextlib.suppress(sqlite3.OperationalError):  # busy: the next read keeps it
            with writing(db):
                if db.execute(
                    "select version from matches where id = ?", [stored.id]
                ).fetchone() == (stored.version,):
                    _keep(db, stored.id, stored.version, st)
    return st


def legacy_pub(db: Database, number: int) -> str | None:
    """The public id of a match made before matches had one, by its old number
    (its old link still works); None for any other number."""
    rows = list(
        db.query(
            "select pub from matches where id = ? and legacy = 1 and deleted is null", [number]
        )
    )
    return rows[0]["pub"] if rows else None


def listing(db: Database, browser: str | None = None, trash: bool = False) -> list[Stored]:
    """The matches a browser scores or has watched (every match: ``browser``
    None), the latest changed first; ``trash``: those it scores that are in the
    trash, for TRASH_DAYS."""
    where = "m.deleted is not null and m.deleted >= ?" if trash else "m.deleted is null"
    args: list = [trash_since()] if trash else []
    if browser is None:
        sql = f"select m.* from matches m where {where} and m.game != ''"
    else:
        sql = (
            f"select m.* from matches m join browsers b on b.match_id = m.id "
            f"where b.browser = ? and {where}" + (" and b.role = 'score'" if trash else "")
        )
        args = [browser] + args
    rows = list(db.query(sql + " order by m.updated desc, m.id desc", args))
    return [_stored(db, r) for r in rows]


@dataclass
class Summary:
    """A match as a list shows it: from the figures kept with each write."""

    pub: str
    game: str
    players: list[str]
    created: str
    updated: str
    deals: int
    totals: list[int]
    finished: bool
    winners: list[int]
    readable: bool = True  # False: a stored deal these rules can no longer read


PER_PAGE = 30  # the matches a page of the home page lists


def _mine(browser: str) -> tuple[str, list]:
    """The matches a browser scores or has watched, out of the trash."""
    return (
        "from matches m join browsers b on b.match_id = m.id "
        "where b.browser = ? and m.deleted is null and m.game != ''",
        [browser],
    )


def _refresh(db: Database, browser: str) -> None:
    """Fold afresh the matches of a browser whose kept figures are missing or
    were made by other code (after an upgrade): once, then never again."""
    frm, args = _mine(browser)
    stale = db.execute(
        f"select m.id {frm} and (m.kept is null or m.kept != ? || ':' || m.version)",
        [*args, STAMP],
    ).fetchall()
    for (match_id,) in stale:
        with contextlib.suppress(DealError):
            standings(db, get(db, match_id))


def summaries(
    db: Database,
    browser: str,
    *,
    game: str | None = None,
    player: str | None = None,
    finished: bool | None = None,
    page: int = 1,
) -> tuple[list[Summary], int]:
    """One page of the matches a browser scores or has watched, the latest
    changed first, from their kept figures (no fold), and how many there are
    in all; ``game``, ``player`` (a name as entered), ``finished`` narrow it."""
    if not browser:
        return [], 0
    _refresh(db, browser)
    frm, args = _mine(browser)
    if game:
        frm += " and m.game = ?"
        args.append(game)
    if player:
        frm += " and exists (select 1 from json_each(m.players) p where p.value = ?)"
        args.append(player)
    if finished is not None:
        frm += " and coalesce(json_extract(m.summary, '$.finished'), 0) = ?"
        args.append(int(finished))
    total = db.execute(f"select count(*) {frm}", args).fetchone()[0]
    rows = db.query(
        f"select m.* {frm} order by m.updated desc, m.id desc limit ? offset ?",
        [*args, PER_PAGE, (max(page, 1) - 1) * PER_PAGE],
    )
    out = []
    for r in rows:
        players = json.loads(r["players"])
        kept = json.loads(r["summary"]) if r["summary"] else None
        fresh = kept is not None and r["kept"] == f"{STAMP}:{r['version']}"
        out.append(
            Summary(
                r["pub"],
                r["game"],
                players,
                r["created"],
                r["updated"],
                kept["deals"] if fresh else 0,
                kept["totals"] if fresh else [0] * len(players),
                kept["finished"] if fresh else False,
                kept["winners"] if fresh else [],
                readable=fresh,
            )
        )
    return out, total


def choices(db: Database, browser: str) -> tuple[list[str], list[str]]:
    """The games and the player names among a browser's matches, for its filters."""
    if not browser:
        return [], []
    frm, args = _mine(browser)
    games = [r[0] for r in db.execute(f"select distinct m.game {frm} order by m.game", args)]
    names = [
        r[0]
        for r in db.execute(
            f"select distinct p.value {frm.replace('where', ', json_each(m.players) p where', 1)} "
            "order by p.value collate nocase",
            args,
        )
    ]
    return games, names


TRASH_DAYS = 30


def trash_since() -> str:
    return (datetime.now(UTC) - timedelta(days=TRASH_DAYS)).isoformat(timespec="seconds")


def role_of(db: Database, browser: str | None, match_id: int) -> str | None:
    """ "score", "watch", or None: what a browser is to a match."""
    if not browser:
        return None
    row = db.execute(
        "select role from browsers where browser = ? and match_id = ?", [browser, match_id]
    ).fetchone()
    return row[0] if row else None


def remember(db: Database, browser: str, match_id: int, role: str) -> None:
    """A browser scores (``score``) or has watched (``watch``) a match; scoring
    is never taken back by watching."""
    if role_of(db, browser, match_id) in (role, "score"):
        return
    with writing(db):
        db["browsers"].upsert(
            {"browser": browser, "match_id": match_id, "role": role, "at": now()},
            pk=("browser", "match_id"),
        )


def events(db: Database, match_id: int | str) -> list[dict]:
    """The match's events (by its number in the store or its public id), oldest
    first (each entry as JSON text)."""
    if isinstance(match_id, str):
        match_id = _match_row(db, match_id, trash=True)["id"]
    return list(db.query("select * from events where match_id = ? order by id", [match_id]))


# --- writing --------------------------------------------------------------------


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


def _event(
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


_LIVE_IDS = "select id from deals where match_id = ? and deleted is null order by pos"


@contextlib.contextmanager
def _write(
    db: Database, match_id: int, key: str | None, digest: str, if_version: int | None
) -> Iterator[tuple[Stored | None, list]]:
    """The shared frame of every write to a match: the lock, the repeat, the
    match as it stands, the version precondition; then the new version, and
    the answer kept under ``key``. Yields (the match, or None for a repeat,
    and a one-item list the caller puts its Change in)."""
    with writing(db):
        row_id = match_id if isinstance(match_id, int) else _match_row(db, match_id, True)["id"]
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
                yield None, [Change.repeated(rows[0]["reply"])]
                return
        stored = get(db, row_id)
        if if_version is not None and if_version != stored.version:
            raise Stale(_("the match has changed since that version was read: nothing was stored"))
        out: list[Change] = []
        yield stored, out
        version = stored.version + 1
        db.execute(
            "update matches set version = ?, updated = ? where id = ?", [version, now(), row_id]
        )
        out[0].version = version
        if out[0].standings is not None:
            _keep(db, row_id, version, out[0].standings)
        if key is not None:
            db["replies"].insert(
                {
                    "match_id": row_id,
                    "key": key,
                    "request": digest,
                    "reply": out[0].reply_json(),
                    "at": now(),
                }
            )


def create(db: Database, match: Match, kind: str = "create", browser: str | None = None) -> Stored:
    """Store a checked match (its deals already folded), with a new public id
    and edit key; ``browser`` scores it. Returns it as stored."""
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
                    "pub": schema.new_id(),
                    "edit_key": secrets.token_urlsafe(16),
                    "legacy": 0,
                }
            )
            .last_pk
        )
        for pos, entry in enumerate(match.deals, start=1):
            db["deals"].insert({"match_id": match_id, "pos": pos, "rev": 1, "entry": _dump(entry)})
        _keep(db, match_id, 1, fold(match))
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
        if browser:
            db["browsers"].upsert(
                {"browser": browser, "match_id": match_id, "role": "score", "at": stamp},
                pk=("browser", "match_id"),
            )
        return get(db, match_id)


def _keep_later_entries(db: Database, stored: Stored, standings: Standings, start: int) -> None:
    """After a change at deal ``start`` (1-based), store any later deal whose
    entry, as its game checks it, now reads differently."""
    for i in range(start, len(standings.rows)):
        entry = standings.rows.entries[i]
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
    """Add the next deal, whatever its number (the API's ``POST …/deals`` without
    a deal number). ``mark``: the new-deal page's ``Stored.next_mark()``.

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
        out.append(_add(db, stored, raw))
    return out[0]


def _add(db: Database, stored: Stored, raw: Any) -> Change:
    """Store ``raw`` as the next deal, inside a write."""
    deals, standings = checked_entry(stored.match, raw, kept=_kept(db, stored, lazy=True))
    pos = db.execute(
        "select coalesce(max(pos), 0) + 1 from deals where match_id = ?", [stored.id]
    ).fetchone()[0]
    deal_id = (
        db["deals"]
        .insert({"match_id": stored.id, "pos": pos, "rev": 1, "entry": _dump(deals[-1])})
        .last_pk
    )
    event = _event(db, stored.id, "add", len(deals), deals[-1], deal_id, rev=1)
    return Change("add", len(deals), 0, standings, event=event)


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
        raise Stale(_("deal %(n)s was deleted on another phone meanwhile", n=number), None, deal_id)
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
        out.append(_edit(db, stored, _target(stored, number, mark), raw))
    return out[0]


def _edit(db: Database, stored: Stored, number: int, raw: Any) -> Change:
    """Put ``raw`` in place of deal ``number``, inside a write; later deals re-flow."""
    deals, standings = checked_entry(stored.match, raw, number, _kept(db, stored, lazy=True))
    deal_id = stored.deal_ids[number - 1]
    db.execute(
        "update deals set entry = ?, rev = rev + 1 where id = ?",
        [_dump(deals[number - 1]), deal_id],
    )
    _keep_later_entries(db, stored, standings, number)
    event = _event(
        db,
        stored.id,
        "edit",
        number,
        deals[number - 1],
        deal_id,
        before=stored.match.deals[number - 1],
        rev=stored.revs[number - 1] + 1,
    )
    return Change("edit", number, 0, standings, event=event)


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
        standings = fold(trial, _kept(db, stored, lazy=True)[: number - 1])
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
        event = _event(
            db, stored.id, "delete", number, removed, deal_id, rev=stored.revs[number - 1]
        )
        out.append(Change("delete", number, 0, standings, event=event))
    return out[0]


# --- the table's deal N -----------------------------------------------------------
#
# A table plays deal 13 once; any number of phones may record it, now or an hour
# later (offline). A phone's entry names the deal it records: the next deal is
# stored; a stored deal entered again, the same once its game has checked it, is
# that deal (said, never stored twice); one that differs is a conflict, kept
# beside the stored deal (and in the history) until a scorer chooses.


def anchored(stored: Stored, number: int, anchor: str | None) -> int:
    """The number, as the match stands now, of deal ``number`` of a page drawn
    at ``anchor`` (its ``Stored.next_mark()``: the deals then, the last one's
    id). A deal deleted since before that last one moves the number up with it."""
    seen = parse_mark(anchor) if anchor and "." in anchor else None
    if seen is None or seen[1] == 0:
        return number
    count, last = seen
    where = stored.number_of(last)
    return number if where is None else where + (number - count)


def _same(a: Any, b: Any) -> bool:
    """Two entries of one deal say the same (``play``, how it was entered, aside)."""

    def bare(entry):
        entry = json.loads(_dump(entry))
        return {k: v for k, v in entry.items() if k != "play"} if isinstance(entry, dict) else entry

    return bare(a) == bare(b)


def record_deal(
    db: Database,
    match_id: int | str,
    number: int,
    raw: Any,
    *,
    anchor: str | None = None,
    if_version: int | None = None,
    key: str | None = None,
    browser: str | None = None,
) -> Change:
    """Record what a phone (``browser``) entered for the table's deal ``number`` (as the page
    drawn at ``anchor`` numbered it). A Change of kind ``add`` (it was the next
    deal: stored), ``same`` (deal ``number`` is stored and says the same: nothing
    stored twice) or ``conflict`` (it differs: kept for a choice, ``conflict``
    its id; the same entry again finds the same conflict).

    Raises NotFound, Gap (a deal before it is not in yet), KeyReused, Stale
    (``if_version``), or DealError (its game refuses the entry, or the match is
    over)."""
    digest = _request_digest("deal", [number, anchor], raw)
    with _write(db, match_id, key, digest, if_version) as (stored, out):
        if stored is None:
            return out[0]
        count = len(stored.deal_ids)
        number = anchored(stored, number, anchor)
        if number > count + 1 or number < 1:
            raise Gap(_("deal %(n)s is not entered yet: it comes first", n=count + 1), count + 1)
        if number == count + 1:
            out.append(_add(db, stored, raw))
            return out[0]
        standings = fold(stored.match, _kept(db, stored, lazy=True))
        try:
            mine = check_entry(standings.rules, raw, standings.rows[number - 1].plan)
        except EntryError as e:
            raise DealError(number, e) from None
        theirs = stored.match.deals[number - 1]
        deal_id = stored.deal_ids[number - 1]
        if _same(mine, theirs):
            event = _event(db, stored.id, "same", number, mine, deal_id)
            out.append(Change("same", number, 0, standings, event=event))
            return out[0]
        found = db.execute(
            "select id, event from conflicts where deal_id = ? and entry = ? and closed is null",
            [deal_id, _dump(mine)],
        ).fetchone()
        if found:
            conflict, event = found
        else:
            event = _event(db, stored.id, "conflict", number, mine, deal_id, before=theirs)
            conflict = (
                db["conflicts"]
                .insert(
                    {
                        "match_id": stored.id,
                        "deal_id": deal_id,
                        "entry": _dump(mine),
                        "browser": browser,
                        "at": now(),
                        "event": event,
                    }
                )
                .last_pk
            )
        out.append(Change("conflict", number, 0, standings, event=event, conflict=conflict))
    return out[0]


def conflicts(db: Database, stored: Stored, *, open_only: bool = True) -> list[dict]:
    """The match's conflicts (the open ones: waiting for a scorer's choice), oldest
    first: ``id``, ``number`` (the deal as numbered now; None once deleted),
    ``entry`` (the other phone's), ``stored`` (the deal's entry now), ``at``,
    ``closed``, ``browser`` (the phone that entered it)."""
    rows = db.execute(
        "select c.id, c.deal_id, c.entry, c.at, c.closed, d.entry, c.browser from conflicts c "
        "join deals d on d.id = c.deal_id where c.match_id = ?"
        + (" and c.closed is null" if open_only else "")
        + " order by c.id",
        [stored.id],
    ).fetchall()
    return [
        {
            "id": cid,
            "deal_id": deal_id,
            "number": stored.number_of(deal_id),
            "entry": json.loads(entry),
            "stored": json.loads(theirs),
            "at": at,
            "closed": closed,
            "browser": browser,
        }
        for cid, deal_id, entry, at, closed, theirs, browser in rows
    ]


def conflict(db: Database, stored: Stored, conflict_id: int) -> dict | None:
    """One conflict of the match, as :func:`conflicts` has it (None: no such)."""
    return next((c for c in conflicts(db, stored, open_only=False) if c["id"] == conflict_id), None)


CHOICES = ("keep", "replace", "next")


def choose(
    db: Database, match_id: int | str, conflict_id: int, choice: str, *, key: str | None = None
) -> Change:
    """A scorer's choice on a conflict: ``keep`` the stored deal (the other entry
    stays in the history), ``replace`` it with the other entry, or store that
    entry as the ``next`` deal (only while the deal it met is the last one).

    Raises NotFound, Stale (already chosen, or the deals moved on), KeyReused,
    DealError (the entry cannot stand there)."""
    digest = _request_digest("choose", [conflict_id, choice], None)
    with _write(db, match_id, key, digest, None) as (stored, out):
        if stored is None:
            return out[0]
        found = conflict(db, stored, conflict_id)
        if found is None or choice not in CHOICES:
            raise NotFound(_("there is no such choice to make"))
        if found["closed"] is not None:
            raise Stale(_("that choice was already made on another phone"))
        number = found["number"]
        if number is None:
            raise Stale(_("the deal it met was deleted on another phone meanwhile"))
        if choice == "replace":
            change = _edit(db, stored, number, found["entry"])
        elif choice == "next":
            if number != len(stored.deal_ids):
                raise Stale(
                    _("deal %(n)s is entered already: there is no empty next deal", n=number + 1),
                    number + 1,
                )
            change = _add(db, stored, found["entry"])
        else:
            standings = fold(stored.match, _kept(db, stored, lazy=True))
            event = _event(
                db,
                stored.id,
                "keep",
                number,
                found["stored"],
                found["deal_id"],
                before=found["entry"],
            )
            change = Change("keep", number, 0, standings, event=event)
        db.execute("update conflicts set closed = ? where id = ?", [change.event, conflict_id])
        out.append(change)
    return out[0]


def deleted_deal(db: Database, stored: Stored, deal_id: int) -> dict | None:
    """A deal of the match deleted meanwhile, as it would stand restored: its
    ``deal_id``, its ``number`` then, its ``entry``, when it was ``deleted``, the ``match`` with it
    back in its place. None: not a deleted deal of this match."""
    row = db.execute(
        "select pos, entry, deleted from deals where id = ? and match_id = ?",
        [deal_id, stored.id],
    ).fetchone()
    if row is None or row[2] is None:
        return None
    pos, entry, deleted = row
    before = db.execute(
        "select count(*) from deals where match_id = ? and deleted is null and pos < ?",
        [stored.id, pos],
    ).fetchone()[0]
    deals = list(stored.match.deals)
    deals.insert(before, json.loads(entry))
    m = stored.match
    return {
        "deal_id": deal_id,
        "number": before + 1,
        "entry": json.loads(entry),
        "deleted": deleted,
        "match": Match(m.game, m.options, m.players, m.first_dealer, deals),
    }


def revive_deal(
    db: Database, match_id: int | str, deal_id: int, raw: Any, *, key: str | None = None
) -> Change:
    """A deal deleted on another phone while this one edited it: back in its
    place with this phone's entry (one change of the history, a restore; Undo
    deletes it again). Raises NotFound, Stale (it is back already), KeyReused,
    DealError."""
    with _write(db, match_id, key, _request_digest("revive", deal_id, raw), None) as (
        stored,
        out,
    ):
        if stored is None:
            return out[0]
        gone = deleted_deal(db, stored, deal_id)
        if gone is None:
            raise Stale(_("that deal is not deleted (any more): nothing was changed"))
        number = gone["number"]
        deals, standings = checked_entry(
            gone["match"], raw, number, _kept(db, stored, lazy=True)[: number - 1]
        )
        rev = db.execute("select rev from deals where id = ?", [deal_id]).fetchone()[0] + 1
        db.execute(
            "update deals set deleted = null, entry = ?, rev = ? where id = ?",
            [_dump(deals[number - 1]), rev, deal_id],
        )
        back = get(db, stored.id)
        _keep_later_entries(db, back, standings, number)
        event = _event(
            db,
            stored.id,
            "restore",
            number,
            deals[number - 1],
            deal_id,
            before=gone["entry"],
            rev=rev,
        )
        out.append(Change("restore", number, 0, standings, event=event))
    return out[0]


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
    digest = _request_digest("setup", None, [players, options])
    with _write(db, match_id, key, digest, None) as (stored, out):
        if stored is None:
            return out[0]
        out.append(_apply_setup(db, stored, players, options, undoes))
    return out[0]


def _apply_setup(
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
        [_dump(players), json.dumps(options), stored.id],
    )
    before = {"players": stored.match.players, "options": stored.match.options}
    event = _event(
        db,
        stored.id,
        "setup",
        None,
        {"players": players, "options": options},
        before=before,
        undoes=undoes,
    )
    return Change("setup", None, 0, standings, event=event)


UNDONE_AS = {"add": "delete", "restore": "delete", "edit": "edit", "delete": "restore"}


def undo(db: Database, match_id: int | str, event_id: int, *, key: str | None = None) -> Change:
    """Take back one change of the match's history, as a new change (nothing is
    erased): a deal added or restored is deleted again, an edit puts back the
    entry it replaced, a deleted deal comes back in its place. Refused (Stale)
    when the deal was changed again since: that later change comes first.

    Raises NotFound, Stale, KeyReused, DealError (the match cannot stand so)."""
    digest = _request_digest("undo", event_id, None)
    with _write(db, match_id, key, digest, None) as (stored, out):
        if stored is None:
            return out[0]
        rows = list(
            db.query("select * from events where id = ? and match_id = ?", [event_id, stored.id])
        )
        if rows and rows[0]["kind"] == "setup":
            now_setup = {"players": stored.match.players, "options": stored.match.options}
            if now_setup != json.loads(rows[0]["entry"]):
                raise Stale(
                    _(
                        "the players or options were changed again after that: undo "
                        "the later change first"
                    )
                )
            back = json.loads(rows[0]["before"])
            out.append(_apply_setup(db, stored, back["players"], back["options"], event_id))
            return out[0]
        if not rows or rows[0]["kind"] not in UNDONE_AS or not rows[0]["deal_id"]:
            raise NotFound(_("there is no change to undo there"))
        event = rows[0]
        deal = db.execute(
            "select rev, entry, deleted from deals where id = ?", [event["deal_id"]]
        ).fetchone()
        number = stored.number_of(event["deal_id"])
        gone = deal is None or deal[2] is not None
        if deal is None or deal[0] != event["rev"] or gone != (event["kind"] == "delete"):
            raise Stale(
                _(
                    "deal %(n)s was changed again after that: undo the later change first",
                    n=number or event["deal"],
                ),
                number,
            )
        kind = UNDONE_AS[event["kind"]]
        kept = _kept(db, stored, lazy=True)
        if kind == "delete":
            deals = stored.match.deals[: number - 1] + stored.match.deals[number:]
            standings = fold(
                Match(
                    stored.match.game,
                    stored.match.options,
                    stored.match.players,
                    stored.match.first_dealer,
                    deals,
                ),
                kept[: number - 1],
            )
            db.execute("update deals set deleted = ? where id = ?", [now(), event["deal_id"]])
            entry, before, rev = json.loads(deal[1]), None, deal[0]
        elif kind == "edit":
            entry = json.loads(event["before"])
            deals, standings = checked_entry(stored.match, entry, number, kept)
            entry, before, rev = deals[number - 1], json.loads(deal[1]), deal[0] + 1
            db.execute(
                "update deals set entry = ?, rev = ? where id = ?",
                [_dump(entry), rev, event["deal_id"]],
            )
        else:  # restore: back in its place among the deals
            db.execute("update deals set deleted = null where id = ?", [event["deal_id"]])
            back = get(db, stored.id)
            number = back.number_of(event["deal_id"])
            standings = fold(back.match, kept[: number - 1])
            entry, before, rev = json.loads(deal[1]), None, deal[0]
        new = _event(
            db,
            stored.id,
            kind,
            number,
            entry,
            event["deal_id"],
            before=before,
            rev=rev,
            undoes=event_id,
        )
        out.append(Change(kind, number, 0, standings, event=new))
    return out[0]


def history(db: Database, match_id: int | str) -> list[dict]:
    """Every change of the match, oldest first, each with its entries read
    (``entry``, ``before``) and whether Undo can take it back now (``undoable``)."""
    return [_line(db, event) for event in events(db, match_id)]


def change(db: Database, match_id: int, event_id: int) -> dict | None:
    """One change of the match's history, as :func:`history` has it (None: not
    a change of this match)."""
    rows = list(
        db.query("select * from events where id = ? and match_id = ?", [event_id, match_id])
    )
    return _line(db, rows[0]) if rows else None


def _line(db: Database, event: dict) -> dict:
    line = dict(event)
    for field in ("entry", "before"):
        line[field] = json.loads(event[field]) if event[field] else None
    line["undoable"] = False
    if event["kind"] == "setup":
        current = _match_row(db, event["match_id"], trash=True)
        line["undoable"] = line["entry"] == {
            "players": json.loads(current["players"]),
            "options": json.loads(current["options"]),
        }
    elif event["kind"] in UNDONE_AS and event["deal_id"]:
        deal = db.execute(
            "select rev, deleted from deals where id = ?", [event["deal_id"]]
        ).fetchone()
        line["undoable"] = (
            bool(deal)
            and deal[0] == event["rev"]
            and ((deal[1] is not None) == (event["kind"] == "delete"))
        )
    return line


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
        _event(db, stored.id, "delete_match", None, None)


def restore_match(db: Database, match_id: int) -> Stored:
    """Take a match out of the trash. Raises NotFound (not there, or too old)."""
    with writing(db):
        row = _match_row(db, match_id, trash=True)
        if not row["deleted"] or row["deleted"] < trash_since():
            raise NotFound(_("that match is not in the trash"))
        db.execute(
            "update matches set deleted = null, version = version + 1, updated = ? where id = ?",
            [now(), row["id"]],
        )
        _event(db, row["id"], "restore_match", None, None)
        return get(db, row["id"])


__all__ = [
    "Change",
    "DealError",
    "Gap",
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
    "record_deal",
    "get",
    "get_db",
    "init_app",
    "listing",
    "parse_mark",
]
