"""A match as the store holds it: its row, its live deals in order, their ids
and revisions (:class:`Stored`), found by its number inside the store or its
public id; the edit key checked in constant time."""

from __future__ import annotations

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


# The latest deals this process read of each match (by its public id, which no
# other database has), whatever its version, with the database's generation
# then: a version it has not read yet (another worker's write) reads only the
# entries of the deals that are new or changed since, by id and revision (an
# entry never changes without its revision, and ids are never handed out
# twice, but by a restore: it makes a new generation, kept.pass_versions).
LATEST = Recent(256)
_LIVE = "select id, rev from deals where match_id = ? and deleted is null order by pos"
_CHUNK = 500  # deals whose entries one statement reads


def _stored(db: Database, row: dict, committed: bool = True) -> Stored:
    """The match of ``row`` with its live deals. ``committed``: what is read is
    as stored for good (not a write's changes, which may yet be rolled back)."""
    generation = db.execute("pragma user_version").fetchone()[0]
    older = LATEST.peek(row["pub"])
    live, texts = _deals(db, row["id"], older[1:] if older and older[0] == generation else None)
    match = Match(
        row["game"],
        json.loads(row["options"]),
        json.loads(row["players"]),
        row["first_dealer"],
        Entries(texts),
    )
    stored = Stored(
        row["id"],
        match,
        row["version"],
        [d[0] for d in live],
        [d[1] for d in live],
        row["updated"],
        row["pub"],
        row["edit_key"],
        row["created"],
        row["deleted"],
        row["kept"],
        row["points"],
    )
    if committed:
        LATEST.put(row["pub"], (generation, live, texts))
    return stored


def _deals(db: Database, match_id: int, older: tuple | None) -> tuple[list, list[str]]:
    """The live deals' (id, revision), in order, and their entries (JSON text):
    those ``older`` (the same, as read before) holds at the same revision from
    it, the others read. If a deal changed between the two statements, all of
    it again, in one."""
    if older is None:
        return _all(db, match_id)
    live = db.execute(_LIVE, [match_id]).fetchall()  # from the index deals_live alone
    pairs, known_texts = older
    same = min(len(live), len(pairs))
    if live[:same] == pairs[:same]:  # the usual: deals added, or the last deleted
        texts = known_texts[:same] + _read(db, [d[0] for d in live[same:]], live[same:])
    else:
        known = dict(zip(pairs, known_texts))
        texts = [known.get(deal) for deal in live]
        missing = [i for i, text in enumerate(texts) if text is None]
        wanted = [live[i] for i in missing]
        for i, text in zip(missing, _read(db, [d[0] for d in wanted], wanted)):
            texts[i] = text
    return _all(db, match_id) if None in texts else (live, texts)


def _all(db: Database, match_id: int) -> tuple[list, list[str]]:
    rows = db.execute(
        "select id, rev, entry from deals where match_id = ? and deleted is null order by pos",
        [match_id],
    ).fetchall()
    return [(r[0], r[1]) for r in rows], [r[2] for r in rows]


def _read(db: Database, ids: list[int], expect: list | None) -> list[str | None]:
    """The entries of the live deals ``ids``, in their order (None for one gone,
    or, with ``expect``, at another revision than it says)."""
    found: dict = {}
    for i in range(0, len(ids), _CHUNK):
        part = ids[i : i + _CHUNK]
        marks = ", ".join("?" * len(part))
        for deal_id, rev, entry in db.execute(
            f"select id, rev, entry from deals where id in ({marks}) and deleted is null", part
        ):
            found[deal_id] = (rev, entry)
    out = []
    for n, deal_id in enumerate(ids):
        rev, entry = found.get(deal_id, (None, None))
        out.append(entry if expect is None or expect[n][1] == rev else None)
    return out


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
    row = _match_row(db, ref, trash)
    if recent is False or (recent is None and db.conn.in_transaction):
        return _stored(db, row, committed=False)
    return RECENT.get(tuple(row[c] for c in _KEYED), lambda: _stored(db, row))


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
