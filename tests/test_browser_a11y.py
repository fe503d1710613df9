"""Accessibility (issue 13 part 7), in Chromium at 390×844 with touch: axe-core (through
axe-playwright-python, which ships it) finds no serious or critical violation on each
kind of page, in light and dark; every control is at least 44 px each way."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe

from .helpers import served_match

pytestmark = pytest.mark.browser

BLACK_MARIA = [
    {"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1}},
    {"hearts": [0, 5, 8], "taken_by": {"QS": 2, "KS": 2, "AS": 0}},
]
# Celina takes everything: 43 + 3 + 31 = 77 ≥ the target 60: the match is over
THE_END = [*BLACK_MARIA, {"hearts": [0, 0, 13], "taken_by": {"QS": 2, "KS": 2, "AS": 2}}]


def match(context, live_server, deals, **options) -> str:
    return served_match(context, live_server, "black_maria", deals, 3, options)


def pages(context, live_server) -> dict[str, str]:
    sheet = match(context, live_server, BLACK_MARIA)
    return {
        "home": live_server + "/",
        "set-up form": live_server + "/new/black_maria",
        "sheet": sheet,
        "deal form": sheet + "/deal",
        "check": sheet + "/check",
        "end screen": match(context, live_server, THE_END, target=60),
        "rules page": live_server + "/rules/black_maria",
    }


def serious(page) -> list[str]:
    found = Axe().run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


def small_targets(page) -> list[str]:
    """Visible controls under 44 × 44 px (a link inside running text excepted)."""
    return page.evaluate(
        """() => Array.from(document.querySelectorAll(
            'a, button, summary, label.chip, label.check, select, input:not([type=hidden])'))
          .filter(e => e.offsetParent !== null)
          .filter(e => !e.closest('p, li:not(.total), [aria-hidden=true]'))
          .filter(e => !(e.matches('input') && e.closest('label.chip, label.check')))
          .map(e => [e, e.getBoundingClientRect()])
          .filter(([e, r]) => r.height < 44 || r.width < 44)
          .map(([e, r]) => `${e.tagName} ${e.textContent.trim().slice(0, 20)} `
                           + `${r.width}x${r.height}`)"""
    )


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_serious_violation_on_any_kind_of_page(browser, live_server, scheme):
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        color_scheme=scheme,
    )
    page = context.new_page()
    problems = {}
    for name, url in pages(context, live_server).items():
        page.goto(url)
        if name == "end screen":
            assert "Ala wins" in page.locator(".result").inner_text()
        found = serious(page)
        if found:
            problems[name] = found
    assert problems == {}, problems
    context.close()


def test_every_control_is_at_least_44_px(page, live_server):
    problems = {}
    for name, url in pages(page.context, live_server).items():
        page.goto(url)
        found = small_targets(page)
        if found:
            problems[name] = found
    assert problems == {}, problems


def test_the_live_parts_are_announced(page, live_server):
    page.goto(match(page.context, live_server, BLACK_MARIA) + "/deal")
    left = page.locator("[data-left]")
    assert left.get_attribute("aria-live") == "polite"
    page.locator("#hearts__0").fill("4")
    assert left.inner_text() == "4 / 13"  # what a screen reader hears as it changes
    # a refused save: the reason is an alert; a saved one: a status line
    page.get_by_role("button", name="Save deal 3").tap()
    page.wait_for_load_state()
    assert "fill in a number for Bartek" in page.get_by_role("alert").inner_text()
    page.locator("#hearts__1").fill("6")
    for card, seat in (("QS", 0), ("KS", 1), ("AS", 2)):
        page.locator(f"label.chip:has(input[name=taken_by_{card}][value='{seat}'])").tap()
    with page.expect_navigation():
        page.get_by_role("button", name="Save deal 3").tap()
    assert page.get_by_role("status").first.inner_text() == "Deal 3 saved."
