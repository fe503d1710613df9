"""Three phones on one Black Maria match (Playwright, 390x844, touch): A scores,
B watches (its sheet shows A's deal within 3 s, no reload), C scores too: C's
sheet follows A's deal without losing what C typed into its form, and saving it
meets the choice between the two entries; C's "add it as deal 2" keeps both."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .helpers import go, served_made, start_on_phone
from .test_browser import shot, tap_owner

pytestmark = pytest.mark.browser


def fill_deal(page, hearts, qs, ks, as_):
    for s, h in enumerate(hearts):
        page.fill(f"#hearts__{s}", str(h))
    for card, seat in (("QS", qs), ("KS", ks), ("AS", as_)):
        tap_owner(page, card, seat)


def test_three_phones_one_match(browser, browser_context_args, live_server):
    a, b, c = (browser.new_context(**browser_context_args).new_page() for _ in range(3))
    sheet = start_on_phone(a, live_server, "black_maria", ["Ala", "Bartek", "Celina"])
    assert re.search(r"/m/[A-Za-z0-9_-]{12}$", sheet)

    # A shares: a watch link for B, a score link for C
    go(a, a.get_by_role("link", name=re.compile("^Share")))
    assert a.locator("img.qr").count() == 2
    watch = a.locator(".share a").first.get_attribute("href")
    score = a.locator("details .link a").get_attribute("href")
    assert watch == sheet and "key=" in score

    b.goto(watch)
    assert b.get_by_text("You are watching").is_visible()
    assert b.get_by_role("link", name=re.compile("^Enter deal")).count() == 0
    navigations = []
    b.on("framenavigated", lambda frame: navigations.append(frame.url))

    c.goto(score)
    assert c.url == sheet  # the key is not left in the address
    # A and C both type deal 1 into the form on their sheets
    a.goto(sheet)
    fill_deal(c, [0, 5, 8], 2, 2, 0)  # 7, 5, 31
    fill_deal(a, [4, 6, 3], 0, 1, 1)  # 17, 23, 3
    go(a, a.get_by_role("button", name="Save deal 1"))
    # B's sheet follows within 3 seconds, without a reload
    expect(b.locator("table.deals tbody tr")).to_have_count(1, timeout=3000)
    assert [int(t) for t in b.locator(".totals .points").all_inner_texts()] == [17, 23, 3]
    assert navigations == []
    # C's sheet follows too, and keeps what C typed, saying the match changed
    expect(c.locator("table.deals tbody tr")).to_have_count(1, timeout=3000)
    expect(c.locator("#changed-elsewhere")).to_be_visible()
    # under the title and facts of the deal C is typing, not the next one's
    expect(c.locator("section.next h2")).to_have_text("Deal 1")
    expect(c.locator("[data-deal-facts]")).to_contain_text("Ala deals")
    assert c.input_value("#hearts__1") == "5"
    assert c.locator("label.chip:has(input[name=taken_by_QS][value='2']) input").is_checked()

    # C saves other numbers as deal 1: both kept, line by line, the cells that differ
    # marked, and the choice (keeping the stored one first)
    go(c, c.get_by_role("button", name="Save deal 1"))
    assert c.get_by_role("heading", name="Deal 1: two entries").is_visible()
    expect(c.locator("table.compare tr.differs")).to_have_count(9)  # all but A♠, Bartek's points
    expect(c.locator(".choices button").first).to_have_text("Keep deal 1 as stored")
    # or later: the sheet, which says the choice waits
    expect(c.get_by_role("link", name="Back to the sheet")).to_be_visible()
    # A's sheet says a choice waits
    a.goto(sheet)
    expect(a.get_by_role("link", name=re.compile("Deal 1 has two entries"))).to_be_visible()
    go(c, c.get_by_role("button", name="Add it as deal 2, a new deal"))
    assert [int(t) for t in c.locator(".totals .points").all_inner_texts()] == [24, 28, 34]
    expect(b.locator("table.deals tbody tr")).to_have_count(2, timeout=3000)
    assert navigations == []

    # the history, and undo from there
    go(a, a.get_by_role("link", name="History and undo"))
    assert a.get_by_text("Deal 2 saved.").is_visible()
    shot(a, "history-phone.png", full_page=True)
    for page in (a, b, c):
        page.context.close()


def made_with_key(page, live_server, options=None) -> tuple[str, str]:
    """A Black Maria match made through the API by this phone (its scorer): the
    sheet's address and the edit key, for another phone's writes."""
    record = {"game": "black_maria", "players": ["Ala", "Bartek", "Celina"], "deals": []}
    made = served_made(page.context.request, live_server, {**record, "options": options or {}})
    return f"{live_server}/m/{made['id']}", made["edit_key"]


def saved_elsewhere(page, sheet: str, key: str, entry: dict) -> None:
    """Another phone saves the next deal (through the API, with the edit key)."""
    url = sheet.replace("/m/", "/api/matches/") + "/deals"
    r = page.context.request.post(url, data=entry, headers={"Authorization": f"Bearer {key}"})
    assert r.status == 201, r.text()


D1 = {"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}  # 17, 23, 3


def test_an_open_sheet_drops_its_undo_once_another_phone_changes_the_match(page, live_server):
    sheet, key = made_with_key(page, live_server)
    page.goto(sheet)
    fill_deal(page, [4, 6, 3], 0, 1, 1)
    go(page, page.get_by_role("button", name="Save deal 1"))
    expect(page.locator(".said form.undo")).to_have_count(1)
    # another phone saves deal 2 (Ala 0, Bartek 5, Celina 8 + Q♠ K♠, A♠ to Ala):
    # this sheet follows, and its Undo of deal 1 goes, the words "Deal 1 saved." stay
    saved_elsewhere(
        page, sheet, key, {"hearts": [0, 5, 8], "taken_by": {"QS": 2, "KS": 2, "AS": 0}}
    )
    expect(page.locator("table.deals tbody tr")).to_have_count(2, timeout=5000)
    expect(page.locator(".said form.undo")).to_have_count(0)
    expect(page.locator(".said .flash")).to_have_text("Deal 1 saved.")


def test_a_deal_entered_again_the_same_leaves_an_open_sheets_undo(page, live_server):
    """Another phone enters deal 1 again, the same: nothing changes, and this open
    sheet, drawn again, still offers its Undo of deal 1."""
    sheet, key = made_with_key(page, live_server)
    page.goto(sheet)
    fill_deal(page, [4, 6, 3], 0, 1, 1)
    go(page, page.get_by_role("button", name="Save deal 1"))
    page.evaluate("document.querySelector('#sheet-live h1, #sheet-live h2').dataset.old = '1'")
    url = sheet.replace("/m/", "/api/matches/") + "/deals?deal=1"
    r = page.context.request.post(url, data=D1, headers={"Authorization": f"Bearer {key}"})
    assert r.status == 200 and r.json()["same"] is True
    expect(page.locator("#sheet-live [data-old]")).to_have_count(0, timeout=5000)  # redrawn
    expect(page.locator(".said form.undo")).to_have_count(1)


def test_a_last_deal_typed_as_another_phone_ends_the_match_is_kept(page, live_server):
    """Played to 20: this phone types deal 1 while another saves it (Bartek's 23
    ends the match). The sheet says the match is over and keeps what was typed;
    saved, it meets the other entry for a choice."""
    sheet, key = made_with_key(page, live_server, {"target": 20})
    page.goto(sheet)
    fill_deal(page, [3, 6, 4], 0, 1, 1)
    saved_elsewhere(page, sheet, key, D1)
    expect(page.locator("#changed-elsewhere")).to_be_visible(timeout=5000)
    expect(page.locator("table.deals tbody tr")).to_have_count(1)
    assert page.input_value("#hearts__0") == "3" and page.input_value("#hearts__2") == "4"
    # in sight, under the end of the match (the winner, the ratings) drawn above it
    expect(page.locator("#hearts__0")).to_be_in_viewport()
    go(page, page.get_by_role("button", name="Save deal 1"))
    expect(page.get_by_role("heading", name="Deal 1: two entries")).to_be_visible()
