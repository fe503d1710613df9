"""The store's connection (as flaskr's db.py), its write transaction, its time
stamps, and the errors a write can raise. Every write is one ``BEGIN
IMMEDIATE`` transaction: two phones (or two server workers) saving at once are
serialised."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime

from flask import Flask, current_app, g
from sqlite_utils import Database

from .. import schema


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
