"""Number entry that never fights the player (issue 13), in Chromium at 390×844 with
touch: the last count is a suggestion, focus moves on by itself, Enter moves on,
a moon is two digits. Figures worked by hand from RULES.md."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .helpers import go, served_made, start_on_phone
from .test_browser import tap_owner, totals
from .test_browser_games import enter

pytestmark = pytest.mark.browser


def focused(page) -> str:
    return page.evaluate("document.activeElement.id || document.activeElement.textContent.trim()")


def test_the_last_count_is_a_suggestion_that_typing_replaces(page, live_server):
    start_on_phone(page, live_server, "black_maria", ["Ala", "Bartek", "Celina"])
    enter(page)
    last = page.locator("#hearts__2")
    page.locator("#hearts__0").tap()
    page.keyboard.type("4")
    assert focused(page) == "hearts__1"  # 40 > 13: the 4 is a whole count
    page.keyboard.type("3")
    # 13 - 4 - 3 = 6 is shown in Celina's field, not written into it
    assert last.input_value() == "" and last.get_attribute("placeholder") == "6"
    assert page.locator("[data-left]").inner_text() == "✓ 13 / 13"
    # the cases: tapping the field and typing 2 gives 2 (not 62 nor 26) ...
    last.tap()
    page.keyboard.type("2")
    assert last.input_value() == "2"
    assert page.locator("[data-left]").inner_text() == "9 / 13"
    # ... and Backspace leaves the field clear, showing the suggestion again
    last.tap()
    page.keyboard.press("Backspace")
    assert last.input_value() == ""
    page.wait_for_timeout(200)
    assert last.input_value() == "" and last.get_attribute("placeholder") == "6"
    # the suggestion is what is saved: A 4♥ Q♠ = 17, B 3♥ K♠ A♠ = 20, C 6♥ = 6
    tap_owner(page, "QS", 0)
    tap_owner(page, "KS", 1)
    tap_owner(page, "AS", 1)
    go(page, page.get_by_role("button", name="Save deal 1"))
    assert totals(page) == [17, 20, 6]


def pad(page, *values: int) -> None:
    for value in values:
        page.locator(f"[data-pad] button[data-value='{value}']").tap()


def test_a_pad_tap_with_nothing_left_to_type_writes_over_the_suggestion(page, live_server):
    """Three counts tapped on the pad leave the fourth a suggestion, outlined; the
    next tap is not lost: it puts the suggestion otherwise, and the one after
    corrects that."""
    start_on_phone(page, live_server, "hearts", ["Ala", "Bartek", "Celina", "Darek"])
    enter(page)
    pad(page, 4, 4, 4)
    last = page.locator("#hearts__3")
    assert last.input_value() == "" and last.get_attribute("placeholder") == "1"
    pad(page, 0)
    assert last.input_value() == "0"
    assert page.locator("[data-left]").inner_text() == "12 / 13"  # 4 + 4 + 4 + 0
    pad(page, 2)
    assert last.input_value() == "2"
    assert page.locator("[data-left]").inner_text() == "14 / 13"


def test_a_pad_tap_after_the_last_question_stays_in_it(page, live_server):
    """Metamorphosis' first deal: tricks 5 and 4 leave Celina's 3 a suggestion and
    the pad goes on to the clubs; once the clubs are typed, a further tap corrects
    the last club count, never the tricks count the player has left behind."""
    start_on_phone(page, live_server, "metamorphosis", ["Ala", "Bartek", "Celina"])
    enter(page)
    pad(page, 5, 4)
    assert page.get_attribute("#tricks__2", "placeholder") == "3"
    pad(page, 3, 5, 0)
    pad(page, 2)
    assert page.input_value("#clubs__2") == "2"
    assert page.input_value("#tricks__2") == ""  # still the suggestion


def test_focus_moves_on_when_no_digit_can_follow_and_enter_never_saves_half(page, live_server):
    start_on_phone(page, live_server, "black_maria", ["Ala", "Bartek", "Celina"])
    enter(page)
    url = page.url
    page.locator("#hearts__0").tap()
    page.keyboard.type("1")
    assert focused(page) == "hearts__0"  # 1 may still become 10, 11, 12 or 13
    page.keyboard.type("1")
    assert focused(page) == "hearts__1"  # 11: no 110
    # 13 - 11 = 2 are left: a 1 cannot become 10 here, so it is a whole count
    page.keyboard.type("1")
    assert focused(page) == "Save deal 1"  # Celina's 1 is filled in: nothing left to type
    assert page.get_attribute("#hearts__2", "placeholder") == "1"
    # Enter in the first field moves on, it does not save a half-filled form
    page.locator("#hearts__0").tap()
    page.keyboard.press("Enter")
    assert focused(page) == "hearts__1" and page.url == url
    assert page.locator(".error").count() == 0
    page.keyboard.press("Enter")
    assert focused(page) == "hearts__2" and page.url == url
    tap_owner(page, "QS", 2)
    tap_owner(page, "KS", 0)
    tap_owner(page, "AS", 1)
    # Enter in the last field saves: A 11♥ K♠ = 21, B 1♥ A♠ = 8, C 1♥ Q♠ = 14
    page.locator("#hearts__2").tap()
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert totals(page) == [21, 8, 14]


def test_a_moon_is_two_digits_and_is_marked_in_the_deals_table(page, live_server):
    start_on_phone(page, live_server, "hearts", ["Ala", "Bartek", "Celina", "Darek"])
    enter(page)
    page.locator("#hearts__2").tap()
    page.keyboard.type("13")
    for s in (0, 1, 3):
        assert page.input_value(f"#hearts__{s}") == ""
        assert page.get_attribute(f"#hearts__{s}", "placeholder") == "0"
    assert page.locator("[data-left]").inner_text() == "✓ 13 / 13"
    tap_owner(page, "QS", 2)
    go(page, page.get_by_role("button", name=re.compile("^Save deal")))
    # Celina shot the moon ("others", the default): 26 to each other player
    assert totals(page) == [26, 26, 0, 26]
    cells = page.locator("table.deals tbody tr").first.locator("td")
    assert cells.nth(2).locator(".mark").inner_text() == "☾"
    assert "☾ shot the moon" in page.locator("main").inner_text()


def reopened(page, live_server, ready: bool = False) -> str:
    """A match over on this phone's sheet (drawn without a deal form and its
    scripts) that another phone reopens: the live sheet draws the form and loads
    them. ``ready``: the sheet kept for offline use first. Returns the sheet.

    Black Maria, target 50 (RULES.md: a heart 1, Q♠ 13, K♠ 10, A♠ 7): after deal 3
    Celina has 3 + 31 + 27 = 61 and the match is over; without deal 3 it goes on."""
    deals = [
        {"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1}},
        {"hearts": [0, 5, 8], "taken_by": {"QS": 2, "KS": 2, "AS": 0}},
        {"hearts": [2, 1, 10], "taken_by": {"QS": 1, "KS": 2, "AS": 2}},
    ]
    record = {
        "game": "black_maria",
        "players": ["Ala", "Bartek", "Celina"],
        "options": {"target": 50},
        "deals": deals,
    }
    made = served_made(page.context.request, live_server, record)
    page.goto(f"{live_server}/m/{made['id']}")
    if ready:
        expect(page.locator("html[data-offline=ready]")).to_have_count(1)
    assert page.locator("form.deal").count() == 0
    assert not [s for s in page.evaluate("[...document.scripts].map(s => s.src)") if "forms" in s]
    gone = page.context.request.delete(
        f"{live_server}/api/matches/{made['id']}/deals/3",
        headers={"Authorization": f"Bearer {made['edit_key']}"},
    )
    assert gone.status == 200
    form = page.locator("form.deal.padded")  # drawn by the live sheet, the pad set up
    form.wait_for(timeout=8000)
    assert totals(page) == [24, 28, 34]
    return f"{live_server}/m/{made['id']}"


def test_a_deal_form_the_live_sheet_draws_later_gets_its_number_entry(page, live_server):
    """A sheet drawn without a deal form (the match was over) gets no form scripts;
    when another phone's change reopens the match, the live sheet draws the form
    and loads them: the number pad and the suggested last count are there."""
    reopened(page, live_server)
    page.locator("#hearts__0").tap()
    page.keyboard.type("4")
    page.keyboard.type("3")
    assert page.locator("#hearts__2").get_attribute("placeholder") == "6"  # 13 - 4 - 3
