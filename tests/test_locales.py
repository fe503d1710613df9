"""The five languages with their real catalogs: the page's language from the
browser or the switch, every game's pages with no English left, refusals and
the CSV in the page's language, and cards in each table's letters (Д♠ in
Russian, D♠ in Polish) while the record keeps ``QS``.

The English check reads a page's visible text (text, and the labels a screen
reader says: aria-label, placeholder, title, alt) and looks for every phrase
of the English messages (messages.pot, cut at their placeholders) as whole
words; what may stay the same in a language is listed in SAME below, word by
word.
"""

from __future__ import annotations

import csv
import html
import io
import json
import os
import random
import re
import subprocess
import sys
import zipfile
from datetime import datetime
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from scorer import catalogs, store
from scorer.autoplay import play_match
from scorer.cards import display, parse
from scorer.engine import RANDOM, differences
from scorer.games import GAMES
from scorer.games.base import DEAL_WORDS
from scorer.i18n import LANGUAGES, _, join

from .helpers import BLACK_MARIA_FORM, NAMES, chained, new_bm

OTHERS = [lang for lang in LANGUAGES if lang != "en"]
HEADERS = {lang: {"Accept-Language": f"{lang},en;q=0.5"} for lang in LANGUAGES}


def get(client, url: str, lang: str) -> str:
    r = client.get(url, headers=HEADERS[lang])
    assert r.status_code == 200, (url, lang, r.status_code)
    return r.get_data(as_text=True)


# --- a card in the table's letters ---------------------------------------------------

CARDS = ["QS", "JD", "AH", "KC", "10S", "2H"]
DRAWN = {
    "en": "Q♠ J♦ A♥ K♣ 10♠ 2♥",
    "pl": "D♠ W♦ A♥ K♣ 10♠ 2♥",
    "ru": "Д♠ В♦ Т♥ К♣ 10♠ 2♥",
    "cs": "Q♠ J♦ A♥ K♣ 10♠ 2♥",
    "eo": "Q♠ J♦ A♥ K♣ 10♠ 2♥",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_card_is_drawn_in_the_table_letters_of_the_page(app, lang):
    cards = join(" ", [display(c) for c in CARDS])
    with app.test_request_context("/", headers=HEADERS[lang]):
        assert str(cards) == DRAWN[lang]
        assert cards.__html__() == DRAWN[lang]
    assert str(cards) == DRAWN["en"]  # outside a request: English


@pytest.mark.parametrize(
    "typed, card",
    [
        ("QS", "QS"),
        ("q♠", "QS"),
        ("T♥", "10H"),
        ("10h", "10H"),
        ("Д♠", "QS"),  # Russian: дама, валет, король, туз
        ("дs", "QS"),
        ("В♦", "JD"),
        ("к♣", "KC"),
        ("Т♥", "AH"),  # the Cyrillic Т is the ace; the Latin T the ten
        ("D♠", "QS"),  # Polish: dama, walet
        ("wh", "JH"),
        ("DD", "QD"),
        ("1S", None),
        ("ДП", None),  # suits are the record's letters or symbols
        ("X♠", None),
    ],
)
def test_typed_cards_read_the_record_letters_and_every_table_letters(typed, card):
    assert parse(typed) == card


# --- the language of a page ------------------------------------------------------------

HOME = {
    "en": "New match",
    "pl": "Nowa partia",
    "ru": "Новая партия",
    "cs": "Nová partie",
    "eo": "Nova partio",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_browser_language_picks_the_page_language(client, lang):
    home = get(client, "/", lang)
    assert f'<html lang="{lang}">' in home and HOME[lang] in home
    others = [HOME[o] for o in LANGUAGES if o != lang]
    assert not any(o in home for o in others)


def test_an_unknown_browser_language_gets_english_and_a_region_its_language(client):
    r = client.get("/", headers={"Accept-Language": "fr-FR,fr;q=0.9,de;q=0.8"})
    assert '<html lang="en">' in r.get_data(as_text=True)
    r = client.get("/", headers={"Accept-Language": "ru-RU,ru;q=0.9"})
    assert '<html lang="ru">' in r.get_data(as_text=True) and HOME["ru"] in r.get_data(as_text=True)


REGIONS = {"en": "en-GB", "pl": "pl-PL", "ru": "ru-RU", "cs": "cs-CZ", "eo": "eo-001"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_language_with_a_region_wins_over_a_lower_ranked_language(client, lang):
    # as Babel negotiates: "pl-PL" falls back to "pl" before "en;q=0.5" is tried
    # (werkzeug's best_match took the exact lower-ranked tag first)
    other = "pl" if lang == "en" else "en"
    for header in (
        f"{REGIONS[lang]},{other};q=0.5",
        f"{REGIONS[lang]},{other};q=0.9",
        f"{REGIONS[lang]};q=0.9,de;q=0.8,{other};q=0.1",
        f"{REGIONS[lang].upper()}, {other};q=0.8",
    ):
        page = client.get("/", headers={"Accept-Language": header}).get_data(as_text=True)
        assert f'<html lang="{lang}">' in page and HOME[lang] in page, header
    # a language refused (q=0) is not taken; a higher-ranked one wins over a region
    page = client.get("/", headers={"Accept-Language": f"{REGIONS[lang]};q=0,{other}"})
    assert f'<html lang="{other}">' in page.get_data(as_text=True)
    page = client.get("/", headers={"Accept-Language": f"{other};q=1,{REGIONS[lang]};q=0.5"})
    assert f'<html lang="{other}">' in page.get_data(as_text=True)


@pytest.mark.parametrize("lang", OTHERS)
def test_the_switch_overrides_the_browser_and_sticks(client, lang):
    r = client.get(f"/lang/{lang}?next=/rules/", headers=HEADERS["en"])
    assert r.status_code == 302 and r.headers["Location"] == "/rules/"
    for browser in LANGUAGES:  # whatever the browser says from now on
        home = get(client, "/", browser)
        assert f'<html lang="{lang}">' in home and HOME[lang] in home, browser
    client.get("/lang/en?next=/")
    assert HOME["en"] in get(client, "/", lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_switch_offers_every_language_in_its_own_words(client, lang):
    home = get(client, "/", lang)
    for code, name in {
        "en": "English",
        "pl": "Polski",
        "ru": "Русский",
        "cs": "Čeština",
        "eo": "Esperanto",
    }.items():
        assert f'lang="{code}"' in home and f">{name}</a>" in home
    assert home.count('aria-current="true"') == 1


# --- every game's pages, in every language ----------------------------------------------

PLAYERS = {"knaves": 3, "metamorphosis": 3, "variety": 4}


def played(game: str, n: int, deals: int | None = None) -> list[dict]:
    """Deals of a whole match played at random (or its first ``deals``)."""
    cls = GAMES[game]
    rules = cls(cls.normalize_options({}, n), NAMES[:n])
    out = []
    for _plan, _played, entry in play_match(rules, [RANDOM] * n, random.Random(7)):
        out.append(entry)
        if deals is not None and len(out) == deals:
            break
    return out


def imported(client, game: str, deals: list[dict]) -> int:
    n = PLAYERS.get(game, 4)
    record = {"game": game, "players": NAMES[:n], "first_dealer": 0, "deals": deals}
    r = client.post("/api/matches", json=record)
    assert r.status_code == 201, r.get_json()
    return r.get_json()["id"]


class Visible(HTMLParser):
    """A page's text as a player sees or hears it."""

    SAID = ("aria-label", "placeholder", "title", "alt")

    def __init__(self):
        super().__init__()
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.hidden += 1
        self.parts += [v for k, v in attrs if k in self.SAID and v]

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.hidden -= 1

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)


def visible(html: str) -> str:
    # the switch names every language in its own words: not the page's language
    html = re.sub(r'<nav class="langs".*?</nav>', "", html, flags=re.S)
    parser = Visible()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


# Words that are the same in English and the language, and may stay on its pages:
# proper names (of games, of people, of books and sites), and words each language
# writes as English does. A phrase of the English messages counts as English left
# when, without these words, the player letters and numbers, a word is left.
SAME_EVERYWHERE = {
    "Scorer",
    "Slobberhannes",
    "Polignac",
    "Boussac",
    "Wikipedia",
    "kyhote.com",
    "Kierki",  # the Polish name, kept (beside the Russian one in Russian)
    "King",  # the name Polish, Czech and Esperanto tables use too
    # King's sources, by their addresses
    "kakprosto.ru",
    "koon.ru",
    "benderbar.ru",
    "sallydean.com",
    "rulit.me",
}
# Addresses whose parts are English words ("card"), taken out of a page before it is read
SITES = ("card-games-online.com",)
SAME = {
    "pl": {"Omnibus", "Standard"},  # the glossary's "omnibus"
    "ru": set(),
    "cs": {"Omnibus", "auto"},  # the Czech rules' "Omnibus"
    "eo": {"for"},  # Esperanto "for": away ("tri seĝojn for")
}
# What may stand beside a translation, as docs/glossary.md says: Abbott's English
# name of Variety after its name in the language.
BESIDE = ("(Variety)",)


@cache
def english_phrases() -> tuple[str, ...]:
    """The English messages cut at their placeholders: the phrases a page in
    another language must not show (those of two letters or fewer are card
    letters, player letters and the like)."""
    with open(catalogs.POT, "rb") as f:
        pot = read_po(f)
    phrases = set()
    for m in pot:
        if not m.id:
            continue
        for msgid in [m.id] if isinstance(m.id, str) else m.id:
            for part in re.split(r"%\(\w+\)s|%s|\{\{?\s*\w*\s*\}?\}", msgid):
                part = part.strip(" \t\n.,:;!?()“”\"'—-·→✓✗★⚔/")
                if re.search(r"[A-Za-z]{3}", part):
                    phrases.add(part)
    return tuple(sorted(phrases, key=len, reverse=True))


@cache
def english_pattern(lang: str) -> re.Pattern:
    """Any phrase of english_phrases() that is English in ``lang``, as whole words."""
    allowed = SAME_EVERYWHERE | SAME[lang] | set(NAMES)
    english = [
        phrase
        for phrase in english_phrases()
        if re.search(
            r"[A-Za-z]{3}",
            " ".join(w for w in re.split(r"[\s,;:()]+", phrase) if w not in allowed),
        )
    ]
    return re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, english)) + r")(?!\w)")


def english_left(text: str, lang: str) -> list[str]:
    for beside in BESIDE + SITES:
        text = text.replace(beside, "")
    return sorted({m.group() for m in english_pattern(lang).finditer(text)})


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """Every game's pages: the set-up form, the first entry form, a sheet after
    three deals and the entry form for the next, the end screen, the rules."""
    from scorer import create_app  # noqa: PLC0415

    folder = tmp_path_factory.mktemp("locales")
    app = create_app({"TESTING": True, "DATABASE": str(folder / "scorer.db"), "SECRET_KEY": "t"})
    client = app.test_client()
    urls = {}
    for game in GAMES:
        n = PLAYERS.get(game, 4)
        whole = played(game, n)
        fresh = imported(client, game, [])
        begun = imported(client, game, whole[:3])
        ended = imported(client, game, whole)
        urls[game] = {
            "set-up form": f"/new/{game}",
            "entry form": f"/m/{fresh}/deal",
            "sheet": f"/m/{begun}",
            "entry form, deal 4": f"/m/{begun}/deal",
            "edit form": f"/m/{begun}/deal/2",
            "trick by trick": f"/m/{begun}/check?deal=2",
            "end screen": f"/m/{ended}",
            "rules": f"/rules/{game}",
        }
    return client, urls


def test_the_english_check_finds_english(pages):
    client, urls = pages
    text = visible(get(client, urls["black_maria"]["sheet"], "en"))
    assert "Deals" in english_left(text, "pl")
    assert english_left("Rozdanie 3 · Ala, Bartek · Q♠ 10♥ · 1 234", "pl") == []


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("game", list(GAMES))
def test_every_page_of_every_game_has_no_english_left(pages, game, lang):
    client, urls = pages
    left = {}
    for what, url in urls[game].items():
        html = get(client, url, lang)
        assert f'<html lang="{lang}">' in html, what
        found = english_left(visible(html), lang)
        if found:
            left[what] = found
    assert left == {}


# On a Russian page the Latin script stands only for what is no Russian word: the
# players' names, file formats, sites, and the Polish and Czech words the sources
# are quoted in.
LATIN_IN_RUSSIAN = {"Scorer", "CSV", "JSON", "xlsx", "kyhote.com", "gamerules.com", *NAMES}
# Kierki's Polish name beside the Russian, and its sources' addresses
LATIN_IN_RUSSIAN |= {"Kierki", "pagat.com", "zasadygry.pl", "walczynskir", "github.com", "casper01"}
LATIN_IN_RUSSIAN |= {"CardGames", "loteryjka"}
# King's sources' addresses, and the English name of a deal a source is quoted by
LATIN_IN_RUSSIAN |= {"card", "games", "online.com", "koon.ru", "kakprosto.ru", "rulit.me"}
LATIN_IN_RUSSIAN |= {"sallydean.com", "benderbar.ru", "rh", "No", "Men"}
QUOTED_IN_RUSSIAN = ("Černá Marie", "ciągnie", "systemem bridżowym", "Tradycyjny angielski wariant")


@pytest.mark.parametrize("game", list(GAMES))
def test_a_russian_page_has_no_latin_word_but_names_and_quotations(pages, game):
    client, urls = pages
    for what, url in urls[game].items():
        text = visible(get(client, url, "ru"))
        for quoted in QUOTED_IN_RUSSIAN:
            text = text.replace(quoted, "")
        latin = set(re.findall(r"[A-Za-z\u00c0-\u024f][A-Za-z\u00c0-\u024f.]*[A-Za-z]", text))
        assert latin <= LATIN_IN_RUSSIAN, (what, latin - LATIN_IN_RUSSIAN)


# The card letters no page of the language may show (docs/glossary.md, "Cards").
FOREIGN_LETTERS = {"pl": "QJ", "ru": "AKQJ", "cs": "ДВТW", "eo": "ДВТW"}


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("game", list(GAMES))
def test_every_page_writes_cards_in_the_table_letters_of_its_language(pages, game, lang):
    client, urls = pages
    foreign = re.compile(f"(?<!\\w)[{FOREIGN_LETTERS[lang]}][♠♥♦♣]")
    for what, url in urls[game].items():
        html = get(client, url, lang)
        assert not foreign.findall(visible(html)), what


# A hyphen-minus where a page means a minus: before a number ("-26", "(-2"), or between
# two numbers as a subtraction ("7 - 4"); a date (2026-12-06) or a range (3-6) is not one.
HYPHEN_MINUS = re.compile(r"(?<![\w\-/.:])-(?=\d)|(?<=\d) - (?=\d)")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", list(GAMES))
def test_every_page_prints_a_minus_sign_not_a_hyphen(pages, game, lang):
    """Negative points and the rules' sums print U+2212 ("−26", "7 − 4 = 3"), as Polish,
    Czech and Russian print set them (fresh readers of every language asked for it)."""
    client, urls = pages
    for what, url in urls[game].items():
        text = visible(get(client, url, lang))
        assert not HYPHEN_MINUS.findall(text), (what, HYPHEN_MINUS.search(text))
        if what == "rules" and game in ("kierki", "king"):
            assert "\u2212" in text, what  # the sign is there to see, not only a hyphen gone


@pytest.mark.parametrize("lang", OTHERS)
def test_the_index_pages_have_no_english_left(pages, lang):
    client, _urls = pages
    for url in ("/", "/new", "/rules/", "/trick", "/trick?game=hearts&cards=QS+2S+10S"):
        assert english_left(visible(get(client, url, lang)), lang) == [], url


# --- a sheet's cards, refusals and the CSV in the page's language ------------------------

BM = {"game": "black_maria", "players": NAMES[:3], "first_dealer": 0}
DEAL = {"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1}}


# The separator a spreadsheet in the language's settings splits a CSV on: ";" where
# the decimal mark is a comma (Excel in Polish, Russian, Czech), "," elsewhere.
SEPARATOR = {"en": ",", "pl": ";", "ru": ";", "cs": ";", "eo": ","}


def csv_rows(text: str, lang: str) -> list[list[str]]:
    assert text.startswith("\ufeff")  # the BOM that tells a spreadsheet it is UTF-8
    return list(csv.reader(io.StringIO(text[1:]), delimiter=SEPARATOR[lang]))


def test_the_sheet_and_the_csv_write_cards_in_the_table_letters_and_the_record_keeps_qs(client):
    mid = client.post("/api/matches", json={**BM, "deals": [DEAL]}).get_json()["id"]
    said = {  # the cards, and 4, 6 and 3 hearts as each language counts them
        "en": ("Q♠", "K♠, A♠", ("4 hearts", "6 hearts", "3 hearts")),
        "pl": ("D♠", "K♠, A♠", ("4\u00a0kiery", "6\u00a0kierów", "3\u00a0kiery")),
        "ru": ("Д♠", "К♠, Т♠", ("4 червы", "6 червей", "3 червы")),
        "cs": ("Q♠", "K♠, A♠", ("4\u00a0srdce", "6\u00a0srdcí", "3\u00a0srdce")),
        "eo": ("Q♠", "K♠, A♠", ("4 koroj", "6 koroj", "3 koroj")),
    }
    for lang, (queen, king_ace, (four, six, three)) in said.items():
        sheet = get(client, f"/m/{mid}", lang)
        assert f", {queen} → 17" in sheet, lang  # Ala: 4 hearts and Q♠ = 17
        rows = csv_rows(get(client, f"/m/{mid}/export.csv", lang), lang)
        words = f"Ala: {four}, {queen}; Bartek: {six}, {king_ace}; Celina: {three}"
        assert words in rows[1][5], lang
    record = client.get(f"/m/{mid}/record.json", headers=HEADERS["ru"]).get_json()
    assert record["deals"] == [DEAL]


CSV_HEADER = {
    "en": ["match", "deal", "dealer", "player", "seat", "entry", "points", "total", "place"],
    "pl": [
        "partia",
        "rozdanie",
        "rozdający",
        "gracz",
        "miejsce przy stole",  # the seat: "miejsce" alone is the place at the end
        "wpis",  # the deal's entry: what was taken, or Variety's calls
        "punkty",
        "suma",
        "miejsce",
    ],
    "ru": [
        "партия",
        "сдача",
        "сдающий",
        "игрок",
        "место за столом",
        "подробности",
        "очки",
        "сумма",
        "итоговое место",
    ],
    "cs": [
        "partie",
        "rozdání",
        "rozdávající",
        "hráč",
        "místo u stolu",  # the seat: "místo" is a place at the end
        "zadání",
        "body",
        "součet",
        "pořadí",
    ],
    "eo": [
        "partio",
        "disdono",
        "disdonanto",
        "ludanto",
        "seĝo",
        "enigo",
        "poentoj",
        "sumo",
        "loko",
    ],
}
SHEET_HEADER = {
    "en": ["deal", "dealer", "Ala: points", "Ala: total"],
    "pl": ["rozdanie", "rozdający", "Ala: punkty", "Ala: suma"],
    "ru": ["сдача", "сдающий", "Ala: очки", "Ala: сумма"],
    "cs": ["rozdání", "rozdávající", "Ala: body", "Ala: součet"],
    "eo": ["disdono", "disdonanto", "Ala: poentoj", "Ala: sumo"],
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_csv_header_rows_are_in_the_page_language(client, lang):
    mid = client.post("/api/matches", json={**BM, "deals": [DEAL]}).get_json()["id"]
    rows = csv_rows(get(client, f"/m/{mid}/export.csv", lang), lang)
    assert rows[0] == CSV_HEADER[lang]
    assert rows[-1][1] == CSV_HEADER[lang][7]  # the totals row: "total"
    assert csv_rows(get(client, f"/m/{mid}/sheet.csv", lang), lang)[0][:4] == SHEET_HEADER[lang]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_csv_s_seat_column_is_not_named_as_a_place_at_the_end(app, client, lang):
    mid = client.post("/api/matches", json={**BM, "deals": [DEAL]}).get_json()["id"]
    header = csv_rows(get(client, f"/m/{mid}/export.csv", lang), lang)[0]
    seat, place = header[4], header[8]
    with app.test_request_context("/", headers=HEADERS[lang]):
        places = {str(_("Place")).lower(), place.lower()}  # the league's column, the CSV's
    assert seat.lower() not in places, (seat, places)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", ["kierki", "king"])
def test_every_sentence_of_a_compendium_deal_s_facts_begins_with_a_capital(app, game, lang):
    """Each note of a deal is a sentence of its own: King's deal 5 says what its tricks
    cost as "Trick 7 −8; …", not "… play anything. trick 7 −8" (an Esperanto reader)."""
    rules = GAMES[game](GAMES[game].normalize_options({}, 4), NAMES[:4])
    with app.test_request_context("/", headers=HEADERS[lang]):
        for k in range(1, 13 if game == "kierki" else 12):
            for note in rules.plan({**rules.start(0), "played": k - 1}).notes:
                words = str(note)
                assert not words[:1].islower(), (k, words)


def test_the_league_csv_s_place_is_a_place_in_the_table_not_a_match_s_final_place(client):
    # Russian: a match's place is «итоговое место» (where a player finished), the
    # league's is its row's «место» (a reader read «итоговое место» there as wrong)
    mid = client.post("/api/matches", json={**BM, "deals": [DEAL]}).get_json()["id"]
    assert "итоговое место" in csv_rows(get(client, f"/m/{mid}/export.csv", "ru"), "ru")[0]
    header = csv_rows(get(client, "/players/league.csv", "ru"), "ru")[0]
    assert header[:3] == ["игра", "место", "игрок"]


# (The API's entry says nobody: every card unanswered is named at once.)
REFUSED = {
    "en": "say who took Q♠, K♠, and A♠",
    "pl": "wskaż, kto wziął D♠, K♠ i A♠",
    "ru": "укажите, кто взял Д♠, К♠ и Т♠",
    "cs": "uveďte, kdo vzal Q♠, K♠ a\u00a0A♠",  # Czech keeps "a" with the next word
    "eo": "diru, kiu prenis Q♠, K♠ kaj A♠",
}
# The page shows it alone, as a sentence: with a capital letter (the API as it is).
SHOWN = {
    "en": "Say who took Q♠",
    "pl": "Wskaż, kto wziął D♠",
    "ru": "Укажите, кто взял Д♠",
    "cs": "Uveďte, kdo vzal Q♠",
    "eo": "Diru, kiu prenis Q♠",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_refused_entry_is_said_in_the_page_language_and_keeps_what_was_typed(client, lang):
    mid = client.post("/api/matches", json={**BM, "deals": []}).get_json()["id"]
    r = client.post(
        f"/m/{mid}/deal",
        headers=HEADERS[lang],
        data={
            "hearts__0": "4",
            "hearts__1": "6",
            "hearts__2": "3",
            "taken_by_KS": "1",
            "taken_by_AS": "1",
            "expect": "0",
        },
    )
    html = r.get_data(as_text=True)
    assert r.status_code == 400 and SHOWN[lang] in html
    assert f'<html lang="{lang}">' in html and 'value="6"' in html
    r = client.post(f"/api/matches/{mid}/deals", json={"hearts": [4, 6, 3]}, headers=HEADERS[lang])
    assert r.status_code == 400 and r.get_json()["error"].endswith(REFUSED[lang])


# Metamorphosis says what a deal counts in the page's words, not the record's key.
COUNTED = {
    "en": "say how many clubs each player took",
    "pl": "trefle: podaj, ile ich wziął każdy gracz",
    "ru": "укажите, сколько взял каждый игрок: трефы",
    "cs": "kříže\u00a0– uveďte, kolik jich vzal každý hráč",
    "eo": "trefoj: diru, kiom ĉiu ludanto prenis",
}
NOT_COUNTED = {
    "en": "hearts are not counted in this deal",
    "pl": "kiery nie liczą się w\u00a0tej rozgrywce",
    "ru": "черви в этом розыгрыше не считаются",
    "cs": "srdce se v\u00a0této hře nepočítají",
    "eo": "koroj ne kalkuliĝas en ĉi tiu ludero",
}
TOO_MANY = {
    "en": "clubs add up to 14, but the pack has only 13",
    "pl": "trefle to razem 14, a\u00a0w\u00a0talii jest ich tylko 13",
    "ru": "трефы: в сумме 14, а в колоде их только 13",
    "cs": "kříže\u00a0– zadáno celkem 14, ale balíček jich má jen 13",
    "eo": "trefoj sumiĝas al 14, sed la kartaro havas nur 13",
}


# Ala took 1 trick, 3 cards, and is said to have taken 4 clubs (Metamorphosis, three
# players: 12 tricks). The counts are the object of "took": Esperanto says them in the
# accusative, Polish as what Ala "has" (gender-free: "wziął"/"wzięła" would need a gender).
FEW_TRICKS = {
    "en": "Ala took 1 trick (3 cards): too few for 4 clubs",
    "pl": "Ala ma 1\u00a0lewę (3\u00a0karty) – za mało na taki wpis: 4\u00a0trefle",
    "ru": "Ala: 1 взятка — это 3 карты, а указано 4 трефы",
    "cs": "Ala: 4\u00a0kříže, ale jen 1\u00a0zdvih (3\u00a0karty)\u00a0– to nestačí",
    "eo": "Ala prenis nur 1 trukon (3 kartojn): tro malmulte por 4 trefoj",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_metamorphosis_refusals_name_the_suit_in_the_page_language(client, lang):
    record = {"game": "metamorphosis", "players": NAMES[:3], "first_dealer": 0}
    first = {"declarations": [1, 2, 3], "tricks": [4, 4, 4]}
    for deal, said in (
        (first, COUNTED),
        ({**first, "clubs": [3, 3, 3], "hearts": [1, 1, 1]}, NOT_COUNTED),
        ({**first, "clubs": [5, 5, 4]}, TOO_MANY),
        ({**first, "tricks": [1, 5, 6], "clubs": [4, 0, 0]}, FEW_TRICKS),
    ):
        r = client.post("/api/matches", json={**record, "deals": [deal]}, headers=HEADERS[lang])
        assert r.status_code == 400 and said[lang] in r.get_json()["error"], r.get_json()


# Names as each language's dictionaries order them: Esperanto's ĉ, Polish ł and Czech
# ch are letters of their own after c, l and h; English sorts an accent with its letter.
ALPHABETICAL = {
    "en": ["Chmelař", "Ĉiela", "Czesław", "Hana", "Łucja", "Lucyna"],
    "pl": ["Chmelař", "Ĉiela", "Czesław", "Hana", "Lucyna", "Łucja"],
    "ru": ["Chmelař", "Ĉiela", "Czesław", "Hana", "Łucja", "Lucyna"],
    "cs": ["Ĉiela", "Czesław", "Hana", "Chmelař", "Łucja", "Lucyna"],
    "eo": ["Chmelař", "Czesław", "Ĉiela", "Hana", "Łucja", "Lucyna"],
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_names_are_listed_as_the_page_s_language_orders_them(client, lang):
    for players in (["Łucja", "Czesław", "Ĉiela"], ["Lucyna", "Hana", "Chmelař"]):
        record = {"game": "black_maria", "players": players, "first_dealer": 0, "deals": []}
        assert client.post("/api/matches", json=record).status_code == 201
    page = get(client, "/players", lang)
    listed = re.findall(r'<li><a href="/p/[^"]+"><strong>([^<]+)</strong>', page)
    assert listed == ALPHABETICAL[lang]
    home = get(client, "/?filter=1", lang)
    assert re.findall(r"<option>([^<]+)</option>", home) == ALPHABETICAL[lang]


# An option's source after its help, set off as each language's print sets a dash
# (a Czech reader: „— česká pravidla” is the English em dash; Czech prints „– ”)
SOURCE_DASH = {"en": "— ", "pl": "– ", "ru": "—\u00a0", "cs": "– ", "eo": "– "}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_option_s_source_is_set_off_by_the_language_s_dash(client, lang):
    options = re.findall(r'<span class="source">([^<]*)<', get(client, "/new/hearts", lang))
    rules = re.findall(r'<dd>[^<]*<span class="src">([^<]*)<', get(client, "/rules/hearts", lang))
    for sources in (options, rules):
        assert sources and all(s.startswith(SOURCE_DASH[lang]) for s in sources), sources


def test_a_season_and_a_league_download_are_named_in_the_page_s_language(client):
    """Two readers met English in a download's name (scorer-season, results.csv)."""
    client.post("/api/matches", json={**BM, "deals": [DEAL]})
    r = client.get("/season.zip", headers=HEADERS["pl"])
    said = r.headers["Content-Disposition"]
    assert 'filename="scorer-sezon_' in said and "filename*=UTF-8''scorer-sezon_" in said
    with zipfile.ZipFile(io.BytesIO(r.data)) as zf:
        assert {"wyniki.csv", "ranking.csv"} <= set(zf.namelist())
    # a Polish season comes back in whole: its CSVs are no records, in any language
    back = client.post(
        "/season/import",
        data={"season": (io.BytesIO(r.data), "sezon.zip")},
        content_type="multipart/form-data",
    )
    assert back.status_code == 302 and back.headers["Location"] == "/season"
    r = client.get("/players/league.csv", headers=HEADERS["ru"])
    said = r.headers["Content-Disposition"]  # Cyrillic: a plain name for an old browser
    assert 'filename="scorer_' in said and "filename*=UTF-8''scorer-%D1%80%D0%B5%D0%B9" in said


@pytest.mark.parametrize("lang, starts", [("en", "Ala starts"), ("cs", "Začíná Ala")])
def test_a_fan_tan_is_started_not_led(client, lang, starts):
    """Kierki's deal 12 plays no trick: its first player starts the rows (a Czech
    reader: «Vynáší Jana» over a fan tan). Deal 12 of a match Ala deals first is dealt
    by Darek (the deal passes left each deal) and started by Ala, on Darek's left."""
    assert NAMES[:4] == ["Ala", "Bartek", "Celina", "Darek"]  # imported's players
    mid = imported(client, "kierki", played("kierki", 4, 11))
    page = get(client, f"/m/{mid}/deal", lang)
    assert starts in page and "Darek" in page
    first = get(client, f"/m/{imported(client, 'kierki', [])}/deal", lang)
    assert starts not in first  # deal 1 is led: "Bartek leads"


def test_the_trick_page_reads_table_letters_and_answers_in_them(client):
    r = client.get(
        "/trick", query_string={"game": "hearts", "cards": "Д♠ к♠ 2♠ 10♠"}, headers=HEADERS["ru"]
    )
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and "Взятку берёт К♠ (2\u2011я карта)" in html
    r = client.get(
        "/trick", query_string={"game": "hearts", "cards": "dS ks 2s 10s"}, headers=HEADERS["pl"]
    )
    assert "K♠" in r.get_data(as_text=True)


def test_times_in_the_history_follow_the_page_s_language(client):
    mid = client.post("/api/matches", json={**BM, "deals": [DEAL]}).get_json()["id"]
    with client.application.app_context():
        at = store.history(store.get_db(), mid)[0]["at"]
    moment = datetime.fromisoformat(at)
    for lang, month in (("en", moment.strftime("%b")), ("pl", None), ("ru", None)):
        page = client.get(f"/m/{mid}/history", headers={"Accept-Language": lang}).get_data(
            as_text=True
        )
        shown = re.search(r'<time datetime="[^"]+">([^<]+)</time>', page).group(1)
        assert str(moment.year) in shown and "T" not in shown and "+00:00" not in shown
        if month:
            assert month in shown  # "Nov 30, 2026, 6:37:33 AM"
    pl = client.get(f"/m/{mid}/history", headers={"Accept-Language": "pl"}).get_data(as_text=True)
    en = client.get(f"/m/{mid}/history", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert re.search(r"<time[^>]*>([^<]+)<", pl).group(1) != re.search(
        r"<time[^>]*>([^<]+)<", en
    ).group(1)


# --- lists, dates, a game's own words, a set-up change, sentences ------------------------

LISTED = {
    "en": "Ala, Celina, and Darek",
    "pl": "Ala, Celina i Darek",
    "ru": "Ala, Celina и Darek",
    "cs": "Ala, Celina a\u00a0Darek",  # CLDR: a no-break space after the one-letter "a"
    "eo": "Ala, Celina kaj Darek",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_names_are_joined_as_the_language_lists_them(app, lang):
    with app.test_request_context("/", headers=HEADERS[lang]):
        page = app.jinja_env.from_string("{{ names | listed }}").render(
            names=["Ala", "Celina", "Darek"]
        )
    assert page == LISTED[lang] and "&" not in page


def test_co_winners_are_joined_by_the_language_s_and_never_by_an_ampersand(client):
    # deal 1: Ala takes all 13 hearts and the three spades: 43 ≥ the target of 40;
    # Bartek and Celina share the win at 0
    record = {
        **BM,
        "options": {"target": 40},
        "deals": [{"hearts": [13, 0, 0], "taken_by": {"QS": 0, "KS": 0, "AS": 0}}],
    }
    mid = client.post("/api/matches", json=record).get_json()["id"]
    said = {"pl": "Bartek i Celina", "ru": "Bartek и Celina", "cs": "Bartek a Celina"}
    for lang, pair in said.items():
        page = visible(get(client, f"/m/{mid}", lang))
        assert pair in page and "&" not in page, lang


# The end's heading: a pair that won as a team, and Polignac's winners (all but who
# reached the target, on different totals), are not players who tie ("ex aequo").
WON = {
    "en": ("Bartek and Darek win as a pair", "Bartek, Darek, and Celina win"),
    "pl": ("Wygrywa para: Bartek i Darek", "Wygrywają: Bartek, Darek i Celina"),
    "ru": ("Победила пара: Bartek и Darek", "Победители: Bartek, Darek и Celina"),
    "cs": ("Vyhrává dvojice Bartek a Darek", "Vyhrávají Bartek, Darek a Celina"),
    "eo": ("Venkis la paro: Bartek kaj Darek", "Venkis: Bartek, Darek kaj Celina"),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_pair_s_win_and_polignac_s_end_are_not_said_as_a_tie(client, lang):
    four = {"players": NAMES[:4], "first_dealer": 0}
    # Ala takes all 13 hearts and the three spades: 43, over 40; Bartek and Darek's pair wins
    pair = {
        **four,
        "game": "black_maria",
        "options": {"partnership": True, "target": 40},
        "deals": [{"hearts": [13, 0, 0, 0], "taken_by": {"QS": 0, "KS": 0, "AS": 0}}],
    }
    # Polignac to 5: Ala takes J♠, J♣ and J♥ (4), Celina J♦ (1): not yet; then Ala J♦ (5)
    jacks = {"JS": 0, "JC": 0, "JH": 0, "JD": 2}
    polignac = {
        **four,
        "game": "polignac",
        "options": {"target": 5},
        "deals": [{"taken_by": jacks}, {"taken_by": {**jacks, "JD": 0}}],
    }
    for record, heading in zip((pair, polignac), WON[lang], strict=True):
        r = client.post("/api/matches", json=record)
        assert r.status_code == 201, r.get_json()
        page = visible(get(client, f"/m/{r.get_json()['id']}", lang))
        assert heading in page, (heading, page[:600])
        assert "ex aequo" not in page and "share" not in page


DAY = {  # 1 December 2026, as each language writes a date
    "en": "Dec 1, 2026",
    "pl": "1 grudnia 2026",  # in words, the month in the genitive
    "ru": "1 дек. 2026\u202fг.",  # a narrow no-break space before г.
    "cs": "1. 12. 2026",
    "eo": "la 1\u2011an de decembro 2026",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_date_is_written_in_the_page_s_language(app, lang):
    from scorer.i18n import day, day_and_time  # noqa: PLC0415

    moment = datetime(2026, 12, 1, 12, 36, 26)
    with app.test_request_context("/", headers=HEADERS[lang]):
        assert day(moment) == DAY[lang]
        # Esperanto: a date after a verb takes the accusative ("komencita la 1-an"),
        # a date and time standing alone in a list the nominative ("la 1-a de …")
        alone = "la 1\u2011a de decembro 2026" if lang == "eo" else DAY[lang][:4]
        assert day_and_time(moment).startswith(alone)
        assert "36" in day_and_time(moment)
        if lang == "pl":  # no seconds, short or not
            assert day_and_time(moment) == day_and_time(moment, "short") == "1 grudnia 2026, 12:36"


def test_the_esperanto_home_page_writes_its_months_in_esperanto(client):
    client.post("/api/matches", json={**BM, "deals": [DEAL]})
    home = visible(get(client, "/", "eo"))
    assert re.search(r"komencita la \d{1,2}\u2011an de [a-zŭ]+o \d{4}", home), home
    english = r"\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b"
    assert not re.search(english, home)


# Metamorphosis counts its plays where the other games count deals (docs/glossary.md).
PLAYS = {
    "pl": ("Wpisz rozgrywkę 1", "1 rozgrywka"),
    "ru": ("Записать розыгрыш 1", "1 розыгрыш"),
    "en": ("Enter deal 1", "1 deal"),
}


def test_a_game_with_words_of_its_own_has_every_one_of_them():
    for cls in GAMES.values():
        assert cls.deal_words.keys() == DEAL_WORDS.keys(), cls.key
        for key, message in cls.deal_words.items():
            assert message.msgid == DEAL_WORDS[key].msgid, (cls.key, key)


def test_a_metamorphosis_deal_refused_for_a_field_it_lacks_says_play(client):
    """The API's refusal of an unknown field is in the game's deal words: a
    Metamorphosis play is «розыгрыш», not «сдача» (the tenth Russian reading)."""
    record = {"game": "metamorphosis", "players": NAMES[:3], "first_dealer": 0, "deals": []}
    mid = client.post("/api/matches", json=record).get_json()["id"]
    deal = {"declarations": [1, 2, 1], "tricks": [3, 5, 4], "clubs": [3, 5, 0], "x": 1}
    said = {}
    for lang in ("ru", "pl", "en"):
        r = client.post(f"/api/matches/{mid}/deals", json=deal, headers={"Accept-Language": lang})
        assert r.status_code == 400
        said[lang] = r.get_json()["error"]
    assert "неизвестное поле x в этом розыгрыше" in said["ru"]
    assert "nieznane pole x w\u00a0tej rozgrywce" in said["pl"]
    assert "unknown field x in this deal" in said["en"]


@pytest.mark.parametrize("lang", list(PLAYS))
def test_metamorphosis_pages_count_plays_not_deals(client, lang):
    record = {"game": "metamorphosis", "players": NAMES[:3], "first_dealer": 0, "deals": []}
    mid = client.post("/api/matches", json=record).get_json()["id"]
    enter, count = PLAYS[lang]
    assert enter in visible(get(client, f"/m/{mid}", lang))
    first = {"declarations": [1, 2, 1], "tricks": [3, 5, 4], "clubs": [3, 5, 0]}
    client.post(f"/api/matches/{mid}/deals", json=first)
    home = visible(get(client, "/", lang))
    assert count in home
    if lang != "en":
        # no page of the match, nor its CSVs, counts a deal: the check, the delete,
        # the column of numbers say rozgrywka / розыгрыш too
        # ("no new deal" is the dealing itself, which a later play has none of)
        deal = "rozdani" if lang == "pl" else "сдач"
        pages = ("/", f"/m/{mid}", f"/m/{mid}/deal", f"/m/{mid}/check", f"/m/{mid}/history")
        pages += (f"/m/{mid}/share",)
        for url in (*pages, f"/m/{mid}/deal/1"):
            text = visible(get(client, url, lang)).replace("Bez nowego rozdania", "")
            assert deal not in text.lower(), url
        for url in (f"/m/{mid}/export.csv", f"/m/{mid}/sheet.csv"):
            assert deal not in get(client, url, lang).lower(), url


# The queue note's lines for several deals waiting on the phone, and a held row's:
# Metamorphosis' in its plays, every other game's in deals.
QUEUED = {
    ("pl", "metamorphosis"): (
        "Rozgrywki {list}: jeszcze niezapisane – czekają na połączenie.",
        "Rozgrywki {list}: jeszcze niezapisane – najpierw popraw wpis odrzucony wyżej.",
        "nie zapisano – zobacz wyżej",
    ),
    ("pl", "hearts"): (
        "Rozdania {list}: jeszcze niezapisane – czekają na połączenie.",
        "Rozdania {list}: jeszcze niezapisane – najpierw popraw wpis odrzucony wyżej.",
        "nie zapisano – zobacz wyżej",
    ),
    ("ru", "metamorphosis"): (
        "Розыгрыши {list}: ещё не сохранены — нет связи.",
        "Розыгрыши {list}: ещё не сохранены — сначала исправьте то, что отклонено выше.",
        "не сохранён: откройте его выше",
    ),
    ("ru", "hearts"): (
        "Сдачи {list}: ещё не сохранены — нет связи.",
        "Сдачи {list}: ещё не сохранены — сначала исправьте то, что отклонено выше.",
        "не сохранено: откройте её выше",
    ),
}


@pytest.mark.parametrize("lang, game", list(QUEUED))
def test_the_queue_note_names_the_deals_that_wait_in_the_game_s_words(client, lang, game):
    players = NAMES[: PLAYERS.get(game, 4)]
    record = {"game": game, "players": players, "first_dealer": 0, "deals": []}
    mid = client.post("/api/matches", json=record).get_json()["id"]
    waiting, behind, held = QUEUED[(lang, game)]
    for url in (f"/m/{mid}", f"/m/{mid}/deal"):
        page = html.unescape(get(client, url, lang))
        assert f'data-waiting-many="{waiting}"' in page, url
        assert f'data-behind-many="{behind}"' in page, url
        assert f'data-row-held="{held}"' in page, url


# What the API and an import refuse counts plays too: (a refused play 2, no play 7,
# play 2 before play 3, play 1 entered again and differently).
REFUSALS = {
    "pl": (
        "rozgrywka 2: ",
        "nie ma rozgrywki 7",
        "rozgrywka 2 nie jest jeszcze wpisana",
        "rozgrywka 1 jest już wpisana, i\u00a0to inaczej",
    ),
    "ru": (
        "розыгрыш 2\u00a0— ",
        "розыгрыша 7 нет",
        "розыгрыш 2 ещё не введён",
        "розыгрыш 1 уже введён, причём иначе",
    ),
    "en": ("deal 2: ", "there is no deal 7", "deal 2 is not entered yet", "deal 1 is entered"),
}


@pytest.mark.parametrize("lang", list(REFUSALS))
def test_metamorphosis_refusals_of_the_api_and_an_import_count_plays(client, lang):
    first = {"declarations": [1, 2, 1], "tricks": [3, 5, 4], "clubs": [3, 5, 0]}
    record = {"game": "metamorphosis", "players": NAMES[:3], "first_dealer": 0, "deals": [first]}
    mid = client.post("/api/matches", json=record).get_json()["id"]
    refused, missing, gap, differs = REFUSALS[lang]
    h = HEADERS[lang]
    url = f"/api/matches/{mid}/deals"
    r = client.post(url, json={"tricks": [1, 1, 1]}, headers=h)
    assert r.status_code == 400 and r.get_json()["error"].startswith(refused), r.get_json()
    r = client.delete(f"{url}/7", headers=h)
    assert r.status_code == 404 and r.get_json()["error"] == missing
    r = client.post(f"{url}?deal=3", json=first, headers=h)
    assert r.status_code == 409 and r.get_json()["error"].startswith(gap)
    other = {"declarations": [1, 2, 1], "tricks": [5, 3, 4], "clubs": [5, 3, 0]}
    r = client.post(f"{url}?deal=1", json=other, headers=h)
    assert r.status_code == 409 and r.get_json()["error"].startswith(differs)
    bad = {**record, "deals": [first, {"tricks": [1, 1, 1]}]}
    r = client.post("/api/matches", json=bad, headers=h)
    assert r.status_code == 400 and refused in r.get_json()["error"], r.get_json()


SET_UP = {
    "en": "Bartek is now Bartosz; Target: 100 → 200",
    "pl": "Bartek to teraz Bartosz; Limit punktów: 100 → 200",
    "ru": "Bartek теперь Bartosz; Целевой счёт: 100 → 200",
    "cs": "Přejmenováno: Bartek → Bartosz; Cílové skóre: 100 → 200",
    "eo": "Bartek nun estas Bartosz; Celpoentaro: 100 → 200",
}


def test_a_set_up_change_is_said_in_table_words_in_the_history(client):
    mid = client.post("/api/matches", json={**BM, "deals": [DEAL]}).get_json()["id"]
    form = {
        "name_0": "Ala",
        "name_1": "Bartosz",
        "name_2": "Celina",
        "first_dealer": "0",
        "opt_scoring": "black_maria",
        "opt_end": "target",
        "opt_target": "200",
        "opt_spot_values": "10-10-10-15",
    }
    assert client.post(f"/m/{mid}/setup", data=form).status_code == 302
    for lang, said in SET_UP.items():
        page = visible(get(client, f"/m/{mid}/history", lang))
        assert said in page, lang
        assert "spot_values" not in page and "target 100" not in page


SENTENCE = {
    "en": "Write the players' names",
    "pl": "Wpisz imiona graczy",
    "ru": "Впишите имена игроков",
    "cs": "Napište jména hráčů",
    "eo": "Skribu la nomojn de la ludantoj",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_message_shown_alone_begins_with_a_capital(client, lang):
    r = client.post("/new/black_maria", data={"first_dealer": "0"}, headers=HEADERS[lang])
    assert r.status_code == 400
    assert SENTENCE[lang] in visible(r.get_data(as_text=True))


# Slobberhannes names a missing trick as the object of "who took" (the eo reader:
# "kiu prenis la lasta truko" cannot be; the accusative "la lastan trukon" can).
WHO_TOOK = {
    "en": ("say who took the last trick", "say who took Q♣"),
    "pl": ("wskaż, kto wziął ostatnią lewę", "wskaż, kto wziął D♣"),
    "ru": ("укажите, кто взял последнюю взятку", "укажите, кто взял Д♣"),
    "cs": ("uveďte, kdo vzal poslední zdvih", "uveďte, kdo vzal Q♣"),
    "eo": ("diru, kiu prenis la lastan trukon", "diru, kiu prenis Q♣"),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_missing_taker_is_asked_for_as_a_trick_or_a_card(client, lang):
    record = {"game": "slobberhannes", "players": NAMES[:4], "first_dealer": 0, "deals": []}
    mid = client.post("/api/matches", json=record).get_json()["id"]
    trick, card = WHO_TOOK[lang]
    for taken_by, said in (
        ({"first_trick": 0, "QC": 1}, trick),
        ({"first_trick": 0, "last_trick": 2}, card),
    ):
        r = client.post(
            f"/api/matches/{mid}/deals", json={"taken_by": taken_by}, headers=HEADERS[lang]
        )
        assert r.status_code == 400 and said in r.get_json()["error"], r.get_json()


# A count that does not add up names the question as the form asks it ("Hearts taken"),
# where a language says it so; English keeps docs/record.md's "hearts add up to 14".
COUNT_REFUSED = {
    "en": "Hearts add up to 14, but 13 are in play",
    "pl": "Wzięte kiery to razem 14, a powinno być 13",
    "ru": "Взятые черви: в сумме 14, а всего их 13",
    "cs": "Vzatá srdce – zadáno celkem 14, ale má jich být 13",
    "eo": "Prenitaj koroj sumiĝas al 14, sed en la ludo estas 13",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_count_that_does_not_add_up_names_the_form_s_question(client, lang):
    mid = client.post("/api/matches", json={**BM, "deals": []}).get_json()["id"]
    form = {"hearts__0": "5", "hearts__1": "6", "hearts__2": "3", "expect": "0"}
    form.update({"taken_by_QS": "0", "taken_by_KS": "1", "taken_by_AS": "1"})
    r = client.post(f"/m/{mid}/deal", data=form, headers=HEADERS[lang])
    assert r.status_code == 400
    assert COUNT_REFUSED[lang] in visible(r.get_data(as_text=True))
    assert client.get(f"/api/matches/{mid}").get_json()["deals"] == []


def test_the_trick_page_s_example_is_in_the_table_s_letters(client):
    for lang, example in (("en", "10♣ K♣ 2♣ 7♥"), ("ru", "10♣ К♣ 2♣ 7♥"), ("pl", "10♣ K♣ 2♣ 7♥")):
        assert f'placeholder="{example}"' in get(client, "/trick", lang), lang


# RULES.md: a 3-player Black Maria takes out 2♣; a trick has a card from each player.
TRICK_REFUSED = {
    "pl": ("Czarna Maria: 2♣ nie należy do talii przy 3 graczach", "nie może mieć 2 kart"),
    "ru": ("2♣ нет в колоде игры «Чёрная Мария» при 3 игроках", "взятки из 2 карт не бывает"),
    "cs": ("2♣ není v balíčku hry Černá Marie pro 3 hráče", "nemůže mít 2 karty"),
    "eo": ("2♣ ne estas en la kartaro de la ludo Nigra Maria kun 3 ludantoj", "ne 2 kartoj"),
}


@pytest.mark.parametrize("lang", list(TRICK_REFUSED))
def test_the_trick_page_says_what_is_wrong_with_a_trick(client, lang):
    out, short = TRICK_REFUSED[lang]
    for cards, said in (("2C KC AC", out), ("QS 2S", short)):
        r = client.get(
            "/trick", query_string={"game": "black_maria", "cards": cards}, headers=HEADERS[lang]
        )
        assert r.status_code == 400 and said in visible(r.get_data(as_text=True)), (lang, cards)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_csv_is_split_on_the_separator_of_the_language_s_spreadsheets(client, lang):
    mid = client.post("/api/matches", json={**BM, "deals": [DEAL]}).get_json()["id"]
    text = get(client, f"/m/{mid}/sheet.csv", lang)
    deal = text.splitlines()[1]  # deal 1, Ala dealt: Ala 17 17, Bartek 23 23, Celina 3 3
    sep = SEPARATOR[lang]
    assert deal == sep.join(["1", '"Ala"', "17", "17", "23", "23", "3", "3"])


def test_the_sheet_as_xlsx_holds_numbers_as_numbers_and_names_as_text(client):
    from openpyxl import load_workbook  # noqa: PLC0415

    deals = [DEAL, {"hearts": [2, 1, 10], "taken_by": {"QS": 1, "KS": 2, "AS": 2}}]
    record = {"game": "black_maria", "players": ["=Ala", "Bartek", "1234"], "first_dealer": 0}
    mid = client.post("/api/matches", json={**record, "deals": deals}).get_json()["id"]
    r = client.get(f"/m/{mid}/sheet.xlsx", headers=HEADERS["pl"])
    assert r.status_code == 200 and r.headers["Content-Type"].startswith(
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    )
    assert ".xlsx" in r.headers["Content-Disposition"]
    sheet = load_workbook(io.BytesIO(r.data)).active
    assert sheet.title == "Czarna Maria"  # the game's name, its space kept (not „Czarna-Maria”)
    rows = [list(row) for row in sheet.iter_rows(values_only=True)]
    # deal 1 (Ala deals): 17, 23, 3; deal 2 (Bartek deals): =Ala 2♥ = 2, Bartek 1♥ Q♠ = 14,
    # 1234 10♥ K♠ A♠ = 27; totals 19, 37, 30: =Ala first
    players = [f"{n}: {w}" for n in ("=Ala", "Bartek", "1234") for w in ("punkty", "suma")]
    assert rows[0] == ["rozdanie", "rozdający", *players]
    assert rows[1] == [1, "=Ala", 17, 17, 23, 23, 3, 3]
    assert rows[2] == [2, "Bartek", 2, 19, 14, 37, 27, 30]
    assert rows[3] == ["suma", None, None, 19, None, 37, None, 30]
    assert rows[4] == ["miejsce", None, None, 1, None, 3, None, 2]
    assert sheet.cell(2, 2).data_type == "s" and sheet.cell(2, 3).data_type == "n"
    assert all(isinstance(v, int) for v in rows[3][3::2])


def test_a_worksheet_s_name_loses_only_what_excel_refuses():
    from scorer.record import sheet_name  # noqa: PLC0415

    assert sheet_name("Černá Marie") == "Černá Marie"
    assert sheet_name("a [b]: c*d? e/f\\g") == "a b cd efg"
    assert sheet_name("'" + "Чёрная Мария " * 3) == "Чёрная Мария Чёрная Мария Чёрна"  # 31
    assert sheet_name(" ?* ") == "Scorer"


# Two numbers next to each other are "2 or 3", not a range (the Esperanto review, 27).
TWO_OR_THREE = {
    "en": ("2 or 3 players", "2 or 3 names"),
    "pl": ("2 lub 3 graczy", "2 lub 3 imiona"),
    "ru": ("2 или 3 игрока", "2 или 3 имени"),
    "cs": ("2 nebo 3 hráči", "2 nebo 3 jména"),
    "eo": ("2 aŭ 3 ludantoj", "2 aŭ 3 nomoj"),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_two_numbers_next_to_each_other_are_one_or_the_other(client, lang):
    players, names = TWO_OR_THREE[lang]
    assert players in visible(get(client, "/new", lang))  # Metamorphosis: 2 or 3
    assert names in visible(get(client, "/new/metamorphosis", lang))
    assert "3–6" in visible(get(client, "/new", lang))  # a real range stays one (Hearts)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_choice_the_trick_page_does_not_offer_is_refused_in_the_page_s_words(client, lang):
    r = client.get("/trick?game=variety&contract=6&cards=QS+KS+2S+3S", headers=HEADERS[lang])
    assert r.status_code == 400
    page = r.get_data(as_text=True)
    assert "Not a valid choice" not in page  # WTForms' own English
    assert 'class="error"' in page


TIED = {"en": "Ala and Bartek", "pl": "Ala i Bartek", "ru": "Ala и Bartek", "cs": "Ala a Bartek"}


@pytest.mark.parametrize("lang", list(TIED))
def test_a_game_s_note_lists_the_players_as_the_language_does(client, lang):
    # Metamorphosis deal 1: Ala and Bartek take no club, Celina 3: tied for the best
    record = {"game": "metamorphosis", "players": NAMES[:3], "first_dealer": 0, "deals": []}
    mid = client.post("/api/matches", json=record).get_json()["id"]
    deal = {"declarations": [1, 2, 3], "tricks": [4, 4, 4], "clubs": [0, 0, 3]}
    client.post(f"/api/matches/{mid}/deals", json=deal)
    assert TIED[lang] in visible(get(client, f"/m/{mid}", lang))


ASKED = {"en": "Who took Q♣?", "pl": "Kto wziął D♣?", "ru": "Кто взял Д♣?", "eo": "Kiu prenis Q♣?"}


@pytest.mark.parametrize("lang", list(ASKED))
def test_slobberhannes_asks_of_its_queen_as_every_game_asks_of_a_card(client, lang):
    record = {"game": "slobberhannes", "players": NAMES[:4], "first_dealer": 0, "deals": []}
    mid = client.post("/api/matches", json=record).get_json()["id"]
    assert ASKED[lang] in visible(get(client, f"/m/{mid}/deal", lang))


# A Slobberhannes deal with nobody named for anything: one question naming everything
# missing, listed as the language lists, the tricks as its object ("pierwszą lewę",
# «первую взятку», "la unuan trukon"), in the order the form asks them.
NOBODY_NAMED = {
    "en": "say who took the first trick, the last trick, and Q♣",
    "pl": "wskaż, kto wziął pierwszą lewę, ostatnią lewę i D♣",
    "ru": "укажите, кто взял первую взятку, последнюю взятку и Д♣",
    "cs": "uveďte, kdo vzal první zdvih, poslední zdvih a\u00a0Q♣",
    "eo": "diru, kiu prenis la unuan trukon, la lastan trukon kaj Q♣",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_question_left_unanswered_is_named_at_once(client, lang):
    record = {"game": "slobberhannes", "players": ["Ala", "Bartek", "Celina", "Darek"]}
    mid = client.post("/api/matches", json={**record, "deals": []}).get_json()["id"]
    r = client.post(f"/api/matches/{mid}/deals", json={"taken_by": {}}, headers=HEADERS[lang])
    assert r.status_code == 400 and r.get_json()["error"].endswith(NOBODY_NAMED[lang])


# The same, shown alone on the deal form: it begins with a capital, as every message
# shown alone does.


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_unanswered_questions_shown_alone_begin_with_a_capital(client, lang):
    record = {"game": "slobberhannes", "players": ["Ala", "Bartek", "Celina", "Darek"]}
    mid = client.post("/api/matches", json={**record, "deals": []}).get_json()["id"]
    page = client.get(f"/m/{mid}/deal", headers=HEADERS[lang]).get_data(as_text=True)
    seen = {
        n: re.search(rf'name="{n}" type="hidden" value="([^"]*)"', page)
        for n in ("expect", "key", "number")
    }
    form = {n: m.group(1) for n, m in seen.items() if m}
    r = client.post(f"/m/{mid}/deal", data=form, headers=HEADERS[lang])
    first = NOBODY_NAMED[lang].replace("\u00a0", " ")
    shown = visible(r.get_data(as_text=True)).replace("\u00a0", " ")
    assert r.status_code == 400 and first[0].upper() + first[1:] in shown


# --- the check page's differences from the quick entry ---------------------------------

# What a difference must not show: the record's keys, its card codes, its true and false,
# a seat counted from 0, and "summary" for what the page calls the quick entry.
RECORD_WORDS = re.compile(
    r"(?<!\w)(?:\w+_\w+|[AKQJ]|10|[2-9])[SHDC](?!\w)|(?<!\w)(?:\w+_\w+|true|false|seat \d|"
    r"summary|miejsce \d|место \d|místo \d|seĝo \d)(?!\w)"
)
# the record's own keys, which only an English label may share a word with
KEYS = re.compile(r"(?<!\w)(?:hearts|tricks|taken|capot|made|red|spades|clubs)(?!\w)")


def contradicted(entry: dict, decisions: tuple[str, ...], n: int) -> tuple[dict, list]:
    """A quick entry that differs from ``entry`` in every field the tricks decide,
    and what each difference must name: (player names, numbers) per line."""
    quick, expected = {}, []
    for key, value in entry.items():
        if key == "play" or key in decisions:
            quick[key] = value
        elif key == "taken_by":
            quick[key] = {c: 0 if s is None else (s + 1) % n for c, s in value.items()}
            for c, s in value.items():
                names = [NAMES[quick[key][c]]] + ([NAMES[s]] if s is not None else [])
                expected.append((names, []))
        elif isinstance(value, list):  # a count per player
            quick[key] = [v + 1 for v in value]
            expected += [([NAMES[s]], [v + 1, v]) for s, v in enumerate(value)]
        else:  # a count of the whole deal (Variety's attackers)
            quick[key] = value + 1
            expected.append(([], [value + 1, value]))
    return quick, expected


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", list(GAMES))
def test_the_check_says_each_difference_in_the_table_s_words_with_names(client, game, lang):
    n = PLAYERS.get(game, 4)
    rules = GAMES[game](GAMES[game].normalize_options({}, n), NAMES[:n])
    deals = []
    for _plan, tricks, entry in play_match(rules, [RANDOM] * n, random.Random(7)):
        deals.append({**entry, "play": tricks.record()})
        if len(deals) == 2:
            break
    mid = imported(client, game, deals)
    page = get(client, f"/m/{mid}/check?deal=2", lang)
    form = {
        name: html.unescape(value)
        for name, value in re.findall(r'name="(\w+)" type="hidden" value="([^"]*)"', page)
    }
    quick, expected = contradicted(deals[1], GAMES[game].decisions, n)
    form["quick"] = json.dumps(quick)
    r = client.post(f"/m/{mid}/check?deal=2", data=form, headers=HEADERS[lang])
    assert r.status_code == 200
    lines = [
        visible(li)
        for li in re.findall(
            r"<li>(.*?)</li>",
            re.search(r'<ul class="diffs">(.*?)</ul>', r.get_data(as_text=True), re.S).group(1),
        )
    ]
    assert len(lines) == len(expected), lines
    for line, (names, numbers) in zip(lines, expected, strict=True):
        assert not RECORD_WORDS.search(line), line
        assert lang == "en" or not KEYS.search(line), line
        for name in names:
            assert name in line, (line, name)
        # a line about who took a card or a trick says no number (no seat counted from 0)
        assert names == [] or len(names) == 1 or not re.search(r"\d", line.replace("10", "")), line
        figures = [int(x) for x in re.findall(r"\d+", line)]
        assert all(x in figures for x in numbers), (line, numbers)
        assert line[:1].isupper(), line


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_capot_the_tricks_did_not_make_is_said_in_the_table_s_words(app, lang):
    rules = GAMES["polignac"](GAMES["polignac"].normalize_options({"capot": True}, 4), NAMES[:4])
    with app.test_request_context("/", headers=HEADERS[lang]):
        (line,) = [
            str(d.message)
            for d in differences(
                {"capot": {"seat": 2, "made": True}}, {"capot": {"seat": 2, "made": False}}, rules
            )
        ]
    assert not RECORD_WORDS.search(line) and "true" not in line and "false" not in line, line
    assert lang == "en" or not re.search(r"(?<!\w)(?:capot|made)(?!\w)", line), line


# --- the command line and the start-up lines, in the language LANG asks for -----------

LANG = {
    "en": "en_GB.UTF-8",
    "pl": "pl_PL.UTF-8",
    "ru": "ru_RU.UTF-8",
    "cs": "cs_CZ.UTF-8",
    "eo": "eo.UTF-8",
}
# the system's own English, which a command used to pass through
SYSTEM_ENGLISH = re.compile(
    r"No such file|not a database|Permission denied|Is a directory|unable to open|File exists|"
    r"codec can't decode|(?<!\w)this machine|(?<!\w)the table(?!\w)",
    re.I,
)


def said_by_commands(app, folder, lang: str) -> dict[str, str]:
    """What each command says, each way it can end, under LANG=``lang``."""
    from scorer import address  # noqa: PLC0415

    env = {"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": LANG[lang]}
    runner = app.test_cli_runner()

    def run(*args):
        return runner.invoke(args=list(args), env=env).output

    notdb = folder / "notes.txt"
    notdb.write_text("not a database at all\n" * 50)
    copy = folder / f"copy-{lang}.db"
    out = {
        "links, none": run("links", "--base", "https://scorer.test:8443"),
        "backup": run("backup", str(copy)),
        "backup, a folder": run("backup", str(folder)),
        "backup, through a file": run("backup", str(notdb / "copy.db")),
        "restore, missing": run("restore", str(folder / "missing.db")),
        "restore, not a database": run("restore", str(notdb)),
        "restore, a folder": run("restore", str(folder)),
        "restore": run("restore", str(copy)),
        "replay, missing": run("replay", str(folder / "missing.json")),
        "replay, a folder": run("replay", str(folder)),
        "replay, not UTF-8": run("replay", str(folder / "latin.json")),
        "rebuild": run("rebuild"),
        "replay, no file": run("replay"),
    }
    for command in ("replay", "backup", "restore", "rebuild", "links"):
        out[f"{command} --help"] = run(command, "--help")
    # the host's command, `scorer`: every word of it, its first lines too
    from click.testing import CliRunner  # noqa: PLC0415

    from scorer import create_app  # noqa: PLC0415
    from scorer.cli import Host  # noqa: PLC0415

    host = {**env, "SCORER_INSTANCE": str(folder / f"host-{lang}")}

    def scorer(*args):
        return CliRunner().invoke(Host(create_app), list(args), env=host, prog_name="scorer").output

    out["scorer --help"] = scorer("--help")
    out["scorer backup --help"] = scorer("backup", "--help")
    out["scorer, no such command"] = scorer("zzz")
    out["scorer replay, no file"] = scorer("replay")
    out["scorer restore, missing"] = scorer("restore", str(folder / "missing.db"))
    out["scorer, an option mistyped"] = scorer("links", "--bas", "x")
    out["scorer, an option without its value"] = scorer("links", "--base")
    out["scorer, an argument too many"] = scorer("backup", "a.db", "b.db")
    lines = io.StringIO()
    banner_env = {**env, "HOST": "127.0.0.1", "PORT": "5000"}
    address.banner(banner_env, lines)
    address.banner({**banner_env, "HOST": "0.0.0.0"}, lines)
    out["make run"] = lines.getvalue()
    lines = io.StringIO()
    table = {
        **banner_env,
        "SCORER_PUBLIC_URL": "https://192.0.2.7:8443",
        "SCORER_TRUST_URL": "http://192.0.2.7:8000/trust",
    }
    address.banner(table, lines)
    out["make table"] = lines.getvalue()
    return {k: v.replace(str(folder), "FOLDER") for k, v in out.items()}


@pytest.fixture(scope="module")
def commands(tmp_path_factory):
    from scorer import create_app  # noqa: PLC0415

    folder = tmp_path_factory.mktemp("commands")
    (folder / "latin.json").write_bytes('{"players": ["Zoë"]}'.encode("latin-1"))
    app = create_app({"TESTING": True, "DATABASE": str(folder / "scorer.db"), "SECRET_KEY": "t"})
    return {lang: said_by_commands(app, folder, lang) for lang in LANGUAGES}


def test_the_english_commands_say_what_is_checked_below(commands):
    said = commands["en"]
    assert "there is no file FOLDER/missing.db" in said["restore, missing"]
    assert "there is no such file" in said["replay, missing"]
    assert "it is a folder, not a file" in said["replay, a folder"]
    assert "a part of its path is a file, not a folder" in said["backup, through a file"]
    assert "notes.txt is not a Scorer database" in said["restore, not a database"]
    assert said["restore, a folder"].startswith("Nothing restored: FOLDER is a folder, not a file")
    assert said["restore"].startswith("Restored from FOLDER/copy-en.db; ")
    assert "Scan it with a phone's camera" in said["make table"]
    assert "A phone's first time" in said["make table"]
    assert "(this machine only)" in said["make run"]
    assert "Did you mean one of: '--all', '--base'?" in said["scorer, an option mistyped"]
    assert "Option '--base' requires an argument." in said["scorer, an option without its value"]
    assert "Got unexpected extra argument (b.db)" in said["scorer, an argument too many"]


def test_the_host_s_command_is_scorer_with_the_app_s_commands_alone(commands, tmp_path):
    """`scorer` (pyproject.toml's script) runs the app's commands on the instance
    folder the server uses, and lists nothing of Flask's own (run, shell, routes,
    --app, --version): Flask's English has no catalog of ours."""
    said = commands["en"]["scorer --help"]
    assert said.startswith("Usage: scorer [OPTIONS] COMMAND [ARGS]...")
    listed = said.split("Commands:")[1].split()
    assert [w for w in listed if w in ("backup", "links", "rebuild", "replay", "restore")] == [
        "backup",
        "links",
        "rebuild",
        "replay",
        "restore",
    ]
    for flask_s in ("run", "shell", "routes", "--app", "--version", "--debug", "--env-file"):
        assert flask_s not in said.split(), flask_s
    assert "No such command 'zzz'" in commands["en"]["scorer, no such command"]
    script = Path(sys.executable).parent / "scorer"
    env = {**os.environ, "SCORER_INSTANCE": str(tmp_path), "LANG": "C.UTF-8", "LANGUAGE": ""}
    env.pop("LC_ALL", None)
    done = subprocess.run([script, "backup"], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    copy = Path(done.stdout.strip())
    assert copy.parent == tmp_path / "backups" and copy.stat().st_size > 0


@pytest.mark.parametrize(
    "lang, replay, restore",
    [
        ("en", "Cannot read FOLDER/missing.json: ", "Nothing restored: "),
        ("pl", "Nie można odczytać FOLDER/missing.json: ", "Niczego nie przywrócono: "),
        ("ru", "Не удалось прочитать FOLDER/missing.json: ", "Ничего не восстановлено: "),
        ("cs", "Soubor FOLDER/missing.json nelze přečíst: ", "Nic se neobnovilo: "),
        ("eo", "Ne eblas legi FOLDER/missing.json: ", "Nenio restarigita: "),
    ],
)
def test_a_line_a_command_prints_on_its_own_begins_with_a_capital(commands, lang, replay, restore):
    said = commands[lang]
    assert said["replay, missing"].startswith(replay)
    assert said["restore, missing"].startswith(restore)
    assert said["restore, not a database"].startswith(restore)
    # the part after the colon stays as the catalog keeps it, small
    assert said["replay, missing"][len(replay)].islower()


# Click's heading of the options, its own word (the domain "click"), not the match
# form's "Options" (the messages' „Ustawienia”, «Nastavení»).
CLICK_OPTIONS = {
    "en": ("Options:", "Options"),
    "pl": ("Opcje:", "Ustawienia"),
    "ru": ("Параметры:", "Настройки"),
    "cs": ("Volby:", "Nastavení"),
    "eo": ("Opcioj:", "Agordoj"),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_click_s_options_heading_is_its_own_word_not_the_match_form_s(commands, lang):
    from scorer.i18n import said_now  # noqa: PLC0415

    heading, form = CLICK_OPTIONS[lang]
    for command in ("replay", "backup", "restore", "rebuild", "links"):
        assert f"\n{heading}\n" in commands[lang][f"{command} --help"], command
    assert said_now("Options", {"LANG": LANG[lang]}) == form


SUGGESTED = {
    "pl": "„--all”, „--base”",
    "ru": "«--all», «--base»",
    "cs": "„--all“, „--base“",
    "eo": "“--all”, “--base”",
}


@pytest.mark.parametrize("lang", OTHERS)
def test_a_mistyped_option_s_suggestions_are_quoted_as_the_language_quotes(commands, lang):
    """Click quotes its suggestions with repr ('--base'); a reader of every language
    read the straight quotes beside the language's own around the mistyped option."""
    assert SUGGESTED[lang] in commands[lang]["scorer, an option mistyped"]


@pytest.mark.parametrize("lang", OTHERS)
def test_every_command_and_start_up_line_speaks_the_language_lang_asks_for(commands, lang):
    for what, text in commands[lang].items():
        english = commands["en"][what]
        assert text.strip(), what
        if what != "backup":  # a backup says only the copy's path
            assert text != english, what
        # commands, options and click's placeholders for what is typed stay as typed
        words = re.sub(r"`[^`]*`|--[\w-]+|\[OPTIONS\]|\b(FILE|TEXT)\b", "", text)
        assert english_left(words, lang) == [], (what, text)
        assert not SYSTEM_ENGLISH.search(text), (what, text)


# --- a refusal is one sentence, not messages chained with colons ---------------------------


def refusals(page: str) -> list[str]:
    return [visible(p) for p in re.findall(r'<p class="error"[^>]*>(.*?)</p>', page, re.S)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_refusal_is_one_sentence_not_messages_chained_with_colons(client, lang):
    said = []
    # the set-up page: a target the stored deals pass before their end
    form = {**BLACK_MARIA_FORM, "opt_target": "100"}
    deals = [
        {"hearts": [4, 6, 3], "taken_by": {"QS": 0, "KS": 1, "AS": 1}},
        {"hearts": [0, 5, 8], "taken_by": {"QS": 2, "KS": 2, "AS": 0}},
    ]
    record = {"game": "black_maria", "players": NAMES[:3], "options": {"target": 100}}
    r = client.post("/api/matches", json={**record, "first_dealer": 0, "deals": deals})
    mid = r.get_json()["id"]
    r = client.post(f"/m/{mid}/setup", data={**form, "opt_target": "20"}, headers=HEADERS[lang])
    said += refusals(r.get_data(as_text=True))
    # the check: a revoke (Celina plays 2♠ on a heart lead, then 4♥)
    tricks = [[[1, "5H"], [2, "2S"], [0, "KH"]], [[0, "3D"], [1, "7D"], [2, "4H"]]]
    check = {"play": json.dumps({"tricks": tricks}), "quick": "{}", "expect": "2"}
    r = client.post(f"/m/{mid}/check", data=check, headers=HEADERS[lang])
    said += refusals(r.get_data(as_text=True))
    # Variety's attackers, one of the two chosen; the Trick? page's choices
    names = {f"name_{s}": n for s, n in enumerate(NAMES[:4])}
    url = client.post("/new/variety", data={**names, "first_dealer": "0"}).headers["Location"]
    one = {"expect": "0", "contract": "2", "attackers__0": "0", "attackers__1": ""}
    r = client.post(url + "/deal", data=one, headers=HEADERS[lang])
    said += refusals(r.get_data(as_text=True))
    for query in (
        "game=variety&contract=variety:99&cards=KC+AC",
        "game=hearts&trump=X&cards=KC+AC",
        "game=bridge&cards=KC+AC",
    ):
        r = client.get("/trick?" + query, headers=HEADERS[lang])
        said += refusals(r.get_data(as_text=True))
    assert len(said) >= 6, said
    assert [s for s in said if chained(s)] == []
    assert not any("?:" in s for s in said), said


# --- the sheet's Undo says what it takes back ------------------------------------------

UNDO = {
    "en": ("Undo saving deal 1", "Undo the change to deal 1", "Undo deleting deal 1"),
    "pl": (
        "Cofnij zapisanie rozdania 1",
        "Cofnij zmianę rozdania 1",
        "Cofnij usunięcie rozdania 1",
    ),
    "ru": (
        "Отменить сохранение сдачи 1",
        "Отменить изменение сдачи 1",
        "Отменить удаление сдачи 1",
    ),
    "cs": (
        "Vrátit zpět uložení rozdání 1",
        "Vrátit zpět změnu rozdání 1",
        "Vrátit zpět smazání rozdání 1",
    ),
    "eo": (
        "Malfari la konservadon de disdono 1",
        "Malfari la ŝanĝon de disdono 1",
        "Malfari la forigon de disdono 1",
    ),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_undo_button_says_what_it_takes_back(client, lang):
    from .helpers import BM  # noqa: PLC0415
    from .test_sharing import D1, D2, as_form  # noqa: PLC0415

    mid = new_bm(client)
    for target, entry, said in (("", D1, UNDO[lang][0]), ("/1", D2, UNDO[lang][1])):
        url = f"/m/{mid}/deal{target}"
        assert client.post(url, data=as_form(entry, get(client, url, lang))).status_code == 302
        sheet = html.unescape(get(client, f"/m/{mid}", lang))
        assert f'aria-label="{said}"' in sheet or f">{said}</button>" in sheet, said
        assert not re.search(r'class="undo".*?<button[^>]*>[^<]*:', sheet, re.S)
    url = f"/m/{mid}/deal"
    page = get(client, url + "/1", lang)
    seen = html.unescape(re.search(r'name="expect" type="hidden" value="([^"]*)"', page).group(1))
    client.post(f"/m/{mid}/deal/1/delete", data={"seen": seen})
    assert UNDO[lang][2] in html.unescape(get(client, f"/m/{mid}", lang))
    assert BM  # the match is the Black Maria of tests/helpers.py's new_bm


# --- a form sent again after Back, with other values ------------------------------------

RESENT = {
    "en": "This form was already sent with other values.",
    "pl": "Ten formularz został już wysłany z\u00a0innymi danymi.",
    "ru": "Эта форма уже была отправлена с\u00a0другими данными.",
    "cs": "Tento formulář už byl jednou odeslán s\u00a0jinými údaji.",
    "eo": "Ĉi tiu formularo jam estis sendita kun aliaj datumoj.",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_form_sent_again_with_other_values_is_said_in_the_table_s_words(client, lang):
    from .test_sharing import D1, D2, as_form  # noqa: PLC0415

    mid = new_bm(client)
    url = f"/m/{mid}/deal"
    page = get(client, url, lang)
    assert client.post(url, data=as_form(D1, page)).status_code == 302
    # Back, other counts typed on the same page, sent again with its key
    r = client.post(url, data=as_form(D2, page), headers=HEADERS[lang])
    page = html.unescape(r.get_data(as_text=True))
    assert r.status_code == 422 and RESENT[lang] in page, page[:2000]
    title = re.search(r"<title>(.*?)</title>", page, re.S).group(1)
    assert "422" not in title and "idempoten" not in page.lower()
    # the page's heading says what happened, as its title does, not a bare "Sorry"
    assert re.search(r"<h1>(.*?)</h1>", page).group(1) == title.split(" · ")[0]
    assert not re.search(r"(?i)nothing was saved.*nothing was changed", page)
    # the set-up page: the same
    form = {**BLACK_MARIA_FORM, "opt_target": "100", "key": "setup-1"}
    assert client.post(f"/m/{mid}/setup", data=form).status_code == 302
    r = client.post(f"/m/{mid}/setup", data={**form, "opt_target": "90"}, headers=HEADERS[lang])
    page = html.unescape(r.get_data(as_text=True))
    assert RESENT[lang] in page and "idempoten" not in page.lower()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_kierki_s_differences_name_its_counts_tricks_and_places(app, lang):
    rules = GAMES["kierki"](GAMES["kierki"].normalize_options({}, 4), NAMES[:4])
    given = {
        "queens": [2, 1, 1, 0],
        "taken_by": {"KH": 1, "trick_13": 2},
        "first": 3,
        "second": 0,
    }
    derived = {
        "queens": [1, 1, 1, 1],
        "taken_by": {"KH": 0, "trick_13": 3},
        "first": 1,
        "second": 2,
    }
    with app.test_request_context("/", headers=HEADERS[lang]):
        lines = [str(d.message) for d in differences(given, derived, rules)]
    assert len(lines) == 6, lines
    for line in lines:
        assert not RECORD_WORDS.search(line), line
        assert not re.search(r"(?<!\w)(?:trick_13|KH)(?!\w)", line), line
        assert lang == "en" or not re.search(r"(?<!\w)(?:queens|first|second)(?!\w)", line)
    # who took K♥, the last trick, and who went out first and second: names, no seat number
    for line, (a, b) in zip(lines[2:], [(1, 0), (2, 3), (3, 1), (0, 2)], strict=True):
        assert NAMES[a] in line and NAMES[b] in line and not re.search(r"\d", line), line


# --- issue 37: what the native readers asked that only the code could do -----------

SIX = ["Ala", "Bartek", "Celina", "Darek", "Ewa", "Filip"]


def test_the_cards_taken_out_of_the_pack_are_listed_as_the_language_lists(client):
    record = {"game": "hearts", "players": SIX, "deals": []}
    mid = client.post("/api/matches", json=record).get_json()["id"]
    page = visible(get(client, f"/m/{mid}/deal", "cs"))
    assert "2♣, 2♦, 2♠ a 3♣" in page, page  # visible() makes the no-break space a space


# Metamorphosis' entry in words: its declarations a part of the line, lower-case after
# "; " (the deal page's own note, "Заявки: …", stays a sentence).
DECLARED = {"ru": "; заявки: Ala ", "eo": "; deklaroj: Ala ", "pl": "; deklaracje: Ala "}


@pytest.mark.parametrize("lang", list(DECLARED))
def test_metamorphosis_declarations_in_words_are_lower_case(app, lang):
    rules = GAMES["metamorphosis"](GAMES["metamorphosis"].normalize_options({}, 3), NAMES[:3])
    plan, _played, entry = next(play_match(rules, [RANDOM] * 3, random.Random(7)))
    with app.test_request_context("/", headers=HEADERS[lang]):
        said = str(rules.describe(entry, plan))
        note = str(rules.declared_words(entry["declarations"]))
    assert DECLARED[lang] in said, said
    lower = DECLARED[lang][2:]
    assert note.startswith(lower[0].upper() + lower[1:]), note


def test_the_russian_variant_s_value_is_said_as_a_value_not_as_the_source(client):
    mid = client.post(
        "/api/matches",
        json={
            "game": "metamorphosis",
            "players": NAMES[:3],
            "options": {"variant": "seed001"},
            "deals": [],
        },
    ).get_json()["id"]
    page = visible(get(client, f"/m/{mid}/setup", "ru"))
    # named after what it does, not after the summary it comes from (a reader, 2026-12-06)
    assert "С одним сдающим" in page, page


# Slobberhannes' entry in words (under the check's table): each name, a colon, what
# they took (the Polish reader: „Darek D♣” read as one name).
def test_slobberhannes_in_words_names_each_player_then_what_they_took(app):
    rules = GAMES["slobberhannes"](GAMES["slobberhannes"].normalize_options({}, 4), NAMES[:4])
    plan = rules.plan(rules.start(0))
    entry = {"taken_by": {"first_trick": 1, "last_trick": 2, "QC": 3}}
    with app.test_request_context("/", headers=HEADERS["pl"]):
        said = str(rules.describe(entry, plan))
    assert said == "Bartek: pierwsza lewa; Celina: ostatnia lewa; Darek: D♣", said


# Every game's entry in words says it as Slobberhannes does: a name, a colon, what
# that player took (Polish: W for a jack, 7 lew, 4 lewy).
IN_WORDS = {
    "hearts": (
        {"hearts": [4, 6, 3, 0], "taken_by": {"QS": 0}},
        "Ala: 4\u00a0kiery, D♠; Bartek: 6\u00a0kierów; Celina: 3\u00a0kiery",
    ),
    "knaves": (
        {"tricks": [7, 6, 4], "taken_by": {"JH": 0, "JD": 1, "JC": 2, "JS": 1}},
        "Ala: 7\u00a0lew, W♥; Bartek: 6\u00a0lew, W♦, W♠; Celina: 4\u00a0lewy, W♣",
    ),
    "polignac": (
        {"taken_by": {"JS": 0, "JC": 1, "JH": 0, "JD": 2}},
        "Ala: W♠, W♥; Bartek: W♣; Celina: W♦",
    ),
}


@pytest.mark.parametrize("game", list(IN_WORDS))
def test_every_game_in_words_names_each_player_then_a_colon(app, game):
    cls = GAMES[game]
    n = PLAYERS.get(game, 4)
    rules = cls(cls.normalize_options({}, n), NAMES[:n])
    plan = rules.plan(rules.start(0))
    entry, expected = IN_WORDS[game]
    with app.test_request_context("/", headers=HEADERS["pl"]):
        said = str(rules.describe(entry, plan))
    assert said == expected, said


# The home page's heading holds its count in brackets (the Polish reader: „Partie 23
# partie” said the word twice).
def test_the_home_page_s_heading_holds_the_count_of_matches(client):
    for _k in range(3):
        client.post("/api/matches", json={**BM, "deals": []})
    page = visible(get(client, "/", "pl"))
    assert "Partie (3)" in page and "3 partie" not in page, page


# A change of an option in the history: the value after the option's colon is small
# (the Czech reader: «Sestřelení měsíce: Všichni ostatní dostanou 26 → …»); a value that
# begins with a card stays as it is.
def test_an_option_s_change_says_its_values_small_after_the_colon(app):
    from scorer.web.history import setup_words  # noqa: PLC0415

    players = NAMES[:4]
    hearts = GAMES["hearts"]
    with app.test_request_context("/", headers=HEADERS["cs"]):
        said = str(
            setup_words(
                hearts,
                {"players": players, "options": {"moon": "others"}},
                {"players": players, "options": {"moon": "self"}},
            )
        )
        assert said == "Sestřelení měsíce: všichni ostatní dostanou 26 → kdo sestřelí měsíc, má −26"
    with app.test_request_context("/", headers=HEADERS["en"]):
        assert (
            str(
                setup_words(
                    hearts,
                    {"players": players, "options": {"scoring": "standard"}},
                    {"players": players, "options": {"scoring": "spot"}},
                )
            )
            == "Scoring: standard → spot"
        )
    from scorer.i18n import lowered  # noqa: PLC0415

    assert (
        str(lowered(display("QS"))) == "Q♠"
        and str(lowered(_("J Q K 10, A 15"))) == "J Q K 10, A 15"
    )


# Too few players for a game whose counts run without a gap: a range (the Czech reader:
# not «hru Srdce hraje 3, 4, 5 nebo 6 hráčů, ne 2»); two counts stay "2 or 3".
TOO_FEW = {
    "en": ("Hearts is played by 3 to 6 players, not 2", "Metamorphosis is played by 2 or 3"),
    "cs": (
        "hra Srdce je pro 3 až 6\u00a0hráčů, ne pro 2",
        "hra Metamorfóza je pro 2 nebo 3\u00a0hráče",
    ),
    "pl": (
        "Kierki amerykańskie: gra dla 3–6\u00a0graczy, a\u00a0nie dla 2",
        "Metamorfoza: gra dla 2 lub 3\u00a0graczy",
    ),
}


@pytest.mark.parametrize("lang", list(TOO_FEW))
def test_too_few_players_are_refused_with_a_range_of_counts(client, lang):
    run, pair = TOO_FEW[lang]
    for game, players, said in (("hearts", 2, run), ("metamorphosis", 4, pair)):
        record = {"game": game, "players": NAMES[:players], "deals": []}
        r = client.post("/api/matches", json=record, headers=HEADERS[lang])
        assert r.status_code == 400 and said in r.get_json()["error"], r.get_json()


# Partnership Black Maria's sheet says a pair wins, not the lowest total (the Czech
# reader, 26); a game of one against all keeps its line.
@pytest.mark.parametrize(
    "options, said, not_said",
    [
        ({"partnership": True}, "Vyhrává dvojice s nižším součtem.", "Vyhrává nejnižší součet."),
        ({}, "Vyhrává nejnižší součet.", "dvojice"),
    ],
)
def test_the_sheet_says_what_wins_a_partnership(client, options, said, not_said):
    record = {"game": "black_maria", "players": NAMES[:4], "options": options, "deals": []}
    mid = client.post("/api/matches", json=record).get_json()["id"]
    page = visible(get(client, f"/m/{mid}", "cs"))
    assert said in page and not_said not in page, page


# A Metamorphosis deal's title says «без козыря»: the check page's chip does not say it
# again (the Russian reader, 29).
def test_the_check_page_says_no_trumps_once_in_metamorphosis(client):
    mid = client.post(
        "/api/matches", json={"game": "metamorphosis", "players": NAMES[:3], "deals": []}
    ).get_json()["id"]
    page = visible(get(client, f"/m/{mid}/check", "ru"))
    assert page.lower().count("без козыря") == 1, page


# A deal's title names its deal after one colon at most: the robber's and the eralash's
# names say what they count in brackets, not after a second colon.
ONE_COLON = {
    "en": "Deal 7 of 12: the robber (everything at once)",
    "pl": "rozbójnik (wszystko naraz)",
    "ru": "ералаш (всё сразу)",
    "cs": "loupežník (všechno najednou)",
    "eo": "la rabisto (ĉio samtempe)",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_deal_title_of_kierki_or_king_holds_two_colons(app, lang):
    from .helpers import plan_of  # noqa: PLC0415

    titles = []
    with app.test_request_context("/", headers=HEADERS[lang]):
        for key, options, deals in (
            ("kierki", {}, 12),
            ("king", {}, 11),
            ("king", {"positive": "mirror"}, 14),
        ):
            rules = GAMES[key](GAMES[key].normalize_options(options, 4), NAMES[:4])
            titles += [str(plan_of(rules, k).title) for k in range(1, deals + 1)]
    assert all(t.count(":") <= 1 for t in titles), titles
    assert any(ONE_COLON[lang] in t for t in titles), titles


# Polish writes a four-digit number ungrouped (CLDR's minimumGroupingDigits 2: 1150,
# but 10 000); the other languages group it. Kierki to deal 5, Ala taking all: 13
# tricks × 20, 13 hearts × 20, 4 queens × 60, 8 kings and jacks × 30 and K♥ 150 =
# 260 + 260 + 240 + 240 + 150 = 1150 lost.
ALA_S_TOTAL = {"en": "−1,150", "pl": "−1150", "ru": "−1150", "cs": "−1\xa0150"}


@pytest.mark.parametrize("lang", list(ALA_S_TOTAL))
def test_the_sheet_writes_four_digits_as_the_language_groups_them(client, lang):
    deals = [
        {"tricks": [13, 0, 0, 0]},
        {"hearts": [13, 0, 0, 0]},
        {"queens": [4, 0, 0, 0]},
        {"kings_jacks": [8, 0, 0, 0]},
        {"taken_by": {"KH": 0}},
    ]
    mid = imported(client, "kierki", deals)
    sheet = get(client, f"/m/{mid}", lang)
    assert f">{ALA_S_TOTAL[lang]}<" in sheet, lang
    if lang == "pl":
        assert "1\xa0150" not in sheet and "1 150" not in sheet


def test_a_usage_line_names_what_is_typed_in_the_command_s_language(commands):
    """click's placeholders ([OPTIONS], FILE) are words a host reads: said too."""
    assert "replay [OPCJE] PLIK" in commands["pl"]["replay --help"]
    assert "backup [ПАРАМЕТРЫ] [ФАЙЛ]" in commands["ru"]["backup --help"]
    assert "replay [OPTIONS] FILE" in commands["en"]["replay --help"]


def test_what_an_option_takes_is_named_in_the_command_s_language(app):
    """The --base option's ADDRESS is a word a host reads: from the click catalogs,
    as the usage line's (and click's "No such command" beside them)."""
    runner = app.test_cli_runner()
    env = {"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "pl_PL.UTF-8"}
    said = runner.invoke(args=["links", "--help"], env=env).output
    assert "--base ADRES" in said
    env["LANG"] = "ru_RU.UTF-8"
    said = runner.invoke(args=["links", "--help"], env=env).output
    assert "--base АДРЕС" in said


def test_a_deal_s_refusal_after_its_number_begins_small(client):
    """The API's "deal 1: …" then the reason: a reason that begins with the form's
    label ("Wzięte lewy") is not written with a capital in mid-line."""
    record = {"game": "king", "players": NAMES[:4], "first_dealer": 0}
    record["deals"] = [{"tricks": [3, 3, 3, 3]}]  # 12 tricks where King's 32 cards make 8
    r = client.post("/api/matches", json=record, headers=HEADERS["pl"])
    assert r.status_code == 400
    assert r.get_json()["error"].startswith("rozdanie 1: wzięte lewy to razem 12")


def test_several_winners_take_the_plural_verb_on_the_home_list(client):
    """Polignac ends when Ala reaches 20 (all four jacks, 5 a deal, four deals): the
    three others win, and Polish says they win in the plural („wygrywają”)."""
    jacks = {"taken_by": {"JS": 0, "JC": 0, "JD": 0, "JH": 0}}
    record = {"game": "polignac", "players": NAMES[:4], "first_dealer": 0, "deals": [jacks] * 4}
    assert client.post("/api/matches", json=record).status_code == 201
    home = client.get("/", headers=HEADERS["pl"]).get_data(as_text=True)
    assert f"wygrywają {NAMES[1]}, {NAMES[2]} i {NAMES[3]}" in home
