"""Nothing a phone holds is lost to what a phone does (issue 35), in Chromium at
390×844: a browser closed and opened again with deals waiting (a persistent
profile: its session cookie gone, its storage kept); an answer that is not the
queue's own (a proxy's error page) keeps the deal waiting; several waiting deals
take one line. Black Maria figures worked by hand from RULES.md: a heart 1, Q♠ 13,
K♠ 10, A♠ 7."""

from __future__ import annotations

import json
import re
import zipfile

import pytest
from playwright.sync_api import expect

from scorer.web.access import COOKIE

from .conftest import UNREACHABLE
from .helpers import go, served_made
from .test_browser_deal_n import BEFORE, D13, offline_entry, table
from .test_browser_offline import cut_network, enter, phone, restore_network, start, stored_deals
from .test_browser_sharing import fill_deal

pytestmark = pytest.mark.browser

D1 = {"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}  # 17, 23, 3
D2 = {"hearts": [0, 5, 8], "taken_by": {"QS": 2, "KS": 2, "AS": 0}}  # 5, 5, 21 … as typed


def opened(browser_type, launch, context_args, profile):
    """Chromium on its own profile folder, as a phone's browser is started."""
    return browser_type.launch_persistent_context(str(profile), **launch, **context_args)


def test_deals_waiting_through_a_browser_restart_are_sent(
    browser_type, browser_type_launch_args, browser_context_args, live_server, tmp_path
):
    """B saves deals 1 and 2 offline; the browser is closed (a phone's OS kills it)
    and opened again, still offline, then the network comes back: both are sent,
    once, though the token of the page they were typed on died with the session."""
    profile = tmp_path / "phone"
    browser = opened(browser_type, browser_type_launch_args, browser_context_args, profile)
    page = browser.pages[0] if browser.pages else browser.new_page()
    sheet = start(page, live_server)
    enter(page)
    cut_network(page)
    for deal, number in ((D1, 1), (D2, 2)):
        fill_deal(page, deal["hearts"], *(deal["taken_by"][c] for c in ("QS", "KS", "AS")))
        page.get_by_role("button", name=f"Save deal {number}").tap()
        expect(page.locator("#queue-note")).to_contain_text("waiting for the connection")
        if number == 1:
            enter(page)
    # two deals waiting: one line for both
    expect(page.locator("#queue-note")).to_have_text(
        "Deals 1–2: not saved yet — waiting for the connection."
    )
    me = phone(page)
    had = {c["name"] for c in browser.cookies()}
    assert "session" in had  # the forms' token lives in it
    browser.close()

    browser = opened(browser_type, browser_type_launch_args, browser_context_args, profile)
    kept = {c["name"] for c in browser.cookies()}
    assert COOKIE in kept and "session" not in kept  # as a real restart leaves them
    page = browser.pages[0] if browser.pages else browser.new_page()
    browser.set_offline(True)
    browser.route("**/*", lambda route: route.abort("internetdisconnected"))
    page.goto(sheet)  # the sheet as the service worker kept it
    expect(page.locator("#queue-note")).to_have_text(
        "Deals 1–2: not saved yet — waiting for the connection."
    )
    assert stored_deals(live_server, sheet) == []
    restore_network(page)
    expect(page.locator("table.deals tbody tr:not(.waiting, .waiting-note)")).to_have_count(
        2, timeout=15000
    )
    expect(page.locator("#queue-note")).to_contain_text("Deal 2 saved.")
    assert stored_deals(live_server, sheet) == [D1, D2]
    assert UNREACHABLE.isdisjoint({me})
    browser.close()


def test_an_answer_that_is_not_the_queue_s_keeps_the_deal(page, live_server):
    """A proxy in front of Scorer answers the save with its own error page (Caddy
    while gunicorn restarts: a 502 in HTML): the deal stays on the phone, the sheet
    says why, and it is sent when the server answers again."""
    sheet = start(page, live_server)
    enter(page)
    fill_deal(page, [4, 6, 3], 0, 1, 1)
    answers = []

    def proxy_error(route):
        answers.append(route.request.url)
        route.fulfill(status=502, content_type="text/html", body="<h1>502 Bad Gateway</h1>")

    page.route(
        "**/deal",
        lambda route: proxy_error(route) if route.request.method == "POST" else route.continue_(),
    )
    page.get_by_role("button", name="Save deal 1").tap()
    note = page.locator("#queue-note")
    expect(note).to_contain_text("Deal 1: not saved yet — waiting for the connection.")
    expect(note).to_contain_text("The server answered with an error (502)", timeout=12000)
    assert stored_deals(live_server, sheet) == []
    page.unroute("**/deal")
    expect(note).to_have_text("Deal 1 saved.", timeout=12000)
    assert stored_deals(live_server, sheet) == [D1]
    assert answers  # the error page was met


def scored_by_link(browser, context_args, live_server, players=4) -> tuple:
    """A Black Maria match (``players`` seats, one deal in) made elsewhere; a phone
    opens its score link once, sees the sheet, and nothing more."""
    record = {
        "game": "black_maria",
        "players": ["Ala", "Bartek", "Celina", "Darek"][:players],
        "deals": [{"hearts": [4, 6, 3, 0], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}],
    }
    maker = browser.new_context(**context_args)
    made = served_made(maker.request, live_server, record)
    maker.close()
    context = browser.new_context(**context_args)
    page = context.new_page()
    page.goto(f"{live_server}/m/{made['id']}/score?key={made['edit_key']}")
    expect(page.locator("html[data-offline=ready]")).to_have_count(1)
    return context, page, f"{live_server}/m/{made['id']}"


def test_a_scorer_who_only_opened_the_sheet_enters_the_next_deal_offline(
    browser, browser_context_args, live_server
):
    """Four-player Black Maria draws no form on the sheet: the sheet hands the
    service worker its next deal's page as it opens, so that "Enter deal 2", tapped
    without the network, opens it (it was the browser's error page)."""
    context, page, sheet = scored_by_link(browser, browser_context_args, live_server)
    enter_link = page.get_by_role("link", name="Enter deal 2")
    expect(enter_link).to_have_count(1)
    kept = "caches.open('scorer-v1').then(c => c.match(location.pathname + '/deal')).then(Boolean)"
    page.wait_for_function(kept, timeout=10000)
    cut_network(page)
    with page.expect_navigation():
        enter_link.tap()
    expect(page.get_by_role("button", name="Save deal 2")).to_have_count(1)
    for s, h in enumerate([0, 5, 8, 0]):
        page.fill(f"#hearts__{s}", str(h))
    for card, seat in (("QS", 2), ("KS", 2), ("AS", 1)):
        page.locator(f"label.chip:has(input[name=taken_by_{card}][value='{seat}'])").tap()
    page.get_by_role("button", name="Save deal 2").tap()
    expect(page.locator("#queue-note")).to_contain_text(
        "Deal 2: not saved yet — waiting for the connection."
    )
    restore_network(page)
    expect(page.locator("#queue-note")).to_contain_text("Deal 2 saved.", timeout=12000)
    assert stored_deals(live_server, sheet)[1] == {
        "hearts": [0, 5, 8, 0],
        "taken_by": {"QS": 2, "KS": 2, "AS": 1},
    }
    context.close()


def test_a_page_never_kept_opens_offline_as_a_page_that_leads_back(
    browser, browser_context_args, live_server
):
    """Offline, the rules (never opened on this phone) give a page in the phone's
    language that says what works offline, and leads back to the sheet."""
    context, page, sheet = scored_by_link(browser, browser_context_args, live_server)
    with page.expect_navigation():
        page.locator("a[hreflang=pl]").tap()
    expect(page.locator("html[lang=pl][data-offline=ready]")).to_have_count(1)
    cut_network(page)
    with page.expect_navigation():
        page.locator("header nav a").last.tap()  # the rules
    expect(page.locator("h1")).to_have_text("Brak połączenia")
    expect(page.locator("main p").first).to_contain_text("bez sieci")
    back = page.get_by_role("link", name="Wróć do zapisu")
    assert back.get_attribute("href") == sheet.removeprefix(live_server)
    with page.expect_navigation():
        back.tap()
    expect(page.locator("table.deals tbody tr")).to_have_count(1)
    restore_network(page)
    context.close()


def test_a_deal_deleted_from_the_middle_while_a_phone_waits_is_not_doubled(
    browser, browser_context_args, live_server
):
    """The table's row (issue 35): A has deals 1–12 and enters deal 12 again by
    mistake, as deal 13; B, which has seen it, goes offline and types the table's
    next deal (B's deal 14); A types the same deal, then deletes the one entered
    twice; B comes back. Stored: the deals once each, B told its deal was the same
    (it was: 1–12, 14, 14 again)."""
    a, b, sheet, key = table(browser, browser_context_args, live_server)
    api = f"{live_server}/api/matches/{sheet.rsplit('/', 1)[-1]}"
    auth = {"Authorization": f"Bearer {key}"}
    assert a.context.request.post(f"{api}/deals?deal=13", data=BEFORE[-1], headers=auth).ok
    expect(b.get_by_role("link", name="Enter deal 14")).to_be_visible(timeout=10000)
    cut_network(b)
    offline_entry(b, D13, 14)  # the table's 13th deal, numbered 14 on B
    assert a.context.request.post(f"{api}/deals?deal=14", data=D13, headers=auth).ok
    assert a.context.request.delete(f"{api}/deals/13", headers=auth).ok
    restore_network(b)
    expect(b.locator("#queue-note")).to_contain_text(
        "Deal 13 was already entered on another phone, the same: nothing was stored twice.",
        timeout=20000,
    )
    assert stored_deals(live_server, sheet) == BEFORE + [D13]
    for page in (a, b):
        page.context.close()


def test_an_edit_that_meets_a_delete_with_a_refused_entry_is_put_right_on_its_form(
    browser, browser_context_args, live_server
):
    """A edits deal 12 to 14 hearts while B deletes it: A gets deal 12's form with
    what was typed and why (it was the record's JSON and only "Leave it deleted"),
    puts it right, and brings the deal back with the entry."""
    a, b, sheet, _key = table(browser, browser_context_args, live_server)
    a.goto(sheet + "/deal/12")
    a.fill("#hearts__0", "5")  # 5 3 3 3: 14 hearts
    b.goto(sheet + "/deal/12")
    b.locator("details.tools summary").tap()
    go(b, b.get_by_role("button", name=re.compile("^Delete deal 12")))
    go(a, a.get_by_role("button", name="Save changes"))
    expect(a.locator("#error")).to_contain_text("14")
    expect(a.locator("#hearts__0")).to_have_value("5")
    assert '{"hearts"' not in a.content()
    a.fill("#hearts__0", "4")
    go(a, a.get_by_role("button", name="Save changes"))
    go(a, a.get_by_role("button", name="Bring deal 12 back with your entry"))
    assert stored_deals(live_server, sheet) == BEFORE
    for page in (a, b):
        page.context.close()


def test_a_season_moved_to_another_phone_keeps_its_league(
    browser, browser_context_args, live_server, tmp_path
):
    """The table's row (issue 35): phone A has three matches begun in the same second,
    each won by another player; it downloads its season ZIP, phone B imports it on
    its season page. B's league is A's (it differed: the ZIP listed a second's matches
    latest first, so B rated them the other way round). Black Maria, a heart 1, Q♠ 13,
    K♠ 10, A♠ 7; each match ends after its one deal (target 20); lowest wins."""
    names = ["Ala", "Bartek", "Celina"]

    def record(hearts, qs, ks, as_):
        deal = {"hearts": hearts, "taken_by": {"QS": qs, "KS": ks, "AS": as_}}
        return {"game": "black_maria", "players": names, "options": {"target": 20}, "deals": [deal]}

    evening = {  # one second, three winners: Celina (3), Ala (3), Bartek (3)
        "matches/2025-05-10T19-30-05_aaaaaaaaaaaa.json": record([4, 6, 3], 0, 1, 1),
        "matches/2025-05-10T19-30-05_bbbbbbbbbbbb.json": record([3, 4, 6], 1, 2, 2),
        "matches/2025-05-10T19-30-05_cccccccccccc.json": record([6, 3, 4], 2, 0, 0),
    }
    first = tmp_path / "evening.zip"
    with zipfile.ZipFile(first, "w") as zf:
        for name, body in evening.items():
            zf.writestr(name, json.dumps(body))
    a, b = (browser.new_context(**browser_context_args).new_page() for _ in range(2))

    def imported(page, path):
        page.goto(live_server + "/season")
        page.set_input_files("input[name=season]", str(path))
        go(page, page.get_by_role("button", name="Import the matches"))

    imported(a, first)
    a.goto(live_server + "/season")
    with a.expect_download() as got:
        a.get_by_role("link", name="Download the season (ZIP)").tap()
    moved = tmp_path / "moved.zip"
    got.value.save_as(moved)
    imported(b, moved)

    def league(page):
        return page.context.request.get(live_server + "/players/league.csv").text()

    assert league(a) == league(b)
    assert league(a).count("\n") == 4  # a heading and the three players
    for page in (a, b):
        page.context.close()
