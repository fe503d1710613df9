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


_DEALS = "select id, rev, entry from deals where match_id = ? and deleted is null order by pos"


def from_row(db: Database, row: dict) -> Stored:
    """The match of ``row`` with its live deals (read in the caller's transaction,
    if any: see ``get``)."""
    rows = db.execute(_DEALS, [row["id"]]).fetchall()
    match = Match(
        row["game"],
        json.loads(row["options"]),
        json.loads(row["players"]),
        row["first_dealer"],
        Entries([r[2] for r in rows]),
    )
    return Stored(
        row["id"],
        match,
        row["version"],
        [r[0] for r in rows],
        [r[1] for r in rows],
        row["updated"],
        row["pub"],
        row["edit_key"],
        row["created"],
        row["deleted"],
    )


def get(db: Database, ref: int | str, trash: bool = False) -> Stored:
    """The match (by its number inside the store, or its public id) with its live
    deals in order, the row and the deals read as one snapshot (another worker's
    write commits before or after, never between). Raises NotFound (a match in
    the trash too, unless ``trash``)."""
    if db.conn.in_transaction:
        return from_row(db, match_row(db, ref, trash))
    db.conn.execute("BEGIN")
    try:
        return from_row(db, match_row(db, ref, trash))
    finally:
        db.conn.execute("COMMIT")


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
