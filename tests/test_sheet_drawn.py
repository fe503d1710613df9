"""The sheet's head and tail are drawn once per ETag and kept by the worker
(scorer/web/drawn.py): what is kept never outlives a change of the
match, and never crosses to another language or from a scorer to a watcher.
Black Maria figures by hand from RULES.md: a heart 1, Q♠ 13, K♠ 10, A♠ 7."""

from __future__ import annotations

import re

from scorer import backup

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


def test_the_sheet_s_form_is_drawn_once_yet_each_page_has_its_own_token_and_key(csrf_client):
    """The next deal's form is kept with the sheet (scorer.web.sheet.next_part): a
    second phone's page from that drawing carries its own CSRF token (its session's)
    and a fresh idempotency key, and its save is taken."""
    a = csrf_client
    made = a.post("/api/matches", json={"game": "black_maria", "players": ["A", "B", "C"]})
    record = made.get_json()
    sheet = f"/m/{record['id']}"
    first, again = text(a.get(sheet)), text(a.get(sheet))  # the second from the drawing
    assert hidden(first, "key") != hidden(again, "key")
    b = a.application.test_client()  # another phone, opening the score link
    assert b.get(f"{sheet}/score?key={record['edit_key']}").status_code in (200, 302)
    page = text(b.get(sheet))
    token = hidden(page, "csrf_token")
    assert token != hidden(first, "csrf_token") and "\x1e" not in page
    keys = {hidden(p, "key") for p in (first, again, page)}
    assert len(keys) == 3
    # hearts 4 6 3, Q♠ A, K♠ and A♠ B: A 17, B 23, C 3
    form = deal_form([4, 6, 3], 0, 1, 1, expect=hidden(page, "expect"))
    form.update(csrf_token=token, key=hidden(page, "key"))
    assert b.post(f"{sheet}/deal", data=form).status_code == 302
    assert totals(text(b.get(sheet))) == ["17", "23", "3"]


def test_a_sheet_kept_whole_mid_match_is_each_phone_s_own(csrf_client):
    """Mid-match the whole sheet is kept per ETag (scorer.web.sheet): a second
    scorer's page from it carries its own token and keys and no Undo of the first
    phone's; a notice still shows, and the page follows every change."""
    a = csrf_client
    # hearts 4 6 3, Q♠ A, K♠ and A♠ B: A 17, B 23, C 3
    first = {"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}
    made = a.post(
        "/api/matches",
        json={"game": "black_maria", "players": ["A", "B", "C"], "deals": [first]},
    )
    record = made.get_json()
    sheet = f"/m/{record['id']}"
    b = a.application.test_client()
    assert b.get(f"{sheet}/score?key={record['edit_key']}").status_code == 302
    assert "You score this match" in text(b.get(sheet))  # the notice, drawn afresh
    kept, again = text(a.get(sheet)), text(b.get(sheet))  # B's from A's drawing
    assert totals(again) == ["17", "23", "3"] and "\x1e" not in again
    assert hidden(kept, "csrf_token") != hidden(again, "csrf_token")
    assert hidden(kept, "key") != hidden(again, "key")
    # B saves deal 2 from that page: hearts 0 5 8, Q♠ and K♠ C, A♠ A → A 24, B 28, C 34
    form = deal_form([0, 5, 8], 2, 2, 0, expect=hidden(again, "expect"))
    form.update(csrf_token=hidden(again, "csrf_token"), key=hidden(again, "key"))
    saved = b.post(f"{sheet}/deal", data=form, follow_redirects=True)
    assert "Deal 2 saved." in text(saved) and totals(text(saved)) == ["24", "28", "34"]
    mine = text(b.get(sheet))  # kept now, with B's Undo in it
    assert "Undo saving deal 2" in mine and 'class="flash' not in mine  # the notice was said
    theirs = text(a.get(sheet))  # the same version for A: no Undo of B's change
    assert totals(theirs) == ["24", "28", "34"] and "Undo:" not in theirs
    assert hidden(mine, "key") != hidden(text(b.get(sheet)), "key")
