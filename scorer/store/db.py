"""The store's connection (as flaskr's db.py), its write transaction, its time
stamps, and the errors a write can raise. Every write is one ``BEGIN
IMMEDIATE`` transaction: two phones (or two server workers) saving at once are
serialised."""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime

from flask import Flask, current_app, g
from sqlite_utils import Database

from .. import schema
from ..i18n import _


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
    it waits until the deals before it are (``number``: the next deal now;
    ``typed``: the number it was typed as)."""

    def __init__(self, message: str, number: int, typed: int | None = None):
        super().__init__(message, number)
        self.typed = typed


class Undone(Gap):
    """An entry typed after the deal that was the last when its page was drawn,
    deleted since (an Undo, to enter it again; or a deal entered twice): it is not
    moved into that deal's place unasked (``typed``: the number it was typed as;
    ``gone``: that deal's place now; ``number``: the next deal)."""

    def __init__(self, message: str, number: int, typed: int, gone: int):
        super().__init__(message, number, typed)
        self.gone = gone


class KeyReused(StoreError):
    """An idempotency key already used for a different request."""


class Busy(StoreError, sqlite3.OperationalError):
    """The write lock was not free within the busy timeout (another write held it
    all that time): nothing was changed, and the same write may be sent again. An
    OperationalError still, as SQLite's "database is locked" was, for the callers
    that let a busy write go (a cache kept at the next read)."""


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
    """The request's (or command's) connection, taken from the app's ``pool`` on
    first use."""
    if "db" not in g:
        g.db = pool().take()
    return g.db


def close_db(exc: BaseException | None = None) -> None:
    """The request's connection given back (closed after an error)."""
    db = g.pop("db", None)
    if db is not None:
        pool().give(db, failed=exc is not None)


class Pool:
    """Connections to one database kept open between requests, in this process.

    Opening a connection costs more than a short read: SQLite reads and parses
    the schema on a connection's first statement (most of a millisecond), where
    the live poll's one row takes a few microseconds. A connection is given
    back as closing it would leave the database: what it had not committed is
    rolled back; one given back after an error is closed. A forked process
    starts with none of its parent's (and never closes them: SQLite's locks
    are the parent's)."""

    def __init__(self, path: str, keep: int = 4):
        self.path = path
        self.keep = keep
        self.idle: list[Database] = []
        self.pid = os.getpid()
        self.inherited: list[Database] = []

    def take(self) -> Database:
        if self.pid != os.getpid():
            self.inherited, self.idle, self.pid = self.inherited + self.idle, [], os.getpid()
        try:
            return self.idle.pop()
        except IndexError:
            return connect(self.path)

    def give(self, db: Database, failed: bool = False) -> None:
        if failed or len(self.idle) >= self.keep or self.pid != os.getpid():
            db.close()
            return
        if db.conn.in_transaction:
            db.conn.rollback()
        self.idle.append(db)

    @contextlib.contextmanager
    def borrowed(self) -> Iterator[Database]:
        db = self.take()
        try:
            yield db
        except BaseException:
            self.give(db, failed=True)
            raise
        self.give(db)


def pool(app: Flask | None = None) -> Pool:
    """The app's connections to its database (a test's app has its own)."""
    app = app or current_app
    path = app.config["DATABASE"]
    pools = app.extensions.setdefault("scorer.pools", {})
    if path not in pools:
        pools[path] = Pool(path)
    return pools[path]


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
    locked" at once, whatever the busy timeout. IMMEDIATE waits its turn, up
    to the busy timeout: then :class:`Busy`.)"""
    try:
        db.conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as e:
        if e.sqlite_errorcode & 0xFF != sqlite3.SQLITE_BUSY:  # its extended codes too
            raise
        raise Busy(_("the server is busy with other changes")) from e
    try:
        yield db
    except BaseException:
        db.conn.execute("ROLLBACK")
        raise
    else:
        db.conn.execute("COMMIT")
