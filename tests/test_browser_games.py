"""One short match to its end per game, in Chromium at phone size."""

from __future__ import annotations

import re

import pytest

from .helpers import go, start_on_phone
from .test_browser import enter_next, totals

pytestmark = pytest.mark.browser


def tap(page, field, value):
    page.locator(f"label.chip:has(input[name={field}][value='{value}'])").tap()


def enter(page):
    enter_next(page)


def save(page):
    go(page, page.get_by_role("button", name=re.compile(r"^Save deal")))


def test_knaves_short_match(page, live_server):
    start_on_phone(page, live_server, "knaves", ["Ala", "Bartek", "Celina"], target=5)
    for _deal in range(2):
        # A 7 tricks + J♥ = 3; B 6 + J♦ + J♠ = 2; C 4 + J♣ = 2 (RULES.md)
        enter(page)
        page.fill("#tricks__0", "7")
        page.fill("#tricks__1", "6")
        assert page.get_attribute("#tricks__2", "placeholder") == "4"
        page.select_option("#turn_up", "9S")
        tap(page, "taken_by_JH", 0)
        tap(page, "taken_by_JD", 1)
        tap(page, "taken_by_JC", 2)
        tap(page, "taken_by_JS", 1)
        save(page)
    # 6, 4, 4: Ala reached 5
    assert totals(page) == [6, 4, 4]
    assert page.locator(".result").inner_text().strip().startswith("Ala wins")
    assert "♠" in page.locator("table.deals .tag").first.inner_text()


def test_slobberhannes_short_match(page, live_server):
    start_on_phone(page, live_server, "slobberhannes", ["Ala", "Bartek", "Celina", "Darek"])
    # Bartek takes the first trick, the last trick and Q♣ every deal: 4, 8, 12 ≥ 10
    for _deal in range(3):
        enter(page)
        for field in ("taken_by_first_trick", "taken_by_last_trick", "taken_by_QC"):
            tap(page, field, 1)
        save(page)
    assert totals(page) == [0, 12, 0, 0]
    assert "Ala, Celina, and Darek share the win" in page.locator(".result").inner_text()


def test_polignac_short_match_with_capot(page, live_server):
    start_on_phone(
        page, live_server, "polignac", ["Ala", "Bartek", "Celina", "Darek"], capot=True, target=10
    )
    # deal 1: J♠ Bartek (2), J♣ J♥ J♦ Celina (3)
    enter(page)
    assert "K Q J A 10 9 8 7" in page.locator(".facts").text_content()  # folded away
    tap(page, "taken_by_JS", 1)
    for jack in ("JC", "JH", "JD"):
        tap(page, f"taken_by_{jack}", 2)
    save(page)
    assert totals(page) == [0, 2, 3, 0]
    # deal 2: Ala declares capot and makes it: 0, 7, 8, 5
    enter(page)
    tap(page, "capot_seat", 0)
    page.locator("#capot_made").check()
    save(page)
    assert totals(page) == [0, 7, 8, 5]
    # deal 3: Celina takes every jack: 8 + 5 = 13 ≥ 10 → Celina loses, the others share
    enter(page)
    for jack in ("JS", "JC", "JH", "JD"):
        tap(page, f"taken_by_{jack}", 2)
    save(page)
    assert totals(page) == [0, 7, 13, 5]
    # ranked by lowest total (RULES.md): Ala 0, Darek 5, Bartek 7
    # the others win (not a tie: Polignac's end says who lost, and the rest win)
    result = page.locator(".result").inner_text()
    assert "Ala, Darek, and Bartek win" in result and "Lost, at 10 or more: Celina" in result
