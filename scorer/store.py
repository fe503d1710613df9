"""Persistence with sqlite-utils: matches, their deals, and an append-only events log.

Only what the table said is stored (game, options, players, first dealer, the
deal entries); every figure is computed by ``scorer.match``. Every write is
one ``BEGIN IMMEDIATE`` transaction, so two phones (or two server workers)
saving at once are serialised and a double tap on Save cannot store a deal
twice.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
from datetime import datetime, timezone
from typing import Any, Iterator

from sqlite_utils import Database

from .i18n import _
from .match import Match, Standings, checked_entry, fold


class Conflict(Exception):
    """The deal the form was for has already been saved (a repeated submit)."""


class NotFound(Exception):
    pass


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def connect(path: str) -> Database:
    conn = sqlite3.connect(path, timeout=10, check_same_thread=False)
    db = Database(conn)
    db.execute("PRAGMA busy_timeout = 10000")
    return db


def init(db: Database) -> None:
    db.enable_wal()
    db["matches"].create({
            "id": int, "game": str, "options": str, "players": str, "first_dealer": int,
        "created": str, "updated": str,
    }, pk="id", if_not_exists=True)
    db["deals"].create({"match_id": int, "n": int, "entry": str}, pk=("match_id", "n"),
                       if_not_exists=True)
    db["events"].create({
        "id": int, "match_id": int, "at": str, "kind": str, "deal": int, "entry": str,
    }, pk="id", if_not_exists=True)
    db["events"].create_index(["match_id"], if_not_exists=True)


@contextlib.contextmanager
def writing(db: Database) -> Iterator[Database]:
    """One write transaction, taken before anything is read."""
    db.conn.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.conn.execute("ROLLBACK")
        raise
    else:
        db.conn.execute("COMMIT")


def _event(db: Database, match_id: int, kind: str, deal: int | None, entry: Any) -> None:
    db["events"].insert({"match_id": match_id, "at": now(), "kind": kind, "deal": deal,
                         "entry": json.dumps(entry, ensure_ascii=False)})


def _row_match(db: Database, row: dict) -> Match:
    deals = [json.loads(d["entry"]) for d in
             db.query("select entry from deals where match_id = ? order by n", [row["id"]])]
    return Match(row["game"], json.loads(row["options"]), json.loads(row["players"]),
                 row["first_dealer"], deals)


def _get_row(db: Database, match_id: int) -> dict:
    rows = list(db.query("select * from matches where id = ?", [match_id]))
    if not rows:
        raise NotFound(match_id)
    return rows[0]


def get(db: Database, match_id: int) -> Match:
    return _row_match(db, _get_row(db, match_id))


def create(db: Database, match: Match, kind: str = "create") -> int:
    """Store a checked match (its deals already folded) and return its id."""
    with writing(db):
        stamp = now()
        match_id = db["matches"].insert({
            "game": match.game, "options": json.dumps(match.options),
            "players": json.dumps(match.players, ensure_ascii=False),
            "first_dealer": match.first_dealer, "created": stamp, "updated": stamp,
        }).last_pk
        for i, entry in enumerate(match.deals, start=1):
            db["deals"].insert({"match_id": match_id, "n": i,
                                "entry": json.dumps(entry, ensure_ascii=False)})
        _event(db, match_id, kind, None, {"game": match.game, "options": match.options,
                                          "players": match.players,
                                          "first_dealer": match.first_dealer,
                                          "deals": len(match.deals)})
    return match_id


def _rewrite(db: Database, match_id: int, deals: list[Any]) -> None:
    db.execute("delete from deals where match_id = ?", [match_id])
    for i, entry in enumerate(deals, start=1):
        db["deals"].insert({"match_id": match_id, "n": i,
                            "entry": json.dumps(entry, ensure_ascii=False)})
    db.execute("update matches set updated = ? where id = ?", [now(), match_id])


def add_deal(db: Database, match_id: int, raw: Any, expect: int | None = None) -> Standings:
    """Add a deal. ``expect`` is the number of deals the form saw: a repeat is a Conflict."""
    with writing(db):
        match = get(db, match_id)
        if expect is not None and len(match.deals) != expect:
            raise Conflict(_("deal %(n)s is already saved", n=expect + 1))
        deals, standings = checked_entry(match, raw)
        db["deals"].insert({"match_id": match_id, "n": len(deals),
                            "entry": json.dumps(deals[-1], ensure_ascii=False)})
        db.execute("update matches set updated = ? where id = ?", [now(), match_id])
        _event(db, match_id, "add", len(deals), deals[-1])
    return standings


def fingerprint(entry: Any) -> str:
    """A short mark of a stored deal, so a page opened for it can tell if it changed."""
    text = json.dumps(entry, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _same_deal(match: Match, number: int, seen: str | None) -> None:
    if not 1 <= number <= len(match.deals):
        raise NotFound(number)
    if seen is not None and seen != fingerprint(match.deals[number - 1]):
        raise Conflict(_("deal %(n)s has changed since this page was opened", n=number))


def edit_deal(db: Database, match_id: int, number: int, raw: Any,
              seen: str | None = None) -> Standings:
    """Replace deal ``number``; ``seen``: its fingerprint when the page was opened."""
    with writing(db):
        match = get(db, match_id)
        _same_deal(match, number, seen)
        deals, standings = checked_entry(match, raw, number)
        _rewrite(db, match_id, deals)
        _event(db, match_id, "edit", number, deals[number - 1])
    return standings


def delete_deal(db: Database, match_id: int, number: int, seen: str | None = None) -> Standings:
    with writing(db):
        match = get(db, match_id)
        _same_deal(match, number, seen)
        removed = match.deals.pop(number - 1)
        standings = fold(match)  # DealError if a later deal cannot stand without it
        _rewrite(db, match_id, [row.entry for row in standings.rows])
        _event(db, match_id, "delete", number, removed)
    return standings


def delete_match(db: Database, match_id: int) -> None:
    with writing(db):
        _get_row(db, match_id)
        db.execute("delete from deals where match_id = ?", [match_id])
        db.execute("delete from matches where id = ?", [match_id])
        _event(db, match_id, "delete_match", None, None)


def listing(db: Database) -> list[tuple[int, Match, str]]:
    """Every match, newest first: (id, match, last change)."""
    rows = list(db.query("select * from matches order by updated desc, id desc"))
    return [(r["id"], _row_match(db, r), r["updated"]) for r in rows]


def events(db: Database, match_id: int) -> list[dict]:
    return list(db.query("select * from events where match_id = ? order by id", [match_id]))
