"""The words a newcomer reads: sources named in words a player understands (never
the seed files' names), one name per idea, options that say when they apply, and
the set-up's hint on how many names to give."""

from __future__ import annotations

import html
import re

import pytest

from scorer.games import GAMES


def visible(page: str) -> str:
    """The page's text as a reader sees it: no tags, attributes or scripts."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def new(client, game: str, names: list[str], **options) -> str:
    data = {f"name_{s}": name for s, name in enumerate(names)}
    data.update({f"opt_{k}": v for k, v in options.items()}, first_dealer="0")
    r = client.post(f"/new/{game}", data=data)
    assert r.status_code == 302
    return r.headers["Location"]


@pytest.mark.parametrize("game", list(GAMES))
def test_no_seed_file_names_on_the_rules_and_set_up_pages(client, game):
    for url in (f"/rules/{game}", f"/new/{game}", "/rules/"):
        text = visible(client.get(url).get_data(as_text=True))
        assert "seed" not in text.lower(), (url, text[text.lower().index("seed") - 80 :][:160])


def test_the_metamorphosis_variant_keeps_its_value_but_shows_words(client):
    page = client.get("/new/metamorphosis").get_data(as_text=True)
    assert 'value="seed001"' in page  # the record format's value
    assert "The short Russian summary" in visible(page)
    url = new(client, "metamorphosis", ["Ala", "Bartek", "Celina"], variant="seed001")
    for path in (url, url + "/deal"):
        assert "seed" not in visible(client.get(path).get_data(as_text=True)).lower()


def test_the_rules_index_explains_every_source(client):
    text = visible(client.get("/rules/").get_data(as_text=True))
    for source in (
        "The Polish card-game book",
        "Mendelev's encyclopedia",
        "The short Russian summary",
        "The Esperanto rules",
        "The Czech rules",
        "Boussac (1896)",
        "kyhote.com",
    ):
        assert source in text


@pytest.mark.parametrize(
    "game, hint",
    [
        ("variety", "4 names."),
        ("knaves", "3 names."),
        ("hearts", "3 to 6 names;"),
        ("metamorphosis", "2 or 3 names;"),  # next to each other: one or the other
    ],
)
def test_how_many_names(client, game, hint):
    text = visible(client.get(f"/new/{game}").get_data(as_text=True))
    assert hint in text and "4 to 4" not in text and "3 to 3" not in text


def fieldset(page: str, key: str) -> str:
    return re.search(
        rf'<fieldset class="option" data-option="{key}"[^>]*>.*?</fieldset>', page, re.S
    ).group(0)


def test_options_say_when_they_apply(client):
    page = client.get("/new/black_maria").get_data(as_text=True)
    spot = fieldset(page, "spot_values")
    assert 'data-when="opt_scoring" data-when-value="spot"' in spot
    # said as a player says it, not "Only when Scoring is “Spot”." (readers of three
    # languages read an option's label and value dropped into a sentence as a template)
    assert "Only when hearts score by their face value." in visible(spot)
    deals = fieldset(page, "deals")
    assert 'data-when="opt_end" data-when-value="deals"' in deals
    assert "Only when the match is played for a number of deals." in visible(deals)
    target = visible(fieldset(page, "target"))
    assert "Only when the match is played to a target score." in target
    # Hearts has no End option: its target always applies; Variety's deals always apply
    hearts = client.get("/new/hearts").get_data(as_text=True)
    assert "data-when" not in fieldset(hearts, "target")
    assert "Only when hearts score by their face value." in visible(fieldset(hearts, "spot_values"))
    variety = client.get("/new/variety").get_data(as_text=True)
    assert "data-when" not in fieldset(variety, "deals")
    # the rules page says it too
    rules = visible(client.get("/rules/black_maria").get_data(as_text=True))
    assert "Only when the match is played for a number of deals." in rules
    polish = client.get("/new/black_maria", headers={"Accept-Language": "pl"})
    said = "Tylko gdy kiery liczy się według wartości."
    assert said in visible(fieldset(polish.get_data(as_text=True), "spot_values"))


def test_a_condition_names_an_option_of_the_same_game():
    for game in GAMES.values():
        keys = {o.key: o for o in game.options}
        for o in game.options:
            if o.when:
                key, value = o.when
                assert key in keys and value in keys[key].choices, (game.key, o.key)
                assert o.when_words, (game.key, o.key)  # said as a player says it


def test_metamorphosis_one_name_for_the_declaration(client):
    url = new(client, "metamorphosis", ["Ala", "Bartek", "Celina"])
    deal = visible(client.get(url + "/deal").get_data(as_text=True))
    assert "Declarations" in deal and "indicator" not in deal.lower()
    assert "Declared deal" not in deal
    rules = visible(client.get("/rules/metamorphosis").get_data(as_text=True))
    assert "indicator" not in rules.lower() and "Declared deal" not in rules


def test_metamorphosis_deal_numbers_agree_with_the_button(client):
    url = new(client, "metamorphosis", ["Ala", "Bartek", "Celina"])
    sheet = visible(client.get(url).get_data(as_text=True))
    # the deal the button enters is the deal the heading names
    assert "Deal 1 (round 1, deal 1 of 4)" in sheet and "Enter deal 1" in sheet


def test_marks_are_distinct_and_explained(client):
    # ★ is the leader on the totals; a Metamorphosis deal's marks are ✓ and ✗
    legend = str(GAMES["metamorphosis"].mark_legend)
    assert "★" not in legend and "✓" in legend and "✗" in legend
    url = new(client, "metamorphosis", ["Ala", "Bartek", "Celina"])
    form = {
        "expect": "0",
        "declarations__0": "1",
        "declarations__1": "2",
        "declarations__2": "1",
        "tricks__0": "3",
        "tricks__1": "5",
        "clubs__0": "3",
        "clubs__1": "5",
        "clubs__2": "0",
    }
    assert client.post(url + "/deal", data=form).status_code == 302
    sheet = visible(client.get(url).get_data(as_text=True))
    # Celina: 0 clubs, the best alone, declared deal 1: ✓ and +10; Ala declared it: ✗
    assert "★ marks the leader." in sheet and "✓ won that deal outright" in sheet
    assert re.search(r"✗\s+−12", sheet) and re.search(r"✓\s+\+10", sheet)
