"""The language: texts that translate where they are drawn, the locale from the
browser or the switch, numbers in the locale, the CLI in LANG's language, and a
fold that translates nothing.

The web tests use a small Polish catalog of their own (written below), so they
do not wait for the real catalogs' translations, and offer Polish beside
English as scorer.i18n.LANGUAGES will once its catalog is complete.
"""

from __future__ import annotations

import json
import random

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from flask import jsonify, render_template_string
from markupsafe import Markup

from scorer import create_app, i18n
from scorer.autoplay import play_match
from scorer.engine import RANDOM
from scorer.games import GAMES
from scorer.i18n import _, join, ngettext
from scorer.match import Match, fold

from .helpers import BM, NAMES

POLISH = {
    "New match": "Nowa partia",
    "Deal %(n)s": "Rozdanie %(n)s",
    ("%(num)s heart", "%(num)s hearts"): ("%(num)s kier", "%(num)s kiery", "%(num)s kierów"),
    ("%(num)s deal", "%(num)s deals"): ("%(num)s rozdanie", "%(num)s rozdania", "%(num)s rozdań"),
    "deal %(n)s: %(message)s": "rozdanie %(n)s: %(message)s",
    "say who took %(what)s": "powiedz, kto wziął %(what)s",
    "game must be one of %(games)s": "gra musi być jedną z: %(games)s",
    "Black Maria": "Czarna Maria",
    "unknown option %(key)s for %(game)s": "nieznana opcja %(key)s gry %(game)s",
    "nothing": "nic",
    "%(name)s deals": "rozdaje %(name)s",
    "%(name)s leads": "wychodzi %(imie)s",  # a translator's slip: the English is drawn
    "There is nothing here.": "Nic tu nie ma.",
}


@pytest.fixture
def polish(tmp_path, monkeypatch):
    """A compiled Polish catalog of POLISH, and Polish offered beside English."""
    catalog = Catalog(locale="pl", fuzzy=False)
    for msgid, string in POLISH.items():
        catalog.add(msgid, string)
    folder = tmp_path / "translations" / "pl" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with open(folder / "messages.mo", "wb") as f:
        write_mo(f, catalog)
    monkeypatch.setattr(i18n, "LANGUAGES", ("en", "pl"))
    return tmp_path / "translations"


@pytest.fixture
def app(tmp_path, polish):
    return create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "scorer.db"),
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "BABEL_TRANSLATION_DIRECTORIES": str(polish),
        }
    )


PL = {"Accept-Language": "pl-PL,pl;q=0.9,en;q=0.8"}


def page(client, url, **kw) -> str:
    r = client.get(url, **kw)
    assert r.status_code in (200, 404), r.status_code
    return r.get_data(as_text=True)


# --- a Text ---------------------------------------------------------------------


def test_a_text_outside_a_request_is_english_and_reads_as_a_string():
    deal = _("deal %(n)s: %(message)s", n=3, message=_("say who took %(card)s", card="Q♠"))
    assert deal == "deal 3: say who took Q♠" and str(deal) == "deal 3: say who took Q♠"
    assert "who took" in deal and deal.startswith("deal 3") and len(deal) == 23
    assert {deal: 1}["deal 3: say who took Q♠"] == 1
    assert f"{deal}!" == "deal 3: say who took Q♠!"
    assert [ngettext("%(num)s heart", "%(num)s hearts", k) for k in (0, 1, 2)] == [
        "0 hearts",
        "1 heart",
        "2 hearts",
    ]
    assert _("at most %(n)s deals", n=2000) == "at most 2,000 deals"
    assert _("%(p)s points", p=-1500) == "−1,500 points"


def test_joined_texts_stay_texts():
    line = ngettext("%(num)s heart", "%(num)s hearts", 4) + ", Q♠" + " → 17"
    assert isinstance(line, i18n.Text) and line == "4 hearts, Q♠ → 17"
    both = join("; ", ["Ala " + join(", ", [_("nothing")]), _("Deal %(n)s", n=2)])
    assert isinstance(both, i18n.Text) and both == "Ala nothing; Deal 2"
    assert "x " + _("nothing") == "x nothing"


def test_a_text_is_escaped_once_in_a_page(app):
    with app.test_request_context("/"):
        text = _("%(name)s deals", name="<b>Ala</b>")
        assert render_template_string("{{ t }}", t=text) == "&lt;b&gt;Ala&lt;/b&gt; deals"
        safe = _("%(name)s deals", name=Markup("<b>Ala</b>"))
        assert render_template_string("{{ t }}", t=safe) == "<b>Ala</b> deals"
        joined = join(" & ", ["<i>", _("nothing")])
        assert render_template_string("{{ t }}", t=joined) == "&lt;i&gt; &amp; nothing"


def test_a_text_in_json_is_its_words_not_html(app):
    with app.test_request_context("/"):
        body = jsonify(error=_("%(name)s deals", name="O'Hara & <Co>")).get_data(as_text=True)
    assert json.loads(body) == {"error": "O'Hara & <Co> deals"}


# --- the locale -----------------------------------------------------------------


def test_the_browser_language_picks_the_page_language(client):
    home = page(client, "/", headers=PL)
    assert '<html lang="pl">' in home and "Nowa partia" in home
    home = page(client, "/", headers={"Accept-Language": "fr-FR,fr"})
    assert '<html lang="en">' in home and "New match" in home


def test_the_switch_overrides_the_browser_and_sticks(client):
    r = client.get("/lang/en?next=/rules/", headers=PL)
    assert r.status_code == 302 and r.headers["Location"] == "/rules/"
    assert "lang=en" in r.headers["Set-Cookie"]
    home = page(client, "/", headers=PL)
    assert '<html lang="en">' in home and "New match" in home
    client.get("/lang/pl?next=/")
    assert "Nowa partia" in page(client, "/", headers={"Accept-Language": "en"})


def test_the_switch_is_a_plain_link_on_every_page(client):
    for url in ("/", "/new", "/rules/", "/rules/black_maria", "/trick", "/nowhere"):
        html = page(client, url, headers=PL)
        assert f'href="/lang/en?next={url}"' in html and 'href="/lang/pl?next=' in html, url
        assert ">English</a>" in html and ">Polski</a>" in html
    assert "Nic tu nie ma." in page(client, "/nowhere", headers=PL)


def test_the_switch_refuses_what_is_not_offered_and_other_sites(client):
    r = client.get("/lang/xx?next=/rules/")
    assert r.status_code == 302 and "Set-Cookie" not in r.headers
    for target in ("//evil.example/", "https://evil.example/", "/\\evil.example", ""):
        r = client.get("/lang/pl", query_string={"next": target})
        assert r.headers["Location"] == "/", target


def test_the_switch_takes_a_next_with_a_line_break_back_home(client):
    # a line break cannot stand in the Location header: it answered a 500
    for target in (
        "/x\ny",
        "/x\r\ny",
        "/\r\nSet-Cookie: a=b",
        "/x\x00y",
        "/x\x7fy",
        "/\t/evil.example",
    ):
        r = client.get("/lang/pl", query_string={"next": target})
        assert r.status_code == 302 and r.headers["Location"] == "/", target
        assert "lang=pl" in r.headers["Set-Cookie"]
    r = client.get("/lang/pl?next=/x%0Ay")  # as the reliability run sent it
    assert r.status_code == 302 and r.headers["Location"] == "/"
    assert client.get("/lang/pl?next=/x%20y").headers["Location"] == "/x%20y"


def test_only_english_offered_shows_no_switch(tmp_path, monkeypatch):
    monkeypatch.setattr(i18n, "LANGUAGES", ("en",))
    client = create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "en.db"), "SECRET_KEY": "test"}
    ).test_client()
    home = page(client, "/", headers=PL)
    assert '<html lang="en">' in home and "/lang/" not in home and "New match" in home
    assert "lang=" not in client.get("/lang/pl").headers.get("Set-Cookie", "")


def test_a_refused_entry_is_said_in_the_page_language(client):
    r = client.post("/new/black_maria", data=BM)
    mid = r.headers["Location"].rsplit("/", 1)[1]
    r = client.post(
        f"/m/{mid}/deal",
        headers=PL,
        data={
            "hearts__0": "4",
            "hearts__1": "6",
            "hearts__2": "3",
            "taken_by_KS": "1",
            "taken_by_AS": "1",
            "expect": "0",
        },
    )
    assert r.status_code == 400 and "Powiedz, kto wziął Q♠" in r.get_data(as_text=True)


def test_an_api_refusal_is_said_in_the_request_language_with_nested_parts(client):
    record = {
        "game": "black_maria",
        "players": ["Ala", "Bartek", "Celina"],
        "deals": [{"hearts": [4, 6, 3], "taken_by": {"KS": 1, "AS": 1}}],
    }
    r = client.post("/api/matches", json=record, headers=PL)
    assert r.status_code == 400 and r.get_json() == {"error": "rozdanie 1: powiedz, kto wziął Q♠"}
    r = client.post("/api/matches", headers=PL, json={**record, "options": {"moon": "off"}})
    assert r.get_json() == {"error": "nieznana opcja moon gry Czarna Maria"}
    r = client.post("/api/matches", json=record)
    assert r.get_json() == {"error": "deal 1: say who took Q♠"}


def test_plural_forms_and_numbers_follow_the_locale(app):
    with app.test_request_context("/", headers=PL):
        hearts = [str(ngettext("%(num)s heart", "%(num)s hearts", k)) for k in (1, 3, 5, 22, 112)]
        assert hearts == ["1 kier", "3 kiery", "5 kierów", "22 kiery", "112 kierów"]
        # four digits ungrouped in Polish (CLDR's minimumGroupingDigits 2), five grouped
        assert str(_("Deal %(n)s", n=1234)) == "Rozdanie 1234"
        assert str(_("Deal %(n)s", n=12345)) == "Rozdanie 12\xa0345"
        assert (
            render_template_string(
                "{{ 1234 | num }}|{{ -1300 | signed }}|{{ 3 | signed }}|{{ 0 | signed }}"
                "|{{ -13000 | signed }}"
            )
            == "1234|−1300|+3|0|−13\xa0000"
        )
    with app.test_request_context("/", headers={"Accept-Language": "en"}):
        assert render_template_string("{{ 1234 | num }}|{{ -1300 | signed }}") == "1,234|−1,300"


def test_the_home_page_counts_deals_with_the_plural_form(client):
    r = client.post("/new/black_maria", data=BM)
    mid = r.headers["Location"].rsplit("/", 1)[1]
    client.post(
        f"/m/{mid}/deal",
        data={
            "hearts__0": "4",
            "hearts__1": "6",
            "hearts__2": "3",
            "taken_by_QS": "0",
            "taken_by_KS": "1",
            "taken_by_AS": "1",
            "expect": "0",
        },
    )
    assert "1 rozdanie" in page(client, "/", headers=PL)
    assert "1 deal ·" in page(client, "/", headers={"Accept-Language": "en"})


def test_a_translation_with_wrong_placeholders_draws_the_english_not_an_error(client):
    r = client.post("/new/black_maria", data=BM)
    sheet = page(client, r.headers["Location"], headers=PL)
    assert "rozdaje Ala" in sheet and "Bartek leads" in sheet


# --- the command line -------------------------------------------------------------


@pytest.mark.parametrize(
    "env, said",
    [
        ({"LANG": "pl_PL.UTF-8"}, "Gra musi być jedną z: "),
        ({"LANGUAGE": "ru:pl", "LANG": "C.UTF-8"}, "Gra musi być jedną z: "),  # ru not offered
        ({"LANG": "C.UTF-8", "LANGUAGE": ""}, "Game must be one of "),
        ({"LC_ALL": "en_GB.UTF-8", "LANG": "pl_PL.UTF-8"}, "Game must be one of "),
    ],
)
def test_the_replay_command_speaks_the_language_lang_asks_for(app, tmp_path, env, said):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"game": "whist", "players": ["A", "B", "C"]}))
    full = {"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "", **env}
    result = app.test_cli_runner().invoke(args=["replay", str(path)], env=full)
    assert result.exit_code == 1
    assert result.output.startswith(said) and result.output.count("\n") == 1  # one line


# --- the fold translates nothing -------------------------------------------------------


def matches():
    """A few dozen deals of every game and number of players, played at random."""
    for key, cls in GAMES.items():
        for n in cls.player_counts:
            options = cls.normalize_options({}, n)
            rules = cls(options, NAMES[:n])
            deals = []
            for _plan, _played, entry in play_match(rules, [RANDOM] * n, random.Random(n)):
                deals.append(entry)
                if len(deals) == 24:
                    break
            yield key, Match(key, options, NAMES[:n], 0, deals)


def test_a_fold_inside_a_request_translates_nothing_until_drawn(app, monkeypatch):
    drawn = []
    real = i18n._now
    monkeypatch.setattr(i18n, "_now", lambda: drawn.append(1) or real())
    titles = {}
    with app.test_request_context("/", headers=PL):
        for key, match in matches():
            st = fold(match)
            assert not drawn, key
            assert st.rows and all(
                isinstance(line, i18n.Text) for row in st.rows for line in row.score.lines
            ), key
            titles[key] = st.rows[0].plan.title
        assert str(titles["black_maria"]) == "Rozdanie 1" and drawn
