"""The HTML pages through Flask's test client: every page, and bad input refused."""

from __future__ import annotations

import html
import io
import json
import re

import pytest

from scorer import store

from .helpers import BM, hidden, new_bm

NAMES = {"name_0": "Ala", "name_1": "Bartek", "name_2": "Celina"}


def deal_form(hearts, qs, ks, as_, expect=None, **extra):
    data = {f"hearts__{s}": ("" if h is None else str(h)) for s, h in enumerate(hearts)}
    data.update({"taken_by_QS": str(qs), "taken_by_KS": str(ks), "taken_by_AS": str(as_)})
    if expect is not None:
        data["expect"] = str(expect)
    data.update(extra)
    return data


def stored(app, match_id):
    with app.app_context():
        return store.get(store.get_db(), match_id).match


def text(r):
    return r.get_data(as_text=True)


def marks(client, url) -> dict:
    """What a deal page carries: what it saw of the match (expect) and its key."""
    page = text(client.get(url))
    seen = {"expect": hidden(page, "expect"), "key": hidden(page, "key")}
    if 'name="number" type="hidden"' in page:  # a new deal's page names the deal it records
        seen["number"] = hidden(page, "number")
    return seen


def delete_marks(client, mid, number) -> dict:
    """What the Delete button of deal ``number``'s page sends."""
    page = text(client.get(f"/m/{mid}/deal/{number}"))
    found = re.search(
        r'name="seen" value="([^"]+)"><input type="hidden" name="key" '
        r'value="([^"]+)"',
        page,
    )
    return {"seen": found.group(1), "key": found.group(2)}


def test_pages_answer(client):
    for url in [
        "/",
        "/new",
        "/new/hearts",
        "/new/black_maria",
        "/rules/",
        "/rules/hearts",
        "/rules/black_maria",
        "/static/scorer.css",
        "/static/scorer.js",
    ]:
        assert client.get(url).status_code == 200, url


def test_new_match_form_shows_every_option_with_a_line_and_defaults(client):
    page = text(client.get("/new/black_maria"))
    for label in [
        "Scoring",
        "Spot values",
        "Omnibus",
        "End",
        "Target",
        "Number of deals",
        "Partnership",
    ]:
        assert f"<legend>{label}" in page
    assert re.search(r'value="black_maria"[^>]*checked|checked[^>]*value="black_maria"', page)
    assert "Draw lots" in page
    page = text(client.get("/new/hearts"))
    assert re.search(r'value="others"[^>]*checked|checked[^>]*value="others"', page)


def test_create_enter_edit_delete_reflow(client, app):
    mid = new_bm(client)
    page = text(client.get(f"/m/{mid}"))
    assert "Ala deals" in page and "Bartek leads" in page and "Pass 3 cards right" in page
    # Celina's hearts left empty: filled in (13 - 4 - 6 = 3)
    r = client.post(f"/m/{mid}/deal", data=deal_form([4, 6, None], 0, 1, 1, expect=0))
    assert r.status_code == 302
    assert stored(app, mid).deals == [
        {"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}
    ]
    client.post(f"/m/{mid}/deal", data=deal_form([0, 5, 8], 2, 2, 0, expect=1))
    page = text(client.get(f"/m/{mid}"))
    # totals 17+7=24, 23+5=28, 3+31=34
    assert re.findall(r'class="points">(-?\d+)<', page) == ["24", "28", "34"]
    assert "Celina deals" in page  # deal 3: dealer seat 2
    # fix deal 1: Ala 3, Celina 4 → 16, 23, 4; totals 23, 28, 35
    r = client.get(f"/m/{mid}/deal/1")
    assert 'value="4"' in text(r)  # the stored entry is in the form
    r = client.post(
        f"/m/{mid}/deal/1", data=deal_form([3, 6, 4], 0, 1, 1, **marks(client, f"/m/{mid}/deal/1"))
    )
    assert r.status_code == 302
    page = text(client.get(f"/m/{mid}"))
    assert re.findall(r'class="points">(-?\d+)<', page) == ["23", "28", "35"]
    # delete deal 1: only (7, 5, 31) is left, and it is now deal 1
    client.post(f"/m/{mid}/deal/1/delete", data=delete_marks(client, mid, 1))
    m = stored(app, mid)
    assert m.deals == [{"hearts": [0, 5, 8], "taken_by": {"QS": 2, "KS": 2, "AS": 0}}]
    page = text(client.get(f"/m/{mid}"))
    assert re.findall(r'class="points">(-?\d+)<', page) == ["7", "5", "31"]
    with app.app_context():
        kinds = [e["kind"] for e in store.events(store.get_db(), mid)]
    assert kinds == ["create", "add", "add", "edit", "delete"]


@pytest.mark.parametrize(
    "form, message",
    [
        (deal_form([4, 6, 4], 0, 1, 1, expect=0), "Hearts add up to 14, but 13 are in play"),
        (deal_form([4, 10, None], 0, 1, 1, expect=0), "add up to 14, but 13 are in play"),
        (deal_form([4, None, None], 0, 1, 1, expect=0), "fill in a number for Bartek"),
        (deal_form([4, 6, 3], 0, 1, "", expect=0), "Say who took A♠"),
        (deal_form([4, "six", 3], 0, 1, 1, expect=0), "Bartek: write a whole number, such as 3"),
        (deal_form([4, 10**40, 3], 0, 1, 1, expect=0), "Bartek: write a number from 0 to 13"),
        (deal_form([4, 6, 3], 0, 1, 7, expect=0), "Who took A♠: tap one of the choices"),
    ],
)
def test_refused_deal_keeps_what_was_typed_and_stores_nothing(client, app, form, message):
    mid = new_bm(client)
    r = client.post(f"/m/{mid}/deal", data=form)
    assert r.status_code == 400
    page = text(r)
    assert message in page
    assert 'value="4"' in page  # Ala's count is still there
    assert stored(app, mid).deals == []


def test_double_save_stores_one_deal(client, app):
    mid = new_bm(client)
    form = deal_form([4, 6, 3], 0, 1, 1, **marks(client, f"/m/{mid}/deal"))
    assert client.post(f"/m/{mid}/deal", data=form).status_code == 302
    r = client.post(f"/m/{mid}/deal", data=form, follow_redirects=True)
    assert r.status_code == 200 and "Deal 1 saved." in text(r)  # answered as the first tap was
    assert len(stored(app, mid).deals) == 1


def play_to_the_end(client, mid):
    # Ala takes everything, 43 a deal: 43, 86, 129 → over after deal 3
    for k in range(3):
        assert (
            client.post(f"/m/{mid}/deal", data=deal_form([13, 0, 0], 0, 0, 0, expect=k)).status_code
            == 302
        )


def test_the_end_shows_winners_refuses_deals_offers_rematch(client, app):
    mid = new_bm(client)
    play_to_the_end(client, mid)
    page = text(client.get(f"/m/{mid}"))
    assert "Bartek and Celina share the win" in page
    assert "Enter deal" not in page and "Rematch" in page
    r = client.post(f"/m/{mid}/deal", data=deal_form([13, 0, 0], 0, 0, 0, expect=3))
    assert r.status_code == 302 and len(stored(app, mid).deals) == 3
    r = client.post(f"/m/{mid}/deal", data=deal_form([13, 0, 0], 0, 0, 0))
    assert len(stored(app, mid).deals) == 3
    # the home page lists it as finished, with its winners
    home = text(client.get("/"))
    item = home[home.index(f"/m/{mid}") :]
    assert "won by Bartek and Celina" in item[: item.index("</li>")]
    assert f"/m/{mid}" in text(client.get("/?state=finished"))
    assert f"/m/{mid}" not in text(client.get("/?state=playing"))
    r = client.post(f"/m/{mid}/rematch")
    new = r.headers["Location"].rsplit("/", 1)[1]
    old, fresh = stored(app, mid), stored(app, new)
    assert (fresh.players, fresh.options, fresh.first_dealer, fresh.deals) == (
        old.players,
        old.options,
        old.first_dealer,
        [],
    )


def test_an_edit_that_would_put_a_deal_after_the_end_is_refused(client, app):
    # target 50; 43 a deal to one player. Bartek, Ala, Ala: 0/43, 43/43, 86/43 → over at deal 3
    mid = new_bm(client, opt_target="50")
    for k, who in enumerate([1, 0, 0]):
        hearts = [13 if s == who else 0 for s in range(3)]
        client.post(f"/m/{mid}/deal", data=deal_form(hearts, who, who, who, expect=k))
    before = stored(app, mid).deals
    assert len(before) == 3
    # giving deal 1 to Ala would end the match at deal 2 (86 ≥ 50): deal 3 cannot stand
    r = client.post(
        f"/m/{mid}/deal/1", data=deal_form([13, 0, 0], 0, 0, 0, **marks(client, f"/m/{mid}/deal/1"))
    )
    assert r.status_code == 400
    assert (
        "Nothing was saved: after this change deal 3 could not stand (the match is already over)"
    ) in text(r)
    assert stored(app, mid).deals == before


def test_new_match_bad_input(client):
    # too few names
    r = client.post("/new/black_maria", data={**BM, "name_1": "", "name_2": ""})
    assert r.status_code == 400 and "played by 3 to 6 players, not 1" in text(r)
    # a long name is refused and kept
    r = client.post("/new/black_maria", data={**BM, "name_1": "B" * 100})
    assert r.status_code == 400 and "at most 40 characters" in text(r) and "B" * 100 in text(r)
    r = client.post("/new/black_maria", data={**BM, "name_1": "B" * 10_000})
    assert r.status_code == 400
    # partnership needs 4
    r = client.post("/new/black_maria", data={**BM, "opt_partnership": "y"})
    assert r.status_code == 400 and "Partnership play needs 4 players" in text(r)
    # an unknown choice
    r = client.post("/new/black_maria", data={**BM, "opt_scoring": "bridge"})
    assert r.status_code == 400
    # the dealer's row is empty
    r = client.post("/new/black_maria", data={**BM, "first_dealer": "4"})
    assert r.status_code == 400 and "first dealer" in text(r)
    r = client.post("/new/black_maria", data={**BM, "first_dealer": "x"})
    assert r.status_code == 400
    assert "/m/" not in text(client.get("/"))


def test_html_in_a_name_is_shown_as_text(client):
    mid = new_bm(client, name_0="<b>Ala</b>")
    page = text(client.get(f"/m/{mid}"))
    assert "&lt;b&gt;Ala&lt;/b&gt;" in page and "<b>Ala</b>" not in page


def test_draw_lots_picks_a_seat(client, app):
    mid = new_bm(client, first_dealer="draw")
    assert stored(app, mid).first_dealer in (0, 1, 2)


def test_dealer_row_maps_past_empty_rows(client, app):
    # names on rows 0, 2, 3 (row 1 empty); dealer chosen on row 3 → seat 2
    mid = new_bm(client, name_1="", name_2="Celina", name_3="Darek", first_dealer="3")
    m = stored(app, mid)
    assert m.players == ["Ala", "Celina", "Darek"] and m.first_dealer == 2


def test_spot_form_taps_each_heart(client, app):
    r = client.post("/new/black_maria", data={**BM, "opt_scoring": "spot"})
    mid = r.headers["Location"].rsplit("/", 1)[1]
    form = {"expect": "0", "taken_by_QS": "0", "taken_by_KS": "1", "taken_by_AS": "2"}
    owners = {"AH": 0, "KH": 0, "2H": 0}
    for rank in ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]:
        form[f"heart_cards__{rank}H"] = str(owners.get(rank + "H", 1))
    assert client.post(f"/m/{mid}/deal", data=form).status_code == 302
    page = text(client.get(f"/m/{mid}"))
    # the worked example: 52, 82, 7
    assert re.findall(r'class="points">(-?\d+)<', page) == ["52", "82", "7"]
    del form["heart_cards__5H"]
    form["expect"] = "1"
    r = client.post(f"/m/{mid}/deal", data=form)
    assert r.status_code == 400 and "Nobody took 5♥" in text(r)


def test_partnership_sheet_shows_team_totals(client):
    r = client.post("/new/black_maria", data={**BM, "name_3": "Darek", "opt_partnership": "y"})
    mid = r.headers["Location"].rsplit("/", 1)[1]
    client.post(f"/m/{mid}/deal", data={**deal_form([1, 2, 3, 7], 0, 1, 2), "expect": "0"})
    page = text(client.get(f"/m/{mid}"))
    # 14 + 10 = 24 for Ala + Celina; 12 + 7 = 19 for Bartek + Darek
    assert re.search(r"Ala \+ Celina</span> <strong>24</strong>", page)
    assert re.search(r"Bartek \+ Darek</span> <strong>19</strong>", page)


def test_hearts_sheet_says_who_leads_and_passes(client):
    r = client.post(
        "/new/hearts",
        data={
            **NAMES,
            "name_3": "Darek",
            "first_dealer": "1",
            "opt_moon": "others",
            "opt_scoring": "standard",
            "opt_spot_values": "10-10-10-15",
        },
    )
    mid = r.headers["Location"].rsplit("/", 1)[1]
    page = text(client.get(f"/m/{mid}"))
    assert "Bartek deals" in page and "2♣ leads" in page and "Pass 3 cards left" in page


def test_unknown_things_are_404(client):
    mid = new_bm(client)
    for url in [
        "/m/999",
        "/m/99999999999999999999999",
        f"/m/{mid}/deal/5",
        f"/m/{mid}/deal/0",
        "/m/AAAAAAAAAAAA",
        "/api/matches/AAAAAAAAAAAA",
        "/new/bridge",
        "/rules/bridge",
        "/m/999/export.csv",
        "/m/abc",
    ]:
        assert client.get(url).status_code == 404, url
    assert client.post("/m/999/deal", data={}).status_code == 404
    r = client.post(f"/m/{mid}/deal/9/delete", follow_redirects=True)  # no deal 9, nor a page
    assert "Nothing deleted: this page is out of date." in text(r)


def test_csv_and_record_export_and_import(client, app):
    mid = new_bm(client, name_0="Łucja", name_1="Юлия")
    client.post(f"/m/{mid}/deal", data=deal_form([4, 6, 3], 0, 1, 1, expect=0))
    r = client.get(f"/m/{mid}/export.csv")
    assert r.status_code == 200 and r.mimetype == "text/csv"
    body = r.get_data().decode("utf-8-sig")
    assert "Łucja" in body and "Юлия" in body and ",17,17," in body
    r = client.get(f"/m/{mid}/record.json")
    record = json.loads(r.get_data())
    assert record["computed"]["totals"] == [17, 23, 3]
    r = client.post(
        "/import",
        data={"record": (io.BytesIO(json.dumps(record).encode()), "r.json")},
        content_type="multipart/form-data",
    )
    assert r.status_code == 302
    new = r.headers["Location"].rsplit("/", 1)[1]
    assert new != mid and stored(app, new).deals == stored(app, mid).deals


@pytest.mark.parametrize(
    "payload, message",
    [
        (b"{nope", "not JSON"),
        (b"\xff\xfe\x00", "not UTF-8"),
        (
            json.dumps(
                {
                    "game": "black_maria",
                    "players": ["A", "B", "C"],
                    "deals": [{"hearts": [1, 1, 1], "taken_by": {"QS": 0, "KS": 0, "AS": 0}}],
                }
            ).encode(),
            "deal 1: hearts add up to 3, but 13 are in play",
        ),
        (
            json.dumps(
                {"game": "black_maria", "players": ["A", "B", "C"], "options": {"x": 1}}
            ).encode(),
            "unknown option x",
        ),
    ],
)
def test_bad_import_is_refused_and_stores_nothing(client, payload, message):
    r = client.post(
        "/import",
        data={"record": (io.BytesIO(payload), "r.json")},
        content_type="multipart/form-data",
    )
    assert r.status_code == 400 and message in text(r)
    assert "/m/" not in text(client.get("/"))


def test_csrf_is_on(csrf_client):
    r = csrf_client.post("/new/black_maria", data=BM)
    assert r.status_code == 400 and "expired" in text(r)
    page = text(csrf_client.get("/new/black_maria"))
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    r = csrf_client.post("/new/black_maria", data={**BM, "csrf_token": token})
    assert r.status_code == 302


def test_rules_pages_name_their_sources(client):
    page = text(client.get("/rules/black_maria"))
    assert "The Polish, Esperanto and Czech rules" in page and "K♠ 10" in page
    assert "right-hand neighbour" in page
    page = text(client.get("/rules/hearts"))
    assert "The Czech rules" in page and "2♣" in page
    deal_page = text(client.get(f"/m/{new_bm(client)}/deal"))
    assert "/rules/black_maria" in deal_page


def test_delete_match(client, app):
    mid = new_bm(client)
    assert client.post(f"/m/{mid}/delete").status_code == 302
    assert client.get(f"/m/{mid}").status_code == 404


def three_deals_then_open_deal_2(client):
    """Three deals whose Q♠ went to seats 0, 1, 2; the edit page of deal 2."""
    mid = new_bm(client)
    for k, qs in enumerate([0, 1, 2]):
        client.post(f"/m/{mid}/deal", data=deal_form([4, 6, 3], qs, 1, 1, expect=k))
    return mid, text(client.get(f"/m/{mid}/deal/2"))


def test_a_double_tap_on_delete_deletes_one_deal(client, app):
    mid, _page = three_deals_then_open_deal_2(client)
    button = delete_marks(client, mid, 2)
    client.post(f"/m/{mid}/deal/2/delete", data=button)
    r = client.post(f"/m/{mid}/deal/2/delete", data=button, follow_redirects=True)
    assert "Deal 2 deleted" in text(r)  # the second tap is answered as the first was
    assert [d["taken_by"]["QS"] for d in stored(app, mid).deals] == [0, 2]


def test_a_stale_delete_never_deletes_another_deal(client, app):
    mid, _page = three_deals_then_open_deal_2(client)
    button = delete_marks(client, mid, 2)
    client.post(f"/m/{mid}/deal/2/delete", data=delete_marks(client, mid, 2))  # another phone
    r = client.post(f"/m/{mid}/deal/2/delete", data=button, follow_redirects=True)
    assert "Nothing deleted: deal 2 was deleted on another phone meanwhile." in text(r)
    assert [d["taken_by"]["QS"] for d in stored(app, mid).deals] == [0, 2]


def test_a_stale_edit_page_edits_the_deal_it_showed_wherever_it_moved(client, app):
    mid, page = three_deals_then_open_deal_2(client)
    seen = {"expect": hidden(page, "expect"), "key": hidden(page, "key")}
    client.post(f"/m/{mid}/deal/1/delete", data=delete_marks(client, mid, 1))  # another phone
    r = client.post(
        f"/m/{mid}/deal/2", data=deal_form([13, 0, 0], 0, 0, 0, **seen), follow_redirects=True
    )
    assert "Deal 1 changed" in text(r)  # the deal the page showed is now deal 1
    assert [d["taken_by"]["QS"] for d in stored(app, mid).deals] == [0, 2]
    assert stored(app, mid).deals[0]["hearts"] == [13, 0, 0]


def compare_rows(page: str) -> dict[str, tuple[str, str, bool]]:
    """The choice page's lines: question → (stored, other, marked as differing)."""
    rows = re.findall(
        r'<tr class="([^"]*)"><th scope="row">([^<]*)</th><td>([^<]*)</td><td>([^<]*)', page
    )
    return {html.unescape(q): (a, b.strip(), "differs" in c) for c, q, a, b in rows}


def test_an_edit_of_a_deal_changed_elsewhere_keeps_both_and_offers_the_choice(client, app):
    mid, page = three_deals_then_open_deal_2(client)
    seen = {"expect": hidden(page, "expect"), "key": hidden(page, "key")}
    client.post(
        f"/m/{mid}/deal/2", data=deal_form([5, 5, 3], 1, 1, 1, **marks(client, f"/m/{mid}/deal/2"))
    )
    r = client.post(f"/m/{mid}/deal/2", data=deal_form([13, 0, 0], 0, 0, 0, **seen))
    assert r.status_code == 302 and f"/m/{mid}/choice/" in r.location
    assert stored(app, mid).deals[1]["hearts"] == [5, 5, 3]  # nothing stored over it
    page = text(client.get(r.location))
    assert "Deal 2: two entries" in page
    rows = compare_rows(page)
    # the stored entry (5 5 3 hearts, Q♠ K♠ A♠ to Bartek: 5, 5 + 30 = 35, 3) and mine
    # (13 hearts and the three spades to Ala: 13 + 30 = 43), the cells that differ marked
    assert rows["Hearts taken · Ala"] == ("5", "13", True)
    assert rows["Hearts taken · Celina"] == ("3", "0", True)
    assert rows["Who took Q♠?"] == ("Bartek", "Ala", True)
    assert rows["Points · Bartek"] == ("+35", "0", True)
    assert rows["Points · Ala"] == ("+5", "+43", True)
    # the safe choice comes first: keep what is stored
    buttons = re.findall(r'name="action" value="(\w+)"', page)
    assert buttons[0] == "keep" and "replace" in buttons
    assert "next" not in buttons  # deal 3 is entered: no empty next deal
    key = re.search(r'name="key" value="([^"]*)"', page).group(1)
    r = client.post(r.location, data={"action": "replace", "key": key})
    assert r.status_code == 302 and stored(app, mid).deals[1]["hearts"] == [13, 0, 0]
    assert len(stored(app, mid).deals) == 3


@pytest.mark.parametrize(
    "url, data",
    [
        (
            "/m/{mid}/deal",
            {
                "expect": "²",
                "hearts__0": "4",
                "hearts__1": "6",
                "taken_by_QS": "0",
                "taken_by_KS": "1",
                "taken_by_AS": "1",
            },
        ),
        ("/m/{mid}/check?deal=%C2%B2", None),
        ("/m/{mid}/check?deal=abc", None),
        ("/m/{mid}/check?deal=-1", None),
    ],
)
def test_odd_numbers_in_urls_and_fields(client, app, url, data):
    mid = new_bm(client)
    url = url.format(mid=mid)
    r = client.post(url, data=data) if data else client.get(url)
    assert r.status_code in (400, 404)
    if data:  # "²" is no page's mark: nothing saved; the entry stays on its form
        assert len(stored(app, mid).deals) == 0
        page = text(r)
        assert "This page is out of date: nothing was saved." in page
        assert 'name="hearts__0" type="text" value="4"' in page or 'value="4"' in page


def test_csv_names_do_not_run_as_formulas(client):
    mid = new_bm(client, name_0='=HYPERLINK("http://e.x","a")', name_1="+1", name_2="@x")
    body = client.get(f"/m/{mid}/export.csv").get_data().decode("utf-8-sig")
    assert "\"'=HYPERLINK" in body and ',"\'+1",' in body and ',"\'@x",' in body
    assert '"=' not in body and '"+' not in body and '"@' not in body


def test_no_names_says_so(client):
    r = client.post("/new/black_maria", data={"first_dealer": "0"})
    assert r.status_code == 400 and "Write the players&#39; names" in text(r)


def test_import_with_text_that_is_not_valid_unicode(client):
    body = b'{"game": "hearts", "players": ["A", "B", "C", "D"], "deals": [{"\\ud800": 1}]}'
    r = client.post(
        "/import", data={"record": (io.BytesIO(body), "r.json")}, content_type="multipart/form-data"
    )
    assert r.status_code == 400 and "not valid Unicode" in text(r)


def test_a_stored_match_the_rules_no_longer_read_is_shown_not_a_500(client, app):
    mid = new_bm(client)
    with app.app_context():
        db_ = store.get_db()
        row = store.get(db_, mid).id
        db_["deals"].insert({"match_id": row, "pos": 1, "entry": '{"hearts": [1, 1, 1]}'})
    store.forget_recent()  # written behind the store's back: its version did not move
    r = client.get(f"/m/{mid}")
    assert r.status_code == 409 and "deal 1: hearts add up to 3, but 13 are in play" in text(r)
    assert client.get("/").status_code == 200
    for url in [f"/m/{mid}/deal", f"/m/{mid}/export.csv"]:
        assert client.get(url).status_code == 409, url
    assert "computed" not in client.get(f"/api/matches/{mid}").get_json()
    # what the table entered can still be taken away
    r = client.get(f"/m/{mid}/record.json")
    assert r.status_code == 200 and json.loads(r.get_data())["deals"] == [{"hearts": [1, 1, 1]}]
