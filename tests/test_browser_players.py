"""Players across matches in Chromium at 390×844 with touch: a player page (the
README's screenshot), head to head, and the set-up form's names filled by a tap."""

from __future__ import annotations

import re

import pytest

from .helpers import go, served_match
from .test_browser import shot
from .test_browser_a11y import serious, small_targets
from .test_players import M1, M2, M3, M4, M5

pytestmark = pytest.mark.browser


def served_sheet(context, live_server, sheet, players) -> str:
    """``sheet``'s match (a test_players one) played again by ``players``: its address."""
    options = {k: v for k, v in sheet.match.options.items() if k != "players"}
    return served_match(context, live_server, sheet.match.game, sheet.match.deals, players, options)


def figures(section) -> dict[str, str]:
    terms = section.locator("dl.figures dt").all_inner_texts()
    values = section.locator("dl.figures dd").all_inner_texts()
    return dict(zip(terms, values))


def test_a_player_page_on_a_phone(page, live_server):
    context = page.context
    served_sheet(context, live_server, M5, ["Ala", "Bartek", "Celina"])
    served_sheet(context, live_server, M4, ["Ala", "Bartek", "Celina"])
    served_sheet(context, live_server, M2, ["Bartek", "Ala", "Darek", "Ewa"])
    served_sheet(context, live_server, M3, ["Celina", "Ala", "Bartek"])
    sheet = served_sheet(context, live_server, M1, ["Ala", "Bartek", "Celina"])
    page.goto(sheet)
    go(page, page.locator(".totals .who a", has_text="Ala"))  # the name on the sheet
    assert page.url == live_server + "/p/Ala"
    assert page.locator("h1").inner_text() == "Ala"
    # test_players works these out by hand: Black Maria M1 1st, M3 3rd, Q♠ 2;
    # Hearts M2 won with a moon and Q♠ 1; Knaves not over, J♥ 1
    black_maria = page.locator("section.game-stats", has=page.locator("h2", has_text="Black Maria"))
    assert figures(black_maria) == {
        "Matches played": "2",
        "Finished": "2",
        "Won": "1",
        "Average place": "2",
        "Q♠ taken": "2",
    }
    best, worst = black_maria.locator(".matches a").all_inner_texts()
    assert best.startswith("Best match\nplace 1 · total 40 · Black Maria")
    assert worst.startswith("Worst match\nplace 3 · total 23 · Black Maria")
    hearts = page.locator("section.game-stats", has=page.locator("h2", has_text="Hearts"))
    assert figures(hearts)["Moons shot"] == "1"
    knaves = page.locator("section.game-stats", has=page.locator("h2", has_text="Knaves"))
    assert figures(knaves) == {
        "Matches played": "1",
        "Finished": "0",
        "Won": "0",
        "Jacks taken": "1",
    }
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert small_targets(page) == []
    assert serious(page) == []
    shot(page, "player.png")
    go(page, page.get_by_role("link", name="Bartek", exact=True))  # head to head
    versus = page.locator("section.versus")
    assert versus.locator("h2").inner_text() == "Ala and Bartek, head to head"
    # Hearts, Black Maria, Knaves, Metamorphosis; Hearts first: M2, Ala 1st, Bartek 3rd
    assert versus.locator("h3").all_inner_texts() == [
        "Hearts",
        "Black Maria",
        "Knaves",
        "Metamorphosis",
    ]
    assert versus.locator("dl.figures").first.locator("dd").all_inner_texts() == [
        "1",
        "1",
        "1",
        "0",
        "0",
    ]
    assert serious(page) == []


def test_a_tap_on_a_name_fills_the_next_empty_row(page, live_server):
    context = page.context
    served_sheet(context, live_server, M4, ["Ala", "Bartek", "Celina"])
    page.goto(live_server + "/new/hearts")
    chips = page.locator("[data-known-names] button")
    assert chips.all_inner_texts() == ["Ala", "Bartek", "Celina"]
    page.fill("#name_0", "Darek")
    chips.get_by_text("Celina").tap()
    chips.get_by_text("Ala").tap()
    chips.get_by_text("Ala").tap(force=True)  # already seated: nothing more
    assert [page.input_value(f"#name_{s}") for s in range(4)] == ["Darek", "Celina", "Ala", ""]
    assert chips.get_by_text("Ala").get_attribute("aria-disabled") == "true"
    assert chips.get_by_text("Bartek").get_attribute("aria-disabled") == "false"
    assert page.locator("#first_dealer option").all_inner_texts()[1:4] == ["Darek", "Celina", "Ala"]
    assert small_targets(page) == []
    page.fill("#name_1", "")  # a name taken out: its chip is offered again
    assert chips.get_by_text("Celina").get_attribute("aria-disabled") == "false"
    chips.get_by_text("Bartek").tap()
    page.locator("#name_2").press("Enter")  # Enter starts the match (the chips are no submit)
    page.wait_for_url(re.compile(r"/m/[A-Za-z0-9_-]{12}$"))
    assert page.locator(".totals .who").all_inner_texts() == ["Darek", "Bartek", "Ala"]
