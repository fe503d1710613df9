"""One match, several phones: addresses nobody can guess, scoring and watching,
the edit key on the API, the live sheet, the side-by-side choice, history,
undo and the trash."""

from __future__ import annotations

import re
import threading
import urllib.error
import urllib.parse
import urllib.request

from werkzeug.serving import make_server

from scorer import create_app, store

from .conftest import trials
from .helpers import BM, hidden, new_bm

D1 = {"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}  # 17, 23, 3
D2 = {"hearts": [0, 5, 8], "taken_by": {"QS": 2, "KS": 2, "AS": 0}}  # 7, 5, 31
D3 = {"hearts": [13, 0, 0], "taken_by": {"QS": 1, "KS": 1, "AS": 1}}  # 13, 30, 0


def text(r):
    return r.get_data(as_text=True)


def as_form(entry, page):
    data = {f"hearts__{s}": str(h) for s, h in enumerate(entry["hearts"])}
    data.update({f"taken_by_{c}": str(s) for c, s in entry["taken_by"].items()})
    data.update(expect=hidden(page, "expect"), key=hidden(page, "key"))
    deal = re.search(r'name="number" type="hidden" value="([^"]*)"', page)
    if deal:  # a new deal's page names the table's deal it records
        data["number"] = deal.group(1)
    return data


def key_of(app, mid) -> str:
    with app.app_context():
        return store.get(store.get_db(), mid).edit_key


def totals(client, mid):
    return client.get(f"/api/matches/{mid}").get_json()["computed"]["totals"]


# --- addresses and keys ----------------------------------------------------------


def test_ids_and_keys_are_unguessable_and_never_given_twice(app, client):
    ids, keys = set(), set()
    for _ in range(40):
        r = client.post("/api/matches", json={"game": "hearts", "players": list("ABCD")})
        record = r.get_json()
        ids.add(record["id"])
        keys.add(record["edit_key"])
    assert len(ids) == 40 and len(keys) == 40
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{12}", i) and not i.isdigit() for i in ids)  # 72 bits
    assert all(len(k) >= 22 for k in keys)  # 128 bits
    # a deleted match keeps its id: it is never handed out again
    gone = sorted(ids)[0]
    client.delete(f"/api/matches/{gone}")
    with app.app_context():
        assert store.get(store.get_db(), gone, trash=True).pub == gone


def test_every_write_route_refuses_a_browser_that_does_not_score(app, phones):
    a, b, _c = phones
    mid = new_bm(a)
    a.post(f"/m/{mid}/deal", data=as_form(D1, text(a.get(f"/m/{mid}/deal"))))
    page = text(a.get(f"/m/{mid}/deal/1"))
    b.get(f"/m/{mid}")  # B watches
    writes = [
        ("get", f"/m/{mid}/deal", None),
        ("post", f"/m/{mid}/deal", as_form(D2, page)),
        ("get", f"/m/{mid}/deal/1", None),
        ("post", f"/m/{mid}/deal/1", as_form(D2, page)),
        ("post", f"/m/{mid}/deal/1/delete", {"seen": hidden(page, "expect")}),
        ("post", f"/m/{mid}/delete", {}),
        ("post", f"/m/{mid}/rematch", {}),
        ("get", f"/m/{mid}/check", None),
        ("get", f"/m/{mid}/share", None),
        ("post", f"/m/{mid}/undo/1", {}),
        ("get", f"/m/{mid}/choice/1", None),
        ("post", f"/m/{mid}/choice/1", {"action": "keep"}),
        ("post", f"/m/{mid}/revive", {"entry": "{}", "deal": "1"}),
        ("post", f"/m/{mid}/restore", {}),
    ]
    for method, url, data in writes:
        r = getattr(b, method)(url, data=data)
        assert r.status_code in (403, 404), (url, r.status_code)
        if r.status_code == 403:
            assert "score link" in text(r) or "scorers" in text(r)
    assert totals(a, mid) == [17, 23, 3]  # nothing changed
    # B sees the sheet, the rules, the exports and the history: nothing to change
    sheet = text(b.get(f"/m/{mid}"))
    assert "You are watching" in sheet and "Enter deal" not in sheet and "✎" not in sheet
    assert '<form method="post" class="deal' not in sheet  # no form to enter one
    assert "Delete this match" not in sheet and "Share" not in sheet
    for url in [
        f"/m/{mid}/export.csv",
        f"/m/{mid}/record.json",
        f"/m/{mid}/history",
        "/rules/black_maria",
    ]:
        assert b.get(url).status_code == 200, url


def test_the_score_link_makes_a_scorer_once_and_a_wrong_one_does_not(app, phones):
    a, b, c = phones
    mid = new_bm(a)
    r = c.get(f"/m/{mid}/score?key=not-the-key")
    assert r.status_code == 403
    r = b.get(f"/m/{mid}/score?key={key_of(app, mid)}")
    # the clean address (the key left out; #scoring: the sheet says "you score it")
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/m/{mid}#scoring")
    assert (
        b.post(f"/m/{mid}/deal", data=as_form(D1, text(b.get(f"/m/{mid}/deal")))).status_code == 302
    )
    assert c.get(f"/m/{mid}/deal").status_code == 403
    assert totals(a, mid) == [17, 23, 3]


def test_the_home_page_lists_what_this_browser_scores_or_watched(phones):
    a, b, c = phones
    mine = new_bm(a)
    other = new_bm(c)
    b.get(f"/m/{mine}")  # the first read sets b's cookie and writes nothing
    assert f"/m/{mine}" not in text(b.get("/"))
    b.get(f"/m/{mine}?part=live")  # the sheet's poll comes back with it: b watches
    assert f"/m/{mine}" in text(a.get("/")) and f"/m/{other}" not in text(a.get("/"))
    assert f"/m/{mine}" in text(b.get("/")) and f"/m/{other}" not in text(b.get("/"))
    assert f"/m/{mine}" not in text(c.get("/"))


def test_api_writes_need_the_edit_key(app):
    maker, stranger = app.test_client(), app.test_client()
    record = maker.post(
        "/api/matches", json={"game": "black_maria", "players": ["Ala", "Bartek", "Celina"]}
    ).get_json()
    mid, key = record["id"], record["edit_key"]
    stranger.keys.clear()
    wrong = {"Authorization": "Bearer " + "x" * 22}
    for method, url, body in [
        ("post", f"/api/matches/{mid}/deals", D1),
        ("put", f"/api/matches/{mid}/deals/1", D1),
        ("delete", f"/api/matches/{mid}/deals/1", None),
        ("delete", f"/api/matches/{mid}", None),
    ]:
        r = getattr(stranger, method)(url, json=body)
        assert r.status_code == 401 and "edit key" in r.get_json()["error"], url
        assert r.headers["WWW-Authenticate"].startswith("Bearer")
        r = getattr(stranger, method)(url, json=body, headers=wrong)
        assert r.status_code == 403, url
    assert stranger.get(f"/api/matches/{mid}").status_code == 200  # reading needs only the id
    good = {"Authorization": f"Bearer {key}"}
    assert stranger.post(f"/api/matches/{mid}/deals", json=D1, headers=good).status_code == 201
    assert totals(stranger, mid) == [17, 23, 3]


def test_old_numbers_are_no_addresses_for_new_matches(phones):
    a, _b, _c = phones
    new_bm(a)
    for n in (1, 2):
        assert a.get(f"/m/{n}").status_code == 404


# --- live -------------------------------------------------------------------------


def test_the_live_part_of_the_sheet_is_a_304_until_something_changes(phones):
    a, b, _c = phones
    mid = new_bm(a)
    r = b.get(f"/m/{mid}?part=live")
    etag = r.headers["ETag"]
    assert r.status_code == 200 and "<html" not in text(r) and "Deals" not in text(r)
    assert b.get(f"/m/{mid}?part=live", headers={"If-None-Match": etag}).status_code == 304
    a.post(f"/m/{mid}/deal", data=as_form(D1, text(a.get(f"/m/{mid}/deal"))))
    r = b.get(f"/m/{mid}?part=live", headers={"If-None-Match": etag})
    assert r.status_code == 200 and r.headers["ETag"] != etag and "Deal 1 in words" in text(r)


# --- nothing entered is lost -------------------------------------------------------


def test_two_phones_saving_deal_n_at_once_store_it_once_or_keep_both_for_a_choice(app, tmp_path):
    srv_app = create_app(
        {"DATABASE": str(tmp_path / "race.db"), "SECRET_KEY": "r", "WTF_CSRF_ENABLED": False}
    )
    srv = make_server("127.0.0.1", 0, srv_app, threaded=True)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{srv.server_port}"
    a, b = (f"scorer_browser={'a' * 24}", f"scorer_browser={'b' * 24}")

    def send(cookie, url, data=None):
        request = urllib.request.Request(
            base + url,
            headers={"Cookie": cookie},
            data=urllib.parse.urlencode(data).encode() if data is not None else None,
        )
        opener = urllib.request.build_opener(NoRedirect)
        try:
            with opener.open(request, timeout=30) as r:
                return r.status, r.read().decode(), ""
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode(), e.headers.get("Location", "")

    try:
        status, _page, _to = send(
            a, "/new/black_maria", {**BM, "opt_end": "deals", "opt_deals": "300"}
        )
        assert status == 302
        with srv_app.app_context():
            db = store.get_db()
            mid = store.listing(db)[0].pub
            key = store.get(db, mid).edit_key
        send(b, f"/m/{mid}/score?key={key}")
        stored_deals = 0
        for trial in range(trials(100, 20)):
            same = trial % 2 == 1  # every other time both phones typed the same deal
            pa, pb = send(a, f"/m/{mid}/deal")[1], send(b, f"/m/{mid}/deal")[1]
            barrier, out = threading.Barrier(2), {}

            def go(name, cookie, entry, page, barrier=barrier, out=out):
                barrier.wait()
                out[name] = send(cookie, f"/m/{mid}/deal", as_form(entry, page))

            threads = [
                threading.Thread(target=go, args=("a", a, D1, pa)),
                threading.Thread(target=go, args=("b", b, D1 if same else D2, pb)),
            ]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert sorted(out[k][0] for k in out) == [302, 302], trial
            places = sorted(
                "choice" if "/choice/" in to else "sheet" for _c, _p, to in out.values()
            )
            stored_deals += 1
            with srv_app.app_context():
                assert len(store.get(store.get_db(), mid).match.deals) == stored_deals
            if same:  # one deal, stored once; both phones back on the sheet
                assert places == ["sheet", "sheet"], trial
                continue
            assert places == ["choice", "sheet"], trial
            to = next(to for _c, _p, to in out.values() if "/choice/" in to)
            loser = a if "/choice/" in out["a"][2] else b
            page = send(loser, urllib.parse.urlparse(to).path)[1]
            assert f"Deal {stored_deals}: two entries" in page
            assert f"Add it as deal {stored_deals + 1}, a new deal" in page
    finally:
        srv.shutdown()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def test_the_other_entry_as_the_next_deal_keeps_both(phones):
    a, b, _c = phones
    mid = new_bm(a)
    pa, pb = text(a.get(f"/m/{mid}/deal")), text(a.get(f"/m/{mid}/deal"))
    assert a.post(f"/m/{mid}/deal", data=as_form(D1, pa)).status_code == 302
    r = a.post(f"/m/{mid}/deal", data=as_form(D2, pb))
    assert r.status_code == 302 and "/choice/" in r.location
    page = text(a.get(r.location))
    assert "Add it as deal 2, a new deal" in page
    assert a.get(f"/api/matches/{mid}").get_json()["deals"] == [D1]
    key = re.search(r'name="key" value="([^"]*)"', page).group(1)
    r = a.post(r.location, data={"action": "next", "key": key})
    assert r.status_code == 302
    assert a.get(f"/api/matches/{mid}").get_json()["deals"] == [D1, D2]
    # 17 + 7, 23 + 5, 3 + 31
    assert totals(a, mid) == [24, 28, 34]


# --- history, undo, trash ------------------------------------------------------------


def test_the_history_names_each_entry_of_a_choice_for_what_it_is(phones):
    """Deal 1 saved, then entered again differently from a page opened before; the
    stored one kept. The history says which entry was stored and which set aside,
    not "Before:"; each line says what happened first and when after it."""
    a, _b, _c = phones
    mid = new_bm(a)
    pa, pb = text(a.get(f"/m/{mid}/deal")), text(a.get(f"/m/{mid}/deal"))
    assert a.post(f"/m/{mid}/deal", data=as_form(D1, pa)).status_code == 302
    r = a.post(f"/m/{mid}/deal", data=as_form(D2, pb))
    page = text(a.get(r.location))
    key = re.search(r'name="key" value="([^"]*)"', page).group(1)
    assert a.post(r.location, data={"action": "keep", "key": key}).status_code == 302
    history = text(a.get(f"/m/{mid}/history"))
    d1 = "Ala: 4 hearts, Q♠; Bartek: 6 hearts, K♠, A♠; Celina: 3 hearts"
    d2 = "Ala: A♠; Bartek: 5 hearts; Celina: 8 hearts, Q♠, K♠"
    kept = history.index("Deal 1 kept as stored")
    conflict = history.index("Deal 1 entered twice, differently")
    assert f"Set aside: {d2}" in history[kept:conflict]
    assert f"Stored: {d1}" in history[kept:conflict]
    assert f"Stored: {d1}" in history[conflict:] and f"The other entry: {d2}" in history[conflict:]
    assert "Before:" not in history
    assert re.search(r"<strong>Deal 1 saved\.</strong></p>\s*<p class=\"quiet\"><time", history)


def save(client, mid, entry, number=None):
    url = f"/m/{mid}/deal" + (f"/{number}" if number else "")
    r = client.post(url, data=as_form(entry, text(client.get(url))))
    assert r.status_code == 302, text(r)[:500]


def undo_latest(client, mid):
    page = text(client.get(f"/m/{mid}/history"))
    url = re.search(r'action="(/m/[^"]+/undo/\d+)"', page).group(1)
    r = client.post(url, data={"back": "history"})
    assert r.status_code == 302
    return r


def test_history_lists_each_kind_of_change_and_undo_restores_the_standings(phones):
    a, _b, _c = phones
    mid = new_bm(a)
    save(a, mid, D1)
    save(a, mid, D2)
    assert totals(a, mid) == [24, 28, 34]
    save(a, mid, D3, number=1)  # deal 1 becomes 13, 30, 0: totals 20, 35, 31
    assert totals(a, mid) == [20, 35, 31]
    undo_latest(a, mid)  # the edit undone: back to 24, 28, 34
    assert totals(a, mid) == [24, 28, 34]
    page = text(a.get(f"/m/{mid}/deal/2"))
    a.post(f"/m/{mid}/deal/2/delete", data={"seen": hidden(page, "expect"), "key": "k"})
    assert totals(a, mid) == [17, 23, 3]
    undo_latest(a, mid)  # the delete undone: deal 2 is back in its place
    assert totals(a, mid) == [24, 28, 34]
    assert a.get(f"/api/matches/{mid}").get_json()["deals"] == [D1, D2]
    undo_latest(a, mid)  # the restore undone: deal 2 deleted again
    assert totals(a, mid) == [17, 23, 3]
    undo_latest(a, mid)  # and back
    save(a, mid, D3)
    undo_latest(a, mid)  # an added deal undone
    assert totals(a, mid) == [24, 28, 34]
    page = text(a.get(f"/m/{mid}/history"))
    for words in [
        "Deal 1 saved.",
        "Deal 2 saved.",
        "Deal 1 changed.",
        "Deal 1 put back as it was (an undo).",
        "Deal 2 deleted.",
        "Deal 2 restored (an undo).",
        "Deal 2 deleted (an undo).",
        "Deal 3 saved.",
        "Deal 3 deleted (an undo).",
        "The match was started.",
    ]:
        assert words in page, words
    # nothing is erased: every change is a line, the latest first
    assert page.count("<li>") == 11
    # an undo that a later change makes impossible is refused, nothing changed
    save(a, mid, D3, number=2)
    with a.application.app_context():
        lines = store.history(store.get_db(), mid)
    older = next(line for line in lines if line["kind"] == "add" and line["deal"] == 2)
    assert not older["undoable"]
    r = a.post(f"/m/{mid}/undo/{older['id']}", data={"back": "history"}, follow_redirects=True)
    assert "Not undone: deal 2 was changed again after that" in text(r)


def test_the_sheet_offers_a_one_tap_undo_right_after_a_save(phones):
    a, b, _c = phones
    mid = new_bm(a)
    save(a, mid, D1)
    sheet = text(a.get(f"/m/{mid}"))
    assert "Undo saving deal 1" in sheet
    watched = text(b.get(f"/m/{mid}"))  # a watcher: no Undo, and a plain "History"
    assert "Undo" not in watched and "undo" not in watched
    assert re.search(r'/history">History</a>', watched)
    url = re.search(r'class="undo" action="([^"]+)"', sheet).group(1)
    assert a.post(url).status_code == 302
    assert totals(a, mid) == [0, 0, 0]


def test_a_deleted_match_waits_in_the_trash_and_comes_back(phones):
    a, b, _c = phones
    mid = new_bm(a)
    save(a, mid, D1)
    b.get(f"/m/{mid}")
    assert a.post(f"/m/{mid}/delete").status_code == 302
    assert a.get(f"/m/{mid}").status_code == 404
    home = text(a.get("/"))
    assert "Trash" in home and f"/m/{mid}/restore" in home
    assert "Trash" not in text(b.get("/"))  # a watcher cannot bring it back
    assert b.post(f"/m/{mid}/restore").status_code == 403
    assert a.post(f"/m/{mid}/restore").status_code == 302
    assert totals(a, mid) == [17, 23, 3]


def test_the_api_history_lists_every_change_in_order(client):
    record = client.post(
        "/api/matches", json={"game": "black_maria", "players": ["Ala", "Bartek", "Celina"]}
    ).get_json()
    mid = record["id"]
    client.post(f"/api/matches/{mid}/deals", json=D1)
    client.put(f"/api/matches/{mid}/deals/1", json=D2)
    client.delete(f"/api/matches/{mid}/deals/1")
    r = client.get(f"/api/matches/{mid}/history")
    lines = r.get_json()["history"]
    assert [(line["kind"], line["deal"]) for line in lines] == [
        ("api", None),
        ("add", 1),
        ("edit", 1),
        ("delete", 1),
    ]
    assert lines[1]["entry"] == D1 and lines[2]["entry"] == D2 and lines[2]["before"] == D1
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", line["at"]) for line in lines)
    assert (
        client.get(
            f"/api/matches/{mid}/history", headers={"If-None-Match": r.headers["ETag"]}
        ).status_code
        == 304
    )


def test_fix_a_name_and_change_an_option_each_a_change_undone_from_the_history(phones):
    a, b, _c = phones
    mid = new_bm(a)
    save(a, mid, D1)  # 17, 23, 3
    save(a, mid, D2)  # 24, 28, 34
    form = {**BM, "name_1": "Bartosz", "opt_target": "100", "key": "s1"}
    r = a.post(f"/m/{mid}/setup", data=form)
    assert r.status_code == 302
    record = a.get(f"/api/matches/{mid}").get_json()
    assert record["players"] == ["Ala", "Bartosz", "Celina"] and record["deals"] == [D1, D2]
    assert record["first_dealer"] == 0 and record["computed"]["totals"] == [24, 28, 34]
    # a target the stored deals pass: Celina's 34 ends the match at 30 after deal 2 ...
    r = a.post(f"/m/{mid}/setup", data={**form, "opt_target": "30", "key": "s2"})
    assert r.status_code == 302
    assert a.get(f"/api/matches/{mid}").get_json()["computed"]["finished"] is True
    # ... but 20 would end it after deal 1 (Bartek 23), with deal 2 after the end: refused
    undo_latest(a, mid)
    r = a.post(f"/m/{mid}/setup", data={**form, "opt_target": "20", "key": "s3"})
    assert r.status_code == 400
    assert (
        "Nothing was saved: after this change deal 2 could not stand (the match is already over)."
        in text(r)
    )
    # a watcher cannot; the history says it, and undo puts the names back
    assert b.post(f"/m/{mid}/setup", data=form).status_code == 403
    assert "Players or options changed." in text(a.get(f"/m/{mid}/history"))
    with a.application.app_context():
        rename = next(
            line for line in store.history(store.get_db(), mid) if line["kind"] == "setup"
        )
    assert rename["undoable"]  # the names and options are as it left them
    r = a.post(f"/m/{mid}/undo/{rename['id']}", data={"back": "history"})
    assert r.status_code == 302  # the rename undone
    assert a.get(f"/api/matches/{mid}").get_json()["players"] == ["Ala", "Bartek", "Celina"]


def test_the_sheet_offers_undo_only_while_this_phones_change_is_the_latest(app, phones):
    """A saves deal 1: A's sheet offers its Undo. B saves deal 2: A's sheet no longer
    does (the table has moved on), though A's history still offers it for deal 1,
    and B's sheet offers B's own."""
    a, b, _c = phones
    mid = new_bm(a)
    assert b.get(f"/m/{mid}/score?key={key_of(app, mid)}").status_code == 302
    save(a, mid, D1)
    assert 'class="undo"' in text(a.get(f"/m/{mid}"))
    save(b, mid, D2)
    assert 'class="undo"' not in text(a.get(f"/m/{mid}"))
    assert "Undo saving deal 2" in text(b.get(f"/m/{mid}"))
    history = text(a.get(f"/m/{mid}/history"))
    assert len(re.findall(r'action="/m/[^"]+/undo/\d+"', history)) == 2  # deals 1 and 2
    assert totals(a, mid) == [17 + 7, 23 + 5, 3 + 31]


def test_the_sheet_s_undo_tapped_after_another_phone_saved_takes_nothing_back(app, phones):
    """A saves deal 2 and B deal 3 before A's sheet has dropped its Undo; A taps it.
    It took deal 2 out from under deal 3 (the table's deal 3 became deal 2, every
    dealer after it one deal off). Now nothing is undone and A is shown the
    history, where deal 2's Undo is still offered."""
    a, b, _c = phones
    mid = new_bm(a)
    assert b.get(f"/m/{mid}/score?key={key_of(app, mid)}").status_code == 302
    save(a, mid, D1)
    save(a, mid, D2)
    sheet = text(a.get(f"/m/{mid}"))
    url = re.search(r'class="undo" action="([^"]+)"', sheet).group(1)
    key = re.search(r'class="undo".*?name="key" value="([^"]*)"', sheet, re.S).group(1)
    save(b, mid, D3)
    r = a.post(url, data={"key": key})
    assert r.status_code == 302 and r.location.endswith(f"/m/{mid}/history")
    assert a.get(f"/api/matches/{mid}").get_json()["deals"] == [D1, D2, D3]
    history = text(a.get(r.location))
    assert "Not undone: the deals have changed since." in history
    assert len(re.findall(r'action="/m/[^"]+/undo/\d+"', history)) == 3
    # an Undo of no change of this match is said as such, not as a change elsewhere
    r = a.post(f"/m/{mid}/undo/999999", follow_redirects=True)
    assert "Not undone: there is no change to undo there." in text(r)


def test_a_deal_entered_again_the_same_leaves_the_undo_on_the_sheet(app, phones):
    """B had deal 1's form open and enters what A saved: nothing is stored, the match
    has not changed, and A's sheet still offers A's Undo."""
    a, b, _c = phones
    mid = new_bm(a)
    assert b.get(f"/m/{mid}/score?key={key_of(app, mid)}").status_code == 302
    early = text(b.get(f"/m/{mid}/deal"))
    save(a, mid, D1)
    assert b.post(f"/m/{mid}/deal", data=as_form(D1, early)).status_code == 302
    assert a.get(f"/api/matches/{mid}").get_json()["deals"] == [D1]
    assert "Undo saving deal 1" in text(a.get(f"/m/{mid}"))


def test_a_double_tap_on_undo_undoes_once(phones):
    a, _b, _c = phones
    mid = new_bm(a)
    save(a, mid, D1)
    save(a, mid, D2)
    sheet = text(a.get(f"/m/{mid}"))
    url = re.search(r'class="undo" action="([^"]+)"', sheet).group(1)
    # the page has no key for it: the phone makes one as it sends it (static/scorer.js)
    assert re.search(r'class="undo".*?name="key" value=""', sheet, re.S)
    key = "made-on-the-phone"
    first = a.post(url, data={"key": key}, follow_redirects=True)
    again = a.post(url, data={"key": key}, follow_redirects=True)
    assert "Deal 2 deleted (an undo)." in text(first) and "Deal 2 deleted (an undo)." in text(again)
    assert totals(a, mid) == [17, 23, 3]  # deal 2 undone once; deal 1 stands


def test_numbers_too_long_for_the_database_are_no_address(phones):
    a, _b, _c = phones
    mid = new_bm(a)
    huge = "9" * 20
    for url in [f"/m/{mid}/undo/{huge}", f"/m/{mid}/deal/{huge}/delete", f"/m/{mid}/deal/{huge}"]:
        assert a.post(url, data={}).status_code == 404, url
    assert a.get(f"/m/{huge}").status_code == 404


def test_a_notice_said_twice_before_a_page_is_read_shows_once(app, phones):
    """Two score links opened before either sheet is read: the same notice waits
    twice; the page says it once (the pl and cs readers saw it repeated)."""
    a, b, _c = phones
    first, second = new_bm(a), new_bm(a)
    for mid in (first, second):
        assert b.get(f"/m/{mid}/score?key={key_of(app, mid)}").status_code == 302
    page = text(b.get(f"/m/{second}"))
    assert page.count("You score this match on this phone now.") == 1
