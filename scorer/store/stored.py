"""A match as the store holds it: its row, its live deals in order, their ids
and revisions (:class:`Stored`), found by its number inside the store or its
public id; the edit key checked in constant time."""

from __future__ import annotations

import bisect
import json
import secrets
from dataclasses import dataclass

from sqlite_utils import Database

from ..i18n import _
from ..match import Entries, Match
from ..recent import Recent
from .db import NotFound


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


def match_row(db: Database, ref: int | str, trash: bool = False) -> dict:
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
    return match_row(db, ref)["edit_key"]


# The latest deals this process read of each match (by its public id, which no
# other database has), whatever its version, with the database's generation
# then and the highest change number (``deals.seq``, moved by triggers with
# every change to a deal row, schema m010) among its rows: a version it has not
# read yet (another worker's write) reads only the rows changed since (their
# ids, places, revisions and entries), not the ids of every deal. A restore
# makes a new generation (kept.pass_versions): its rows are read afresh.
LATEST = Recent(256)
_SEQ = "select coalesce(max(seq), 0) from deals where match_id = ?"
_ALL = "select id, rev, entry, pos from deals where match_id = ? and deleted is null order by pos"
_CHANGED = "select id, rev, entry, pos, deleted, seq from deals where match_id = ? and seq > ?"


@dataclass
class Deals:
    """A match's live deals in order, as read: ids, revisions, entries (JSON
    text), places; and the highest change number of the match's rows then."""

    ids: list[int]
    revs: list[int]
    texts: list[str]
    poss: list[int]
    seq: int


def from_row(db: Database, row: dict, committed: bool = True) -> Stored:
    """The match of ``row`` with its live deals. ``committed``: what is read is
    as stored for good (not a write's changes, which may yet be rolled back)."""
    generation = db.execute("pragma user_version").fetchone()[0]
    older = LATEST.peek(row["pub"])
    deals = _deals(db, row["id"], older[1] if older and older[0] == generation else None)
    match = Match(
        row["game"],
        json.loads(row["options"]),
        json.loads(row["players"]),
        row["first_dealer"],
        Entries(deals.texts),
    )
    stored = Stored(
        row["id"],
        match,
        row["version"],
        deals.ids,
        deals.revs,
        row["updated"],
        row["pub"],
        row["edit_key"],
        row["created"],
        row["deleted"],
        row["kept"],
        row["points"],
    )
    if committed:
        LATEST.put(row["pub"], (generation, deals))
    return stored


def _deals(db: Database, match_id: int, older: Deals | None) -> Deals:
    """The live deals: those ``older`` (as read before) holds, with the rows
    changed since (one statement, from the index deals_seq); or all of them.
    The deals' lists are never changed in place: a Stored and LATEST share them."""
    if older is None:
        seq = db.execute(_SEQ, [match_id]).fetchone()[0]  # first: what changes after is read again
        rows = db.execute(_ALL, [match_id]).fetchall()
        return Deals(
            [r[0] for r in rows],
            [r[1] for r in rows],
            [r[2] for r in rows],
            [r[3] for r in rows],
            seq,
        )
    changed = db.execute(_CHANGED, [match_id, older.seq]).fetchall()
    if not changed:
        return older
    gone = {r[0] for r in changed}
    # the deals before the first changed place stand as read (the usual change is
    # at the end: a deal added, the last deleted); the rest are merged by place
    cut = bisect.bisect_left(older.poss, min(r[3] for r in changed))
    if not gone.isdisjoint(older.ids[:cut]):  # a row that moved: all merged
        cut = 0
    tail = [
        (older.poss[i], older.ids[i], older.revs[i], older.texts[i])
        for i in range(cut, len(older.ids))
        if older.ids[i] not in gone
    ]
    tail += [(r[3], r[0], r[1], r[2]) for r in changed if r[4] is None]
    tail.sort()
    return Deals(
        older.ids[:cut] + [t[1] for t in tail],
        older.revs[:cut] + [t[2] for t in tail],
        older.texts[:cut] + [t[3] for t in tail],
        older.poss[:cut] + [t[0] for t in tail],
        max(older.seq, max(r[5] for r in changed)),
    )


# The matches this process read lately, under what their row says of them: the
# version moves with every change to the match or its deals, ``kept`` when its
# fold is kept afresh (the rest of the row is in the key too: it is read anyway).
# A sheet, a poll's redraw or a write at deal 2,000 then reads one row, not
# 2,000 deals.
RECENT = Recent(256)
_KEYED = (
    "pub",
    "version",
    "deleted",
    "kept",
    "created",
    "updated",
    "players",
    "options",
    "first_dealer",
    "edit_key",
    "game",
)


def get(db: Database, ref: int | str, trash: bool = False, *, recent: bool | None = None) -> Stored:
    """The match (by its number inside the store, or its public id) with its live
    deals in order. Raises NotFound (a match in the trash too, unless ``trash``).

    ``recent``: may it be what this process read lately of the same version? By
    default, yes outside a write; inside one (which may have changed the deals
    already, the version not yet) only when the write says so, before it changes
    anything."""
    row = match_row(db, ref, trash)
    if recent is False or (recent is None and db.conn.in_transaction):
        return from_row(db, row, committed=False)
    return RECENT.get(tuple(row[c] for c in _KEYED), lambda: from_row(db, row))


def version_of(db: Database, pub: str) -> tuple[int, int]:
    """A live match's number inside the store and its version, from its row alone:
    what the live sheet's poll compares (no deal is read). Raises NotFound as
    ``get`` does."""
    row = db.execute(
        "select id, version from matches where pub = ? and deleted is null and game != ''",
        [pub],
    ).fetchone()
    if row is None:
        raise NotFound(_("there is no such match (it may have been deleted)"))
    return row[0], row[1]


def legacy_pub(db: Database, number: int) -> str | None:
    """The public id of a match made before matches had one, by its old number
    (its old link still works); None for any other number."""
    rows = list(
        db.query(
            "select pub from matches where id = ? and legacy = 1 and deleted is null", [number]
        )
    )
    return rows[0]["pub"] if rows else None
