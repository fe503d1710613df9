"""The chart of the running totals in Chromium: at 320 px (the narrowest phone)
and at the usual 390 px for the README's picture."""

from __future__ import annotations

import pytest

from .helpers import record, served_match
from .test_browser import shot

pytestmark = pytest.mark.browser

HEARTS = [
    {"hearts": h, "taken_by": {"QS": q}}
    for h, q in [
        ([3, 5, 2, 3], 1),
        ([0, 4, 6, 3], 2),
        ([7, 1, 2, 3], 0),
        ([2, 2, 8, 1], 3),
        ([4, 3, 3, 3], 1),
        ([1, 6, 1, 5], 2),
        ([5, 0, 4, 4], 3),
    ]
]
ROUND = [
    {"declarations": [2, 4, 1], "tricks": [4, 4, 4], "clubs": [3, 5, 0]},
    {"tricks": [0, 6, 6], "hearts": [0, 1, 2]},
    {"tricks": [1, 2, 9]},
    {"tricks": [4, 4, 4], "spades": [4, 4, 5]},
]
METAMORPHOSIS = ROUND * 3  # three rounds of four deals: the whole match for 3 players


@pytest.mark.parametrize(
    "game, deals, players, scheme",
    [("hearts", HEARTS, 4, "light"), ("metamorphosis", METAMORPHOSIS, 3, "dark")],
)
def test_the_chart_fits_a_320_px_phone(
    browser, live_server, tmp_path, game, deals, players, scheme
):
    context = browser.new_context(
        viewport={"width": 320, "height": 640},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        color_scheme=scheme,
    )
    page = context.new_page()
    page.goto(served_match(context, live_server, game, deals, players))
    chart = page.locator("figure.chart")
    chart.scroll_into_view_if_needed()
    assert page.locator("figure.chart svg.chart-svg path").count() == players
    box = page.locator("svg.chart-svg").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 320 and box["height"] > 150
    assert page.evaluate("document.documentElement.scrollWidth") <= 320  # no sideways scroll
    # each line is drawn in its seat's colour, the same as the stripe on that seat's total
    stroke = page.evaluate(
        "getComputedStyle(document.querySelector('svg.chart-svg path.seat1')).stroke"
    )
    stripe = page.evaluate(
        "getComputedStyle(document.querySelector('.total[data-seat=\"1\"]')).boxShadow"
    )
    assert stroke.startswith("rgb(") and stroke in stripe
    assert chart.locator(".legend li").all_inner_texts() == record(game, [], players)["players"]
    chart.screenshot(path=str(tmp_path / f"chart-320-{game}-{scheme}.png"))  # to look at
    context.close()


def test_chart_on_a_phone_for_the_readme(page, live_server):
    page.goto(served_match(page.context, live_server, "hearts", HEARTS, 4))
    shot(page.locator("figure.chart"), "chart-phone.png")
