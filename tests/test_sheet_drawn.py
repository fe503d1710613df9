"""The sheet's head and tail are drawn once per ETag and kept by the worker
(scorer/web/drawn.py): what is kept never outlives a change of the
match, and never crosses to another language or from a scorer to a watcher.
Black Maria figures by hand from RULES.md: a heart 1, Q♠ 13, K♠ 10, A♠ 7."""

from __future__ import annotations

import io
import re

import brotli
from flask import template_rendered

from scorer import backup, store
from scorer.web import drawn

from .helpers import hidden, new_bm, record
from .test_web import deal_form, marks, text


def totals(page: str) -> list[str]:
    return re.findall(r'<span class="points">([^<]+)</span>', page)


def test_the_kept_sheet_follows_every_change_language_and_role(app, client):
    mid = new_bm(client)
    sheet = f"/m/{mid}"
    assert totals(text(client.get(sheet))) == ["0", "0", "0"]
    # hearts 4 6 3, Q♠ Ala, K♠ and A♠ Bartek: Ala 17, Bartek 23, Celina 3
    client.post(f"/m/{mid}/deal", data=deal_form([4, 6, 3], 0, 1, 1, expect=0))
    page = text(client.get(sheet))
    assert totals(page) == ["17", "23", "3"] and "Edit deal 1" in page
    assert text(client.get(sheet)).count("Edit deal 1") == 1  # drawn again from what is kept
    # deal 1 changed: hearts 3 6 4 → Ala 16, Bartek 23, Celina 4
    edit = f"/m/{mid}/deal/1"
    client.post(edit, data=deal_form([3, 6, 4], 0, 1, 1, **marks(client, edit)))
    assert totals(text(client.get(sheet))) == ["16", "23", "4"]
    # the same version in Polish, and for a phone that only watches
    polish = text(client.get(sheet, headers={"Accept-Language": "pl"}))
    assert totals(polish) == ["16", "23", "4"] and "Rozdania" in polish and "Deals" not in polish
    watcher = text(app.test_client().get(sheet))
    assert totals(watcher) == ["16", "23", "4"] and "Edit deal 1" not in watcher
    assert "Edit deal 1" in text(client.get(sheet))  # the scorer's own drawing is still its own


def test_after_a_restore_no_drawing_or_version_of_before_is_taken_for_what_follows(
    app, client, tmp_path
):
    """A restore puts a match back to an older version; the next change must not
    make a version that a worker drew (or an API client read) before the restore."""
    mid = new_bm(client)
    copy = backup.backup(app.config["DATABASE"], tmp_path / "copy.db")  # no deals
    client.post(f"/m/{mid}/deal", data=deal_form([4, 6, 3], 0, 1, 1, expect=0))
    assert totals(text(client.get(f"/m/{mid}"))) == ["17", "23", "3"]  # drawn, kept
    before = client.get(f"/api/matches/{mid}").headers["ETag"]
    backup.restore(app.config["DATABASE"], copy, tmp_path / "backups")
    assert totals(text(client.get(f"/m/{mid}"))) == ["0", "0", "0"]
    # hearts 0 5 8, Q♠ and K♠ Celina, A♠ Ala: Ala 7, Bartek 5, Celina 31
    client.post(f"/m/{mid}/deal", data=deal_form([0, 5, 8], 2, 2, 0, expect=0))
    assert totals(text(client.get(f"/m/{mid}"))) == ["7", "5", "31"]
    assert client.get(f"/api/matches/{mid}").headers["ETag"] != before


def test_the_table_shows_a_screenful_of_the_latest_deals_and_a_link_to_all(client):
    # 15 deals of hearts 4 6 3, Q♠ Ala, K♠ and A♠ Bartek: each adds Ala 17, Bartek 23,
    # Celina 3
    deal = {"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}
    made = client.post(
        "/api/matches",
        json=record("black_maria", [deal] * 15, 3, {"end": "deals", "deals": 18}),
    )
    mid = made.get_json()["id"]

    def rows(page: str) -> list[tuple[int, list[str]]]:
        found = re.findall(r'<th scope="row">.*?(\d+) ✎</a></th>(.*?)</tr>', page, re.S)
        return [
            (int(n), re.findall(r'<span class="run">([^<]+)</span>', cells)) for n, cells in found
        ]

    page = text(client.get(f"/m/{mid}"))
    shown = rows(page)
    assert [n for n, _r in shown] == list(range(4, 16))  # the latest 12
    assert shown[0][1] == ["68", "92", "12"] and shown[-1][1] == ["255", "345", "45"]
    link = re.search(r'<a class="button" href="([^"]+)">Show all 15 deals</a>', page)
    every = rows(text(client.get(link.group(1).replace("&amp;", "&"))))
    assert [n for n, _r in every] == list(range(1, 16))
    assert every[0][1] == ["17", "23", "3"]


# what a browser that sends Fetch Metadata says of a page it opens and of its writes
BROWSER = {"Sec-Fetch-Site": "same-origin"}


def two_scorers(a):
    """A Black Maria match of A, B and C with deal 1 in (hearts 4 6 3, Q♠ A, K♠ and
    A♠ B: A 17, B 23, C 3), made through the API, and a second phone that opened
    its score link: (sheet address, the second phone)."""
    first = {"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}
    made = a.post(
        "/api/matches",
        json={"game": "black_maria", "players": ["A", "B", "C"], "deals": [first]},
    )
    record = made.get_json()
    sheet = f"/m/{record['id']}"
    b = a.application.test_client()
    assert b.get(f"{sheet}/score?key={record['edit_key']}").status_code == 302
    a.get(f"{sheet}/score?key={record['edit_key']}")
    for phone in (a, b):
        text(phone.get(sheet, headers=BROWSER))  # the score link's line, said once
    return sheet, b


def test_two_phones_get_the_same_sheet_bytes_under_one_etag_compressed_once(
    csrf_client, monkeypatch
):
    """Mid-match a version's sheet is every phone's (issue 36, item 7): two scorers
    with their own cookies get the same bytes, and the same Brotli bytes, under one
    ETag; no token, no key, no Undo in it; drawn and compressed once."""
    a = csrf_client
    sheet, b = two_scorers(a)
    packed = []
    real = drawn.compress
    monkeypatch.setattr(drawn, "compress", lambda *args: packed.append(args[1]) or real(*args))
    pages = [p.get(sheet, headers=BROWSER) for p in (a, b, a)]
    assert pages[0].get_data() == pages[1].get_data() == pages[2].get_data()
    assert {p.headers["ETag"] for p in pages} == {pages[0].headers["ETag"]}
    page = text(pages[0])
    assert totals(page) == ["17", "23", "3"] and "Save deal 2" in page
    assert 'name="csrf_token"' not in page and hidden(page, "key") == ""
    assert 'form class="undo"' not in page and "\x1e" not in page
    br = {**BROWSER, "Accept-Encoding": "gzip, deflate, br, zstd"}
    packs = [p.get(sheet, headers=br) for p in (a, b)]
    assert {p.headers["Content-Encoding"] for p in packs} == {"br"}
    assert packs[0].get_data() == packs[1].get_data()
    assert brotli.decompress(packs[0].get_data()) == pages[0].get_data()
    assert packed == ["br"]  # once for both phones
    # the live part likewise
    live = [p.get(f"{sheet}?part=live", headers=BROWSER) for p in (a, b)]
    assert live[0].get_data() == live[1].get_data()
    assert live[0].headers["ETag"] == live[1].headers["ETag"]


def test_a_browser_without_fetch_metadata_gets_a_token_and_a_save_without_one_is_refused(
    csrf_client,
):
    """Writes are taken on Fetch Metadata (access.SameOrigin); a browser that sends
    none is asked for the form's token: its sheet is drawn for it, with its token
    (its own ETag), and its save with the token is taken; without, refused."""
    a = csrf_client
    sheet, b = two_scorers(a)
    shared = b.get(sheet, headers=BROWSER)
    old = b.get(sheet)  # no Sec-Fetch-Site: an old browser
    page = text(old)
    token = hidden(page, "csrf_token")
    assert token and old.headers["ETag"] != shared.headers["ETag"]
    # hearts 0 5 8, Q♠ and K♠ C, A♠ A → A 24, B 28, C 34
    form = deal_form([0, 5, 8], 2, 2, 0, expect=hidden(page, "expect"), number="2")
    assert b.post(f"{sheet}/deal", data=form).status_code == 400  # no token, no metadata
    cross = {"Sec-Fetch-Site": "cross-site"}
    assert b.post(f"{sheet}/deal", data=form, headers=cross).status_code == 400
    saved = b.post(f"{sheet}/deal", data={**form, "csrf_token": token}, follow_redirects=True)
    assert "Deal 2 saved." in text(saved) and totals(text(saved)) == ["24", "28", "34"]


def test_a_form_sent_without_javascript_saves_once_and_undoes_once(csrf_client):
    """The shared sheet's forms carry no key (a phone's script makes it as it sends
    one): the same form sent twice without one is one deal; the sheet then offers
    this phone its Undo, on a page of its own (its own ETag), and the Undo sent
    twice without a key undoes once, answered the same both times."""
    a = csrf_client
    sheet, b = two_scorers(a)
    page = text(b.get(sheet, headers=BROWSER))
    form = deal_form([0, 5, 8], 2, 2, 0, expect=hidden(page, "expect"), number="2", key="")
    first = b.post(f"{sheet}/deal", data=form, headers=BROWSER, follow_redirects=True)
    assert "Deal 2 saved." in text(first)
    again = b.post(f"{sheet}/deal", data=form, headers=BROWSER, follow_redirects=True)
    assert "Deal 2 saved." in text(again)  # answered as the first time
    assert totals(text(again)) == ["24", "28", "34"]
    mine = b.get(sheet, headers=BROWSER)
    theirs = a.get(sheet, headers=BROWSER)
    assert "Undo saving deal 2" in text(mine) and "Undo saving deal 2" not in text(theirs)
    assert mine.headers["ETag"] != theirs.headers["ETag"]
    # each phone's live poll with the ETag it holds: unchanged
    for phone, held in ((b, mine), (a, theirs)):
        poll = {**BROWSER, "If-None-Match": held.headers["ETag"]}
        assert phone.get(f"{sheet}?part=live", headers=poll).status_code == 304
    undo = re.search(r'<form method="post" class="undo" action="([^"]+)"', text(mine)).group(1)
    assert 'name="key" value=""' in text(mine)
    for _twice in range(2):
        done = b.post(undo, data={"key": ""}, headers=BROWSER, follow_redirects=True)
        said = re.findall(r'<p class="flash[^"]*" role="status">([^<]+)</p>', text(done))
        assert said == ["Deal 2 deleted (an undo)."], said  # both times
        assert totals(text(done)) == ["17", "23", "3"]
    assert totals(text(a.get(sheet, headers=BROWSER))) == ["17", "23", "3"]


def test_two_browsers_never_share_a_key_made_for_a_form_sent_without_one(app):
    """The same form from two browsers: two writes (the second the same deal, said
    so), never one browser's answer given to the other."""
    a, b = app.test_client(), app.test_client()
    mid = new_bm(a)
    page = text(a.get(f"/m/{mid}"))
    form = deal_form([4, 6, 3], 0, 1, 1, expect=hidden(page, "expect"), number="1", key="")
    assert "Deal 1 saved." in text(a.post(f"/m/{mid}/deal", data=form, follow_redirects=True))
    with app.app_context():
        match = store.get(store.get_db(), mid)
        edit_key = store.edit_key(store.get_db(), mid)
        assert len(match.deal_ids) == 1
    assert b.get(f"/m/{mid}/score?key={edit_key}").status_code == 302
    told = text(b.post(f"/m/{mid}/deal", data=form, follow_redirects=True))
    assert "already entered on another phone, the same" in told


def test_every_page_s_links_script_and_queue_words_are_drawn_once_a_language(app, client):
    """base.html's parts that are the same on every page of a language (its links,
    its script, the offline queue's words: once per language and game, whose deal
    words they say), and the home page's, are drawn once per language, not per page,
    and a page in another language gets its own."""
    drawn_names: list[str] = []
    SAME = {"Sec-Fetch-Site": "same-origin"}  # a browser with Fetch Metadata: no token

    def seen(sender, template, context, **extra):
        drawn_names.append(template.name)

    mid = new_bm(client)
    with template_rendered.connected_to(seen, app):
        for path in ("/", f"/m/{mid}", "/rules/", "/"):
            assert client.get(path, headers=SAME).status_code == 200
        parts = ("_page_links.html", "_app_script.html", "_queue_note.html")
        parts += ("_home_top.html", "_home_links.html", "_home_import.html")  # the home page's
        # the queue's words once a language and game (the sheet's: Black Maria's deals)
        assert [drawn_names.count(name) for name in parts] == [1, 1, 2, 1, 1, 1]
        client.get("/lang/pl")
        polish = text(client.get("/", headers=SAME))
        assert [drawn_names.count(name) for name in parts] == [2, 2, 3, 2, 2, 2]
        # a refused import's words are that page's alone
        refused = client.post(
            "/import", data={"record": (io.BytesIO(b"{"), "r.json")}, headers=SAME
        )
        assert refused.status_code == 400 and 'role="alert"' in text(refused)
        assert 'role="alert"' not in text(client.get("/", headers=SAME))
    english = text(client.get("/lang/en") and client.get("/", headers=SAME))
    note = re.compile(r'<div id="queue-note".*?</div>', re.S)
    assert note.search(polish)[0] != note.search(english)[0]
    assert 'lang="pl"' in polish and "/manifest" in polish


def listed_totals(page: str) -> list[str]:
    return re.findall(r"<b>([^<]+)</b>", page)


def test_the_home_page_is_drawn_and_compressed_once_for_what_it_lists(csrf_client, monkeypatch):
    """The home page of two browsers that list the same matches is the same bytes
    under one ETag, compressed once (issue 36, item 8: it was drawn and compressed
    for every request); it follows every change of a listed match and the page's
    language, and a browser with a notice or without Fetch Metadata gets its own."""
    a = csrf_client
    sheet, b = two_scorers(a)
    packed = []
    real = drawn.compress
    monkeypatch.setattr(drawn, "compress", lambda *args: packed.append(args[1]) or real(*args))
    br = {**BROWSER, "Accept-Encoding": "br"}
    pages = [p.get("/", headers=br) for p in (a, b, a)]
    assert len({p.get_data() for p in pages}) == 1 and packed == ["br"]
    assert len({p.headers["ETag"] for p in pages}) == 1
    home = brotli.decompress(pages[0].get_data()).decode()
    assert listed_totals(home) == ["17", "23", "3"] and 'name="csrf_token"' not in home
    again = b.get("/", headers={**br, "If-None-Match": pages[0].headers["ETag"]})
    assert again.status_code == 304
    # deal 2 through A's form: hearts 0 5 8, Q♠ and K♠ C, A♠ A → A 24, B 28, C 34
    page = text(a.get(sheet, headers=BROWSER))
    form = deal_form([0, 5, 8], 2, 2, 0, expect=hidden(page, "expect"), number="2")
    assert a.post(f"{sheet}/deal", data=form, headers=BROWSER).status_code == 302
    after = b.get("/", headers={**br, "If-None-Match": pages[0].headers["ETag"]})
    assert after.status_code == 200 and after.headers["ETag"] != pages[0].headers["ETag"]
    assert listed_totals(brotli.decompress(after.get_data()).decode()) == ["24", "28", "34"]
    # A's notice ("Deal 2 saved.") is its own: its page is drawn for it
    noticed = text(a.get("/", headers=BROWSER))
    assert "Deal 2 saved." in noticed and listed_totals(noticed) == ["24", "28", "34"]
    assert "Deal 2 saved." not in text(a.get("/", headers=BROWSER))  # shown once
    b.set_cookie("lang", "pl")
    polish = text(b.get("/", headers=BROWSER))
    assert "Partie (1)" in polish and listed_totals(polish) == ["24", "28", "34"]
    old = text(b.get("/"))  # no Fetch Metadata: its own page, with its token
    assert hidden(old, "csrf_token")
