"""The message catalogs are part of the build (scorer/catalogs.py).

Every catalog holds exactly the messages the code and the templates have now
(``make catalogs`` brings it up to date), none obsolete, each translation with
the English message's placeholders and the language's number of plural forms;
a language offered to players (scorer.i18n.LANGUAGES) has every message
translated and none fuzzy. The checks are shown to bite on small catalogs
written here with one fault each.
"""

from __future__ import annotations

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from scorer import catalogs
from scorer.i18n import LANGUAGES

from .helpers import chained


@pytest.fixture(scope="module")
def current(tmp_path_factory):
    """The messages of the code and the templates as they are now."""
    return catalogs.extract(tmp_path_factory.mktemp("extract") / "messages.pot")


def ids(catalog) -> set:
    return {m.id for m in catalog if m.id}


def test_messages_pot_is_the_current_extraction(current):
    with open(catalogs.POT, "rb") as f:
        pot = read_po(f)
    assert ids(pot) == ids(current), "run make catalogs"


def test_the_five_languages_have_catalogs_with_their_plural_forms():
    assert catalogs.languages() == ["cs", "en", "eo", "pl", "ru"]
    forms = {}
    for lang in catalogs.languages():
        with open(catalogs.catalog_path(lang), "rb") as f:
            forms[lang] = read_po(f, locale=lang).num_plurals
    assert forms == {"en": 2, "eo": 2, "pl": 3, "ru": 3, "cs": 3}


@pytest.mark.parametrize("lang", catalogs.languages())
def test_every_catalog_is_in_step_with_the_code(current, lang):
    assert catalogs.problems(catalogs.catalog_path(lang), lang, current, complete=False) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_offered_is_complete(current, lang):
    assert catalogs.problems(catalogs.catalog_path(lang), lang, current, complete=True) == []


@pytest.mark.parametrize("lang", catalogs.languages())
def test_click_s_own_words_have_a_complete_catalog_of_their_own(lang):
    # a domain of its own (scorer.i18n.CLICK_WORDS), kept by `make catalogs`
    words = catalogs.click_words()
    complete = lang in LANGUAGES
    assert catalogs.problems(catalogs.click_path(lang), lang, words, complete=complete) == []
    assert "Options" in ids(words) and "Usage:" in ids(words)


def test_a_language_is_offered_only_with_its_catalog():
    assert "en" in LANGUAGES and set(LANGUAGES) <= set(catalogs.languages())


# --- the checks bite ------------------------------------------------------------

DEAL = "Deal %(n)s"
TRICKS = ("%(num)s trick", "%(num)s tricks")
RULES = "Rules"
WORDS = "The defenders took the other {n}."


def source() -> Catalog:
    c = Catalog()
    for msgid in (DEAL, TRICKS, RULES, WORDS):
        c.add(msgid)
    return c


def polish(changes: dict | None = None) -> Catalog:
    """A complete Polish catalog of source(), with ``changes``: msgid → translation
    (None: leave the message out)."""
    c = Catalog(locale="pl", fuzzy=False)
    good = {
        DEAL: "Rozdanie %(n)s",
        TRICKS: ("%(num)s lewa", "%(num)s lewy", "%(num)s lew"),
        RULES: "Zasady",
        WORDS: "Obrońcy wzięli pozostałe {n}.",
    }
    for msgid, string in {**good, **(changes or {})}.items():
        if string is not None:
            c.add(msgid, string)
    return c


def check(
    tmp_path, catalog: Catalog, complete: bool = True, lang: str = "pl", header: str | None = None
) -> list[str]:
    path = catalogs.catalog_path(lang, tmp_path)
    path.parent.mkdir(parents=True)
    with open(path, "wb") as f:
        write_po(f, catalog)
    if header:  # a Plural-Forms line of our own
        lines = path.read_text("utf-8").splitlines(keepends=True)
        path.write_text(
            "".join(header if line.startswith('"Plural-Forms:') else line for line in lines),
            "utf-8",
        )
    return catalogs.problems(path, lang, source(), complete)


def test_a_complete_catalog_passes(tmp_path):
    assert check(tmp_path, polish()) == []


def test_a_missing_message_fails(tmp_path):
    assert check(tmp_path, polish({RULES: None}), complete=False) == ["pl: missing 'Rules'"]


def test_a_stale_message_fails(tmp_path):
    assert check(tmp_path, polish({"Scores": "Wyniki"}), complete=False) == [
        "pl: stale (no longer in the code) 'Scores'"
    ]


def test_an_obsolete_message_fails(tmp_path):
    c = polish()
    c.obsolete["Scores"] = c["Rules"].__class__("Scores", "Wyniki")
    assert check(tmp_path, c, complete=False) == ["pl: obsolete 'Scores'"]


def test_a_fuzzy_message_fails_in_a_language_offered(tmp_path):
    c = polish()
    c[RULES].flags.add("fuzzy")
    assert check(tmp_path, c) == ["pl: fuzzy 'Rules'"]


def test_an_untranslated_message_fails_in_a_language_offered_only(tmp_path):
    assert check(tmp_path, polish({RULES: ""})) == ["pl: untranslated 'Rules'"]
    assert check(tmp_path / "b", polish({RULES: ""}), complete=False) == []


@pytest.mark.parametrize(
    "msgid, wrong",
    [
        (DEAL, "Rozdanie %(number)s"),  # another name
        (DEAL, "Rozdanie"),  # none
        (DEAL, "Rozdanie %s"),  # positional
        (WORDS, "Obrońcy wzięli pozostałe {m}."),  # the script's placeholder
        (TRICKS, ("%(num)s lewa", "%(num)s lewy", "lew")),  # one plural form without it
    ],
)
def test_a_translation_with_other_placeholders_fails(tmp_path, msgid, wrong):
    found = check(tmp_path, polish({msgid: wrong}))
    assert len(found) == 1 and found[0].startswith("pl: placeholders ")


def test_a_plural_needs_every_form_of_the_language(tmp_path):
    found = check(tmp_path, polish({TRICKS: ("%(num)s lewa", "%(num)s lew")}))
    assert found == ["pl: untranslated '%(num)s trick'"]


def test_a_plural_forms_header_not_the_languages_fails(tmp_path):
    assert check(
        tmp_path,
        polish(),
        complete=False,
        header='"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n',
    ) == ["pl: Plural-Forms gives 2 forms, not 3"]


def test_a_plural_form_may_name_num_though_the_english_does_not(tmp_path):
    c = source()
    c.add(("Take out %(cards)s: %(hand)s card each.", "Take out %(cards)s: %(hand)s cards each."))
    path = catalogs.catalog_path("pl", tmp_path)
    path.parent.mkdir(parents=True)
    pl = polish()
    pl.add(
        ("Take out %(cards)s: %(hand)s card each.", "Take out %(cards)s: %(hand)s cards each."),
        (
            "Wyjmij %(cards)s: po %(num)s karcie.",
            "Wyjmij %(cards)s: po %(hand)s karty.",
            "Wyjmij %(cards)s: po %(hand)s kart.",
        ),
    )
    with open(path, "wb") as f:
        write_po(f, pl)
    found = catalogs.problems(path, "pl", c, complete=True)
    assert len(found) == 1 and "%(hand)" in found[0]  # num is allowed; hand is missing


def test_a_fuzzy_header_fails(tmp_path):
    c = polish()
    c.fuzzy = True
    assert check(tmp_path, c, complete=False) == [
        "pl: the header is marked fuzzy (the catalog would not be compiled)"
    ]


def test_the_real_polish_catalog_passes_and_fails_with_one_message_out_or_blank(tmp_path, current):
    """Against the real extraction: today's Polish catalog is complete; one message
    taken out, it fails as missing; one left blank, as untranslated."""
    path = catalogs.catalog_path("pl")
    assert catalogs.problems(path, "pl", current, complete=True) == []
    with open(path, "rb") as f:
        pl = read_po(f, locale="pl")
    out = catalogs.catalog_path("pl", tmp_path)
    out.parent.mkdir(parents=True)
    del pl[next(m.id for m in pl if m.id and not m.pluralizable)]
    with open(out, "wb") as f:
        write_po(f, pl)
    assert [p.split(" ")[1] for p in catalogs.problems(out, "pl", current, complete=True)] == [
        "missing"
    ]
    with open(path, "rb") as f:
        pl = read_po(f, locale="pl")
    next(m for m in pl if m.id and not m.pluralizable).string = ""
    with open(out, "wb") as f:
        write_po(f, pl)
    assert [p.split(" ")[1] for p in catalogs.problems(out, "pl", current, complete=True)] == [
        "untranslated"
    ]


@pytest.mark.parametrize("lang", catalogs.languages())
def test_no_message_chains_two_colons_in_one_clause(lang):
    """One clause, one colon: "Not changed: with these, deal 1: …" reads as a
    template (issue 37); a message says it as one sentence, its reason in brackets
    or after a semicolon. (The messages' parts are checked as they are drawn too:
    tests/test_locales.py, the refusals.)"""
    with open(catalogs.catalog_path(lang), "rb") as f:
        catalog = read_po(f, locale=lang)
    found = []
    for m in catalog:
        strings = m.string if isinstance(m.string, (list, tuple)) else [m.string]
        found += [(m.id, s) for s in strings if s and chained(s)]
    assert found == []


def test_the_colon_check_finds_a_chain():
    assert chained("Nie zmieniono: przy tych ustawieniach rozdanie 1: przy liczeniu")
    assert chained("Atakujący: najpierw ten, kto zapowiedział: wybierz obu graczy")
    assert not chained("Rozdanie 3: wpisz, kto wziął D♠ (lewa 2: Ala). Ala: 3; Bartek: 4")
    assert not chained('capot: {"seat": 0, "made": true} at 05:30')
