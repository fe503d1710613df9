"""The ratings in Chromium at 390×844 with touch (issue 24): the players page's
league table (docs/league-phone.png), a player's rating line, and the sheet's
chances before a match; each fits the phone's width, keeps its controls at
44 px and is axe clean (no serious or critical violation)."""

from __future__ import annotations

import pytest

from .helpers import go, served_match
from .test_browser import shot
from .test_browser_a11y import serious, small_targets
from .test_ratings import M3, M4, M5, M6, MP, bm

pytestmark = pytest.mark.browser

# Two more evenings of Black Maria to a target of 20, places worked out by hand:
# Bartek, Ewa, Ala, Franek: hearts 0 3 3 7, Q♠ Franek, K♠ Ala, A♠ Ewa: 0, 10, 13, 20:
# Franek reaches 20: Bartek 1st, Ewa 2nd, Ala 3rd, Franek 4th.
M7 = (["Bartek", "Ewa", "Ala", "Franek"], [bm([0, 3, 3, 7], 3, 2, 1)], {}, [1, 2, 3, 4])
# Darek, Celina, Ewa: hearts 5 0 8, Q♠ K♠ to Ewa, A♠ to Darek: 12, 0, 31: Celina, Darek, Ewa.
M8 = (["Darek", "Celina", "Ewa"], [bm([5, 0, 8], 2, 2, 0)], {}, [2, 1, 3])


def served_rated(context, live_server, match) -> str:
    """One of test_ratings' matches, to a target of 20, on the live server: its address."""
    players, deals, options, _places = match
    options = {k: v for k, v in {"target": 20, **options}.items() if k != "players"}
    return served_match(context, live_server, "black_maria", deals, players, options)


def fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert small_targets(page) == []
    assert serious(page) == []


def test_the_league_and_a_rating_line_on_a_phone(page, live_server):
    for match in (M3, M4, M5, M6, MP, M7, M8):
        served_rated(page.context, live_server, match)
    page.goto(live_server + "/players")
    table = page.locator("table.league")
    assert table.count() == 1 and table.is_visible()
    names = table.locator("tbody th").all_inner_texts()
    assert sorted(names) == ["Ala", "Bartek", "Celina", "Darek", "Ewa", "Franek"]
    places = table.locator("tbody tr td:first-child").all_inner_texts()
    assert places[0] == "1" and places == sorted(places, key=int)
    assert table.locator("thead th").all_inner_texts()[1:3] == ["Player", "Rating"]
    box = table.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390  # the whole table on the screen
    fits(page)
    page.evaluate("document.getElementById('league').scrollIntoView()")
    shot(page, "league-phone.png")
    go(page, table.locator("tbody th a", has_text="Ala"))
    line = page.locator("section.game-stats svg.rating-svg")
    assert line.count() == 1 and line.is_visible()
    assert line.get_attribute("aria-label").startswith("The rating of Ala after each of 6 matches")
    assert line.bounding_box()["width"] <= 390
    fits(page)
    page.emulate_media(color_scheme="dark")
    assert serious(page) == []


def test_the_chances_on_a_sheet_before_the_first_deal(page, live_server):
    served_rated(page.context, live_server, M3)
    sheet = served_rated(page.context, live_server, (["Ala", "Bartek", "Celina"], [], {}, None))
    page.goto(sheet)
    chances = page.locator("p.chances")
    assert chances.inner_text().startswith("Chances to win, from the ratings: Ala ")
    fits(page)
