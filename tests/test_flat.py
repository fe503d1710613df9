"""What a read costs (issue 22): the live poll of an unchanged sheet answers from
the match's row alone, and a read by a browser without the cookie writes nothing.
The figures (time and CPU against a bare route) are bench/serve.py's; these tests
assert the behaviour behind them: the statements run, the rows written."""

from __future__ import annotations

import gzip
import re
import sqlite3

import brotli
import pytest
from flask import request
from flask_babel import force_locale

from scorer import create_app, store
from scorer.i18n import _ as translated
from scorer.store import db as store_db

from .helpers import hidden, new_bm
from .test_sharing import (
    D1,
    D2,
    D3,
    as_form,
    save,
    text,
    undo_latest,
)


@pytest.fixture
def statements(monkeypatch):
    """Every SQL statement the app's connections run, in order."""
    seen: list[str] = []
    connect = store_db.connect

    def traced(path):
        db = connect(path)
        db.conn.set_trace_callback(seen.append)
        return db

    monkeypatch.setattr(store_db, "connect", traced)
    return seen


def dump(app) -> list[str]:
    conn = sqlite3.connect(app.config["DATABASE"])
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


def test_a_poll_of_an_unchanged_sheet_reads_the_match_row_and_no_deal(app, statements):
    a, b = app.test_client(), app.test_client()
    mid = a.post(
        "/api/matches",
        json={
            "game": "black_maria",
            "players": ["Ala", "Bartek", "Celina"],
            "options": {"target": 100_000},
        },
    ).get_json()["id"]
    for _ in range(30):  # a long match: the poll must not read its deals
        assert a.post(f"/api/matches/{mid}/deals", json=D1).status_code == 201
    for phone in (a, b):  # a phone that made the match through the API, and a watcher
        phone.get(f"/m/{mid}")  # the sheet: its cookie
        etag = phone.get(f"/m/{mid}?part=live").headers["ETag"]  # with it: it watches
        statements.clear()
        r = phone.get(f"/m/{mid}?part=live", headers={"If-None-Match": etag})
        assert r.status_code == 304 and r.data == b""
        reads = [s for s in statements if s.lstrip().lower().startswith("select")]
        assert not any(" deals" in s or "entry" in s for s in statements), statements
        assert len(reads) <= 2, "\n".join(statements)  # the match's version, this browser's role
        assert not any(s.split()[0].lower() in ("insert", "update", "delete") for s in statements)
    # a change is seen at once: the next poll is the new sheet
    a.post(f"/m/{mid}/deal", data=as_form(D1, text(a.get(f"/m/{mid}/deal"))))
    r = b.get(f"/m/{mid}?part=live", headers={"If-None-Match": etag})
    assert r.status_code == 200 and "Deal 31 in words" in text(r)


def test_the_poll_goes_through_flask_and_its_hooks(app):
    """One way in (issue 36): the live poll of an unchanged sheet, held or not, is
    answered by Flask's view with every hook run, as any request is."""
    seen = []
    app.before_request(lambda: seen.append(request.path))
    a = app.test_client()
    mid = new_bm(a)
    save(a, mid, D1)
    for url in (f"/m/{mid}?part=live", f"/m/{mid}?part=live&wait=1&deals=all"):
        etag = a.get(url).headers["ETag"]
        seen.clear()
        r = a.get(url, headers={"If-None-Match": etag})
        assert r.status_code == 304 and r.data == b"" and r.headers["ETag"] == etag
        assert seen == [f"/m/{mid}"]


def test_a_read_without_the_cookie_writes_nothing(app):
    a = app.test_client()
    mid = new_bm(a)
    a.post(f"/m/{mid}/deal", data=as_form(D1, text(a.get(f"/m/{mid}/deal"))))
    before = dump(app)
    pages = [
        f"/m/{mid}",
        f"/m/{mid}?part=live",
        f"/m/{mid}?deals=all",
        f"/m/{mid}/history",
        f"/m/{mid}/export.csv",
        f"/m/{mid}/sheet.csv",
        f"/api/matches/{mid}",
        "/",
        "/players",
        "/rules/",
    ]
    for _ in range(10):  # a link preview, a crawler, curl: a fresh client each time
        for page in pages:
            r = app.test_client().get(page)
            assert r.status_code == 200, page
    assert dump(app) == before


def browsers(app) -> list[tuple]:
    conn = sqlite3.connect(app.config["DATABASE"])
    try:
        return conn.execute("select browser, match_id, role from browsers").fetchall()
    finally:
        conn.close()


def test_a_phone_that_comes_back_with_its_cookie_is_remembered_once(app):
    a, b = app.test_client(), app.test_client()
    mid = new_bm(a)
    b.get(f"/m/{mid}")  # first read: the cookie is set, nothing written
    before = browsers(app)
    assert len(before) == 1  # a scores it
    assert f"/m/{mid}" not in text(b.get("/"))
    b.get(f"/m/{mid}?part=live")  # its poll, with the cookie: it watches the match
    watched = browsers(app)
    assert len(watched) == 2 and watched[1][1:] == (1, "watch")
    for _ in range(5):
        b.get(f"/m/{mid}?part=live")
        b.get(f"/m/{mid}")
    assert browsers(app) == watched  # once
    assert f"/m/{mid}" in text(b.get("/"))


def fresh_reads(app, mid) -> tuple:
    """The API read and both CSVs as a process that has read nothing yet gives them:
    a new app on the same database, this process's recent reads forgotten."""
    store.forget_recent()
    other = create_app({**app.config, "TESTING": True}).test_client()
    return reads(other, mid)


def reads(client, mid) -> tuple:
    """The API read and both CSVs, each CSV also as a browser gets it (Brotli, gzip:
    compressed once per version and kept) and read back, which must be the same."""
    out = []
    for url in (f"/api/matches/{mid}", f"/m/{mid}/export.csv", f"/m/{mid}/sheet.csv"):
        plain = client.get(url).get_data()
        out.append(plain)
        if url.endswith(".csv"):
            for encoding, decompress in (("br", brotli.decompress), ("gzip", gzip.decompress)):
                r = client.get(url, headers={"Accept-Encoding": encoding})
                if len(plain) >= 500:  # Flask-Compress's least size
                    assert r.headers["Content-Encoding"] == encoding
                    assert "Accept-Encoding" in r.headers["Vary"]
                    assert decompress(r.get_data()) == plain, url
                else:
                    assert "Content-Encoding" not in r.headers and r.get_data() == plain
    return tuple(out)


def test_kept_reads_equal_a_fresh_fold_after_every_kind_of_change(app, statements, monkeypatch):
    from scorer.store import kept as store_kept  # noqa: PLC0415

    folds = []
    real = store_kept.fold
    monkeypatch.setattr(store_kept, "fold", lambda *args: folds.append(args) or real(*args))
    a = app.test_client()
    mid = new_bm(a)
    changes = [
        lambda: save(a, mid, D1),
        lambda: save(a, mid, D2),
        lambda: save(a, mid, D3, number=1),  # an edit
        lambda: undo_latest(a, mid),
        lambda: a.post(
            f"/m/{mid}/deal/2/delete",
            data={"seen": hidden(text(a.get(f"/m/{mid}/deal/2")), "expect"), "key": "k"},
        ),
        lambda: undo_latest(a, mid),  # a restore
        lambda: save(a, mid, D3),
    ]
    for change in changes:
        before = reads(a, mid)  # drawn and kept for the version before
        change()
        kept = reads(a, mid)
        assert kept != before
        assert kept == fresh_reads(app, mid)
        statements.clear()
        folds.clear()
        assert reads(a, mid) == kept  # the same version again: nothing folded or written
        assert not folds
        assert not any(s.lower().startswith(("insert", "update")) for s in statements)


def test_a_worker_that_read_a_match_before_a_restore_reads_the_restored_deals(app, tmp_path):
    """A worker holds the standings it folded; a restore (or another worker) may
    change the deals behind them, deal ids too, and a worker (another process:
    it forgets nothing) folds on from the first deal whose entry differs."""
    from scorer import backup  # noqa: PLC0415
    from scorer.store import kept as store_kept  # noqa: PLC0415

    a = app.test_client()
    made = a.post(
        "/api/matches", json={"game": "black_maria", "players": ["Ala", "Bartek", "Celina"]}
    )
    mid, key = made.get_json()["id"], {"Authorization": f"Bearer {made.get_json()['edit_key']}"}
    assert a.post(f"/api/matches/{mid}/deals", json=D1, headers=key).status_code == 201
    copy = tmp_path / "copy.db"
    backup.backup(app.config["DATABASE"], copy)
    assert a.post(f"/api/matches/{mid}/deals", json=D2, headers=key).status_code == 201
    assert len(a.get(f"/api/matches/{mid}").get_json()["deals"]) == 2  # read: deals 1 and 2
    worker = dict(store_kept.FOLDS.items)  # what this worker holds
    backup.restore(app.config["DATABASE"], copy, tmp_path / "kept")
    assert a.post(f"/api/matches/{mid}/deals", json=D3, headers=key).status_code == 201
    store.forget_recent()
    store_kept.FOLDS.items.update(worker)  # a worker that folded deal 2 before the restore
    record = a.get(f"/api/matches/{mid}").get_json()  # deal 2 is D3 now, not D2
    store.forget_recent()
    fresh = fresh_reads_record(app, mid)
    assert len(record["deals"]) == 2 and record["deals"] == fresh["deals"]
    assert record["computed"] == fresh["computed"]


def fresh_reads_record(app, mid) -> dict:
    other = create_app({**app.config, "TESTING": True}).test_client()
    return other.get(f"/api/matches/{mid}").get_json()


def test_the_home_page_reads_its_page_of_rows_in_the_order_of_an_index(app, statements):
    a = app.test_client()
    for i in range(35):
        players = [f"Ala{i}", "Bartek", "Celina"]
        a.post("/api/matches", json={"game": "black_maria", "players": players})
    statements.clear()
    first = text(a.get("/"))
    assert "page 1 of 2" in first and "Matches (35)" in first
    # the filter's games and names are read over every match: only once it is opened
    assert "<select" not in first and 'href="/?filter=">Which matches<' in first
    assert not any("json_" in s for s in statements), statements  # no name, no summary scan
    assert ">Ala34<" in text(a.get("/?filter"))  # opened, the filter offers every name
    statements.clear()
    again = text(a.get("/"))
    assert again == first
    whole_rows = [s for s in statements if " from matches where id in (" in s.lower()]
    by_id = [s.lower().split(" where id in (")[1] for s in whole_rows]
    assert len(by_id) == 1 and by_id[0].count(",") == 29  # the page's 30, by id
    # nothing sorts all 35: the page's ids come in the order of an index
    (latest,) = [s for s in statements if "limit" in s.lower()]
    conn = sqlite3.connect(app.config["DATABASE"])
    plan = " ".join(r[3] for r in conn.execute(f"explain query plan {latest}"))
    conn.close()
    assert "browsers_latest" in plan and "TEMP B-TREE" not in plan, plan
    # a change to any of its matches is seen at once: a rename, a new match
    a.post("/api/matches", json={"game": "knaves", "players": ["Zoe", "Bartek", "Celina"]})
    page = text(a.get("/?filter"))
    assert ">Zoe<" in page and "page 1 of 2" in page and "Knaves" in page
    assert a.post("/players/rename", data={"old": "Zoe", "new": "Zofia"}).status_code == 302
    page = text(a.get("/?filter"))
    assert ">Zofia<" in page and ">Zoe<" not in page
    # a match in the trash is not counted (the count is read from indexes), nor listed
    mid = re.search(r'<li><a href="/m/([\w-]{12})"', page)[1]
    assert a.post(f"/m/{mid}/delete", headers={"Sec-Fetch-Site": "same-origin"}).status_code == 302
    page = text(a.get("/"))
    assert "Matches (35)" in page and f'<li><a href="/m/{mid}"' not in page


def test_figures_kept_afresh_after_an_upgrade_are_written_at_start_once(app, statements):
    # one match with a deal, two with none (which have nothing to fold, yet their
    # summary is kept afresh too: else they "cannot be read with today's rules")
    a = app.test_client()
    for i in range(3):
        made = a.post(
            "/api/matches", json={"game": "black_maria", "players": [f"Ala{i}", "Bo", "Cy"]}
        ).get_json()
    a.post(f"/api/matches/{made['id']}/deals", json=D1)
    first = text(a.get("/"))
    assert "1 deal · in progress" in first and first.count("0 deals · in progress") == 2
    older = "update matches set summary = json_set(summary, '$.code', 'older')"
    conn = sqlite3.connect(app.config["DATABASE"])
    conn.execute(older)
    conn.commit()  # summaries written by other code
    conn.close()
    store.forget_recent()  # the upgraded code starts afresh
    create_app({**app.config, "TESTING": True})  # the start writes them afresh
    conn = sqlite3.connect(app.config["DATABASE"])
    codes = [r[0] for r in conn.execute("select json_extract(summary, '$.code') from matches")]
    conn.close()
    assert codes == [store.STAMP] * 3
    statements.clear()
    assert text(a.get("/")) == first  # the list reads them as they are
    assert not any(s.startswith("update matches set summary") for s in statements), statements
    assert not any("json_extract" in s for s in statements), statements  # no scan for stale
    # one written by hand since the start: folded as the page shows it, once
    conn = sqlite3.connect(app.config["DATABASE"])
    conn.execute(older + " where id = (select min(id) from matches)")
    conn.commit()
    conn.close()
    statements.clear()
    assert text(a.get("/")) == first
    written = [s for s in statements if s.startswith("update matches set summary")]
    assert len(written) == 1, statements
    statements.clear()
    assert text(a.get("/")) == first
    assert not any(s.startswith("update matches set summary") for s in statements), statements


def test_show_all_draws_every_row_with_its_points_totals_and_edit_link(app):
    a, b = app.test_client(), app.test_client()
    mid = a.post(
        "/api/matches",
        json={"game": "black_maria", "players": ["Ala", "Bartek", "Celina"]}
        | {"options": {"target": 100_000}},
    ).get_json()["id"]
    for _deal in range(30):
        a.post(f"/api/matches/{mid}/deals", json=D1)
    page = text(a.get(f"/m/{mid}?deals=all"))
    rows = re.findall(r"<tr>\s*<th scope=\"row\">(.*?)</tr>", page, re.S)
    assert len(rows) == 30
    # deal 30: 17, 23 and 3 points (a heart 1, Q♠ 13, K♠ 10, A♠ 7), 30 times each
    last = rows[-1]
    assert f'<a href="/m/{mid}/deal/30" aria-label="Edit deal 30">30 ✎</a>' in last
    cells = re.findall(r'<span class="pts">(.*?)</span><span class="run">(.*?)</span>', last)
    assert cells == [("+17", "510"), ("+23", "690"), ("+3", "90")]
    # a watcher's rows name the deal without a link; in Polish the link's words too
    b.get(f"/m/{mid}")
    watched = text(b.get(f"/m/{mid}?deals=all"))
    assert "/deal/30" not in watched and '<th scope="row">30</th>' in watched
    a.get("/lang/pl")
    with app.test_request_context(), force_locale("pl"):
        polish = str(translated("Edit deal %(n)s", n=30))
    assert polish.startswith("Popraw") or polish.startswith("Edytuj")  # the catalog's
    assert f'aria-label="{polish}"' in text(a.get(f"/m/{mid}?deals=all"))


def test_show_all_of_a_long_match_is_compressed_and_reads_whole(app):
    """A page past 64 kB ("Show all" of 250 deals) is compressed by the sheet itself at
    a faster Brotli level (scorer.web.drawn.pack_big); it reads back whole, and a
    browser without Brotli gets it as Flask-Compress sends pages."""
    a = app.test_client()
    record = {"game": "black_maria", "players": ["Ala", "Bartek", "Celina"]}
    record |= {"options": {"target": 100_000}, "deals": [D1] * 250}
    mid = a.post("/api/matches", json=record).get_json()["id"]
    r = a.get(f"/m/{mid}?deals=all", headers={"Accept-Encoding": "br"})
    assert r.headers["Content-Encoding"] == "br" and "Accept-Encoding" in r.headers["Vary"]
    page = brotli.decompress(r.data).decode()
    assert len(page) > 64 * 1024 and len(r.data) < len(page) / 5
    assert len(re.findall(r'<th scope="row">', page)) == 250 and page.rstrip().endswith("</html>")
    r = a.get(f"/m/{mid}?deals=all", headers={"Accept-Encoding": "gzip"})
    assert r.headers["Content-Encoding"] == "gzip"
    assert len(re.findall(r'<th scope="row">', gzip.decompress(r.data).decode())) == 250
