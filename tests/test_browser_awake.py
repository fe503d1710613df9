"""Keep the screen on (issue 13 part 4): the sheet's switch takes a Screen Wake Lock,
lets it go, and is remembered by this browser across pages and reloads."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .helpers import start_on_phone

pytestmark = pytest.mark.browser


def state(page) -> str:
    return page.get_attribute("[data-awake]", "data-state")


@pytest.fixture
def page(full_chromium, browser_context_args):
    """A phone page in Chromium itself: its headless shell refuses every wake lock."""
    context = full_chromium.new_context(**browser_context_args)
    yield context.new_page()
    context.close()


def test_keep_the_screen_on_is_a_remembered_switch(page, live_server):
    start_on_phone(page, live_server, "hearts", ["Ala", "Bartek", "Celina", "Darek"])
    switch = page.get_by_role("switch", name="Keep the screen on")
    assert switch.is_visible() and not switch.is_checked()
    assert state(page) == "off"
    page.locator("label:has(#awake)").tap()
    expect(page.locator("[data-awake]")).to_have_attribute("data-state", "on")
    assert page.evaluate("localStorage.getItem('scorer.awake')") == "1"
    # remembered: a reload (or any sheet) takes the lock again by itself
    page.reload()
    expect(page.locator("[data-awake]")).to_have_attribute("data-state", "on")
    assert page.get_by_role("switch", name="Keep the screen on").is_checked()
    page.locator("label:has(#awake)").tap()
    assert state(page) == "off" and page.evaluate("localStorage.getItem('scorer.awake')") is None
    page.reload()
    assert state(page) == "off" and not page.get_by_role("switch").is_checked()
