"""Small and large screens (issue 13 part 6; issue 37, the names): a player's name is
drawn whole where it fits and cut with an ellipsis where it does not, its full name
still its accessible name; at 768 px and up the sheet uses the width (two columns) and
a deal form keeps each name beside its number."""

from __future__ import annotations

import itertools
import random

import pytest

from scorer.autoplay import play_match
from scorer.engine import RANDOM
from scorer.games import GAMES

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


# Whether an element's text is cut by its box, and with an ellipsis.
CUT = """e => { const s = getComputedStyle(e);
  return [e.scrollWidth > e.clientWidth, s.textOverflow, s.whiteSpace]; }"""


def test_at_320_px_the_deals_table_cuts_names_visibly_and_reads_them_whole(browser, live_server):
    context = screen(browser, 320)
    page = context.new_page()
    made = served_made(
        context.request, live_server, {"game": "hearts", "players": NAMES, "deals": DEALS}
    )
    page.goto(f"{live_server}/m/{made['id']}")
    table = page.locator("table.deals").first
    # drawn whole, the page cuts them; what tells "Mał…" from "Mar…" is kept from the cut
    assert table.locator("thead th .name").evaluate_all("es => es.map(e => e.title)") == NAMES
    assert table.locator("thead th .lead").all_text_contents() == ["Mał", "Wo", "Mar", "Wi"]
    rests = ["gorzata", "jciech", "ia", "ktoria"]
    assert table.locator("thead th .rest").all_text_contents() == rests
    names = table.locator("thead th .name .rest")
    for i, name in enumerate(NAMES):
        head = table.get_by_role("columnheader", name=name, exact=True)
        assert head.is_visible()  # a screen reader reads the full name
        cut, overflow, wrap = names.nth(i).evaluate(CUT)
        assert (overflow, wrap) == ("ellipsis", "nowrap")
        if name != "Maria":
            assert cut, name  # four columns at 320 px: "Małgorzata" is cut, with its "…"
        # the cut is the name's own: nothing clipped by its column
        head_box = table.locator("thead th").nth(i + 1)
        assert head_box.evaluate("e => e.scrollWidth <= e.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    shot(page, "sheet-320.png", full_page=True)
    context.close()


def test_at_390_px_a_name_that_fits_is_whole_and_one_that_does_not_is_cut_with_an_ellipsis(
    browser, live_server
):
    names = ["Włodzimierz", "Zosia", "Łucja", "Małgorzata"]
    context = screen(browser, 390)
    page = context.new_page()
    page.goto(served_match(context, live_server, "hearts", DEALS, names))
    totals = page.locator(".totals .who .rest")
    chips = page.locator("form.deal fieldset.owner .chip .rest")
    for where in (totals, chips):
        assert where.all_text_contents() == names
    for name in ("Zosia", "Łucja"):  # whole in the totals and on the chips
        for where in (totals, chips):
            assert not where.nth(names.index(name)).evaluate(CUT)[0], name
    # four chips abreast: "Włodzimierz" does not fit one, and is cut with an ellipsis
    cut, overflow, _ = chips.nth(0).evaluate(CUT)
    assert cut and overflow == "ellipsis"
    radio = page.get_by_role("radio", name="Włodzimierz", exact=True)
    assert radio.count() == 1  # its full name is its accessible name
    assert chips.nth(0).evaluate("e => e.closest('.name').title") == "Włodzimierz"
    context.close()


# Whether a name's text is wider than its box (a fraction of a pixel is enough for the
# ellipsis: scrollWidth, a whole number, does not tell)
WIDER = """e => { const r = document.createRange(); r.selectNodeContents(e);
  return r.getBoundingClientRect().width > e.getBoundingClientRect().width + 0.01; }"""


@pytest.mark.parametrize(
    "game, played, lang", [("black_maria", 0, "pl"), ("black_maria", 0, "ru"), ("kierki", 11, "cs")]
)
def test_at_390_px_four_everyday_names_are_whole_on_every_chip(
    browser, live_server, game, played, lang
):
    """A Polish reader met "Bar…" and "Celi…" on every "Kto wziął D♠?" of a four-player
    deal: the question's column is narrower with four players, so six letters fit; and
    a form with no count to line up with (Kierki's fan tan, deal 12) asks above the
    chips («Kdo vyložil všechny karty jako první?» was six lines beside "Bart…")."""
    names = ["Ala", "Bartek", "Celina", "Darek"]
    context = screen(browser, 390)
    context.set_extra_http_headers({"Accept-Language": lang})
    page = context.new_page()
    deals = played_deals(game, names, played)
    page.goto(served_match(context, live_server, game, deals, names) + "/deal")
    chips = page.locator("form.deal fieldset.owner .chip .rest")
    assert chips.count() == (12 if game == "black_maria" else 8)  # a chip a player a question
    for i in range(chips.count()):
        assert not chips.nth(i).evaluate(WIDER), chips.nth(i).text_content()
    context.close()


def played_deals(game: str, names: list[str], k: int) -> list[dict]:
    """The first ``k`` deals of a match played by the engine."""
    rules = GAMES[game](GAMES[game].normalize_options({}, len(names)), names)
    plays = play_match(rules, [RANDOM] * len(names), random.Random(1))
    return [entry for _plan, _tricks, entry in itertools.islice(plays, k)]


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
    heads = page.locator("table.deals").first.locator("thead th .rest")
    assert heads.count() == 4
    assert not any(cut for cut, _, _ in heads.evaluate_all(f"es => es.map({CUT})"))  # all whole
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
