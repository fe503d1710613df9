"""The table's deal N (issue 20), in Chromium at 390×844 with touch: phones that were
offline for several deals, two phones entering the same deal, an edit that meets a
delete. Four-player Black Maria (each deal on its own page) after 12 deals, played to
a number of deals. Points by hand from RULES.md: a heart 1, Q♠ 13, K♠ 10, A♠ 7."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .helpers import go, served_made
from .test_browser import shot, tap_owner, totals
from .test_browser_offline import cut_network, enter, restore_network, start, stored_deals
from .test_browser_sharing import fill_deal

pytestmark = pytest.mark.browser

NAMES = ["Ala", "Bartek", "Celina", "Darek"]


def deal(hearts, qs, ks, as_):
    return {"hearts": hearts, "taken_by": {"QS": qs, "KS": ks, "AS": as_}}


# the twelve deals before: 4 3 3 3 hearts, Q♠ K♠ A♠ to seats turning round
BEFORE = [deal([4, 3, 3, 3], k % 4, (k + 1) % 4, (k + 2) % 4) for k in range(12)]
D13 = deal([3, 4, 5, 1], 0, 1, 2)  # Ala 3 + 13 = 16, Bartek 4 + 10 = 14, Celina 5 + 7 = 12, Darek 1
D14 = deal([0, 6, 2, 5], 3, 3, 0)  # Ala 7, Bartek 6, Celina 2, Darek 5 + 23 = 28
D15 = deal([13, 0, 0, 0], 1, 2, 3)  # Ala 13, Bartek 13, Celina 10, Darek 7
D13_TYPO = deal([3, 5, 4, 1], 0, 1, 2)  # Bartek and Celina's hearts swapped: 16, 15, 11, 1


def table(browser, browser_context_args, live_server):
    """Phone A made the match (12 deals in) and scores it; phone B opened A's score
    link and has the sheet and the deal page kept for offline use."""
    a = browser.new_context(**browser_context_args).new_page()
    record = served_made(
        a.context.request,
        live_server,
        {
            "game": "black_maria",
            "players": NAMES,
            "options": {"end": "deals", "deals": 40},
            "deals": BEFORE,
        },
    )
    sheet = f"{live_server}/m/{record['id']}"
    a.goto(sheet)
    b = browser.new_context(**browser_context_args).new_page()
    b.goto(f"{sheet}/score?key={record['edit_key']}")
    expect(b.locator("html[data-offline=ready]")).to_have_count(1)
    b.reload()
    expect(b.locator("html[data-offline=ready]")).to_have_count(1)
    enter(b)  # the deal page, kept as well
    expect(b.locator("html[data-offline=ready]")).to_have_count(1)
    b.goto(sheet)
    return a, b, sheet, record["edit_key"]


def offline_entry(page, entry, number):
    """B, offline, enters deal ``number`` from the sheet it kept: the link, the page
    and its Save all name that deal, and the deal waits as a row of the sheet."""
    link = page.get_by_role("link", name=f"Enter deal {number}")
    expect(link).to_be_visible()
    enter(page)
    expect(page.locator("h1")).to_have_text(f"Deal {number}")
    fill_deal(page, entry["hearts"], *(entry["taken_by"][c] for c in ("QS", "KS", "AS")))
    go(page, page.get_by_role("button", name=f"Save deal {number}"))
    expect(page.locator("table.deals tr.waiting th").last).to_have_text(str(number))


def test_a_phone_offline_for_three_deals_alone_sends_them_in_order(
    browser, browser_context_args, live_server
):
    a, b, sheet, _key = table(browser, browser_context_args, live_server)
    cut_network(b)
    for number, entry in ((13, D13), (14, D14), (15, D15)):
        offline_entry(b, entry, number)
    # each waiting deal a row of its own, with its own number; the next is deal 16
    expect(b.locator("table.deals tr.waiting")).to_have_count(3)
    assert b.locator("table.deals tr.waiting th").all_inner_texts() == ["13", "14", "15"]
    expect(b.get_by_role("link", name="Enter deal 16")).to_be_visible()
    # the sheet the phone kept is not one that said a one-time message
    expect(b.get_by_text("You score this match on this phone now.")).to_be_hidden()
    shot(b, "waiting-phone.png")  # the first screen: what waits
    b.locator("table.deals tr.waiting").last.scroll_into_view_if_needed()
    shot(b, "waiting-rows-phone.png")
    b.evaluate("window.scrollTo(0, 0)")
    # the deal page for 16 says what follows from the number: Darek deals (16th deal,
    # first dealer Ala), Ala leads (the dealer's left)
    enter(b)
    expect(b.locator("h1")).to_have_text("Deal 16")
    expect(b.locator("[data-deal-summary]")).to_have_text("Darek deals · Ala leads …")
    b.go_back()
    assert len(stored_deals(live_server, sheet)) == 12
    restore_network(b)
    note = b.locator("#queue-note")
    expect(note).to_have_text(
        re.compile("Deal 13 saved.*Deal 14 saved.*Deal 15 saved"), timeout=20000
    )
    assert stored_deals(live_server, sheet) == BEFORE + [D13, D14, D15]
    expect(b.locator("table.deals tr.waiting")).to_have_count(0, timeout=5000)
    for page in (a, b):
        page.context.close()


def test_deals_typed_after_a_deal_undone_elsewhere_wait_for_the_table_to_say(
    browser, browser_context_args, live_server
):
    """B's open sheet shows deal 13 (a typo) come in from A. B loses the network: the
    sheet opens again as it last showed it (the service worker's copy follows the
    live sheet), and the deal page kept from before deal 13 is for deal 14 (numbered
    from the newest deal the phone has shown). B types deals 14 and 15. A undoes
    deal 13, to enter it again. Back online, B's deal 14 is not stored as deal 13
    (every dealer after it would be one deal behind): it is held with the reason,
    deal 15 behind it. B's sheet offers deal 13, not 16 (typed there, deal 13 was
    queued as 16 behind the held deals, and stored a second time as deal 16): B
    enters it, it is saved at once, and "Open it" sends 14 and 15."""
    a, b, sheet, key = table(browser, browser_context_args, live_server)
    api = f"{live_server}/api/matches/{sheet.rsplit('/', 1)[-1]}"
    auth = {"Authorization": f"Bearer {key}"}
    assert a.context.request.post(f"{api}/deals?deal=13", data=D13_TYPO, headers=auth).ok
    expect(b.get_by_role("link", name="Enter deal 14")).to_be_visible(timeout=10000)
    # the service worker puts the new live part in its copy of the sheet
    copy = "caches.match(location.href).then(r => r.text())"
    for _try in range(50):
        if ">Enter deal 14<" in b.evaluate(copy):
            break
        b.wait_for_timeout(100)
    cut_network(b)
    b.reload()
    # 12 deals: Ala 48 hearts, the others 36, each Q♠ K♠ A♠ three times (90); then
    # deal 13 as A typed it: 16, 15, 11, 1
    assert totals(b) == [154, 141, 137, 127]
    expect(b.get_by_role("link", name="Enter deal 14")).to_be_visible()
    cut_network(b)
    for number, entry in ((14, D14), (15, D15)):
        offline_entry(b, entry, number)
    assert a.context.request.delete(f"{api}/deals/13", headers=auth).ok
    restore_network(b)
    note = b.locator("#queue-note")
    expect(note).to_contain_text(
        "Deal 14: not saved — Deal 13 was deleted on another phone after this was typed.",
        timeout=20000,
    )
    expect(note).to_contain_text("Deal 15: not saved yet")
    assert stored_deals(live_server, sheet) == BEFORE
    enter(b)
    expect(b.locator("h1")).to_have_text("Deal 13")
    fill_deal(b, D13["hearts"], *(D13["taken_by"][c] for c in ("QS", "KS", "AS")))
    go(b, b.get_by_role("button", name="Save deal 13"))
    expect(b.locator("main")).to_contain_text("Deal 13 saved.", timeout=20000)
    assert stored_deals(live_server, sheet) == BEFORE + [D13]
    note.get_by_role("button", name="Open it").first.tap()
    expect(note).to_have_text(re.compile("Deal 14 saved.*Deal 15 saved"), timeout=20000)
    assert stored_deals(live_server, sheet) == BEFORE + [D13, D14, D15]
    for page in (a, b):
        page.context.close()


def test_a_phone_offline_while_another_enters_the_same_deals_stores_them_once(
    browser, browser_context_args, live_server
):
    a, b, sheet, key = table(browser, browser_context_args, live_server)
    cut_network(b)
    for number, entry in ((13, D13), (14, D14), (15, D15)):
        offline_entry(b, entry, number)
        # A enters the same deal online, on its own deal page
        enter(a)
        fill_deal(a, entry["hearts"], *(entry["taken_by"][c] for c in ("QS", "KS", "AS")))
        go(a, a.get_by_role("button", name=f"Save deal {number}"))
    assert stored_deals(live_server, sheet) == BEFORE + [D13, D14, D15]
    restore_network(b)
    note = b.locator("#queue-note")
    expect(note).to_contain_text(
        "Deal 15 was already entered on another phone, the same", timeout=20000
    )
    for number in (13, 14, 15):
        expect(note).to_contain_text(f"Deal {number} was already entered on another phone")
    assert b.url == sheet  # no choice page: they were the same
    assert stored_deals(live_server, sheet) == BEFORE + [D13, D14, D15]
    history = a.context.request.get(f"{sheet.replace('/m/', '/api/matches/')}/history").json()
    assert [line["kind"] for line in history["history"]][-3:] == ["same", "same", "same"]
    for page in (a, b):
        page.context.close()


def test_a_phone_offline_with_a_deal_that_differs_gets_one_choice(
    browser, browser_context_args, live_server
):
    a, b, sheet, _key = table(browser, browser_context_args, live_server)
    cut_network(b)
    offline_entry(b, D13_TYPO, 13)
    offline_entry(b, D14, 14)
    enter(a)
    fill_deal(a, D13["hearts"], 0, 1, 2)
    go(a, a.get_by_role("button", name="Save deal 13"))
    restore_network(b)
    # B's deal 13 differs from A's: one choice page, the differing cells marked
    expect(b.get_by_role("heading", name="Deal 13: two entries")).to_be_visible(timeout=20000)
    marked = b.locator("table.compare tr.differs th").all_inner_texts()
    assert marked == [
        "Hearts taken · Bartek",
        "Hearts taken · Celina",
        "Points · Bartek",
        "Points · Celina",
    ]
    expect(b.locator(".choices button").first).to_have_text("Keep deal 13 as stored")
    shot(b, "choice-phone.png", full_page=True)
    # the page stays while it is open: a retry of the queue (as the network coming
    # back sends) and a live poll later. B's deal 14 waits for the choice: were B's
    # deal 13 the table's and A's a deal entered twice, it would be deal 13
    b.evaluate("dispatchEvent(new Event('online'))")
    b.wait_for_timeout(2500)
    assert b.get_by_role("heading", name="Deal 13: two entries").is_visible()
    assert stored_deals(live_server, sheet) == BEFORE + [D13]  # nothing stored twice
    go(b, b.get_by_role("button", name="Keep deal 13 as stored"))
    for _try in range(100):  # chosen, B's deal 14 goes on
        if stored_deals(live_server, sheet) != BEFORE + [D13]:
            break
        b.wait_for_timeout(100)
    assert stored_deals(live_server, sheet) == BEFORE + [D13, D14]
    expect(b.get_by_role("link", name=re.compile("two entries"))).to_have_count(0)
    for page in (a, b):
        page.context.close()


def test_a_deal_page_kept_from_before_a_delete_is_for_the_deal_the_sheet_showed_next(
    browser, browser_context_args, live_server
):
    """B kept the deal page while deal 14 was next; A deleted deal 13 since, and B's
    live sheet says "Enter deal 13". Offline, the kept page is for deal 13 (it was
    for deal 14, and its deal was held as typed after a deleted one), and its deal is
    stored as deal 13."""
    a, b, sheet, key = table(browser, browser_context_args, live_server)
    api = f"{live_server}/api/matches/{sheet.rsplit('/', 1)[-1]}"
    auth = {"Authorization": f"Bearer {key}"}
    assert a.context.request.post(f"{api}/deals?deal=13", data=D13_TYPO, headers=auth).ok
    expect(b.get_by_role("link", name="Enter deal 14")).to_be_visible(timeout=10000)
    enter(b)  # the deal page, kept while deal 14 is next
    expect(b.locator("h1")).to_have_text("Deal 14")
    b.goto(sheet)
    assert a.context.request.delete(f"{api}/deals/13", headers=auth).ok
    expect(b.get_by_role("link", name="Enter deal 13")).to_be_visible(timeout=10000)
    cut_network(b)
    offline_entry(b, D13, 13)
    restore_network(b)
    expect(b.locator("#queue-note")).to_have_text("Deal 13 saved.", timeout=20000)
    assert stored_deals(live_server, sheet) == BEFORE + [D13]
    for page in (a, b):
        page.context.close()


def test_the_choice_page_a_phone_goes_on_to_says_what_became_of_the_deals_before(
    browser, browser_context_args, live_server
):
    """B offline types deals 13 (the same as A's) and 14 (not): back online, B goes on
    to deal 14's choice page, and that page still says that deal 13 was the same
    (the message was lost with the page it was written on)."""
    a, b, sheet, key = table(browser, browser_context_args, live_server)
    cut_network(b)
    offline_entry(b, D13, 13)
    offline_entry(b, D14, 14)
    api = f"{live_server}/api/matches/{sheet.rsplit('/', 1)[-1]}"
    auth = {"Authorization": f"Bearer {key}"}
    for n, entry in ((13, D13), (14, D15)):
        assert a.context.request.post(f"{api}/deals?deal={n}", data=entry, headers=auth).ok
    restore_network(b)
    expect(b.get_by_role("heading", name="Deal 14: two entries")).to_be_visible(timeout=20000)
    expect(b.locator("#queue-note")).to_contain_text(
        "Deal 13 was already entered on another phone, the same: nothing was stored twice."
    )
    assert stored_deals(live_server, sheet) == BEFORE + [D13, D15]
    for page in (a, b):
        page.context.close()


def test_an_edit_that_meets_a_delete_keeps_what_was_typed(
    browser, browser_context_args, live_server
):
    a, b, sheet, _key = table(browser, browser_context_args, live_server)
    a.goto(sheet + "/deal/12")
    a.fill("#hearts__0", "1")
    a.fill("#hearts__1", "6")  # deal 12 becomes 1 6 3 3 hearts
    # meanwhile B deletes deal 12
    b.goto(sheet + "/deal/12")
    b.locator("details.tools summary").tap()
    go(b, b.get_by_role("button", name=re.compile("^Delete deal 12")))
    assert len(stored_deals(live_server, sheet)) == 11
    go(a, a.get_by_role("button", name="Save changes"))
    expect(a.get_by_role("heading", name="Deal 12 was deleted")).to_be_visible()
    expect(a.locator(".side.mine")).to_contain_text("Ala: 1 heart")
    go(a, a.get_by_role("button", name="Bring deal 12 back with your entry"))
    deals = stored_deals(live_server, sheet)
    assert len(deals) == 12 and deals[11]["hearts"] == [1, 6, 3, 3]
    for page in (a, b):
        page.context.close()


def test_the_sheet_form_takes_two_deals_in_a_row_offline(page, live_server):
    """Three players: the next deal's form is on the sheet. Deal 2 saved offline, the
    form is for deal 3 at once, blank, and the number pad types its counts."""
    sheet = start(page, live_server)
    fill_deal(page, [4, 6, 3], 0, 1, 1)  # deal 1 online: 17, 23, 3
    go(page, page.get_by_role("button", name="Save deal 1"))
    expect(page.locator(".said form.undo")).to_be_visible()
    cut_network(page)
    fill_deal(page, [0, 5, 8], 2, 2, 0)  # deal 2: Ala A♠ 7, Bartek 5, Celina 8 + 23 = 31
    page.get_by_role("button", name="Save deal 2").tap()
    expect(page.get_by_role("button", name="Save deal 3")).to_be_visible()
    # deal 1's Undo is not offered while a later deal waits
    expect(page.locator(".said form.undo")).to_be_hidden()
    expect(page.locator("section.next h2")).to_have_text("Deal 3")
    assert page.input_value("#hearts__0") == ""
    # and counted afresh: nothing typed, nothing to suggest (not deal 2's "✓ 13 / 13")
    expect(page.locator("[data-left]")).to_have_text("0 / 13")
    assert page.get_attribute("#hearts__2", "placeholder") == "auto"
    # deal 3 with the pad: Ala 2, Bartek 9 (Celina's 2 is filled in); Q♠ K♠ to Bartek,
    # A♠ to Celina → Ala 2, Bartek 9 + 23 = 32, Celina 2 + 7 = 9
    expect(page.locator("#hearts__0.current")).to_have_count(1)
    page.locator(".pad button[data-value='2']").tap()
    page.locator(".pad button[data-value='9']").tap()
    tap_owner(page, "QS", 1)
    tap_owner(page, "KS", 1)
    tap_owner(page, "AS", 2)
    page.get_by_role("button", name="Save deal 3").tap()
    expect(page.get_by_role("button", name="Save deal 4")).to_be_visible()
    assert page.locator("table.deals tr.waiting th").all_inner_texts() == ["2", "3"]
    # each with its counts as typed, Celina's suggested 2 too, for the table to read over
    waiting = page.locator("table.deals tr.waiting")
    assert waiting.nth(0).locator("td").all_inner_texts() == ["0", "5", "8"]
    assert waiting.nth(1).locator("td").all_inner_texts() == ["2", "9", "2"]
    expect(page.locator("table.deals tr.waiting-note").first).to_have_text(
        "Hearts taken · waiting for the connection"
    )
    restore_network(page)
    expect(page.locator("#queue-note")).to_contain_text("Deal 3 saved.", timeout=20000)
    assert stored_deals(live_server, sheet) == [
        deal([4, 6, 3], 0, 1, 1),
        deal([0, 5, 8], 2, 2, 0),
        deal([2, 9, 2], 1, 1, 2),
    ]
    expect(page.locator("table.deals tbody tr:not(.waiting)")).to_have_count(3, timeout=5000)
    assert totals(page) == [26, 60, 43]  # 17 + 7 + 2, 23 + 5 + 32, 3 + 31 + 9


def test_a_deal_refused_when_it_arrives_stays_on_the_phone_until_put_right(page, live_server):
    """Offline, deal 1 typed with 14 hearts and deal 2 after it: back online deal 1
    is refused and stays on the phone with the reason, deal 2 waits behind it; put
    right, both are stored in order."""
    sheet = start(page, live_server)
    cut_network(page)
    fill_deal(page, [4, 6, 4], 0, 1, 1)  # 14 hearts: the rules say no
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.get_by_role("button", name="Save deal 2")).to_be_visible()
    fill_deal(page, [0, 5, 8], 2, 2, 0)
    page.get_by_role("button", name="Save deal 2").tap()
    expect(page.get_by_role("button", name="Save deal 3")).to_be_visible()
    restore_network(page)
    note = page.locator("#queue-note")
    expect(note).to_contain_text(
        "Deal 1: not saved — Hearts add up to 14, but 13 are in play", timeout=20000
    )
    expect(note).to_contain_text("Deal 2: not saved yet")
    assert stored_deals(live_server, sheet) == []
    go(page, note.get_by_role("button", name="Open it"))
    expect(page.locator("#error")).to_contain_text("add up to 14")
    assert page.input_value("#hearts__2") == "4"  # what was typed, on its form
    page.fill("#hearts__2", "3")
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator("#queue-note")).to_contain_text("Deal 2 saved.", timeout=20000)
    assert stored_deals(live_server, sheet) == [
        deal([4, 6, 3], 0, 1, 1),
        deal([0, 5, 8], 2, 2, 0),
    ]


def test_a_kept_deal_page_opened_offline_before_the_sheet_redraws_follows_the_deals_sent(
    browser, browser_context_args, live_server
):
    """B sends deals 13 and 14 once the network is back, and loses it again before its
    live sheet has drawn them (its questions go unanswered here). The deal page B
    kept from before deal 13 is for deal 15 (the answers to B's own sends said which
    deals the match has now), not deal 13 again: the table's deal 15 typed there
    would have met deal 13 as a choice."""
    a, b, sheet, _key = table(browser, browser_context_args, live_server)
    cut_network(b)
    for number, entry in ((13, D13), (14, D14)):
        offline_entry(b, entry, number)
    # the live sheet hears nothing: what B knows of the match comes from its own sends
    b.context.route(re.compile(r".*[?&]part=live.*"), lambda route: route.abort())
    restore_network(b)
    expect(b.locator("#queue-note")).to_contain_text("Deal 14 saved.", timeout=20000)
    assert stored_deals(live_server, sheet) == BEFORE + [D13, D14]
    cut_network(b)
    enter(b)
    expect(b.locator("h1")).to_have_text("Deal 15")
    fill_deal(b, D15["hearts"], *(D15["taken_by"][c] for c in ("QS", "KS", "AS")))
    go(b, b.get_by_role("button", name="Save deal 15"))
    b.context.unroute(re.compile(r".*[?&]part=live.*"))
    restore_network(b)
    expect(b.locator("#queue-note")).to_contain_text("Deal 15 saved.", timeout=20000)
    assert stored_deals(live_server, sheet) == BEFORE + [D13, D14, D15]
    for page in (a, b):
        page.context.close()
