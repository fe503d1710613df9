"""The home page in Chromium at 390×844 with touch: the matches with their dates
and winners, narrowed by game and by player (the README's screenshot)."""

from __future__ import annotations

import pytest

from .helpers import go, served_made
from .test_browser import shot
from .test_browser_a11y import serious, small_targets

pytestmark = pytest.mark.browser

# Black Maria to 40 (RULES.md: 1 a heart, 13 for Q♠, 10 for K♠, 7 for A♠): in
# deal 1 Ala takes every heart and the three spades, 13 + 13 + 10 + 7 = 43 ≥ 40,
# so the match is over, won by the lowest: Bartek and Celina on 0.
OVER = {"hearts": [13, 0, 0], "taken_by": {"QS": 0, "KS": 0, "AS": 0}}


def make(context, live_server, game, players, deals=(), options=None) -> str:
    data = {"game": game, "players": players, "deals": list(deals)}
    if options:
        data["options"] = options
    return served_made(context.request, live_server, data)["id"]


def test_the_home_page_lists_and_narrows_the_matches(page, live_server):
    context = page.context
    done = make(
        context, live_server, "black_maria", ["Ala", "Bartek", "Celina"], [OVER], {"target": 40}
    )
    hearts = make(context, live_server, "hearts", ["Ala", "Darek", "Ewa", "Franek"])
    knaves = make(context, live_server, "knaves", ["Bartek", "Celina", "Darek"])
    page.goto(live_server + "/")
    assert page.locator("form.filters, a[href='/?filter=']").count() == 0  # three: no filter
    for _n in range(4):
        make(context, live_server, "slobberhannes", ["Gosia", "Henryk", "Irena", "Jacek"])
    page.goto(live_server + "/")
    items = page.locator("ul.matches li:not(:has-text('Slobberhannes'))")
    assert items.count() == 3
    first = items.nth(0).inner_text()  # the latest changed first (after the four)
    assert first.startswith("Knaves") and "0 deals · in progress" in first and "started" in first
    over = page.locator(f"ul.matches li:has(a[href='/m/{done}'])").inner_text()
    assert "1 deal · won by Bartek and Celina" in over
    # narrowed by player, then by game: the filter's names are read once it is opened
    assert page.locator("form.filters").count() == 0
    go(page, page.get_by_role("link", name="Which matches", exact=True))
    page.locator("select[name=player]").select_option("Darek")
    go(page, page.get_by_role("button", name="Show", exact=True))
    shown = page.locator("ul.matches a").evaluate_all("as => as.map(a => a.pathname)")
    assert sorted(shown) == sorted([f"/m/{hearts}", f"/m/{knaves}"])
    page.locator("select[name=game]").select_option("hearts")
    go(page, page.get_by_role("button", name="Show", exact=True))
    shown = page.locator("ul.matches a").evaluate_all("as => as.map(a => a.pathname)")
    assert shown == [f"/m/{hearts}"]
    page.goto(live_server + "/?state=finished")
    shown = page.locator("ul.matches a").evaluate_all("as => as.map(a => a.pathname)")
    assert shown == [f"/m/{done}"]
    page.goto(live_server + "/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert serious(page) == [] and small_targets(page) == []
    shot(page, "home-phone.png", full_page=False)
