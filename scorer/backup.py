"""Copies of the database: taken while the app serves, checked before a restore.

One SQLite file holds every evening ever played, so `make run` keeps a copy a
day (the last :data:`KEEP`) in ``instance/backups/``, and
``flask --app scorer backup`` / ``restore`` do it by hand.
"""

from __future__ import annotations

import os
import sqlite3
import sys
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from . import schema, store
from .i18n import L_, _, said, system_error
from .record import RecordError, load, read_json
from .store import ratings as kept_ratings

KEEP = 7  # daily copies kept
TABLES = {"matches", "deals", "events"}


class BackupError(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def stamp() -> str:
    return datetime.now(UTC).strftime("%Y%m%d-%H%M%S")


def backup(database: str | os.PathLike, target: str | os.PathLike) -> Path:
    """A consistent copy of ``database`` written to ``target`` while others may be
    writing (``VACUUM INTO`` reads one snapshot), put in place whole."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    conn = sqlite3.connect(database, timeout=30)
    try:
        conn.execute("VACUUM INTO ?", [str(partial)])
    finally:
        conn.close()
    os.replace(partial, target)
    return target


def check(path: str | os.PathLike) -> list[str]:
    """Is ``path`` a Scorer database this code can take? Its migrations, in
    order; BackupError says why not (not SQLite, damaged, not Scorer's, or from
    a newer Scorer)."""
    if Path(path).is_dir():
        raise BackupError(_("%(file)s is a folder, not a file", file=str(path)))
    if not Path(path).is_file():
        raise BackupError(_("there is no file %(file)s", file=str(path)))
    try:
        conn = sqlite3.connect(f"file:{Path(path).resolve()}?mode=ro", uri=True)
        try:
            result = [row[0] for row in conn.execute("PRAGMA integrity_check")]
            tables = {
                row[0]
                for row in conn.execute("select name from sqlite_master where type = 'table'")
            }
            migrations = (
                [
                    row[0]
                    for row in conn.execute(
                        "select name from _sqlite_migrations where migration_set = 'scorer' "
                        "order by id"
                    )
                ]
                if "_sqlite_migrations" in tables
                else []
            )
        finally:
            conn.close()
    except sqlite3.DatabaseError as e:
        if "not a database" in str(e):  # the reason would say it again
            raise BackupError(_("%(file)s is not a Scorer database", file=str(path))) from None
        raise BackupError(
            _(
                "%(file)s is not a database Scorer can read (%(why)s)",
                file=str(path),
                why=system_error(e),
            )
        ) from None
    if result != ["ok"]:
        raise BackupError(
            _("%(file)s is damaged (%(why)s)", file=str(path), why="; ".join(result[:3]))
        )
    if not TABLES <= tables:
        raise BackupError(_("%(file)s is not a Scorer database", file=str(path)))
    unknown = [m for m in migrations if m not in schema.names()]
    if unknown:
        raise BackupError(
            _(
                "%(file)s was written by a newer Scorer (schema %(names)s)",
                file=str(path),
                names=", ".join(unknown),
            )
        )
    return migrations or [schema.names()[0]]


def restore(
    database: str | os.PathLike, source: str | os.PathLike, folder: str | os.PathLike
) -> Path:
    """Replace the database's content with ``source`` after checking it; what it
    held before is kept in ``folder`` first. Returns that copy's path. The copy
    goes through SQLite's backup API, so a server that is running sees either
    the old content or the new, never half of each; the schema is then brought
    up to date, and every match's version moved past the one it had before (a
    restore is a change to each match)."""
    check(source)
    with tempfile.TemporaryDirectory() as tmp:
        staged = Path(tmp) / "staged.db"
        _copy(f"file:{Path(source).resolve()}?mode=ro", staged)
        db = store.connect(str(staged))
        try:
            schema.migrate(db)
            for pub, why in unreadable(db):  # the first: nothing is changed
                raise BackupError(
                    _(
                        "in %(file)s, match %(id)s cannot be read (%(why)s)",
                        file=str(source),
                        id=pub,
                        why=why,
                    )
                )
            kept = backup(database, Path(folder) / f"before-restore-{stamp()}.db")
            store.forget_summaries(db)  # only the entries are trusted: summaries are written afresh
            store.refresh_summaries(db)  # here, before the copy goes in: a list never looks
            kept_ratings.forget(db)  # and rated again from them
            store.pass_versions(db, _versions(database))
        finally:
            db.close()
        _copy(str(staged), database)
    return kept


# The JSON a match's other rows hold, read as it stands (its history, a deleted
# deal, the other entry of a choice, an answer kept for a repeat); null: none.
OTHER_JSON = (
    ("select entry from deals where match_id = ? and deleted is not null", L_("a deleted deal")),
    ("select entry from events where match_id = ? and entry is not null", L_("its history")),
    ("select before from events where match_id = ? and before is not null", L_("its history")),
    ("select entry from conflicts where match_id = ?", L_("an entry waiting for a choice")),
    ("select reply from replies where match_id = ?", L_("an answer kept for a repeat")),
)


def unreadable(db) -> Iterator[tuple[str, str]]:
    """(public id, why) for each match in ``db`` (the trash's too) that the pages
    could not read: each is read as an import of its record is (record.load: its
    game, options, players, first dealer and every deal through the fold), its
    options as that import keeps them (every one, as this Scorer writes them),
    and the JSON of its other rows readable. Nothing is written."""
    for row in db.execute(
        "select id, pub, game, options, players, first_dealer from matches where game is not ''"
        " order by id"
    ).fetchall():
        match_id, pub = row[0], row[1] or str(row[0])
        try:
            options = read_json(_text(row[3]))
            deals = db.execute(
                "select entry from deals where match_id = ? and deleted is null order by pos",
                [match_id],
            ).fetchall()
            match, _standings = load(
                {
                    "game": row[2],
                    "options": options,
                    "players": read_json(_text(row[4])),
                    "first_dealer": row[5],
                    "deals": [_entry(n, d[0]) for n, d in enumerate(deals, 1)],
                }
            )
            missing = [k for k, v in match.options.items() if options.get(k, ...) != v]
            if missing:
                raise RecordError(_("option %(key)s cannot be read", key=missing[0]))
            for sql, where in OTHER_JSON:
                for (text,) in db.execute(sql, [match_id]):
                    try:
                        read_json(_text(text))
                    except RecordError as e:
                        raise RecordError(_("%(id)s: %(why)s", id=where, why=e.message)) from None
        except RecordError as e:
            yield pub, e.message


def _entry(number: int, cell) -> object:
    """A live deal's entry read from its JSON text; RecordError names the deal."""
    try:
        return read_json(_text(cell))
    except RecordError as e:
        raise RecordError(_("deal %(n)s: %(message)s", n=number, message=e.message)) from None


def _text(cell) -> str | bytes:
    """A cell that should hold JSON text: a number or a null stands for none."""
    return cell if isinstance(cell, (str, bytes)) else ""


def _versions(database: str | os.PathLike) -> dict[str, int]:
    """Each match's version in ``database`` as it stands (public id → version);
    none from a database older than public ids."""
    db = store.connect(str(database))
    try:
        return dict(db.execute("select pub, version from matches").fetchall())
    except sqlite3.OperationalError:
        return {}
    finally:
        db.close()


def _copy(source: str, target: str | os.PathLike) -> None:
    """One database's content into another through SQLite's backup API (a
    server reading ``target`` meanwhile sees the old content or the new)."""
    src = sqlite3.connect(source, uri=source.startswith("file:"))
    dst = sqlite3.connect(target, timeout=30)
    try:
        src.backup(dst)
    finally:
        src.close()
        dst.close()


def daily(database: str | os.PathLike, folder: str | os.PathLike, keep: int = KEEP) -> Path | None:
    """Today's copy in ``folder`` unless there is one already; only the last
    ``keep`` daily copies stay. Returns the new copy's path, or None."""
    folder = Path(folder)
    if not Path(database).exists():
        return None
    today = folder / f"scorer-{datetime.now(UTC):%Y-%m-%d}.db"
    made = None
    if not today.exists():
        made = backup(database, today)
    copies = sorted(folder.glob("scorer-????-??-??.db"))
    for old in copies[:-keep]:
        old.unlink(missing_ok=True)
    return made


def main(argv: list[str]) -> int:
    """DATABASE FOLDER: today's copy, made in a process of its own (gunicorn.conf.py
    runs it hourly, as ``python -c`` rather than ``-m``: the package imports this
    module, and ``-m`` would run it a second time, with a RuntimeWarning)."""
    try:
        daily(argv[0], argv[1])
    except (OSError, sqlite3.Error) as e:
        print(
            said(_("scorer: the daily backup failed (%(why)s)", why=system_error(e))),
            file=sys.stderr,
        )
        return 1
    return 0
