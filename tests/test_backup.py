"""Backups while the app writes, restore after a check, the daily copies, and a
database written by an earlier Scorer brought up to date."""

from __future__ import annotations

import json
import shutil
import sqlite3
import threading
from pathlib import Path

import pytest

from scorer import backup, create_app, schema, store

from .helpers import new_match

FIXTURE = Path(__file__).parent / "fixtures" / "v1.db"
DEAL = {"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}


def deals_in(path, match_id) -> int:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(
            "select count(*) from deals d join matches m on m.id = d.match_id "
            "where m.pub = ? and d.deleted is null",
            [match_id],
        ).fetchone()[0]
    finally:
        conn.close()


def test_a_backup_taken_while_deals_are_written_is_whole(app, client, tmp_path):
    mid = new_match(client, of=300)
    done = threading.Event()

    def write():
        for _ in range(60):
            assert client.post(f"/api/matches/{mid}/deals", json=DEAL).status_code == 201
        done.set()

    writer = threading.Thread(target=write)
    writer.start()
    copies = []
    while not done.is_set():
        copies.append(backup.backup(app.config["DATABASE"], tmp_path / f"c{len(copies)}.db"))
    writer.join()
    copies.append(backup.backup(app.config["DATABASE"], tmp_path / "last.db"))
    counts = [deals_in(c, mid) for c in copies]
    for c in copies:
        assert backup.check(c) == schema.names()  # integrity ok, this schema
    assert counts == sorted(counts) and counts[-1] == 60  # each a moment of the writing


def test_restore_puts_a_copy_back_and_keeps_what_was_there(app, client, tmp_path):
    mid = new_match(client, [DEAL], of=300)
    copy = backup.backup(app.config["DATABASE"], tmp_path / "copy.db")
    client.post(f"/api/matches/{mid}/deals", json=DEAL)
    other = new_match(client, of=300)
    kept = backup.restore(app.config["DATABASE"], copy, tmp_path / "backups")
    # the running app reads the copy's content
    assert len(client.get(f"/api/matches/{mid}").get_json()["deals"]) == 1
    assert client.get(f"/api/matches/{other}").status_code == 404
    # what was there before is kept, whole
    assert deals_in(kept, mid) == 2 and backup.check(kept)
    # the summaries are the copy's entries folded by this code, written before it went in
    # (a list reads them as they are: it never looks for stale ones)
    conn = sqlite3.connect(app.config["DATABASE"])
    summaries = [json.loads(r[0]) for r in conn.execute("select summary from matches")]
    conn.close()
    assert [(s["code"], s["deals"]) for s in summaries] == [(store.STAMP, 1)]


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda p: p.write_bytes(b"not a database at all" * 100), "is not a Scorer database"),
        (lambda p: sqlite3.connect(p).execute("create table t (x)"), "is not a Scorer database"),
        (lambda p: None, "there is no file"),
    ],
)
def test_restore_refuses_what_is_not_a_good_copy(app, client, tmp_path, make, message):
    mid = new_match(client, [DEAL], of=300)
    bad = tmp_path / "bad.db"
    make(bad)
    with pytest.raises(backup.BackupError, match=message):
        backup.restore(app.config["DATABASE"], bad, tmp_path / "backups")
    assert len(client.get(f"/api/matches/{mid}").get_json()["deals"]) == 1


def test_restore_refuses_a_damaged_copy(app, client, tmp_path):
    new_match(client, [DEAL] * 50, of=300)
    copy = backup.backup(app.config["DATABASE"], tmp_path / "copy.db")
    data = bytearray(copy.read_bytes())
    page = 4096
    for start in range(page, len(data), page):  # every page's b-tree header scribbled on
        data[start : start + 8] = b"\x0d\xff\xff\xff\xff\xff\xff\xff"
    copy.write_bytes(bytes(data))
    with pytest.raises(backup.BackupError):
        backup.check(copy)


def test_restore_refuses_a_copy_from_a_newer_scorer(app, tmp_path):
    copy = backup.backup(app.config["DATABASE"], tmp_path / "copy.db")
    conn = sqlite3.connect(copy)
    conn.execute(
        "insert into _sqlite_migrations (migration_set, name, applied_at) "
        "values ('scorer', 'm999_from_the_future', '2030')"
    )
    conn.commit()
    conn.close()
    with pytest.raises(backup.BackupError, match="newer Scorer"):
        backup.restore(app.config["DATABASE"], copy, tmp_path / "backups")


def test_daily_copies_one_a_day_the_last_seven(app, tmp_path):
    folder = tmp_path / "backups"
    folder.mkdir()
    for day in range(1, 10):  # nine older days
        shutil.copy(FIXTURE, folder / f"scorer-2026-01-{day:02d}.db")
    made = backup.daily(app.config["DATABASE"], folder)
    assert made is not None and made.exists()
    assert backup.daily(app.config["DATABASE"], folder) is None  # once a day
    left = sorted(p.name for p in folder.glob("scorer-*.db"))
    assert len(left) == 7 and left[-1] == made.name and left[0] == "scorer-2026-01-04.db"


def test_the_cli_backs_up_and_restores(app, client, tmp_path):
    mid = new_match(client, [DEAL], of=300)
    runner = app.test_cli_runner()
    target = tmp_path / "cli.db"
    r = runner.invoke(args=["backup", str(target)])
    assert r.exit_code == 0 and target.exists() and str(target) in r.output
    client.post(f"/api/matches/{mid}/deals", json=DEAL)
    r = runner.invoke(args=["restore", str(target)])
    assert r.exit_code == 0 and r.output.startswith("Restored from ")
    assert len(client.get(f"/api/matches/{mid}").get_json()["deals"]) == 1
    r = runner.invoke(args=["restore", str(tmp_path / "missing.db")])
    assert r.exit_code == 1 and r.output.startswith("Nothing restored: ")


def test_a_database_of_the_first_schema_is_migrated_with_everything_kept(tmp_path):
    path = tmp_path / "scorer.db"
    shutil.copy(FIXTURE, path)
    app = create_app({"TESTING": True, "DATABASE": str(path), "SECRET_KEY": "x"})
    client = app.test_client()
    with app.app_context():
        db = store.get_db()
        assert schema.applied(db) == schema.names()
        pubs = [store.legacy_pub(db, n) for n in (1, 2, 3)]
        keys = [store.get(db, n).edit_key for n in (1, 2, 3)]
        events = {n: [e["kind"] for e in store.events(db, n)] for n in (1, 2, 3)}
        gone = list(db.query("select * from matches where deleted = 'migrated'"))
        gone_events = [e["kind"] for e in store.events(db, gone[0]["id"])]
    # every match got an id nobody can guess and an edit key of its own
    assert all(p and len(p) == 12 and not p.isdigit() for p in pubs) and len(set(pubs)) == 3
    assert all(k and len(k) >= 22 for k in keys) and len(set(keys)) == 3
    # the old links lead to the new addresses
    for n, pub in zip((1, 2, 3), pubs, strict=True):
        r = client.get(f"/m/{n}")
        assert r.status_code == 301 and r.headers["Location"].endswith(f"/m/{pub}")
    # Black Maria: four added, deal 1 edited, deal 3 (one of two identical) deleted
    bm = client.get(f"/api/matches/{pubs[0]}").get_json()
    assert bm["deals"] == [
        {"hearts": [3, 6, 4], "taken_by": {"QS": 0, "KS": 1, "AS": 1}},
        {"hearts": [0, 5, 8], "taken_by": {"QS": 2, "KS": 2, "AS": 0}},
        {"hearts": [3, 3, 7], "taken_by": {"QS": 1, "KS": 0, "AS": 2}},
    ]
    assert events[1] == ["api", "add", "add", "add", "add", "edit", "delete"]
    hearts = client.get(f"/api/matches/{pubs[1]}").get_json()
    assert hearts["players"] == ["Юлия", "Čeněk", "Łucja", "Dorota"]
    # a moon by Юлия (26 to each of the others), then 2, 5, 6 and Dorota's Q♠ (13)
    assert hearts["computed"]["totals"] == [2, 31, 32, 39]
    # number 3 was a Knaves match, deleted, then given again to a Polignac match:
    # each keeps its own history now
    assert client.get(f"/api/matches/{pubs[2]}").get_json()["game"] == "polignac"
    assert events[3] == ["api"]
    assert len(gone) == 1 and gone_events == ["api", "delete_match"]
    # the pages and the API work on the migrated matches, with their keys
    r = client.delete(
        f"/api/matches/{pubs[0]}/deals/3", headers={"Authorization": f"Bearer {keys[0]}"}
    )
    assert r.status_code == 200
    # started again, nothing more to do
    create_app({"TESTING": True, "DATABASE": str(path), "SECRET_KEY": "x"})
    assert len(client.get(f"/api/matches/{pubs[0]}").get_json()["deals"]) == 2
    # a number that never was a match's is no address
    assert client.get("/m/4").status_code == 404


def finished_match(client) -> str:
    """A match of three deals, over: on the home page, the players' and the season's."""
    mid = new_match(client, [DEAL] * 3, of=3)
    client.get(f"/m/{mid}")  # this browser made it: its pages list it
    return mid


@pytest.mark.parametrize(
    "sql, args, message",
    [
        ("update deals set entry = '{' where id = (select max(id) from deals)", [], "deal 3: not"),
        ("update deals set entry = ?", ["[" * 100_000 + "]" * 100_000], "nested too deep"),
        ("update matches set options = ?", ['{"target": "many"}'], "target must be a whole"),
        ("update matches set options = ?", ['{"end": "deals", "deals": 3}'], "option players"),
        ("update matches set options = '[1]'", [], "options must be a JSON object"),
        ("update matches set options = null", [], "not JSON: it is empty"),
        ("update matches set game = 'chess'", [], "game must be one of hearts"),
        ("update matches set players = '[1, 2, 3]'", [], "every player name must be text"),
        ("update matches set first_dealer = 'Ala'", [], "first_dealer must be a seat"),
        ("update events set entry = '{' where kind = 'api'", [], "its history: not JSON"),
    ],
)
def test_restore_refuses_a_copy_whose_rows_the_pages_cannot_read(
    app, client, tmp_path, sql, args, message
):
    """Each of these answered 500 on the home, players and season pages once
    restored, and `flask rebuild` ended in a traceback: every match is read as an
    import of its record is, and a copy holding one it refuses is refused by the
    match's id and what is wrong, nothing changed (no copy of the database kept)."""
    mid = finished_match(client)
    copy = backup.backup(app.config["DATABASE"], tmp_path / "copy.db")
    conn = sqlite3.connect(copy)
    conn.execute(sql, args)
    conn.commit()
    conn.close()
    other = new_match(client, [DEAL], of=300)  # after the copy: a restore would drop it
    r = app.test_cli_runner().invoke(args=["restore", str(copy)])
    assert r.exit_code == 1 and isinstance(r.exception, SystemExit), r.exception
    assert f"Nothing restored: in {copy}, match {mid} cannot be read (" in r.output
    assert message in r.output
    assert not (tmp_path / "backups").exists()
    with pytest.raises(backup.BackupError, match=message):
        backup.restore(app.config["DATABASE"], copy, tmp_path / "backups")
    assert not (tmp_path / "backups").exists()
    for url in ("/", "/players", "/season", f"/m/{mid}", f"/api/matches/{other}"):
        assert client.get(url).status_code == 200, url
    # the copy served as the database itself (rows written by hand): rebuild names it
    served = create_app({"TESTING": True, "DATABASE": str(copy), "SECRET_KEY": "test"})
    r = served.test_cli_runner().invoke(args=["rebuild"])
    assert r.exit_code == 1 and isinstance(r.exception, SystemExit), r.exception
    assert f"{mid}: " in r.output and message in r.output
    assert "1 match cannot be read: nothing was folded or rated afresh." in r.output
