"""The season (issue 14 part 5): every match this phone sees as one ZIP of JSON
records and results.csv, and that ZIP imported back, each record a new match;
a bad member is named and nothing is imported."""

from __future__ import annotations

import csv
import io
import json
import re
import threading
import time
import zipfile

import pytest

from scorer import create_app, season, store

from .helpers import create, record, short_busy_wait
from .test_csv import split
from .test_players import M1, M2, M5, M6, alert


def zip_of(members: dict[str, str | bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, body in members.items():
            zf.writestr(name, body)
    return out.getvalue()


def upload(client, body: bytes, name: str = "season.zip"):
    return client.post(
        "/season/import",
        data={"season": (io.BytesIO(body), name)},
        content_type="multipart/form-data",
    )


def members(body: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(body)) as zf:
        return {name: zf.read(name) for name in zf.namelist()}


def records(body: bytes) -> list[dict]:
    """The records of a season ZIP without their ids (an import gives new ones)."""
    out = []
    for name, data in members(body).items():
        if name.endswith(".json"):
            rec = json.loads(data)
            assert rec.pop("id") in name  # each member is named for its match
            out.append(rec)
    return sorted(out, key=lambda r: json.dumps(r, sort_keys=True))


def results(body: bytes) -> list[list]:
    text = members(body)["results.csv"].decode("utf-8")
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:])))


def installation(app, folder, name: str):
    """Another installation as the test app is set up, with its own database."""
    same = {k: app.config[k] for k in ("TESTING", "SECRET_KEY", "WTF_CSRF_ENABLED")}
    return create_app({**same, "DATABASE": str(folder / f"{name}.db")}).test_client()


@pytest.fixture
def fresh(app, tmp_path):
    return installation(app, tmp_path, "fresh")


def season_of(client) -> list[dict]:
    """What the client's season holds: the game and players of each match."""
    return [
        {"game": r["game"], "players": r["players"]}
        for r in records(client.get("/season.zip").data)
    ]


def test_a_season_goes_out_as_a_zip_and_comes_back_the_same(app, client, fresh):
    create(client, "black_maria", M1.match.deals, ["Ala", "Bartek", "Celina"], {"target": 40})
    hearts = create(
        client, "hearts", M2.match.deals, ["Bartek", "ala", "Darek", "Ewa"], {"target": 30}
    )
    assert client.delete(f"/api/matches/{hearts}/deals/2").status_code == 200  # a deal deleted
    create(client, "metamorphosis", M5.match.deals, ["Ala", "Bartek", "Celina"])
    create(client, "variety", M6.match.deals, ["Ala", "Bartek", "Celina", "Darek"])
    create(client, "knaves", [], ["Ala, Jan", "Ola; Ula", "=1+1"])  # separators and a formula
    trashed = create(client, "knaves", [], ["Ewa", "Franek", "Gosia"])
    assert client.delete(f"/api/matches/{trashed}").status_code == 200
    create(app.test_client(), "knaves", [], ["Not", "Seen", "Here"])  # another phone's
    r = client.get("/season.zip")
    assert r.status_code == 200 and r.mimetype == "application/zip"
    assert re.fullmatch(
        r"attachment; filename=\"(scorer-season_\d{4}-\d\d-\d\d\.zip)\"; filename\*=UTF-8''\1",
        r.headers["Content-Disposition"],
    )
    out = r.data
    names = sorted(members(out))
    assert len(names) == 7 and names[0] == "league.csv" and names[-1] == "results.csv"
    assert all(
        re.fullmatch(r"matches/\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d_[A-Za-z0-9_-]{12}\.json", n)
        for n in names[1:-1]
    )
    sent = records(out)
    assert {r["game"] for r in sent} == {
        "black_maria",
        "hearts",
        "metamorphosis",
        "variety",
        "knaves",
    }
    (hearts_record,) = [r for r in sent if r["game"] == "hearts"]
    assert hearts_record["deals"] == M2.match.deals[:1]  # the deleted deal is not in it
    r = upload(fresh, out)
    assert r.status_code == 302 and r.headers["Location"] == "/season"
    back = fresh.get("/season.zip").data
    assert records(back) == sent  # the same records: game, options, players, deals, computed
    assert sorted(row[1:] for row in results(back)) == sorted(row[1:] for row in results(out))
    assert "5 matches imported." in fresh.get("/season").get_data(as_text=True)
    # the imported matches are this phone's: its player pages count them
    assert fresh.get("/p/Ewa").status_code == 200


def test_the_results_csv(client):
    create(client, "black_maria", M1.match.deals, ["Ala", "Bartek", "Celina"], {"target": 40})
    create(client, "knaves", [], ["Ala, Jan", "Ola; Ula", "=1+1"])
    r = client.get("/season.csv")
    assert r.headers["Content-Type"] == "text/csv; charset=utf-8"
    text = r.get_data(as_text=True)
    lines = text[1:].splitlines()
    assert lines[0] == '"match","date","game","player","total","place"'
    # the latest first: the Knaves match not begun (no place yet), then Black Maria over:
    # Ala 40 1st, Bartek 41 2nd, Celina 48 3rd (test_players.M1, worked out there)
    rows = list(csv.reader(io.StringIO(text[1:])))[1:]
    assert [row[2:] for row in rows] == [
        ["Knaves", "Ala, Jan", "0", ""],
        ["Knaves", "Ola; Ula", "0", ""],
        ["Knaves", "'=1+1", "0", ""],
        ["Black Maria", "Ala", "40", "1"],
        ["Black Maria", "Bartek", "41", "2"],
        ["Black Maria", "Celina", "48", "3"],
    ]
    assert lines[4].endswith(",40,1")  # numbers bare, every text quoted
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\d", row[1]) for row in rows)
    # a spreadsheet splitting on , ; tab and space reads six columns on every row
    assert [len(row) for row in split(text[1:])] == [6] * 7
    assert results(client.get("/season.zip").data) == list(csv.reader(io.StringIO(text[1:])))


def test_a_member_twice_in_the_zip_is_named_and_nothing_is_imported(client, fresh):
    """A ZIP may hold one name twice (an archiver adding a file again): the match
    would be imported, and rated, twice."""
    create(client, "black_maria", M1.match.deals, ["Ala", "Bartek", "Celina"], {"target": 40})
    held = members(client.get("/season.zip").data)
    ((name, body),) = [(n, b) for n, b in held.items() if n.endswith(".json")]
    out = io.BytesIO()
    with pytest.warns(UserWarning), zipfile.ZipFile(out, "w") as zf:  # "Duplicate name"
        zf.writestr(name, body)
        zf.writestr(name, body)
    r = upload(fresh, out.getvalue())
    assert r.status_code == 400
    assert alert(r.get_data(as_text=True)) == f"Nothing imported: {name} is in this ZIP twice"
    assert season_of(fresh) == []


def test_a_bad_member_is_named_and_nothing_is_imported(client, fresh):
    create(client, "black_maria", M1.match.deals, ["Ala", "Bartek", "Celina"], {"target": 40})
    good = members(client.get("/season.zip").data)
    bad = record("black_maria", [{"hearts": [4, 6, 2], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}], 3)
    cases = {
        "matches/bad.json": (
            {**good, "matches/bad.json": json.dumps(bad)},
            "matches/bad.json: deal 1: hearts add up to 12, but 13 are in play",
        ),
        "notes.txt": (
            {**good, "notes.txt": "hello"},
            "notes.txt: not a game record (a .json file)",
        ),
        "not JSON": (
            {**good, "matches/x.json": "{"},
            "matches/x.json: not JSON: cut off or mistyped at line 1, column 2",
        ),
        "no record": ({"results.csv": good["results.csv"]}, "this ZIP holds no game record"),
    }
    for what, (content, message) in cases.items():
        r = upload(fresh, zip_of(content))
        assert r.status_code == 400, what
        assert alert(r.get_data(as_text=True)).startswith("Nothing imported: " + message), what
    for body in (b"", b"PK\x03\x04 not really", json.dumps(bad).encode()):
        r = upload(fresh, body)
        assert r.status_code == 400
        assert alert(r.get_data(as_text=True)) == "Nothing imported: this file is not a ZIP archive"
    assert fresh.post("/season/import").status_code == 400  # no file at all
    assert season_of(fresh) == []  # nothing was imported, from any of them
    # folders and a Mac's resource forks are no mistake: skipped
    mac = {**good, "matches/": b"", "__MACOSX/._x.json": b"\x00\x05", "matches/.DS_Store": b"x"}
    assert upload(fresh, zip_of(mac)).status_code == 302
    assert season_of(fresh) == [{"game": "black_maria", "players": ["Ala", "Bartek", "Celina"]}]


def test_a_record_too_large_is_refused_before_it_is_read(client, fresh, monkeypatch):
    create(client, "black_maria", M1.match.deals, ["Ala", "Bartek", "Celina"], {"target": 40})
    body = client.get("/season.zip").data
    monkeypatch.setattr(season, "MEMBER_MAX", 100)
    r = upload(fresh, body)
    assert r.status_code == 400
    assert "too large for a game record" in alert(r.get_data(as_text=True))
    monkeypatch.setattr(season, "MEMBERS_MAX", 0)
    assert "at most 0 records" in alert(upload(fresh, body).get_data(as_text=True))


def test_the_season_import_needs_the_form_token(csrf_client):
    assert upload(csrf_client, zip_of({"a.json": "{}"})).status_code == 400


def test_the_season_page_links_both_exports(client):
    create(client, "knaves", [], ["Ala", "Bartek", "Celina"])
    page = client.get("/season").get_data(as_text=True)
    assert "This phone scores or has watched 1 match." in page
    assert 'href="/season.zip"' in page and 'href="/season.csv"' in page
    assert 'href="/season"' in client.get("/p/Ala").get_data(as_text=True)


def test_a_season_moved_to_another_phone_keeps_its_days_and_its_league(app, client, fresh):
    """Three weeks of Black Maria, each won by another player (hand-worked: a heart
    1, Q♠ 13, K♠ 10, A♠ 7; the match ends at 20, lowest wins), week 1's fixed
    later. Moved to another phone, each match keeps the day it began (its member's
    name says it; the record has no date), and the league rated from them in the
    order they began is the same: before, the import took the ZIP's latest-changed
    order and dated every match the day of the import, so week 1 was rated last."""
    names = ["Ala", "Bartek", "Celina"]
    target = {"target": 20}

    def deal(hearts, qs, ks, as_):
        return {"hearts": hearts, "taken_by": {"QS": qs, "KS": ks, "AS": as_}}

    weeks = [
        create(client, "black_maria", [deal([4, 6, 3], 0, 1, 1)], names, target),  # 17 23 3
        create(client, "black_maria", [deal([3, 4, 6], 1, 2, 2)], names, target),  # 3 17 23
        create(client, "black_maria", [deal([6, 3, 4], 2, 0, 0)], names, target),  # 23 3 17
    ]
    with app.app_context():
        db = store.get_db()
        for day, pub in zip(("2025-05-10", "2025-05-17", "2025-05-24"), weeks, strict=True):
            db.execute(
                "update matches set created = ?, version = version + 1 where pub = ?",
                [f"{day}T19:30:00+00:00", pub],
            )
        db.conn.commit()
    # week 1's typo fixed a year later: 4 5 4 hearts, the same places (17 22 4)
    fixed = client.put(f"/api/matches/{weeks[0]}/deals/1", json=deal([4, 5, 4], 0, 1, 1))
    assert fixed.status_code == 200, fixed.get_json()
    assert fixed.get_json()["totals"] == [17, 22, 4]
    out = client.get("/season.zip").data
    assert upload(fresh, out).status_code == 302
    back = fresh.get("/season.zip").data
    began = sorted(row[1:] for row in results(out))
    weekly = ["2025-05-10", "2025-05-17", "2025-05-24"]
    assert [row[0] for row in began if row[2] == "Ala"] == weekly
    assert sorted(row[1:] for row in results(back)) == began  # each match's day kept
    league = client.get("/players/league.csv?year=2025").get_data(as_text=True)
    assert league.count("\n") == 4  # a heading and the three players
    assert fresh.get("/players/league.csv?year=2025").get_data(as_text=True) == league


def test_an_older_scorers_zip_and_a_second_move_keep_a_days_order(app, client, fresh, tmp_path):
    """An older Scorer named each member by its day alone and listed the latest
    changed first: one evening's three matches are taken oldest first (the ZIP's
    order reversed), a second apart, so that moved on again they keep that order.
    A day before 1970 or after today is no day: the match is dated when imported."""
    names = ["Ala", "Bartek", "Celina"]

    def in_names_order(body: bytes) -> list:
        """Each record's first deal's hearts, its members sorted by name (when it began)."""
        held = members(body)
        return [
            json.loads(held[n])["deals"][0]["hearts"] for n in sorted(held) if n.endswith(".json")
        ]

    played = [[4, 6, 3], [3, 4, 6], [6, 3, 4]]  # in the order they began that evening
    records = [
        {
            "game": "black_maria",
            "players": names,
            "deals": [{"hearts": h, "taken_by": {"QS": 0, "KS": 1, "AS": 1}}],
        }
        for h in played
    ]
    older = zip_of(
        {
            f"matches/2025-05-10_{'abcdefghijk' + str(k)}.json": json.dumps(records[k])
            for k in (2, 1, 0)
        }
    )
    assert upload(fresh, older).status_code == 302
    moved = fresh.get("/season.zip").data
    assert in_names_order(moved) == played  # by their names' times: 2025-05-10T00-00-00, -01, -02
    assert all(
        n.startswith("matches/2025-05-10T00-00-0") for n in members(moved) if n.endswith(".json")
    )
    third = installation(app, tmp_path, "third")
    assert upload(third, moved).status_code == 302
    again = third.get("/season.zip").data
    assert in_names_order(again) == played
    # a day no match began on: dated the day of the import
    strange = zip_of(
        {
            "matches/1900-01-01_x.json": json.dumps(records[0]),
            "matches/2099-01-01_y.json": json.dumps(records[1]),
        }
    )
    fourth = installation(app, tmp_path, "fourth")
    assert upload(fourth, strange).status_code == 302
    days = {row[1] for row in results(fourth.get("/season.zip").data)[1:]}
    assert days == {time.strftime("%Y-%m-%d", time.gmtime())}


def test_a_season_moved_keeps_the_ratings_order_with_same_second_and_undated_matches(
    app, client, fresh
):
    """The ratings take matches in the order they began, a tie (one second) by the
    order they were stored; the ZIP lists them in that same order, and an import
    keeps the ZIP's. Before, the ZIP listed a second's matches latest changed first
    (the reverse): moved, they were rated in another order, and the league differed.
    Three matches stored within one second, each won by another player (hand-worked
    as above: a heart 1, Q♠ 13, K♠ 10, A♠ 7; lowest wins), and two imported from a
    ZIP whose names give no time (dated when imported, after the others, in the
    ZIP's order): export, import, export gives the same order and the same league."""
    names = ["Ala", "Bartek", "Celina"]

    def deal(hearts, qs, ks, as_):
        return {"hearts": hearts, "taken_by": {"QS": qs, "KS": ks, "AS": as_}}

    target = {"target": 20}  # each match ends after its one deal
    played = [
        deal([4, 6, 3], 0, 1, 1),  # 17 23 3: Celina wins
        deal([3, 4, 6], 1, 2, 2),  # 3 17 23: Ala
        deal([6, 3, 4], 2, 0, 0),  # 23 3 17: Bartek
        deal([0, 13, 0], 0, 0, 0),  # 30 13 0: Celina
        deal([13, 0, 0], 1, 1, 1),  # 13 30 0: Celina
    ]
    made = [create(client, "black_maria", [d], names, target) for d in played[:3]]
    with app.app_context():
        db = store.get_db()
        db.execute(
            "update matches set created = '2025-05-10T19:30:00+00:00', version = version + 1 "
            f"where pub in ({','.join('?' * len(made))})",
            made,
        )
        db.conn.commit()
    client.put(f"/api/matches/{made[0]}/deals/1", json=played[0])  # the first changed last
    undated = zip_of(
        {
            f"matches/{name}.json": json.dumps(
                {"game": "black_maria", "players": names, "options": target, "deals": [d]}
            )
            for name, d in (("evening", played[3]), ("later", played[4]))
        }
    )
    assert upload(client, undated).status_code == 302

    def in_zip_order(body: bytes) -> list[list[int]]:
        """Each record's first deal's hearts, in the order the ZIP lists them."""
        with zipfile.ZipFile(io.BytesIO(body)) as zf:
            return [
                json.loads(zf.read(n))["deals"][0]["hearts"]
                for n in zf.namelist()
                if n.endswith(".json")
            ]

    out = client.get("/season.zip").data
    assert in_zip_order(out) == [d["hearts"] for d in played]  # as they were stored
    assert upload(fresh, out).status_code == 302
    back = fresh.get("/season.zip").data
    assert in_zip_order(back) == in_zip_order(out)
    assert members(back)["league.csv"] == members(out)["league.csv"]
    league = client.get("/players/league.csv").get_data(as_text=True)
    assert league.count("\n") == 4  # a heading and the three players
    assert fresh.get("/players/league.csv").get_data(as_text=True) == league


def test_deals_saved_while_a_long_season_imports_take_their_turn(app, monkeypatch):
    """A season of 600 matches imported while a phone saves deal after deal of
    another match: the import writes a few matches a transaction and leaves the
    lock free between them, so each save waits a few tenths of a second at most
    and lands. Before, the import held the lock transaction after transaction;
    a save waited for the whole import and, past the busy wait (1 s here, 10 s
    when served), answered 500 "database is locked"."""
    short_busy_wait(monkeypatch, 1.0)
    phone, importer = app.test_client(), app.test_client()
    names = ["Ala", "Bartek", "Celina"]
    mid = create(phone, "black_maria", [], names, {"end": "deals", "deals": 300})
    phone.get(f"/m/{mid}")  # this browser made the match: it scores it
    d = {"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}
    long = zip_of(
        {
            f"matches/2025-05-10T19-{k // 60:02d}-{k % 60:02d}_m{k}.json": json.dumps(
                record("black_maria", [d] * 9, names, {"end": "deals", "deals": 9})
            )
            for k in range(600)
        }
    )
    importing, saves = threading.Event(), []

    def save_deals() -> None:  # a deal every tenth of a second, as fast as a table goes
        while len(saves) < 2 or (importing.is_set() and len(saves) < 250):
            began = time.monotonic()
            try:
                status = phone.post(f"/api/matches/{mid}/deals", json=d).status_code
            except Exception as e:  # the test client raises what a server answers 500 for
                status = repr(e)
            saves.append((status, time.monotonic() - began, importing.is_set()))
            time.sleep(0.1)

    saver = threading.Thread(target=save_deals)
    importing.set()
    saver.start()
    try:
        r = upload(importer, long)
    finally:
        importing.clear()
        saver.join(30)
    assert r.status_code == 302
    assert [s for s, _t, _i in saves if s != 201] == []  # no 500, no 503: each landed
    during = [t for _s, t, now in saves if now]
    assert len(during) >= 3 and max(during) < 0.8, during
    assert len(phone.get(f"/api/matches/{mid}").get_json()["deals"]) == len(saves)
    assert len(season_of(importer)) == 600


def test_a_season_file_past_the_upload_limit_is_refused_on_the_season_page(app, client):
    """Past the most a request may carry (8 MB when served), said on the season
    page with the limit, not a bare "That is too large." page; nothing imported."""
    app.config["MAX_CONTENT_LENGTH"] = 1 << 20
    r = upload(client, b"PK" + b"x" * (1 << 20))
    assert r.status_code == 413
    page = r.get_data(as_text=True)
    assert alert(page) == (
        "Nothing imported: this file is larger than 1 MB, the most one file may be"
    )
    assert '<form method="post" action="/season/import"' in page  # to choose another
    assert season_of(client) == []
