"""Entry without JavaScript: the counts the app fills in, and the marks the deals
table shows for a moon, a turned jack and a capot. Figures worked by hand from RULES.md."""

from __future__ import annotations

import html
import re

import pytest
from werkzeug.datastructures import MultiDict

from .helpers import made, new_bm
from .test_web import deal_form, delete_marks, marks, stored, text

HEARTS = {
    "name_0": "Ala",
    "name_1": "Bartek",
    "name_2": "Celina",
    "name_3": "Darek",
    "first_dealer": "0",
    "opt_scoring": "standard",
    "opt_moon": "others",
}


def deals_table(client, mid) -> str:
    page = text(client.get(f"/m/{mid}"))
    return page[page.index('<table class="deals">') : page.index("</table>")]


@pytest.mark.parametrize(
    "hearts, stored_hearts",
    [
        ([13, None, None], [13, 0, 0]),  # 13 to one player: 0 for the others
        ([None, 13, None], [0, 13, 0]),
        ([9, 4, None], [9, 4, 0]),  # the one left blank: 13 - 9 - 4 = 0
        ([9, None, 4], [9, 0, 4]),
        ([4, 6, None], [4, 6, 3]),  # 13 - 4 - 6 = 3
    ],
)
def test_blank_counts_the_app_can_tell_are_filled_in(client, app, hearts, stored_hearts):
    mid = new_bm(client)
    r = client.post(f"/m/{mid}/deal", data=deal_form(hearts, 2, 2, 2, expect=0))
    assert r.status_code == 302, text(r)
    assert stored(app, mid).deals[0]["hearts"] == stored_hearts


def test_two_blanks_short_of_the_total_are_still_asked_for(client, app):
    mid = new_bm(client)
    r = client.post(f"/m/{mid}/deal", data=deal_form([12, None, None], 0, 1, 1, expect=0))
    assert r.status_code == 400
    assert "fill in a number for Bartek" in text(r)
    assert stored(app, mid).deals == []


def test_a_moon_typed_as_one_count_is_saved_and_marked(client, app):
    r = client.post("/new/hearts", data=HEARTS)
    mid = r.headers["Location"].rsplit("/", 1)[1]
    # Ala took all 13 hearts and Q♠; the others are left blank: a moon under "others"
    data = {"hearts__0": "13", "hearts__1": "", "hearts__2": "", "hearts__3": ""}
    r = client.post(f"/m/{mid}/deal", data={**data, "taken_by_QS": "0", "expect": "0"})
    assert r.status_code == 302, text(r)
    assert stored(app, mid).deals[0] == {"hearts": [13, 0, 0, 0], "taken_by": {"QS": 0}}
    table = deals_table(client, mid)
    cells = re.findall(r"<td>(.*?)</td>", table)
    assert '<span class="mark">☾</span>' in cells[0]  # Ala's cell
    assert all("☾" not in c for c in cells[1:])
    assert re.findall(r'class="run">(\d+)<', table) == ["0", "26", "26", "26"]
    assert "☾ shot the moon" in text(client.get(f"/m/{mid}"))


def test_no_moon_no_legend(client):
    mid = made(
        client,
        {
            "game": "hearts",
            "players": ["A", "B", "C", "D"],
            "deals": [{"hearts": [4, 3, 3, 3], "taken_by": {"QS": 1}}],
        },
    )["id"]
    page = text(client.get(f"/m/{mid}"))
    assert "☾" not in page


def test_a_turned_jack_is_named_beside_the_deal_number(client):
    # RULES.md: J♥ turned up is out of play; the other jacks are taken as usual
    mid = made(
        client,
        {
            "game": "knaves",
            "players": ["A", "B", "C"],
            "deals": [
                {"tricks": [7, 6, 4], "turn_up": "JH", "taken_by": {"JD": 1, "JC": 2, "JS": 1}},
                {
                    "tricks": [7, 6, 4],
                    "turn_up": "9S",
                    "taken_by": {"JH": 0, "JD": 1, "JC": 2, "JS": 1},
                },
            ],
        },
    )["id"]
    tags = re.findall(r'<small class="tag">(.*?)</small>', deals_table(client, mid))
    assert tags == ["J♥", "♠"]


def test_a_capot_is_marked_on_its_declarer(client):
    # deal 1: A declared and made a capot: A 0, others 5 each; deal 2: B's failed
    mid = made(
        client,
        {
            "game": "polignac",
            "players": ["A", "B", "C", "D"],
            "options": {"capot": True},
            "deals": [
                {"capot": {"seat": 0, "made": True}},
                {
                    "capot": {"seat": 1, "made": False},
                    "taken_by": {"JS": 1, "JC": 2, "JH": 2, "JD": 3},
                },
            ],
        },
    )["id"]
    rows = re.findall(r"<tr>(.*?)</tr>", deals_table(client, mid), re.S)[1:]
    first = re.findall(r"<td>(.*?)</td>", rows[0])
    second = re.findall(r"<td>(.*?)</td>", rows[1])
    assert '<span class="mark">✓</span>' in first[0] and "mark" not in "".join(first[1:])
    assert '<span class="mark">✗</span>' in second[1]
    assert "made a capot" in text(client.get(f"/m/{mid}"))


def sheet_form(page: str) -> str:
    """The next deal's form as the score sheet draws it."""
    start = page.index('<form method="post" class="deal')
    return page[start : page.index("</form>", start)]


def test_the_sheet_carries_the_next_deals_form_posting_to_the_deal_route(client, app):
    mid = new_bm(client)
    page = text(client.get(f"/m/{mid}"))
    assert "Enter deal 1" not in page  # the form is on the sheet itself
    form = sheet_form(page)
    assert f'action="/m/{mid}/deal"' in form and "data-queue" in form and "Save deal 1" in form
    marks = {
        name: re.search(rf'name="{name}" type="hidden" value="([^"]*)"', form).group(1)
        for name in ("expect", "key")
    }
    # deal 1 from the sheet: A 4♥ Q♠ = 17, B 6♥ K♠ A♠ = 23, C 3♥ (left blank) = 3
    data = deal_form([4, 6, None], 0, 1, 1, **marks)
    assert client.post(f"/m/{mid}/deal", data=data).status_code == 302
    assert client.post(f"/m/{mid}/deal", data=data).status_code == 302  # a double tap
    assert stored(app, mid).deals == [
        {"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}
    ]
    # the live part of the sheet (what a watching sheet reloads) draws deal 2's form
    live = text(client.get(f"/m/{mid}?part=live"))
    assert "Save deal 2" in sheet_form(live) and 'name="hearts__0"' in sheet_form(live)


def test_a_form_too_long_for_the_sheets_first_screen_gets_its_own_page(client):
    # Metamorphosis deal 1 asks declarations, tricks and clubs: the deal page;
    # deal 2 asks tricks and hearts: the sheet
    first = {"declarations": [2, 4, 1], "tricks": [4, 4, 4], "clubs": [3, 5, 0]}
    record = {"game": "metamorphosis", "players": ["Ala", "Bartek", "Celina"], "deals": []}
    page = text(client.get(f"/m/{made(client, record)['id']}"))
    assert "Enter deal 1" in page and "Save deal 1" not in page
    page = text(client.get(f"/m/{made(client, {**record, 'deals': [first]})['id']}"))
    assert "Enter deal 2" not in page and 'name="hearts__2"' in sheet_form(page)
    # four players' Black Maria: a second row of totals leaves no room under them
    record = {"game": "black_maria", "players": ["Ala", "Bartek", "Celina", "Darek"]}
    page = text(client.get(f"/m/{made(client, {**record, 'deals': []})['id']}"))
    assert "Enter deal 1" in page and "Save deal 1" not in page


def test_a_question_answered_twice_is_refused_and_nothing_is_saved(client, app):
    """A form sent with one field twice (Q♠ to Ala and to Celina): read once, the
    other answer was dropped and the deal saved. No deal form asks twice."""
    mid = new_bm(client)
    data = list(deal_form([4, 6, 3], 0, 1, 1, **marks(client, f"/m/{mid}/deal")).items())
    r = client.post(f"/m/{mid}/deal", data=MultiDict(data + [("taken_by_QS", "2")]))
    assert r.status_code == 400  # the form again, with why
    assert "One question was answered twice; nothing was saved" in text(r)
    assert stored(app, mid).deals == []
    r = client.post(f"/m/{mid}/deal", data=MultiDict(data), headers={"X-Scorer-Queue": "1"})
    assert r.get_json()["outcome"] == "saved"  # the same, once each: saved


def test_a_history_line_whose_deal_moved_says_its_number_now(client, app):
    """Deals 1 to 3 saved, deal 1 deleted, a new deal 3 saved: the lines of the
    old deals 2 and 3 say what they are now (deal 1 and 2), which their Undo takes
    back; a line of a deal not moved, or deleted, says nothing more."""
    mid = new_bm(client)
    one, two = ([4, 6, 3], 0, 1, 1), ([0, 5, 8], 2, 2, 0)
    for d in (one, two, one, None, two):
        if d is None:  # deal 1 deleted
            gone = client.post(f"/m/{mid}/deal/1/delete", data=delete_marks(client, mid, 1))
            assert gone.status_code == 302
            continue
        form = deal_form(*d, **marks(client, f"/m/{mid}/deal"))
        assert client.post(f"/m/{mid}/deal", data=form).status_code == 302
    page = html.unescape(text(client.get(f"/m/{mid}/history")))
    said = re.findall(r"<p><strong>([^<]*)</strong>([^<]*)</p>", page)
    assert said[:5] == [
        ("Deal 3 saved.", ""),  # the new deal 3
        ("Deal 1 deleted.", ""),
        ("Deal 3 saved.", " It is deal 2 now."),
        ("Deal 2 saved.", " It is deal 1 now."),
        ("Deal 1 saved.", ""),  # deleted since
    ]
