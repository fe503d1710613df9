"""Abbott's games at phone size: a whole Metamorphosis round with declarations,
and a full 8-deal Variety game with its auctions. Figures worked by hand from
RULES.md (see the comments)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .helpers import start_on_phone
from .test_browser import shot, totals
from .test_browser_games import enter, save, tap

pytestmark = pytest.mark.browser


def facts(page):
    return page.locator(".next").inner_text()


def fill_first_deal(page):
    """Metamorphosis deal 1 on its form: declarations Ala A, Bartek 2, Celina A;
    tricks 3, 5 and the last (4) filled in by the app; clubs 3, 5, 0."""
    for seat, value in enumerate([1, 2, 1]):
        tap(page, f"declarations__{seat}", value)
    page.fill("#tricks__0", "3")
    page.fill("#tricks__1", "5")
    assert page.get_attribute("#tricks__2", "placeholder") == "4"
    for seat, value in enumerate([3, 5, 0]):
        page.fill(f"#clubs__{seat}", str(value))


def test_metamorphosis_round_with_declarations(page, live_server):
    start_on_phone(page, live_server, "metamorphosis", ["Ala", "Bartek", "Celina"])
    assert "Deal 1 (round 1, deal 1 of 4)" in facts(page) and "Bartek leads" in facts(page)
    # deal 1: declarations Ala A, Bartek 2, Celina A; tricks 3, 5, (4); clubs 3, 5, 0
    # → -12, -20, 0; Celina wins the deal she declared: +10
    enter(page)
    fill_first_deal(page)
    save(page)
    assert totals(page) == [-12, -20, 10]
    text = facts(page)
    # hands 9, 15, 12: Bartek discards 3, Ala draws 3; the stock 16 → 13
    assert "Declarations: Ala deal 1, Bartek deal 2, Celina deal 1" in text
    assert "Bartek discards 3 cards face down." in text
    assert "Ala draws 3 cards from the stock." in text and "the stock holds 13" in text
    # deal 2 (♦ trumps, +3 a heart): tricks 2, 6, (4); hearts 2, 5, 1 → 6, 15, 3;
    # Bartek wins the deal he declared: 25
    enter(page)
    page.fill("#tricks__0", "2")
    page.fill("#tricks__1", "6")
    for seat, value in enumerate([2, 5, 1]):
        page.fill(f"#hearts__{seat}", str(value))
    save(page)
    assert totals(page) == [-6, 5, 13]
    # hands 6, 18, 12: x = 12 - h + x(left): Ala takes 6 from Bartek, nobody else
    assert "Ala takes 6 cards from the hand of Bartek." in facts(page)
    # deal 3 is led by the player left of deal 2's leader (Bartek): Celina
    assert "Celina leads" in facts(page)
    # deal 3 (-1 a card, 3 cards a trick): tricks 5, 3, (4) → -15, -9, -12
    enter(page)
    page.fill("#tricks__0", "5")
    page.fill("#tricks__1", "3")
    save(page)
    assert totals(page) == [-21, -4, 1]
    assert "Ala discards 3 cards face down." in facts(page)
    assert "Bartek draws 3 cards from the stock." in facts(page)
    # deal 4 (+4 a spade): tricks 4, 4, 4; spades 1, 2, 6 → 4, 8, 24
    enter(page)
    page.fill("#tricks__0", "4")
    page.fill("#tricks__1", "4")
    for seat, value in enumerate([1, 2, 6]):
        page.fill(f"#spades__{seat}", str(value))
    save(page)
    assert totals(page) == [-17, 4, 25]
    # round 2: whoever led deal 1 of round 1 (Bartek) deals
    assert "Deal 5 (round 2, deal 1 of 4)" in facts(page) and "Bartek shuffles" in facts(page)
    shot(page, "metamorphosis-phone.png", full_page=True)


# Each deal: the calls in order, then the attackers' counts.
VARIETY = [
    # dealer Ala; Bartek 2, Celina 5, Darek 2 → type 2, B+D attack; 7 tricks:
    # B, D +14; A, C 6 tricks +12 (RULES.md)               → 12, 14, 12, 14
    ([2, 5, 2], {"tricks": 7}),
    # dealer Bartek; Celina 8, Darek 8 → type 8, C+D; 8 tricks: -16; A, B 5 tricks
    # -10 + 10 = 0 (RULES.md)                                → 12, 14, -4, -2
    ([8, 8], {"tricks": 8}),
    # dealer Celina; Darek 5, Ala 3, Bartek 5 → type 5, D+B; 2 black and 2 red 10/J
    # each side: 0 and 0, a tie: A, C +10                    → 22, 14, 6, -2
    ([5, 3, 5], {"black_tj": 2, "red_tj": 2}),
    # dealer Darek; Ala 1, Bartek 3, Celina 1 → type 1, A+C; 7 tricks: +12; B, D 0
    #                                                        → 34, 14, 18, -2
    ([1, 3, 1], {"tricks": 7}),
    # dealer Ala; Bartek 3, Celina 3 → type 3, B+C; 4 spades +8; A, D 9 spades
    # +18, +10 (attackers did not score more)                → 62, 22, 26, 26
    ([3, 3], {"spades": 4}),
    # dealer Bartek; Celina 7, Darek 6, Ala 7 → type 7, C+A; 3 clubs -6; B, D 10
    # clubs -20                                              → 56, 2, 20, 6
    ([7, 6, 7], {"clubs": 3}),
    # dealer Celina; Darek 6, Ala 6 → type 6, D+A; 14 red +14; B, C 12 red +12
    #                                                        → 70, 14, 32, 20
    ([6, 6], {"red": 14}),
    # dealer Darek; Ala 4, Bartek 4 → type 4, A+B; 6 tricks, 14 red, 10 black: +4;
    # C, D 12 red, 16 black: -4                              → 74, 18, 28, 16
    ([4, 4], {"tricks": 6, "red": 14}),
]
RUNNING = [
    [12, 14, 12, 14],
    [12, 14, -4, -2],
    [22, 14, 6, -2],
    [34, 14, 18, -2],
    [62, 22, 26, 26],
    [56, 2, 20, 6],
    [70, 14, 32, 20],
    [74, 18, 28, 16],
]


def test_variety_full_game_with_auctions(page_without_js, live_server):
    """Each call a form post, as without JavaScript (tests/test_browser_check.py: with)."""
    page = page_without_js
    start_on_phone(page, live_server, "variety", ["Ala", "Bartek", "Celina", "Darek"])
    for (calls, counts), running in zip(VARIETY, RUNNING):
        enter(page)
        for value in calls:
            with page.expect_navigation():
                page.locator(f"button.call[value='{value}']").tap()
        assert page.locator("p.result").count() == 1
        for key, value in counts.items():
            page.fill(f"#{key}", str(value))
        save(page)
        assert totals(page) == running
    assert page.locator(".result").inner_text().strip().startswith("Ala wins")
    shot(page, "variety-phone.png", full_page=True)


def test_after_a_save_the_next_entry_is_in_view_on_a_phone(page, live_server):
    """390×750 (a phone's browser bars take the rest of 844): after a Save, "Enter
    deal 2" is on the first screen, no scroll: Variety's auction rules are its deal
    page's; Metamorphosis's discards and draws leave no room for the form and its pad
    under the totals, so the sheet offers Enter."""
    page.set_viewport_size({"width": 390, "height": 750})
    start_on_phone(page, live_server, "metamorphosis", ["Ala", "Bartek", "Celina"])
    enter(page)
    fill_first_deal(page)
    save(page)
    assert totals(page) == [-12, -20, 10]
    expect(page.get_by_role("link", name="Enter deal 2")).to_be_in_viewport(ratio=1)
    start_on_phone(page, live_server, "variety", ["Ala", "Bartek", "Celina", "Darek"])
    enter(page)
    calls, counts = VARIETY[0]
    for value in calls:  # each call draws the auction again (htmx, with JavaScript)
        page.locator(f"button.call[value='{value}']").tap()
        page.wait_for_load_state()
    for key, value in counts.items():
        page.fill(f"#{key}", str(value))
    save(page)
    assert totals(page) == RUNNING[0]
    expect(page.get_by_role("link", name="Enter deal 2")).to_be_in_viewport(ratio=1)
