"""Offline-proof (issue 13), in Chromium at 390×844 with touch: a deal saved without
the network waits on the phone and is sent once when the network is back; a typed
entry survives a reload, Back and a lost connection; a queued deal that meets another
phone's deal gets the side-by-side choice. The server's store is read through the API.
Black Maria figures worked by hand from RULES.md: a heart 1, Q♠ 13, K♠ 10, A♠ 7."""

from __future__ import annotations

import json
import re
import urllib.request

import pytest
from playwright.sync_api import expect

from scorer.web.access import COOKIE

from .conftest import UNREACHABLE
from .helpers import go, served_made, start_on_phone, to_deals
from .test_browser import tap_owner, totals
from .test_browser_entry import reopened
from .test_browser_sharing import fill_deal

pytestmark = pytest.mark.browser

WAITING = "Deal 1: not saved yet — waiting for the connection."


def stored_deals(live_server, sheet):
    """The deals the server holds for the match of this sheet (its API)."""
    match_id = sheet.rstrip("/").rsplit("/", 1)[-1]
    with urllib.request.urlopen(f"{live_server}/api/matches/{match_id}") as r:
        return json.load(r)["deals"]


def start(page, live_server):
    """A 3-player Black Maria match; the sheet opened again once the service
    worker is in charge (so it keeps it), as a phone does after a first visit."""
    start_on_phone(page, live_server, "black_maria", ["Ala", "Bartek", "Celina"])
    expect(page.locator("html[data-offline=ready]")).to_have_count(1)
    page.reload()
    expect(page.locator("html[data-offline=ready]")).to_have_count(1)
    return page.url


def phone(page):
    """The browser cookie the server knows this phone by."""
    return next(c["value"] for c in page.context.cookies() if c["name"] == COOKIE)


def cut_network(page):
    """Playwright's offline mode, once the page's own requests fail: it can reach
    a page that a service worker controls a moment late."""
    page.context.set_offline(True)
    # and every request aborted: Chromium's offline emulation can miss one that a
    # service worker forwards, and what still gets through finds the line dead
    # (tests/conftest.py's Cable): a real phone off the network sends nothing
    page.context.route("**/*", lambda route: route.abort("internetdisconnected"))
    UNREACHABLE.add(phone(page))
    probe = """() => Promise.all([
        fetch('/rules/', {cache: 'no-store'}).then(() => false, () => true),
        fetch('/rules/', {method: 'POST', cache: 'no-store'}).then(() => false, () => true),
    ]).then(([get, post]) => get && post)"""
    for _ in range(100):  # a read and a write from the page must both fail
        if page.evaluate(probe):
            return
        page.wait_for_timeout(100)
    raise AssertionError("the network stays up")


def restore_network(page):
    UNREACHABLE.discard(phone(page))
    page.context.unroute("**/*")
    page.context.set_offline(False)


def enter(page):
    """The next deal's own page (a 3-player Black Maria sheet draws the same form
    itself, with the same hooks: tests/test_web_offline.py)."""
    match = re.match(r"(.*/m/[A-Za-z0-9_-]{12})", page.url)
    with page.expect_navigation():  # from the page, as its link would (not the address bar)
        page.evaluate("url => location.assign(url)", match.group(1) + "/deal")


def test_a_sheet_opened_once_opens_again_without_the_network(
    browser, browser_context_args, live_server
):
    """A watcher who opened the watch link once, with no second page (the first
    page came before the service worker took over), loses the network and
    reloads: the sheet is there, as it was."""
    maker = browser.new_context(**browser_context_args)
    record = {
        "game": "black_maria",
        "players": ["Ala", "Bartek", "Celina"],
        "deals": [{"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}],
    }
    sheet = f"{live_server}/m/{served_made(maker.request, live_server, record)['id']}"
    maker.close()
    watcher = browser.new_context(**browser_context_args)
    page = watcher.new_page()
    page.goto(sheet)
    expect(page.locator("html[data-offline=ready]")).to_have_count(1)
    cut_network(page)
    page.reload()
    assert totals(page) == [17, 23, 3]  # Ala 4 + Q♠, Bartek 6 + K♠ + A♠, Celina 3
    expect(page.locator("table.deals tbody tr")).to_have_count(1)
    restore_network(page)
    watcher.close()


def test_a_deal_saved_offline_waits_and_is_sent_once(page, live_server):
    sheet = start(page, live_server)
    enter(page)
    fill_deal(page, [4, 6, 3], 0, 1, 1)  # Ala 4 + Q♠ = 17, Bartek 6 + K♠ + A♠ = 23, Celina 3
    cut_network(page)
    go(page, page.get_by_role("button", name="Save deal 1"))
    # the sheet as the phone kept it, and the deal waiting on the phone
    assert page.url == sheet
    note = page.locator("#queue-note")
    expect(note).to_have_text(WAITING)
    # no deal stored yet: the deals table shows the waiting one alone, its counts as typed
    assert page.locator("table.deals tbody tr:not(.waiting, .waiting-note)").count() == 0
    expect(page.locator("table.deals tr.waiting th")).to_have_text("1")
    assert page.locator("table.deals tr.waiting td.typed").all_inner_texts() == ["4", "6", "3"]
    assert stored_deals(live_server, sheet) == []
    # the network is back: the deal is sent, the sheet follows without a reload
    restore_network(page)
    # at once when the "online" event finds the line up (0.1 s here), else at the next try
    # (static/queue.js: RETRY, 5 s on a phone, 0.3 s in the tests: tests/conftest.py)
    expect(note).to_have_text("Deal 1 saved.", timeout=12000)
    expect(page.locator("table.deals tbody tr")).to_have_count(1)
    assert totals(page) == [17, 23, 3]
    deals = stored_deals(live_server, sheet)
    assert deals == [{"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}]
    # nothing is left to send: a later try (the network coming back again) sends nothing
    page.evaluate("dispatchEvent(new Event('online'))")
    page.wait_for_timeout(1000)
    assert len(stored_deals(live_server, sheet)) == 1
    # the next deal's form starts empty: the saved entry's draft is gone
    enter(page)
    assert page.input_value("#hearts__0") == ""
    expect(note).to_be_hidden()


def test_a_sheet_without_a_deal_form_says_what_waits_and_sends_it(page, live_server):
    """Five players: the sheet links to the deal page and is drawn without the deal
    form's scripts; a deal saved there without the network brings them back with
    it (from what the phone kept), says it waits, and sends it when it can."""
    players = ["Ala", "Bartek", "Celina", "Darek", "Ewa"]
    made = served_made(
        page.context.request, live_server, {"game": "black_maria", "players": players}
    )
    sheet = f"{live_server}/m/{made['id']}"
    page.goto(sheet)
    expect(page.locator("html[data-offline=ready]")).to_have_count(1)
    assert page.locator("form.deal").count() == 0
    enter(page)
    # hearts 1 2 3 4 3; Q♠ Ala, K♠ Bartek, A♠ Celina: 14, 12, 10, 4, 3
    fill_deal(page, [1, 2, 3, 4, 3], 0, 1, 2)
    cut_network(page)
    go(page, page.get_by_role("button", name="Save deal 1"))
    assert page.url == sheet and page.locator("form.deal").count() == 0
    note = page.locator("#queue-note")
    expect(note).to_have_text(WAITING)
    assert stored_deals(live_server, sheet) == []
    restore_network(page)
    expect(note).to_have_text("Deal 1 saved.", timeout=12000)
    expect(page.locator("table.deals tbody tr")).to_have_count(1)
    assert totals(page) == [14, 12, 10, 4, 3]
    assert stored_deals(live_server, sheet) == [
        {"hearts": [1, 2, 3, 4, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 2}}
    ]


def test_a_deal_form_the_live_sheet_draws_later_queues_offline_too(page, live_server):
    """The deal form's scripts loaded late (the live sheet drew the form when
    another phone reopened the match): a deal saved there without the network
    waits, and is sent once when the network is back."""
    sheet = reopened(page, live_server, ready=True)  # deals 1 and 2: 24, 28, 34
    # deal 3 again: hearts 3 1 9, Q♠ Ala, K♠ A♠ Bartek → 16, 18, 9
    fill_deal(page, [3, 1, 9], 0, 1, 1)
    cut_network(page)
    page.get_by_role("button", name="Save deal 3").tap()
    note = page.locator("#queue-note")
    expect(note).to_have_text("Deal 3: not saved yet — waiting for the connection.")
    assert len(stored_deals(live_server, sheet)) == 2
    restore_network(page)
    expect(note).to_have_text("Deal 3 saved.", timeout=12000)
    expect(page.locator("table.deals tbody tr")).to_have_count(3)
    assert totals(page) == [40, 46, 43]
    assert stored_deals(live_server, sheet)[2] == {
        "hearts": [3, 1, 9],
        "taken_by": {"QS": 0, "KS": 1, "AS": 1},
    }


def test_a_retry_after_a_lost_answer_never_saves_twice(page, live_server):
    """The server saved the deal but its answer never reached the phone: the phone
    sends it again with the same key, and the server answers it as the first time."""
    sheet = start(page, live_server)
    enter(page)
    deal_url = page.url
    fill_deal(page, [0, 13, 0], 1, 2, 0)  # Ala A♠ 7, Bartek 13 + Q♠ = 26, Celina K♠ 10
    sent = []

    def lost_answer(route):
        if not sent:
            sent.append(route.fetch(max_redirects=0).status)  # it reaches the server ...
        route.abort()  # ... and the answer is lost on the way back

    page.route(deal_url, lost_answer)
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator("#queue-note")).to_have_text(WAITING)
    assert sent == [200] and len(stored_deals(live_server, sheet)) == 1
    page.unroute(deal_url)
    # the next try goes through: answered as the first time, nothing saved again
    expect(page.locator("#queue-note")).to_have_text("Deal 1 saved.", timeout=12000)
    page.goto(sheet)
    assert totals(page) == [7, 26, 10]
    assert stored_deals(live_server, sheet) == [
        {"hearts": [0, 13, 0], "taken_by": {"QS": 1, "KS": 2, "AS": 0}}
    ]


def test_a_typed_entry_survives_reload_back_and_a_lost_connection(page, live_server):
    sheet = start(page, live_server)
    enter(page)
    page.locator("#hearts__0").tap()
    page.keyboard.type("5")
    page.locator("#hearts__1").tap()  # Bartek's count, then 2 on the number pad
    page.locator(".pad button[data-value='2']").tap()
    tap_owner(page, "QS", 2)
    queen = page.locator("input[name=taken_by_QS][value='2']")

    def kept():
        expect(page.locator("#hearts__0")).to_have_value("5")
        expect(page.locator("#hearts__1")).to_have_value("2")
        # counted again, Celina's 13 - 5 - 2 = 6 suggested
        expect(page.locator("[data-left]")).to_have_text("✓ 13 / 13")
        expect(page.locator("#hearts__2")).to_have_attribute("placeholder", "6")
        expect(queen).to_be_checked()
        expect(page.locator("#queue-note")).to_have_text(
            "What you typed here before is back; it is not saved yet."
        )

    page.reload()
    kept()
    # Back: to the sheet by its link, then the browser's Back button
    go(page, page.get_by_role("link", name="Back to the sheet"))
    page.go_back()
    kept()
    # no network: the page the phone kept, with what was typed
    cut_network(page)
    page.reload()
    kept()
    restore_network(page)
    # the rest typed, saved: the sheet has it and the next form starts empty
    page.fill("#hearts__1", "4")
    tap_owner(page, "KS", 0)
    tap_owner(page, "AS", 1)
    go(page, page.get_by_role("button", name="Save deal 1"))
    assert page.url == sheet
    assert totals(page) == [15, 11, 17]  # Ala 5 + K♠, Bartek 4 + A♠, Celina 4 + Q♠
    enter(page)
    assert page.input_value("#hearts__0") == ""
    assert not page.locator("input[name=taken_by_QS]:checked").count()
    expect(page.locator("#queue-note")).to_be_hidden()
    # a form left untouched leaves nothing behind
    go(page, page.get_by_role("link", name="Back to the sheet"))
    enter(page)
    expect(page.locator("#queue-note")).to_be_hidden()


def test_a_queued_deal_that_meets_another_deal_gets_the_side_by_side_choice(
    browser, browser_context_args, live_server
):
    a = browser.new_context(**browser_context_args).new_page()
    sheet = start(a, live_server)
    go(a, a.get_by_role("link", name=re.compile("^Share")))
    score = a.locator("details .link a").get_attribute("href")
    a.goto(sheet)
    enter(a)
    fill_deal(a, [4, 6, 3], 0, 1, 1)  # 17, 23, 3
    cut_network(a)
    go(a, a.get_by_role("button", name="Save deal 1"))
    expect(a.locator("#queue-note")).to_have_text(WAITING)

    # meanwhile another phone saves its deal 1
    b = browser.new_context(**browser_context_args).new_page()
    b.goto(score)
    enter(b)
    fill_deal(b, [0, 5, 8], 2, 2, 0)  # Ala A♠ 7, Bartek 5, Celina 8 + Q♠ + K♠ = 31
    go(b, b.get_by_role("button", name="Save deal 1"))
    assert totals(b) == [7, 5, 31]

    # A's network is back: its deal is not saved over B's, nor after it: A gets both,
    # line by line, the cells that differ marked, and the choice
    restore_network(a)
    expect(a.get_by_role("heading", name="Deal 1: two entries")).to_be_visible(timeout=12000)
    expect(a.locator("table.compare tr.differs")).to_have_count(9)  # all but A♠, Bartek's points
    assert len(stored_deals(live_server, sheet)) == 1
    go(a, a.get_by_role("button", name="Add it as deal 2, a new deal"))
    assert totals(a) == [24, 28, 34]
    assert len(stored_deals(live_server, sheet)) == 2
    expect(a.locator("#queue-note")).to_be_hidden()
    for page in (a, b):
        page.context.close()


def test_without_a_service_worker_the_deal_waits_on_its_own_form(
    browser, browser_context_args, live_server
):
    """Plain HTTP on a local network has no service worker: no page opens without the
    network, but a deal saved meanwhile waits on the form itself and is sent later."""
    page = browser.new_context(**browser_context_args, service_workers="block").new_page()
    sheet = start_on_phone(page, live_server, "black_maria", ["Ala", "Bartek", "Celina"])
    enter(page)
    deal = page.url
    fill_deal(page, [4, 6, 3], 0, 1, 1)
    cut_network(page)
    page.get_by_role("button", name="Save deal 1").tap()
    note = page.locator("#queue-note")
    expect(note).to_have_text(WAITING)
    # the form is for the next deal now, blank, while deal 1 waits
    assert page.url == deal and page.input_value("#hearts__0") == ""
    expect(page.get_by_role("button", name="Save deal 2")).to_be_visible()
    assert stored_deals(live_server, sheet) == []
    restore_network(page)
    expect(note).to_have_text("Deal 1 saved.", timeout=12000)
    assert len(stored_deals(live_server, sheet)) == 1
    page.goto(sheet)
    assert totals(page) == [17, 23, 3]
    page.context.close()


def test_a_variety_deal_whose_counts_need_the_server_is_not_kept_half_offline(page, live_server):
    """Variety asks the attackers' count only once the type and the attackers are sent
    (a server step). Offline, that step cannot come: Save says so on the form and keeps
    nothing half-entered in the queue (it waited as deal 1 with no count, and the
    sheet offered deal 2); what was chosen stays on the form."""
    sheet = start_on_phone(page, live_server, "variety", ["Ala", "Bartek", "Celina", "Darek"])
    page.goto(sheet + "/deal")
    expect(page.locator("html[data-offline=ready]")).to_have_count(1)
    cut_network(page)
    page.locator("label.chip:has(input[name=contract][value='2'])").tap()
    page.locator("label.chip:has(input[name=attackers__0][value='1'])").tap()
    page.locator("label.chip:has(input[name=attackers__1][value='3'])").tap()
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator("form.deal .other-questions")).to_have_text(
        "Deal 1: its next questions need the connection. What you chose stays on this form; "
        "go on once the connection is back."
    )
    assert page.evaluate("localStorage.getItem('scorer.queue')") in (None, "[]")
    expect(page.locator("#queue-note")).to_be_hidden()
    assert page.locator("input[name=contract][value='2']").is_checked()
    assert page.locator("input[name=attackers__1][value='3']").is_checked()
    restore_network(page)
    page.get_by_role("button", name="Use this type and these attackers").tap()
    expect(page.locator("fieldset.counts, input[type=number]").first).to_be_visible()
    assert stored_deals(live_server, sheet) == []


def test_a_deal_the_match_can_never_take_is_thrown_away_when_the_table_says(page, live_server):
    """Offline, deal 1 typed with 14 hearts: back online it is held with the reason.
    "Throw it away" asks first; declined, it stays; confirmed, it is gone from the
    phone and nothing was stored."""
    sheet = start(page, live_server)
    cut_network(page)
    fill_deal(page, [4, 6, 4], 0, 1, 1)  # 14 hearts: the rules say no
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.get_by_role("button", name="Save deal 2")).to_be_visible()
    restore_network(page)
    note = page.locator("#queue-note")
    expect(note).to_contain_text("Deal 1: not saved — Hearts add up to 14", timeout=20000)
    asked = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    note.get_by_role("button", name="Throw it away").tap()
    expect(note).to_contain_text("Deal 1: not saved")
    assert asked == ["Deal 1, as typed here, was never saved. Throw it away for good?"]
    page.once("dialog", lambda d: d.accept())
    note.get_by_role("button", name="Throw it away").tap()
    expect(note).to_be_hidden()
    expect(page.get_by_role("button", name="Save deal 1")).to_be_visible()
    assert page.evaluate("localStorage.getItem('scorer.queue')") == "[]"
    assert stored_deals(live_server, sheet) == []


def test_a_deal_held_back_behind_a_refused_one_says_it_waits_for_that(page, live_server):
    """Offline, deal 1 typed with 14 hearts and deal 2 after it. Back online deal 1 is
    refused and held; deal 2, which the phone does not send before it, says it waits for
    deal 1 to be put right, not for the connection (the Russian reader, 7), under it."""
    start(page, live_server)
    cut_network(page)
    fill_deal(page, [4, 6, 4], 0, 1, 1)  # 14 hearts: the rules say no
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.get_by_role("button", name="Save deal 2")).to_be_visible()
    fill_deal(page, [0, 5, 8], 2, 2, 0)
    page.get_by_role("button", name="Save deal 2").tap()
    restore_network(page)
    note = page.locator("#queue-note")
    expect(note).to_contain_text("Deal 1: not saved — Hearts add up to 14", timeout=20000)
    behind = "Deal 2: not saved yet — first put right the one refused above."
    expect(note).to_contain_text(behind)
    text = note.inner_text()
    assert "waiting for the connection" not in text and text.index(behind) > text.index("Deal 1")
    rows = page.locator("table.deals tr.waiting-note, table.deals tr.waiting")
    expect(rows.filter(has_text="waits for the one above to be put right")).to_have_count(1)


def test_a_deal_after_one_thrown_away_says_what_it_waits_for_and_can_take_its_place(
    page, live_server
):
    """Offline, deal 1 typed with 14 hearts and deal 2 after it. Back online deal 1 is
    held; thrown away, deal 2 would wait for a deal 1 that nobody enters, saying
    "waiting for the connection" while online. It says what it waits for, is tried
    again on its own, and "Open it" shows it on deal 1's form to save in its place."""
    sheet = start(page, live_server)
    cut_network(page)
    fill_deal(page, [4, 6, 4], 0, 1, 1)  # 14 hearts: the rules say no
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.get_by_role("button", name="Save deal 2")).to_be_visible()
    fill_deal(page, [0, 5, 8], 2, 2, 0)  # Ala A♠ 7, Bartek 5, Celina 8 + Q♠ 13 + K♠ 10 = 31
    page.get_by_role("button", name="Save deal 2").tap()
    restore_network(page)
    note = page.locator("#queue-note")
    expect(note).to_contain_text("Deal 1: not saved — Hearts add up to 14", timeout=20000)
    page.once("dialog", lambda d: d.accept())
    note.get_by_role("button", name="Throw it away").first.tap()
    expect(note).to_contain_text(
        "Deal 2: not saved yet — Deal 1 is not entered yet: it comes first", timeout=20000
    )
    expect(page.locator("table.deals tr.waiting-note")).to_contain_text("open it above")
    go(page, note.get_by_role("button", name="Open it"))
    expect(page.locator("#error")).to_have_text(
        "This was typed as deal 2, but deal 1 is not entered yet. If it is deal 1, save it "
        "here; otherwise, leave this page: it waits on this phone until deal 1 is entered."
    )
    assert page.input_value("#hearts__2") == "8"  # what was typed, on deal 1's form
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator("main")).to_contain_text("Deal 1 saved.", timeout=20000)
    assert stored_deals(live_server, sheet) == [
        {"hearts": [0, 5, 8], "taken_by": {"QS": 2, "KS": 2, "AS": 0}}
    ]
    expect(page.locator("table.deals tbody tr:not(.waiting, .waiting-note)")).to_have_count(1)
    assert totals(page) == [7, 5, 31]
    assert page.evaluate("localStorage.getItem('scorer.queue')") == "[]"


def test_a_deal_typed_again_in_the_place_of_one_thrown_away_goes_first(page, live_server):
    """Offline, deal 1 typed with 14 hearts and deal 2 after it. Back online deal 1 is
    held; offline again, it is thrown away, and the form offers deal 1: typed there
    and saved, it waits behind deal 2 in the phone's queue, and is sent first (deal 2
    waited for it, and it for deal 2, for good)."""
    sheet = start(page, live_server)
    expect(page.locator("form[data-queued]")).to_have_count(1)  # the queue has the form
    cut_network(page)
    fill_deal(page, [4, 6, 4], 0, 1, 1)  # 14 hearts: the rules say no
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.get_by_role("button", name="Save deal 2")).to_be_visible()
    fill_deal(page, [0, 5, 8], 2, 2, 0)
    page.get_by_role("button", name="Save deal 2").tap()
    restore_network(page)
    note = page.locator("#queue-note")
    expect(note).to_contain_text("Deal 1: not saved — Hearts add up to 14", timeout=20000)
    cut_network(page)
    page.once("dialog", lambda d: d.accept())
    note.get_by_role("button", name="Throw it away").first.tap()
    expect(page.get_by_role("button", name="Save deal 1")).to_be_visible()
    fill_deal(page, [4, 6, 3], 0, 1, 1)
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.get_by_role("button", name="Save deal 3")).to_be_visible()
    restore_network(page)
    expect(note).to_have_text(re.compile("Deal 1 saved.*Deal 2 saved"), timeout=20000)
    assert stored_deals(live_server, sheet) == [
        {"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1}},
        {"hearts": [0, 5, 8], "taken_by": {"QS": 2, "KS": 2, "AS": 0}},
    ]


def test_offline_the_form_stops_at_the_last_deal_of_a_match_played_to_a_number(page, live_server):
    """Black Maria to 3 deals, 2 stored. Offline, deal 3 is saved on the sheet's form:
    the sheet then says the match is over rather than offering deal 4 (a deal typed
    there was refused when it arrived, and had to be thrown away)."""
    two = [
        {"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1}},
        {"hearts": [0, 5, 8], "taken_by": {"QS": 2, "KS": 2, "AS": 0}},
    ]
    made = served_made(page.context.request, live_server, to_deals(two, of=3))
    sheet = f"{live_server}/m/{made['id']}"
    page.goto(f"{sheet}/score?key={made['edit_key']}")
    expect(page.locator("html[data-offline=ready]")).to_have_count(1)
    page.reload()
    expect(page.locator("html[data-offline=ready]")).to_have_count(1)
    cut_network(page)
    fill_deal(page, [13, 0, 0], 1, 1, 1)
    page.get_by_role("button", name="Save deal 3").tap()
    expect(page.locator("#queue-note")).to_contain_text("Deal 3: not saved yet")
    expect(page.locator("section.next h2")).to_have_text("The match is over: no more deals.")
    expect(page.locator("form.deal")).to_be_hidden()
    expect(page.get_by_role("button", name="Save deal 4")).to_have_count(0)
    restore_network(page)
    expect(page.locator("#queue-note")).to_contain_text("Deal 3 saved.", timeout=20000)
    assert len(stored_deals(live_server, sheet)) == 3


def test_a_draft_that_came_back_and_was_saved_offline_leaves_the_blank_form_silent(
    page, live_server
):
    """Deal 1 half typed on the sheet's form, the page reloaded: "What you typed here
    before is back". The rest typed offline and saved: deal 1 waits, the form is
    deal 2's, blank, and no longer says that a draft came back."""
    sheet = start(page, live_server)
    page.locator("#hearts__0").fill("4")
    page.reload()
    note = page.locator("#queue-note")
    expect(note).to_contain_text("What you typed here before is back")
    cut_network(page)
    fill_deal(page, [4, 6, 3], 0, 1, 1)
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.get_by_role("button", name="Save deal 2")).to_be_visible()
    expect(note).to_contain_text("Deal 1: not saved yet")
    expect(note).not_to_contain_text("What you typed here before")
    assert page.input_value("#hearts__0") == ""
    restore_network(page)
    expect(note).to_contain_text("Deal 1 saved.", timeout=20000)
    assert len(stored_deals(live_server, sheet)) == 1


def test_a_draft_of_a_deal_saved_elsewhere_comes_back_as_that_deal(page, live_server):
    """Deal 1 typed on the sheet's form, not saved; another phone saves deal 1, the
    same. Reloaded, the page is drawn for deal 2, and the draft comes back: as deal 1
    (its number and mark), so that saving it is the same deal 1, never a deal 2."""
    made = served_made(
        page.context.request,
        live_server,
        {"game": "black_maria", "players": ["Ala", "Bartek", "Celina"]},
    )
    sheet = f"{live_server}/m/{made['id']}"
    page.goto(f"{sheet}/score?key={made['edit_key']}")
    fill_deal(page, [4, 6, 3], 0, 1, 1)
    one = {"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}
    assert page.context.request.post(
        f"{live_server}/api/matches/{made['id']}/deals?deal=1",
        data=one,
        headers={"Authorization": f"Bearer {made['edit_key']}"},
    ).ok
    page.reload()
    expect(page.locator("#queue-note")).to_contain_text("What you typed here before is back")
    expect(page.get_by_role("button", name="Save deal 1")).to_be_visible()
    assert page.input_value("#hearts__1") == "6"
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator("body")).to_contain_text(
        "Deal 1 was already entered on another phone, the same: nothing was stored twice.",
        timeout=10000,
    )
    assert stored_deals(live_server, sheet) == [one]


@pytest.mark.parametrize("typed", [2, 3])
def test_a_draft_of_an_earlier_deal_that_asked_other_questions_is_offered_to_open(
    page, live_server, typed
):
    """Metamorphosis: each deal of a round asks its own questions (deal 2 tricks and
    hearts, deal 3 tricks alone, deal 4 tricks and spades). Deal 2 (or 3) half
    typed, not saved; another phone enters it and the deals up to 3. Reloaded, the
    page is deal 4's: deal 2's draft was kept out of sight and said nothing, deal
    3's came back on deal 4's form (its spades asked of deal 3). Now the page says
    it, and "Open it" shows that deal's own form with what was typed."""
    one = {"declarations": [1, 2, 1], "tricks": [3, 5, 4], "clubs": [3, 5, 0]}
    made = served_made(
        page.context.request,
        live_server,
        {"game": "metamorphosis", "players": ["Ala", "Bartek", "Celina"], "deals": [one]},
    )
    sheet = f"{live_server}/m/{made['id']}"
    api = f"{live_server}/api/matches/{made['id']}/deals"
    auth = {"Authorization": f"Bearer {made['edit_key']}"}
    later = [{"tricks": [4, 4, 4], "hearts": [4, 4, 5]}, {"tricks": [4, 4, 4]}]
    for deal in later[: typed - 2]:
        assert page.context.request.post(api, data=deal, headers=auth).ok
    page.goto(f"{sheet}/score?key={made['edit_key']}")
    enter(page)
    expect(page.locator("h1")).to_contain_text(f"Deal {typed}")
    page.locator("#tricks__0").fill("5")
    page.locator("#tricks__1").fill("3")
    for deal in later[typed - 2 :]:
        assert page.context.request.post(api, data=deal, headers=auth).ok
    page.reload()
    expect(page.locator("h1")).to_contain_text("Deal 4")
    assert page.input_value("#tricks__0") == ""  # not put on deal 4's form
    note = page.locator("#queue-note")
    expect(note).to_contain_text(
        f"Deal {typed}, typed here before, is not saved, and this form asks other questions"
    )
    go(page, note.get_by_role("button", name="Open it"))
    if typed == 2:  # its hearts not typed yet: its form, with what was typed and why
        expect(page.locator("h1")).to_contain_text("Deal 2")
        assert page.input_value("#tricks__0") == "5" and page.input_value("#tricks__1") == "3"
        expect(page.locator("#error")).to_be_visible()
    else:  # whole (Celina's 4 tricks the rest of 12), and not the stored deal 3's 4 4 4
        expect(page.locator("main")).to_contain_text(
            "Deal 3 was already entered on another phone, and yours differs"
        )
        page.goto(sheet)  # opened, it is no longer a draft set aside on the deal forms
        enter(page)
        expect(page.locator("h1")).to_contain_text("Deal 4")
        expect(page.locator("#queue-note")).not_to_contain_text("typed here before")
    assert len(stored_deals(live_server, sheet)) == 3  # nothing stored from it
