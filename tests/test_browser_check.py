"""The trick-by-trick check and Variety's auction with JavaScript, on a phone (390×844,
touch; and 320 px): one tap a card or call, no page load between taps, the card
picker always on the screen. Without JavaScript the same pages are form posts
(tests/test_browser.py, tests/test_browser_compendium.py)."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import expect

from scorer.engine import RANDOM, play_deal
from scorer.games import GAMES
from scorer.match import Match, fold

from .helpers import go, start_on_phone
from .test_browser import shot, totals

pytestmark = pytest.mark.browser

HEARTS = ["Ala", "Bartek", "Celina", "Dorota"]
VARIETY = ["Ala", "Bartek", "Celina", "Darek"]


def hearts_deal(seed: int):
    """A 4-player Hearts deal played by the engine, and each seat's points counted
    here from the cards taken: a heart 1, Q♠ 13 (RULES.md; the seed shoots no moon)."""
    rules = GAMES["hearts"](GAMES["hearts"].normalize_options({}, 4), HEARTS)
    plan = fold(Match("hearts", rules.opts, HEARTS)).next
    played = play_deal(rules, plan, [RANDOM] * 4, random.Random(seed))
    points = [
        sum(13 if c == "QS" else 1 if c.endswith("H") else 0 for c in taken)
        for taken in played.captured.taken
    ]
    assert sum(points) == 26 and max(points) < 26
    return played, points


def watch_loads(page) -> list[str]:
    """The page loads from now on (a swap in place is none), and a marker that only
    a page load would wipe out."""
    loads: list[str] = []
    page.on("framenavigated", lambda frame: loads.append(frame.url))
    page.evaluate("window.sameDocument = true")
    return loads


def tap_card(page, k: int, seat: int, c: str) -> None:
    """Card k of the deal (from 0): the first one by a tap on who holds it (2♣)."""
    if k == 0:
        page.locator(f"button[name=lead][value='{seat}']").tap()
    else:
        page.locator(f"button.pick[value='{c}']").tap()


def test_a_hearts_deal_in_52_card_taps_and_save_with_no_reload_and_no_scroll(page, live_server):
    played, points = hearts_deal(5)
    page.goto(start_on_phone(page, live_server, "hearts", HEARTS) + "/check")
    loads = watch_loads(page)
    picker = page.locator(".deck")
    taps = 0
    for trick in played.tricks:
        for seat, c in trick:
            tap_card(page, taps, seat, c)
            taps += 1
            # the card is in, in place; the picker (or, at the end, Save) is on the
            # screen, which has not scrolled
            expect(page.locator("input[name=play]")).to_have_value(re.compile(f'"{c}"'))
            expect(picker).to_be_in_viewport(ratio=1)
            assert page.evaluate("window.scrollY") == 0
    save = page.get_by_role("button", name="Save the checked deal")
    expect(save).to_be_in_viewport(ratio=1)
    derived = page.locator("section.compare tbody tr").first.locator("td").all_inner_texts()
    assert [int(x) for x in derived] == points
    assert loads == [] and page.evaluate("window.sameDocument") is True
    shot(page, "check-hearts-phone.png")
    go(page, save)
    taps += 1
    assert taps == 53
    assert totals(page) == points


def test_quick_taps_wait_their_turn(page, live_server):
    """Taps faster than the answers: each waits for the page the one before leaves."""
    played, _points = hearts_deal(5)
    page.goto(start_on_phone(page, live_server, "hearts", HEARTS) + "/check")
    cards = [c for trick in played.tricks[:2] for _seat, c in trick]
    tap_card(page, 0, played.tricks[0][0][0], cards[0])
    expect(page.locator("input[name=play]")).to_have_value(re.compile(f'"{cards[0]}"'))
    # seven cards tapped at once, before any answer: six of them wait their turn
    page.evaluate(
        """cards => {
             window.waited = 0;
             document.addEventListener("htmx:confirm", e => { if (e.defaultPrevented) waited++; });
             cards.forEach(c => document.querySelector(`button.pick[value='${c}']`).click());
           }""",
        cards[1:],
    )
    expect(page.locator("input[name=play]")).to_have_value(re.compile(f'"{cards[-1]}"'))
    expect(page.locator(".deck .now .k")).to_have_text("Trick 2")
    assert page.evaluate("window.waited") == 6
    play = page.locator("input[name=play]").input_value()
    assert re.findall(r'"(\w+)"\]', play) == cards
    # Undo per card: the last two taken back, one tap each
    page.get_by_role("button", name="Undo the last card").tap()
    page.get_by_role("button", name="Undo the last card").tap()
    expect(page.locator("input[name=play]")).not_to_have_value(re.compile(f'"{cards[-2]}"'))
    assert re.findall(r'"(\w+)"\]', page.locator("input[name=play]").input_value()) == cards[:-2]


def test_the_check_at_320_px_cuts_nothing_off(browser, browser_context_args, live_server):
    context = browser.new_context(
        **{**browser_context_args, "viewport": {"width": 320, "height": 844}}
    )
    page = context.new_page()
    played, _points = hearts_deal(5)
    page.goto(start_on_phone(page, live_server, "hearts", HEARTS) + "/check")
    for k, (seat, c) in enumerate(played.tricks[0]):
        tap_card(page, k, seat, c)
        expect(page.locator("input[name=play]")).to_have_value(re.compile(f'"{c}"'))
    # the trick under the picker shows its four cards and its winner, all inside 320 px
    now = page.locator(".deck .now span")
    fourth = now.nth(4)  # after "Trick 1"
    expect(fourth).to_contain_text(HEARTS[played.tricks[0][3][0]])
    expect(fourth).to_be_in_viewport(ratio=1)
    assert fourth.bounding_box()["x"] + fourth.bounding_box()["width"] <= 320
    expect(page.locator(".deck .now .won")).to_be_in_viewport(ratio=1)
    expect(page.locator(".deck")).to_be_in_viewport(ratio=1)
    # and in the folded list of tricks, opened
    page.locator("details.played summary").tap()
    listed = page.locator("ol.tricks li").first.locator(".played > span").nth(3)
    expect(listed).to_be_visible()
    assert listed.bounding_box()["x"] + listed.bounding_box()["width"] <= 320
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    widths = page.locator(".deck button.pick").evaluate_all(
        "bs => bs.map(b => b.getBoundingClientRect().width)"
    )
    assert widths and min(widths) >= 44, min(widths)  # a thumb's width, even at 320 px
    page.locator("details.played summary").tap()
    shot(page, "check-320.png")
    context.close()


def test_the_auction_one_tap_a_call_without_reloads(page, live_server):
    page.goto(start_on_phone(page, live_server, "variety", VARIETY) + "/deal")
    # the eight types on the first screen; the auction's rules one tap away
    for value in range(1, 9):
        expect(page.locator(f"button.call[value='{value}']")).to_be_in_viewport(ratio=1)
    rule = page.get_by_text("No player may name the same type twice.")
    expect(rule).to_be_hidden()
    page.get_by_text("How the auction goes").tap()
    expect(rule).to_be_visible()
    page.get_by_text("How the auction goes").tap()
    shot(page, "auction-phone.png")
    loads = watch_loads(page)
    bids = page.locator("input[name=bids]")
    # a call no type has (only a tampered page sends one) is refused in place
    page.evaluate("document.querySelector(\"button.call[value='1']\").value = '9'")
    page.locator("button.call").first.tap()
    expect(page.get_by_role("alert")).to_be_visible()
    expect(bids).to_have_value("")
    # dealer Ala; Bartek 2, Celina 5, (Darek 6, undone), Darek 2: type 2, ♣ trumps,
    # Bartek and Darek attack (RULES.md: the first repeat ends the auction)
    for tap, after in [("2", "2"), ("5", "2,5"), ("6", "2,5,6"), (None, "2,5"), ("2", "2,5,2")]:
        if tap:
            page.locator(f"button.call[value='{tap}']").tap()
        else:
            page.get_by_role("button", name="Undo the last call").tap()
        expect(bids).to_have_value(after)
    expect(page.locator("p.result")).to_contain_text("Bartek and Darek attack")
    expect(page.get_by_role("alert")).to_have_count(0)  # the refusal went with the next call
    # the count the type needs came in with the last call, its steppers working
    page.get_by_role("button", name="one more").tap()
    expect(page.locator("#tricks")).to_have_value("1")
    # and the number pad, as every other count: the phone's keyboard stays shut
    assert page.locator("#tricks").get_attribute("inputmode") == "none"
    page.locator("#tricks").tap()
    page.locator("[data-pad] button[data-value='7']").tap()
    expect(page.locator("#tricks")).to_have_value("7")
    assert loads == [] and page.evaluate("window.sameDocument") is True
    go(page, page.get_by_role("button", name="Save deal 1"))
    # 7 tricks to the attackers: +2 a trick, 14 each; the defenders' 6: 12 each
    assert totals(page) == [12, 14, 12, 14]


def test_an_auction_not_tracked_takes_its_type_and_attackers_without_a_reload(page, live_server):
    """Type 5 played, Ala named it first and Celina repeated it: the counts type 5
    needs come in place, with the pad. The attackers took two black tens and jacks
    and one red: +10 - 5 = +5 each; the defenders two black and three red: +10 - 15
    = -5 each; the attackers scored more, so no +10 to the defenders (RULES.md)."""
    page.goto(start_on_phone(page, live_server, "variety", VARIETY) + "/deal")
    loads = watch_loads(page)
    page.locator("label.chip:has(input[name=contract][value='5'])").tap()
    page.locator("label.chip:has(input[name=attackers__0][value='0'])").tap()
    use = page.get_by_role("button", name="Use this type and these attackers")
    use.tap()  # one attacker only: said in place, where the player looks
    expect(page.get_by_role("alert")).to_contain_text("choose both players")
    expect(page.get_by_role("alert")).to_be_in_viewport()
    page.locator("label.chip:has(input[name=attackers__1][value='2'])").tap()
    use.tap()
    expect(page.locator("p.result")).to_contain_text("Ala and Celina attack")
    expect(page.get_by_role("alert")).to_have_count(0)
    for field, value in (("#black_tj", "2"), ("#red_tj", "1")):
        page.locator(field).tap()
        page.locator(f"[data-pad] button[data-value='{value}']").tap()
        expect(page.locator(field)).to_have_value(value)
    assert loads == [] and page.evaluate("window.sameDocument") is True
    go(page, page.get_by_role("button", name="Save deal 1"))
    assert totals(page) == [5, -5, 5, -5]
