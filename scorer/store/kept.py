"""The fold, kept: each live deal keeps what its fold gave (scorer.match.Kept,
pickled), the match its summary and every deal's points; the sheet, the chart,
the API read and the exports draw from it, and a change folds on from the deal
it changed. Never a second truth: missing or stale (other code, another
version), it is folded afresh from the entries and kept again."""

from __future__ import annotations

import contextlib
import hashlib
import json
import pickle
import secrets
import sqlite3
from pathlib import Path

from sqlite_utils import Database

from .. import schema
from ..i18n import _
from ..match import DealError, KeptList, Standings, fold
from ..recent import Recent
from .db import writing
from .stored import LATEST as stored_latest
from .stored import RECENT as stored_recent
from .stored import Stored, get

_LAST_IDS = "select id from deals where match_id = ? and deleted is null order by pos desc limit ?"


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
    for path in sorted(Path(__file__).parent.parent.rglob("*.py")):
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
        if _PROTOCOL == b"\x80\x05":  # from an index of the deals not whole alone (m010)
            count = len(stored.deal_ids)  # as read in this write
            whole = count - len(db.execute(_UNWHOLE, [stored.id]).fetchall())
        else:
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
    out = KeptList(_loaded_before(stored.pub, blobs), text=stored.points)
    LOADED.put(stored.pub, (blobs, out))
    return out


# What the deals of a match kept when this process last read them all, and the
# KeptList it made of them: a deal whose pickle reads the same bytes now is the
# same fold, and "Show all" after a change at deal 1,000 loads one pickle, not
# 1,000 (the standings of the version before share them the same way).
LOADED = Recent(256)


def _loaded_before(pub: str, blobs: list[bytes]) -> list:
    """``blobs``, each one this process loaded before (the same bytes) as loaded."""
    before = LOADED.peek(pub)
    if before is None:
        return list(blobs)
    old_blobs, old = before
    loaded = {
        blob: item
        for blob, item in zip(old_blobs, old.items)
        if item is not None and not isinstance(item, bytes)
    }
    return [loaded.get(blob, blob) for blob in blobs]


def _whole_pickle(blob: bytes | None) -> bool:
    """Looks like a pickle this code wrote, whole (its protocol, its end)."""
    return isinstance(blob, bytes) and blob[:2] == _PROTOCOL and blob[-1:] == b"."


_PROTOCOL = pickle.dumps(None, pickle.HIGHEST_PROTOCOL)[:2]
_UNWHOLE = (
    f"select id from deals indexed by deals_unwhole where match_id = ? and {schema.UNWHOLE_KEPT}"
)


def keep_standings(db: Database, match_id: int, version: int, st: Standings) -> None:
    """Keep what the fold gave for the deals it folded (from ``st.folded_from``),
    and the match's summary and points, as of ``version`` of the match."""
    # the last deals, read backwards from the index deals_live (an offset counted
    # every deal before them)
    folded = [r[0] for r in db.execute(_LAST_IDS, [match_id, len(st.kept) - st.folded_from])]
    folded.reverse()
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
            keep_standings(db, stored.id, stored.version, st)
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
    forget_recent()
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
    # A new generation of the database: a deal's id in it may have named another
    # deal in the one it replaces (scorer.store.stored.LATEST).
    db.execute(f"pragma user_version = {secrets.randbelow(2**31 - 1) + 1}")


# The standings this process drew lately from what a match's deals keep, under
# its public id and version (as scorer.store.stored.RECENT keeps the match).
RECENT = Recent(256)


def _current(stored: Stored) -> tuple | None:
    """The key of a match's kept standings, if what its deals keep is current."""
    if stored.kept != f"{STAMP}:{stored.version}":
        return None
    return (stored.pub, stored.version, stored.kept)


def forget_recent() -> None:
    """Forget what this process read and drew lately (every match and standings):
    for a database changed behind the store's back, whose versions did not move
    (a test that edits rows by hand; an operator with the sqlite3 shell)."""
    RECENT.items.clear()
    LOADED.items.clear()
    stored_recent.items.clear()
    stored_latest.items.clear()


def recent_kept(db: Database, stored: Stored) -> KeptList:
    """What the deals of a match keep, for a write to fold on from: from the
    standings this process drew of this version lately, else read lazily."""
    key = _current(stored)
    st = RECENT.peek(key) if key else None
    return st.kept if st is not None else _kept(db, stored, lazy=True)


def standings(db: Database, stored: Stored) -> Standings:
    """The standings of a stored match: what the sheet, the API read and the
    exports draw. From what its deals keep (as this process drew them lately, or
    read); folded afresh (and kept) when that is missing or stale. Raises
    DealError for a stored deal these rules can no longer read."""
    key = _current(stored)
    if key is None or db.conn.in_transaction:
        return _standings(db, stored)
    return RECENT.get(key, lambda: _standings(db, stored))


def _standings(db: Database, stored: Stored) -> Standings:
    kept = _kept(db, stored)
    st = fold(stored.match, kept)
    before = LOADED.peek(stored.pub)
    if before is not None and before[1] is kept and isinstance(st.kept, KeptList):
        # the fold's list is the one drawn from (and loaded): its first deals are those read
        LOADED.put(stored.pub, (before[0][: st.folded_from], st.kept))
    # (a match of no deals has nothing to fold, but its kept summary may be stale)
    if st.folded_from < len(st.kept) or stored.kept != f"{STAMP}:{stored.version}":
        with contextlib.suppress(sqlite3.OperationalError):  # busy: the next read keeps it
            with writing(db):
                if db.execute(
                    "select version from matches where id = ?", [stored.id]
                ).fetchone() == (stored.version,):
                    keep_standings(db, stored.id, stored.version, st)
    return st
