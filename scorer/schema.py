"""The database schema, as sqlite-utils migrations applied in order, once.

A database written by any earlier version of Scorer is brought up to date on
start; a migration never loses what the table entered. :func:`migrate` takes
the write lock first, so when several server workers start on one file at once
exactly one applies what is pending and the others find nothing left to do.
"""

from __future__ import annotations

import secrets

from sqlite_utils import Database, Migrations

migrations = Migrations("scorer")


@migrations()
def m001_matches_deals_events(db: Database) -> None:
    """The first schema: deals keyed by their position in the match."""
    db["matches"].create(
        {
            "id": int,
            "game": str,
            "options": str,
            "players": str,
            "first_dealer": int,
            "created": str,
            "updated": str,
        },
        pk="id",
        if_not_exists=True,
    )
    db["deals"].create(
        {"match_id": int, "n": int, "entry": str}, pk=("match_id", "n"), if_not_exists=True
    )
    db["events"].create(
        {
            "id": int,
            "match_id": int,
            "at": str,
            "kind": str,
            "deal": int,
            "entry": str,
        },
        pk="id",
        if_not_exists=True,
    )
    db["events"].create_index(["match_id"], if_not_exists=True)


@migrations()
def m002_deal_ids_versions_replies(db: Database) -> None:
    """Every deal gets an id no other deal ever gets (AUTOINCREMENT never hands
    out a number twice) and a revision; a deleted deal keeps its row and its
    place (``pos``) so it can be restored; every match gets a version that grows
    with each change; the answers to writes sent with an idempotency key are
    kept so that a repeat is answered, not applied again."""
    db.execute("""
        CREATE TABLE deals_v2 (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            match_id INTEGER NOT NULL,
            pos INTEGER NOT NULL,
            rev INTEGER NOT NULL DEFAULT 1,
            entry TEXT NOT NULL,
            deleted TEXT
        )""")
    db.execute("""INSERT INTO deals_v2 (match_id, pos, rev, entry)
                  SELECT match_id, n, 1, entry FROM deals ORDER BY match_id, n""")
    db.execute("DROP TABLE deals")
    db.execute("ALTER TABLE deals_v2 RENAME TO deals")
    db["deals"].create_index(["match_id", "pos"])
    db["matches"].add_column("version", int, not_null_default=0)
    db.execute(
        "UPDATE matches SET version = "
        "(SELECT count(*) FROM events WHERE events.match_id = matches.id)"
    )
    db["events"].add_column("deal_id", int)
    db["replies"].create(
        {
            "match_id": int,
            "key": str,
            "request": str,
            "reply": str,
            "at": str,
        },
        pk=("match_id", "key"),
    )


def names() -> list[str]:
    """The migrations this code knows, in order."""
    return [m.name for m in migrations._migrations]


def applied(db: Database) -> list[str]:
    return [m.name for m in migrations.applied(db)]


def migrate(db: Database) -> None:
    """Apply what is pending, under the write lock (BEGIN IMMEDIATE): a second
    process starting at the same moment waits, then finds nothing to do. Each
    migration runs in a savepoint inside that one transaction."""
    db.enable_wal()
    if not migrations.pending(db):
        return
    db.conn.execute("BEGIN IMMEDIATE")
    try:
        migrations.apply(db)
    except BaseException:
        db.conn.execute("ROLLBACK")
        raise
    db.conn.execute("COMMIT")


@migrations()
def m003_public_ids_keys_trash_browsers(db: Database) -> None:
    """Matches get an id nobody can guess (``pub``) and an edit key; the
    matches that had only a number keep it (``legacy``) so their old links
    redirect; a deleted match goes to the trash (``deleted``), its number never
    given again. ``browsers``: which matches a browser scores or has watched."""
    db["matches"].add_column("pub", str)
    db["matches"].add_column("edit_key", str)
    db["matches"].add_column("legacy", int, not_null_default=0)
    db["matches"].add_column("deleted", str)
    for row in list(db.query("select id from matches")):
        db.execute(
            "update matches set pub = ?, edit_key = ?, legacy = 1 where id = ?",
            [new_id(), secrets.token_urlsafe(16), row["id"]],
        )
    db["matches"].create_index(["pub"], unique=True)
    db["browsers"].create(
        {"browser": str, "match_id": int, "role": str, "at": str}, pk=("browser", "match_id")
    )
    db["browsers"].create_index(["match_id"])
    # What an undo needs: the entry a change replaced, the deal's revision after it.
    db["events"].add_column("before", str)
    db["events"].add_column("rev", int)
    db["events"].add_column("undoes", int)  # the event an undo took back
    # A deleted match's number was given again to the next match (issue 10); its
    # events ran on under the new match. The ones before the last delete_match
    # belong to matches that are gone: they stay, under a match row of their own
    # in the trash, so no history is lost and none is mixed.
    for row in list(db.query("select id from matches")):
        cut = db.execute(
            "select max(id) from events where match_id = ? and kind = 'delete_match'", [row["id"]]
        ).fetchone()[0]
        if cut is None:
            continue
        gone = (
            db["matches"]
            .insert(
                {
                    "game": "",
                    "options": "{}",
                    "players": "[]",
                    "first_dealer": 0,
                    "created": "",
                    "updated": "",
                    "version": 0,
                    "pub": new_id(),
                    "edit_key": "",
                    "legacy": 0,
                    "deleted": "migrated",
                }
            )
            .last_pk
        )
        db.execute(
            "update events set match_id = ? where match_id = ? and id <= ?", [gone, row["id"], cut]
        )


def new_id() -> str:
    """A match id: 72 random bits, URL-safe, never all digits (an old number)."""
    while True:
        pub = secrets.token_urlsafe(9)
        if not pub.isdigit():
            return pub


@migrations()
def m004_kept_standings_summaries(db: Database) -> None:
    """A cache of the fold (issue 11), never a second truth: per deal, what is
    kept of it once folded (``deals.kept``, the game's state after it and what
    the sheet shows of it); per match, the code and the version that cache was
    made by (``matches.kept``) and the figures the home page lists
    (``matches.summary``). Missing or stale, both are rebuilt from the entries."""
    db["deals"].add_column("kept", bytes)
    db["matches"].add_column("kept", str)
    db["matches"].add_column("summary", str)
    db["matches"].create_index(["deleted", "updated"])


@migrations()
def m005_kept_points(db: Database) -> None:
    """Beside the kept folds, every deal's points as one JSON list: the answer
    to a change lists them all (the record's ``computed``) without loading each
    deal's kept fold."""
    db["matches"].add_column("points", str)


@migrations()
def m006_conflicts(db: Database) -> None:
    """Two phones that entered the same deal differently (issue 20): the entry
    that met a stored deal N and differed from it is kept here, beside the
    stored one, until a scorer chooses (``closed``: the event that settled it).
    Nothing typed is dropped: the history holds both as well."""
    db["conflicts"].create(
        {
            "id": int,
            "match_id": int,
            "deal_id": int,  # the stored deal it met
            "entry": str,  # the other phone's entry, as its game checked it
            "browser": str,  # the phone (browser) that entered it, if a page did
            "at": str,
            "event": int,  # the history line that recorded it
            "closed": int,  # the history line that settled it (null: open)
        },
        pk="id",
    )
    db["conflicts"].create_index(["match_id", "closed"])


@migrations()
def m007_kept_ratings(db: Database) -> None:
    """The ratings, kept (issue 24), never a second truth: per browser, each
    finished match it sees rated in order (``rating_moves``: every player's
    skill before and after, and a mark naming the match's version and the
    code), and its leagues (``ratings``: all time, a year, from a day), each
    with a mark naming every match it was rated from. Stale, they are rated
    again from the entries' standings; `rebuild` rates them afresh."""
    db["ratings"].create(
        {"browser": str, "season": str, "mark": str, "league": str},
        pk=("browser", "season"),
    )
    db["rating_moves"].create(
        {
            "browser": str,
            "pos": int,  # 0, 1, 2 …: the order matches are rated in
            "mark": str,  # the code, the match's id, version and start
            "pub": str,
            "began": str,
            "game": str,
            "moves": str,  # JSON: per seat [key, name, mu, sigma before, mu, sigma after]
        },
        pk=("browser", "pos"),
    )
    db["rating_moves"].create_index(["browser", "pub"])


@migrations()
def m008_live_deals_index(db: Database) -> None:
    """The live deals of a match in order, with their ids and revisions, from an
    index alone (issue 22): a write at deal 2,000 lists them without reading
    2,000 rows of entries and kept folds."""
    db.execute("create index if not exists deals_live on deals (match_id, deleted, pos, rev)")


# A deal's kept fold, whole: a pickle of protocol 5 (Python 3.8 on), to its end.
WHOLE_KEPT = "substr(kept, 1, 2) = X'8005' and substr(kept, -1) = X'2E'"


@migrations()
def m009_whole_kept_index(db: Database) -> None:
    """The live deals of a match whose kept fold is whole, counted from an index
    alone (issue 22): a write at deal 2,000 trusts what the deals keep without
    reading 2,000 pickles first. (Dropped by m012: m010 counts the others.)"""
    db.execute(
        "create index if not exists deals_whole on deals (match_id)"
        f" where deleted is null and {WHOLE_KEPT}"
    )


# A deal row's change number within its match: set by triggers on every insert
# and every change to what a list of the live deals holds (its place, revision,
# entry, deletion), never by the kept fold's pickle.
DEAL_SEQ = "(select coalesce(max(seq), 0) + 1 from deals where match_id = new.match_id)"
# The live deals of a match whose kept fold is missing or not whole.
UNWHOLE_KEPT = f"deleted is null and (kept is null or not ({WHOLE_KEPT}))"


@migrations()
def m010_deal_changes(db: Database) -> None:
    """What changed in a match's deals since a worker last read them, read alone
    (issue 22): each deal row carries the change number of its last change
    (``seq``, moved by triggers, whoever writes), so a write at deal 2,000 after
    another worker's reads the rows changed since, not the ids of all 2,000; and
    the live deals whose kept fold is not whole are found from an index of
    those alone (none, but for a hand-edited database), not by counting all."""
    if "seq" not in db["deals"].columns_dict:
        db.execute("alter table deals add column seq integer")
    db.execute("create index if not exists deals_seq on deals (match_id, seq)")
    db.execute(f"create index if not exists deals_unwhole on deals (match_id) where {UNWHOLE_KEPT}")
    db.execute(
        "create trigger if not exists deals_seq_insert after insert on deals begin"
        f" update deals set seq = {DEAL_SEQ} where id = new.id; end"
    )
    db.execute(
        "create trigger if not exists deals_seq_update"
        " after update of match_id, pos, rev, entry, deleted on deals begin"
        f" update deals set seq = {DEAL_SEQ} where id = new.id; end"
    )


@migrations()
def m011_browser_lists(db: Database) -> None:
    """A browser's home page read by an index, its figures kept with the writes
    (issue 22): each ``browsers`` row carries its match's ``updated`` (kept by a
    trigger), so the latest 30 are read in that order from an index, not sorted
    from all; and ``browser_lists.stamp`` moves with every change to a browser's
    list (a match written, deleted or restored, a match more), so what a process
    keeps of the list (its count, its filters' choices) is checked by one row."""
    if "updated" not in db["browsers"].columns_dict:
        db.execute("alter table browsers add column updated text")
    db.execute(
        "update browsers set updated = (select m.updated from matches m where m.id = match_id)"
    )
    db.execute(
        "create index if not exists browsers_latest on browsers (browser, updated, match_id)"
    )
    db.execute(
        "create table if not exists browser_lists"
        " (browser text primary key, stamp integer not null default 0)"
    )
    db.execute(
        "insert or ignore into browser_lists (browser) select distinct browser from browsers"
    )
    db.execute(
        "create trigger if not exists browsers_listed after insert on browsers begin"
        " update browsers set updated = (select m.updated from matches m where m.id = new.match_id)"
        " where browser = new.browser and match_id = new.match_id;"
        " insert or ignore into browser_lists (browser) values (new.browser);"
        " update browser_lists set stamp = stamp + 1 where browser = new.browser; end"
    )
    db.execute(
        "create trigger if not exists browsers_unlisted after delete on browsers begin"
        " update browser_lists set stamp = stamp + 1 where browser = old.browser; end"
    )
    db.execute(
        "create trigger if not exists matches_listed"
        " after update of updated, version, deleted, game, players, summary, kept on matches"
        " begin"
        " update browsers set updated = new.updated where match_id = new.id;"
        " update browser_lists set stamp = stamp + 1"
        " where browser in (select browser from browsers where match_id = new.id); end"
    )


@migrations()
def m012_drop_whole_kept_index(db: Database) -> None:
    """m009's index of the deals whose kept fold is whole: nothing reads it since
    m010 found the deals not whole from an index of those alone, and every write
    to a deal's kept fold kept it up to date for nothing."""
    db.execute("drop index if exists deals_whole")


@migrations()
def m013_one_cache(db: Database) -> None:
    """What the caches of the fold left in the database, dropped (issue 36): the
    fold is no longer kept per deal (``deals.kept``), nor its code stamp and
    points per match (``matches.kept``, ``matches.points``), nor a change number
    per deal row (``deals.seq``, its triggers and index) or a stamp per browser's
    list (``browser_lists``), nor a generation of the database (``PRAGMA
    user_version``). A process holds the standings it folded lately, in memory
    (scorer/store/kept.py). ``matches.summary`` stays: the lists read it; it now
    names the code that wrote it, so each is written afresh once, when listed. The
    ``browsers.updated`` copy stays, for the home page's index (browsers_latest)."""
    for trigger in (
        "deals_seq_insert",
        "deals_seq_update",
        "browsers_listed",
        "browsers_unlisted",
        "matches_listed",
    ):
        db.execute(f"drop trigger if exists {trigger}")
    for index in ("deals_seq", "deals_unwhole", "deals_whole"):
        db.execute(f"drop index if exists {index}")
    db.execute("drop table if exists browser_lists")
    for table, column in (
        ("deals", "seq"),
        ("deals", "kept"),
        ("matches", "kept"),
        ("matches", "points"),
    ):
        if column in db[table].columns_dict:
            db.execute(f"alter table {table} drop column {column}")
    db.execute(
        "create trigger browsers_listed after insert on browsers begin"
        " update browsers set updated = (select m.updated from matches m where m.id = new.match_id)"
        " where browser = new.browser and match_id = new.match_id; end"
    )
    db.execute(
        "create trigger matches_listed after update of updated on matches begin"
        " update browsers set updated = new.updated where match_id = new.id; end"
    )
    db.execute("pragma user_version = 0")
