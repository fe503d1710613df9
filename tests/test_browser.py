"""Browser tests: Playwright driving Debian's Chromium at phone size (390×844)."""

from __future__ import annotations

import os
import random
import re
import tempfile
from pathlib import Path

import pytest

from scorer.engine import RANDOM, play_deal
from scorer.games import GAMES
from scorer.match import Match, fold

from .helpers import go, start_on_phone

pytestmark = pytest.mark.browser
# `make screenshots` writes the docs' phone pictures into docs/ (SCORER_SHOTS); make test
# takes none (a full-page picture costs a quarter of a second or more).
SHOTS = Path(os.environ.get("SCORER_SHOTS") or tempfile.mkdtemp(prefix="scorer-shots-"))


def shot(target, name: str, **options) -> None:
    """A picture of a page or an element for docs/, under `make screenshots` only."""
    if os.environ.get("SCORER_SHOTS"):
        SHOTS.mkdir(exist_ok=True)
        target.screenshot(path=str(SHOTS / name), **options)


def totals(page):
    """The sheet's totals as numbers (a page prints a minus sign, U+2212)."""
    return [
        int(t.replace("\u2212", "-")) for t in page.locator(".totals .points").all_inner_texts()
    ]


def tap_owner(page, card, seat):
    page.locator(f"label.chip:has(input[name=taken_by_{card}][value='{seat}'])").tap()


def enter_next(page):
    """Open the next deal's form: the sheet draws it when it fits the first screen,
    else its "Enter deal N" link opens the deal page."""
    link = page.get_by_role("link", name=re.compile(r"^Enter deal"))
    if link.count():
        go(page, link)
    else:
        assert page.locator("#sheet-live form.deal").count() == 1


def enter_deal(page, hearts, qs, ks, as_):
    """Type all but the last hearts count (the app fills it), tap the three spades."""
    enter_next(page)
    for s, h in enumerate(hearts[:-1]):
        page.fill(f"#hearts__{s}", str(h))
    last = page.locator(f"#hearts__{len(hearts) - 1}")
    assert last.input_value() == ""  # left blank: the app fills it in, and shows what with
    assert last.get_attribute("placeholder") == str(hearts[-1])
    tap_owner(page, "QS", qs)
    tap_owner(page, "KS", ks)
    tap_owner(page, "AS", as_)
    go(page, page.get_by_role("button", name=re.compile(r"^Save deal")))


def test_black_maria_three_players_on_a_phone(page, live_server, tmp_path):
    page.goto(live_server + "/")
    go(page, page.get_by_role("link", name="New match"))
    go(page, page.get_by_role("link", name=re.compile("^Black Maria")))
    for s, name in enumerate(["Ala", "Bartek", "Celina"]):
        page.fill(f"#name_{s}", name)
    go(page, page.get_by_role("button", name="Start the match"))
    assert page.locator(".next").inner_text().count("Ala deals") == 1

    # deal 1: A 4♥ Q♠ = 17, B 6♥ K♠ A♠ = 23, C 3♥ = 3
    enter_deal(page, [4, 6, 3], 0, 1, 1)
    assert totals(page) == [17, 23, 3]
    # deal 2: A A♠ = 7; B 5♥ = 5; C 8♥ Q♠ K♠ = 31 → 24, 28, 34
    enter_deal(page, [0, 5, 8], 2, 2, 0)
    # deal 3: A 2♥ = 2; B 1♥ Q♠ = 14; C 10♥ K♠ A♠ = 27 → 26, 42, 61
    enter_deal(page, [2, 1, 10], 1, 2, 2)
    assert totals(page) == [26, 42, 61]
    assert "★ place 1" in page.locator(".total").nth(0).inner_text()
    shot(page, "sheet-phone.png", full_page=True)

    # fix deal 1: Ala had 3 hearts and Celina 4 → deal 1 is 16, 23, 4 → 25, 42, 62
    go(page, page.get_by_role("link", name="Edit deal 1"))
    page.fill("#hearts__0", "3")
    page.fill("#hearts__2", "4")
    go(page, page.get_by_role("button", name="Save changes"))
    assert totals(page) == [25, 42, 62]
    assert "counted again" in page.locator(".flash").inner_text()

    # a refused entry keeps what was typed
    enter_next(page)
    page.fill("#hearts__0", "9")
    page.fill("#hearts__1", "9")
    page.fill("#hearts__2", "9")
    go(page, page.get_by_role("button", name=re.compile(r"^Save deal")))
    assert "Hearts add up to 27, but 13 are in play" in page.get_by_role("alert").inner_text()
    assert page.input_value("#hearts__1") == "9"
    go(page, page.get_by_role("link", name="Back to the sheet"))

    # export CSV
    with page.expect_download() as download:
        page.get_by_role("link", name="Export every deal in detail (CSV)").tap()
    csv_path = tmp_path / "match.csv"
    download.value.save_as(csv_path)
    body = csv_path.read_text(encoding="utf-8-sig")
    assert (
        body.splitlines()[0]
        == '"match","deal","dealer","player","seat","entry","points","total","place"'
    )
    assert len(body.splitlines()) == 1 + 3 * 3 + 3

    # play to the end: Celina takes everything (43): 62 + 43 = 105 ≥ 100
    enter_deal(page, [0, 0, 13], 2, 2, 2)
    assert totals(page) == [25, 42, 105]
    assert page.locator(".result").inner_text().strip().startswith("Ala wins")
    assert page.get_by_role("link", name=re.compile(r"^Enter deal")).count() == 0
    assert page.locator("form.deal").count() == 0
    shot(page, "end-phone.png", full_page=True)


def test_entry_form_on_a_phone_has_big_targets(page, live_server):
    page.goto(
        start_on_phone(page, live_server, "black_maria", ["Ala", "Bartek", "Celina"]) + "/deal"
    )
    # the number pad: 2 for Ala, 1 for Bartek; Celina is filled in (13 - 3 = 10)
    pad = page.locator("[data-pad]")
    pad.get_by_role("button", name="2", exact=True).tap()
    pad.get_by_role("button", name="1", exact=True).tap()
    assert page.get_attribute("#hearts__2", "placeholder") == "10"
    targets = page.locator("[data-pad] button, label.chip, form.deal input[inputmode]")
    assert targets.count() == 14 + 9 + 3
    for box in (targets.nth(k).bounding_box() for k in range(targets.count())):
        assert box["height"] >= 44 and box["width"] >= 44
    shot(page, "deal-phone.png", full_page=True)
    # a double tap on Save stores one deal
    tap_owner(page, "QS", 0)
    tap_owner(page, "KS", 0)
    tap_owner(page, "AS", 0)
    page.get_by_role("button", name="Save deal 1").dblclick()
    page.wait_for_url(re.compile(r"/m/[A-Za-z0-9_-]{12}$"))
    assert page.locator("table.deals tbody tr").count() == 1


def test_check_a_black_maria_deal_trick_by_trick_and_save(page_without_js, live_server):
    """A deal played by the engine (seeded), tapped in card by card on a phone without
    JavaScript: each tap a form post (tests/test_browser_check.py: with JavaScript)."""
    page = page_without_js
    names = ["Ala", "Bartek", "Celina"]
    rules = GAMES["black_maria"](GAMES["black_maria"].normalize_options({}, 3), names)
    plan = fold(Match("black_maria", rules.opts, names)).next
    played = play_deal(rules, plan, [RANDOM] * 3, random.Random(7))
    # what each seat took, counted here from the cards: a heart 1, Q♠ 13, K♠ 10, A♠ 7
    value = {"QS": 13, "KS": 10, "AS": 7}
    expected = [
        sum(value.get(c, 1 if c.endswith("H") else 0) for c in taken)
        for taken in played.captured.taken
    ]
    assert sum(expected) == 43

    start_on_phone(page, live_server, "black_maria", names)
    enter_next(page)
    # a quick entry that gets Celina's hearts wrong: all 13 hearts to Ala
    page.fill("#hearts__0", "13")
    page.fill("#hearts__1", "0")
    tap_owner(page, "QS", 0)
    tap_owner(page, "KS", 0)
    tap_owner(page, "AS", 0)
    go(page, page.get_by_role("button", name="Check this deal trick by trick"))
    for k, trick in enumerate(played.tricks):
        for i, (seat, c) in enumerate(trick):
            said = f"{names[seat]} leads" if i == 0 else f"{names[seat]} plays"
            assert page.locator("fieldset.owner legend").inner_text() == said
            with page.expect_navigation():
                page.locator(f"button.pick[value='{c}']").tap()
        # the app names each trick's winner, under the picker and in the folded list
        winner = f"→ {names[played.captured.winners[k]]}"
        assert page.locator(".deck .now .won").inner_text() == winner
        assert page.locator("ol.tricks li").nth(k).locator(".won").text_content() == winner
    shot(page, "check-phone.png", full_page=True)
    derived = [
        int(x)
        for x in page.locator("section.compare tbody tr").first.locator("td").all_inner_texts()
    ]
    assert derived == expected
    if expected != [43, 0, 0]:
        assert page.locator("ul.diffs li").count() >= 1
    go(page, page.get_by_role("button", name="Save the checked deal"))
    assert totals(page) == expected
