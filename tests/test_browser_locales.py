"""The table's own language in Chromium at phone size: a Black Maria deal played
in Polish (the browser asks for Polish), a Metamorphosis deal in Russian (picked
from the switch), and the longest words of every language fitting a 320 px
screen. Figures worked by hand from RULES.md (see the comments)."""

from __future__ import annotations

import pytest

from .helpers import go, served_made
from .test_browser import shot, tap_owner, totals
from .test_browser_compendium import fill_first_deal

pytestmark = pytest.mark.browser

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}


@pytest.fixture
def phone(browser):
    """A new phone whose browser asks for ``locale`` (pl-PL, …), at ``width``."""
    contexts = []

    def open_phone(locale: str = "en-GB", width: int = 390):
        context = browser.new_context(
            **{**PHONE, "viewport": {"width": width, "height": 844}}, locale=locale
        )
        contexts.append(context)
        return context.new_page()

    yield open_phone
    for context in contexts:
        context.close()


def begin(page, live_server, game, names):
    page.goto(f"{live_server}/new/{game}")
    for s, name in enumerate(names):
        page.fill(f"#name_{s}", name)
    go(page, page.locator("form button[type=submit].primary"))


def enter(page):
    """The next deal's form: on the sheet, or the page its link opens."""
    link = page.locator(".next a.primary")
    if link.count():
        go(page, link)


def save(page):
    go(page, page.locator("form button[type=submit].primary"))


def test_a_black_maria_deal_in_polish_on_a_phone(phone, live_server):
    page = phone("pl-PL")
    begin(page, live_server, "black_maria", ["Ala", "Bartek", "Celina"])
    assert page.locator("html").get_attribute("lang") == "pl"
    assert page.locator("h1").inner_text().startswith("Czarna Maria")
    assert "Rozdaje Ala" in page.locator(".next").inner_text()
    enter(page)
    form = page.locator("main").inner_text()  # the deal form, its cards in Polish letters
    assert "Kto wziął D♠?" in form and "Kto wziął A♠?" in form and "Q♠" not in form
    # deal 1: A 4♥ and Q♠ = 17, B 6♥ K♠ A♠ = 6 + 10 + 7 = 23, C 3♥ = 3 (RULES.md)
    page.fill("#hearts__0", "4")
    page.fill("#hearts__1", "6")
    # the last count is the app's suggestion (shown, not typed): the server fills it in
    assert page.get_attribute("#hearts__2", "placeholder") == "3"
    tap_owner(page, "QS", 0)
    tap_owner(page, "KS", 1)
    tap_owner(page, "AS", 1)
    shot(page, "deal-phone-pl.png", full_page=True)
    save(page)
    assert totals(page) == [17, 23, 3]
    words = page.locator("details.last").inner_text()
    assert "Ala: 4\xa0kiery, D♠ → 17" in words and "Bartek: 6\xa0kierów, K♠, A♠ → 23" in words
    assert "1.\xa0miejsce" in page.locator(".total").nth(2).inner_text()
    assert "Rozdaje Bartek" in page.locator(".next").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "sheet-phone-pl.png", full_page=True)


def test_a_metamorphosis_deal_in_russian_picked_from_the_switch(phone, live_server):
    page = phone("en-GB")
    page.goto(live_server + "/")
    go(page, page.locator("footer a[hreflang=ru]"))
    assert page.locator("html").get_attribute("lang") == "ru"
    begin(page, live_server, "metamorphosis", ["Ala", "Bartek", "Celina"])
    facts = page.locator(".next").inner_text()
    assert "Розыгрыш 1 (раунд 1, 1‑й из 4)" in facts and "Начинает Bartek" in facts
    enter(page)
    # deal 1 (-4 a club): declarations Ala 1 (the ace, «туз»), Bartek 2, Celina 1; tricks
    # 3, 5, (4); clubs 3, 5, 0 → -12, -20, 0; Celina alone best of the deal she
    # declared: +10 (RULES.md)
    ace = page.locator("label.chip:has(input[name=declarations__0][value='1'])")
    assert ace.inner_text() == "туз (1)"
    fill_first_deal(page)
    shot(page, "deal-phone-ru.png", full_page=True)
    save(page)
    assert totals(page) == [-12, -20, 10]
    facts = page.locator(".next").inner_text()
    # hands after the deal 9, 15, 12: Bartek discards 3, Ala draws 3
    assert "Заявки: Ala — розыгрыш 1, Bartek — розыгрыш 2, Celina — розыгрыш 1" in facts
    assert "Bartek сбрасывает 3 лишние карты рубашкой вверх." in facts
    assert "Ala добирает из колоды 3 карты." in facts
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "metamorphosis-phone-ru.png", full_page=True)


# The pages with the longest words of each language: a Metamorphosis sheet
# (round and deal titles, what to do with the cards) and its deal form, Variety's
# auction form, Black Maria's set-up form and the two longest rules pages; with
# Polish's proverbial longest word for a name, which no line can hold whole.
NARROW = ["ru", "pl", "cs", "eo"]
LONG = "Konstantynopolitańczykowianeczka"
PLAYERS = [LONG, "Bartłomiej", "Aleksandra", "Władysław"]


def metamorphosis_record(deals: int) -> dict:
    first = {"declarations": [1, 2, 1], "tricks": [3, 5, 4], "clubs": [3, 5, 0]}
    rest = [
        {"tricks": [2, 6, 4], "hearts": [2, 5, 1]},
        {"tricks": [5, 3, 4]},
        {"tricks": [4, 4, 4], "spades": [1, 2, 6]},
    ]
    return {
        "game": "metamorphosis",
        "players": PLAYERS[:3],
        "first_dealer": 0,
        "deals": ([first] + rest)[:deals],
    }


@pytest.mark.parametrize("lang", NARROW)
def test_long_words_fit_a_320_px_screen(phone, live_server, tmp_path, lang):
    page = phone(lang, width=320)
    made = served_made(page.context.request, live_server, metamorphosis_record(2))
    sheet = f"{live_server}/m/{made['id']}"
    made = served_made(page.context.request, live_server, {"game": "variety", "players": PLAYERS})
    variety = f"{live_server}/m/{made['id']}"
    wide = {}
    page.goto(sheet)
    assert page.locator(".next").inner_text().count(LONG) >= 2  # the words to fit are there
    for url in (
        sheet,
        sheet + "/deal",
        sheet + "/deal/1",
        variety + "/deal",
        f"{live_server}/new/black_maria",
        f"{live_server}/rules/metamorphosis",
        f"{live_server}/rules/variety",
        f"{live_server}/trick",
    ):
        page.goto(url)
        assert page.locator("html").get_attribute("lang") == lang
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 320:
            wide[url.removeprefix(live_server)] = width
            page.screenshot(path=str(tmp_path / f"wide-{len(wide)}.png"), full_page=True)
    assert wide == {}


def test_the_place_stays_on_one_line_and_a_wrapped_label_is_centred(phone, live_server):
    """The Polish reader (27): „★ 1. miejsce” broke after the star; the Czech reader
    (33): a button's label on two lines sat to the left. At 320 px, six players."""
    page = phone("pl", width=320)
    names = ["Ala", "Bartek", "Celina", "Darek", "Ewa", "Franek"]
    deal = {"hearts": [0, 2, 3, 4, 2, 1], "taken_by": {"QS": 5, "KS": 5, "AS": 5}}
    record = {"game": "black_maria", "players": names, "first_dealer": 0, "deals": [deal]}
    made = served_made(page.context.request, live_server, record)
    page.goto(f"{live_server}/m/{made['id']}")
    place = page.locator(".total.best .place")
    assert place.inner_text() == "★ 1.\xa0miejsce"
    one_line = place.evaluate(
        "e => e.getClientRects().length === 1"
        " && e.offsetHeight < 1.5 * parseFloat(getComputedStyle(e).lineHeight)"
    )
    assert one_line and page.evaluate("document.documentElement.scrollWidth") <= 320
    aligned = page.evaluate(
        "[...document.querySelectorAll('main .button, main button')]"
        ".map(b => getComputedStyle(b).textAlign)"
    )
    assert aligned and set(aligned) == {"center"}, aligned
