"""Small and large screens (issue 13 part 6): at 320 px the deals table heads each
column with a short name that is whole and distinct; at 768 px and up the sheet uses
the width (two columns) and a deal form keeps each name beside its number."""

from __future__ import annotations

import pytest

from .helpers import served_made, served_match
from .test_browser import shot

pytestmark = pytest.mark.browser

NAMES = ["Małgorzata", "Wojciech", "Maria", "Wiktoria"]
DEALS = [
    {"hearts": [13, 0, 0, 0], "taken_by": {"QS": 0}},  # Małgorzata shot the moon
    {"hearts": [3, 4, 5, 1], "taken_by": {"QS": 2}},
]


def screen(browser, width, height=844):
    return browser.new_context(
        viewport={"width": width, "height": height},
        device_scale_factor=2,
        is_mobile=width < 768,
        has_touch=True,
    )


def test_at_320_px_the_deals_table_names_each_column_distinctly_and_readably(browser, live_server):
    context = screen(browser, 320)
    page = context.new_page()
    made = served_made(
        context.request, live_server, {"game": "hearts", "players": NAMES, "deals": DEALS}
    )
    page.goto(f"{live_server}/m/{made['id']}")
    heads = page.locator("table.deals thead th .short")
    shown = heads.all_inner_texts()
    assert shown == ["Małgo", "Wojci", "Maria", "Wikto"]  # each a prefix of its own name
    assert len(set(shown)) == 4
    for i in range(4):
        th = page.locator("table.deals thead th").nth(i + 1)
        # the whole short name is drawn: nothing cut off with an ellipsis
        assert th.evaluate("e => e.scrollWidth <= e.clientWidth")
        assert heads.nth(i).is_visible()
        # a screen reader still reads the full name as the column's header
        assert th.evaluate("e => e.querySelector('.full').textContent") == NAMES[i]
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    shot(page, "sheet-320.png", full_page=True)
    context.close()


def test_at_768_px_the_sheet_uses_the_width_and_names_sit_over_their_numbers(browser, live_server):
    context = screen(browser, 768, 1024)
    page = context.new_page()
    url = served_match(context, live_server, "hearts", DEALS, 4)
    page.goto(url)
    totals = page.locator(".totals").bounding_box()
    chart = page.locator("figure.chart").bounding_box()
    table = page.locator("table.deals").bounding_box()
    # two columns: the chart and the deals beside the totals, not below them
    assert chart["x"] >= totals["x"] + totals["width"]
    assert chart["y"] < totals["y"] + totals["height"]
    assert table["y"] + table["height"] < 1024  # the deals in the first screen
    assert page.locator("table.deals thead th .short").first.is_visible()
    shot(page, "sheet-768.png", full_page=True)
    page.goto(url + "/deal")
    for s in range(4):
        label = page.locator(f"label[for=hearts__{s}]").bounding_box()
        field = page.locator(f"#hearts__{s}").bounding_box()
        # right over its number, not across the page
        assert field["x"] <= label["x"] + label["width"] / 2 <= field["x"] + field["width"]
        assert 0 <= field["y"] - (label["y"] + label["height"]) < 8
    shot(page, "deal-768.png", full_page=True)
    context.close()
