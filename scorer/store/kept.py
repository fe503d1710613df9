"""The one cache: the standings this process folded lately, a match's latest
under its public id (:data:`FOLDS`, the latest 256 matches), with what they
were folded from (the game, options, players, first dealer and every deal's
entry as stored, JSON text). And each match's summary, written in the same
transaction as every change (the home list and the ratings read it).

What it saves: a change folds on from the deal it changed, not from deal 1,
and a read of a version already folded folds nothing. It is never stale: a
read or a write compares the entries it holds with those it read (one string
compare a deal) and folds on from the first that differs, whoever changed
them (another worker, a restore); a match not held is folded from deal 1.
Measured (bench/serve.py, docs/performance.md): the fold of 2,000 deals costs
about 40 ms of CPU, where a sheet or a write at 2,000 deals must stay under 50;
at 20 deals it costs under a millisecond.

Nothing of the fold is in the database but the summary: deals, totals,
finished, winners, places, and the code that wrote them (``code``: a summary
written by other code is written again at start, ``init_app``)."""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from sqlite_utils import Database

from ..i18n import _
from ..match import DealError, Kept, Match, Standings, fold
from ..recent import Recent
from .db import connect, writing
from .db import init_app as db_init_app
from .stored import Stored, get


def _code_stamp() -> str:
    """Changes with any change to Scorer's code (the rules above all)."""
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.parent.rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


STAMP = _code_stamp()


@dataclass
class Folded:
    """A match's standings with what they were folded from."""

    setup: tuple  # game, options, players, first dealer
    texts: list[str]  # every deal's entry as stored (JSON text)
    standings: Standings


FOLDS = Recent(256)


def _setup(match: Match) -> tuple:
    return (match.game, match.options, match.players, match.first_dealer)


def _texts(stored: Stored) -> list[str] | None:
    return getattr(stored.match.deals, "texts", None)


def _held(stored: Stored) -> tuple[Folded | None, int]:
    """The standings this process holds of the match, and how many of its first
    deals they were folded from as they stand now (0: none)."""
    held = FOLDS.peek(stored.pub)
    texts = _texts(stored)
    if held is None or texts is None or held.setup != _setup(stored.match):
        return None, 0
    same = 0
    for mine, theirs in zip(held.texts, texts):
        if mine != theirs:
            break
        same += 1
    return held, same


def kept_before(stored: Stored) -> list[Kept]:
    """What the fold kept of the match's deals, as far as this process holds
    them as they stand (a write folds on from the deal it changes); else none
    (fold from deal 1)."""
    held, same = _held(stored)
    return held.standings.kept[:same] if held else []


def standings(db: Database, stored: Stored) -> Standings:
    """The standings of a stored match: what the sheet, the API read and the
    exports draw. Folded on from what this process holds of it (nothing to fold
    if it holds this version), else from deal 1. Raises DealError for a stored
    deal these rules can no longer read."""
    held, same = _held(stored)
    texts = _texts(stored)
    if held and same == len(held.texts) == len(texts):
        return held.standings
    st = fold(stored.match, held.standings.kept[:same] if held else ())
    if texts is not None and not db.conn.in_transaction:  # (a write's own reads: not yet so)
        FOLDS.put(stored.pub, Folded(_setup(stored.match), texts, st))
    return st


def hold(db: Database, stored: Stored, st: Standings) -> Folded | None:
    """What a write to ``stored`` leaves, with its standings ``st``, read inside
    the write (before it commits): for :func:`held_after` once it has."""
    texts = _texts(stored)
    if texts is None:
        return None
    game, options, players, first_dealer = db.execute(
        "select game, options, players, first_dealer from matches where id = ?", [stored.id]
    ).fetchone()
    # the deals before the first folded stand as they were; the rest as stored now
    tail = [
        r[0]
        for r in db.execute(
            "select entry from deals where match_id = ? and deleted is null"
            " order by pos limit -1 offset ?",
            [stored.id, st.folded_from],
        )
    ]
    texts = texts[: st.folded_from] + tail
    if len(texts) != len(st.kept):
        return None
    setup = (game, json.loads(options), json.loads(players), first_dealer)
    return Folded(setup, texts, st)


def held_after(pub: str, folded: Folded | None) -> None:
    """Hold what a committed write left (``hold``)."""
    if folded is not None:
        FOLDS.put(pub, folded)


def summary_json(st: Standings) -> str:
    """The match's summary, as the home list and the ratings read it."""
    return json.dumps(
        {
            "deals": len(st.kept),
            "totals": st.totals,
            "finished": st.finished,
            "winners": st.winners,
            "places": st.places,
            "code": STAMP,
        }
    )


def keep_summary(db: Database, match_id: int, st: Standings) -> None:
    """Write the match's summary, inside the write that changed it."""
    db.execute("update matches set summary = ? where id = ?", [summary_json(st), match_id])


def refresh_summary(db: Database, match_id: int) -> None:
    """Fold a match (the trash's too) whose summary is missing or was written by
    other code, and write it (as a write does: under the lock, if the match is
    as it was read)."""
    stored = get(db, match_id, trash=True)
    st = standings(db, stored)
    with contextlib.suppress(sqlite3.OperationalError):  # busy: the next read writes it
        with writing(db):
            if db.execute("select version from matches where id = ?", [match_id]).fetchone() == (
                stored.version,
            ):
                keep_summary(db, match_id, st)


def refresh_summaries(db: Database) -> int:
    """Fold afresh every match (the trash's too) whose summary is missing or was
    written by other code, and write it: at start, after the migrations, and by a
    restore before its copy goes in. So a list reads the summaries as they are,
    never looking for stale ones among all of a browser's matches (0.6 ms at
    1,000). After an upgrade every match is folded once (about a millisecond for
    a 20-deal match); the workers that start after it find none. How many it
    wrote."""
    stale = [
        r[0]
        for r in db.execute(
            "select id from matches where game != ''"
            " and (summary is null or json_extract(summary, '$.code') is not ?)",
            [STAMP],
        )
    ]
    for match_id in stale:
        with contextlib.suppress(DealError):  # unreadable: the page says so
            refresh_summary(db, match_id)
    return len(stale)


def init_app(app) -> None:
    """The store's part of the app: its connections (closed after each request),
    the schema brought up to date, and every summary written by other code
    written afresh (``refresh_summaries``)."""
    db_init_app(app)
    db = connect(app.config["DATABASE"])
    try:
        refresh_summaries(db)
    finally:
        db.close()


def rebuild(db: Database) -> tuple[int, list[tuple[str, str]]]:
    """Fold every match (the trash's too) afresh from its entries and write its
    summary. Returns how many matches there are, and (public id, why) for each
    whose summary, written by this code, differed from the fresh fold, or whose
    entries these rules cannot read."""
    forget_recent()
    ids = [r[0] for r in db.execute("select id from matches where game != '' order by id")]
    differed = []
    for match_id in ids:
        stored = get(db, match_id, trash=True)
        try:
            st = fold(stored.match)
        except DealError as e:
            differed.append((stored.pub, str(e.message)))
            continue
        fresh = summary_json(st)
        with writing(db):
            old = db.execute("select summary from matches where id = ?", [match_id]).fetchone()[0]
            keep_summary(db, match_id, st)
        if old and json.loads(old).get("code") == STAMP and json.loads(old) != json.loads(fresh):
            differed.append((stored.pub, _("its summary differed from a fresh fold")))
    return len(ids), differed


def forget_summaries(db: Database) -> None:
    """Drop every match's summary (a restored database: only its entries are
    trusted); ``refresh_summaries`` writes each afresh."""
    forget_recent()
    with writing(db):
        db.execute("update matches set summary = null")


def pass_versions(db: Database, before: dict[str, int]) -> None:
    """Move every match's version past what it was here and what ``before``
    (public id → version: the database a restore replaces) says it was. A
    restore is a change: whatever a phone, an API client or a worker drew of a
    version before it is never taken for what follows."""
    with writing(db):
        rows = db.execute("select id, pub, version from matches").fetchall()
        db.conn.executemany(
            "update matches set version = ? where id = ?",
            [(max(version, before.get(pub, 0)) + 1, row_id) for row_id, pub, version in rows],
        )


def forget_recent() -> None:
    """Forget the standings this process holds (a test that wants a fresh fold;
    nothing needs it for correctness: what is held is checked against the
    entries on every read)."""
    FOLDS.items.clear()
