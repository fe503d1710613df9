"""The message catalogs under scorer/translations/: extract, update, check.

``make catalogs`` (``python -m scorer.catalogs``) extracts every message of
the code and the templates (babel.cfg; ``_``, ``L_``, ``ngettext`` and
``pgettext``, with the comments that start ``TRANSLATORS:``) into
messages.pot and brings each language's messages.po up to date with it: a
message the code no longer has is dropped; a changed one comes back fuzzy with
its old translation as a suggestion, for the translator to check and un-fuzzy
(a fuzzy mark on a message nobody had translated is taken off). ``make run``
and ``make test`` compile the .po files into .mo files (build output, not
committed).

Click's own words (``scorer.i18n.CLICK_WORDS``: "Usage:", "Options", …) are a
gettext domain of their own, each language's click.po beside its messages.po,
brought up to date here from that tuple (no extraction): click asks for them
with no context, and its "Options" is not the match form's.

:func:`problems` is what tests/test_catalogs.py holds every catalog to.
"""

from __future__ import annotations

import contextlib
import io
import re
import sys
import tempfile
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.frontend import CommandLineInterface
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = Path(__file__).resolve().parent / "translations"
POT = TRANSLATIONS / "messages.pot"
SOURCE = "en"  # the language of the msgids: its catalog needs no translations
EXTRACT = [
    "-F",
    "babel.cfg",
    "-k",
    "L_",
    "--add-comments=TRANSLATORS:",
    "--no-wrap",
    "--sort-output",
    "--add-location=file",
    "--project=Scorer",
    "--copyright-holder=Scorer",
]


def _pybabel(*args: str) -> None:
    with contextlib.chdir(ROOT):  # the files named as the project names them
        CommandLineInterface().run(["pybabel", "-q", *args])


def extract(output: Path) -> Catalog:
    """Every message of the code and the templates as they are now."""
    _pybabel("extract", *EXTRACT, "-o", str(output), ".")
    with open(output, "rb") as f:
        return read_po(f)


def catalog_path(lang: str, folder: Path = TRANSLATIONS, domain: str = "messages") -> Path:
    return folder / lang / "LC_MESSAGES" / f"{domain}.po"


def click_words() -> Catalog:
    """Click's own words as a template (the domain "click", scorer.i18n.CLICK_WORDS)."""
    from .i18n import CLICK_DOMAIN, CLICK_WORDS  # noqa: PLC0415

    template = Catalog(project="Scorer", copyright_holder="Scorer", domain=CLICK_DOMAIN)
    for word in CLICK_WORDS:  # a word, or a plural's (singular, plural)
        first = word[0] if isinstance(word, tuple) else word
        template.add(word, flags=("python-brace-format",) if "{" in first else ())
    return template


def click_path(lang: str, folder: Path = TRANSLATIONS) -> Path:
    return catalog_path(lang, folder, domain="click")


def update_click() -> None:
    """Every language's click.po from CLICK_WORDS: a word added comes untranslated, one
    changed comes back fuzzy with its old translation, one dropped goes."""
    template = click_words()
    for lang in languages():
        path = click_path(lang)
        if path.exists():
            with open(path, "rb") as f:
                catalog = read_po(f, locale=lang)
        else:
            catalog = Catalog(locale=lang, project="Scorer", domain="click", fuzzy=False)
        was = path.read_bytes() if path.exists() else b""
        catalog.update(template)
        out = io.BytesIO()
        write_po(out, catalog, width=0, ignore_obsolete=True)
        if _undated_text(out.getvalue()) != _undated_text(was):  # else its date stays
            path.write_bytes(out.getvalue())
        _tidy(path, source=lang == SOURCE)


def languages(folder: Path = TRANSLATIONS) -> list[str]:
    """The languages that have a catalog."""
    return sorted(p.parent.parent.name for p in folder.glob("*/LC_MESSAGES/messages.po"))


def update() -> None:
    """messages.pot from the code, every messages.po from messages.pot."""
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / "messages.pot"
        extract(fresh)
        if not POT.exists() or _undated(fresh) != _undated(POT):
            POT.write_bytes(fresh.read_bytes())  # else its date stays: no change to merge
    _pybabel("update", "-i", str(POT), "-d", str(TRANSLATIONS), "--no-wrap", "--ignore-obsolete")
    for lang in languages():
        _tidy(catalog_path(lang), source=lang == SOURCE)


def _undated(path: Path) -> list[str]:
    return _undated_text(path.read_bytes())


def _undated_text(text: bytes) -> list[str]:
    return [
        line
        for line in text.decode("utf-8").splitlines()
        if not line.startswith('"POT-Creation-Date:')
    ]


def _tidy(path: Path, source: bool = False) -> None:
    """A fuzzy mark on a message nobody translated says nothing: off with it. The
    source language's catalog says each message as it is (so that no tool takes
    it for untranslated)."""
    with open(path, "rb") as f:
        catalog = read_po(f)
    marked = [m for m in catalog if m.id and m.fuzzy and not _translated(m)]
    # the source language's: each message as it is, a fuzzy suggestion (another
    # message's words) replaced too
    plain = [m for m in catalog if m.id and source and (m.fuzzy or not _translated(m))]
    if not marked and not plain:
        return
    for m in marked + plain:
        m.flags.discard("fuzzy")
    for m in plain:
        m.string = tuple(m.id) if m.pluralizable else m.id
    with open(path, "wb") as f:
        write_po(f, catalog, width=0, ignore_obsolete=True)


def _strings(message) -> list[str]:
    return (
        list(message.string)
        if isinstance(message.string, (list, tuple))
        else [message.string or ""]
    )


def _translated(message) -> bool:
    return all(_strings(message))


# %(name)s and %s as Python formats them (%% is a per cent sign); {n} and
# {{ n }} as the page's script fills them in.
_PERCENT = re.compile(r"%(?:\((\w+)\))?[#0 +-]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]")
_BRACES = re.compile(r"\{\{?\s*(\w*)\s*\}?\}")


def placeholders(text: str, python_format: bool) -> set[str]:
    found = {f"{{{name}}}" for name in _BRACES.findall(text)}
    if python_format:
        plain = text.replace("%%", "")
        found |= {f"%({name})" if name else "%" for name in _PERCENT.findall(plain)}
    return found


def problems(path: Path, lang: str, current: Catalog, complete: bool) -> list[str]:
    """What is wrong with the catalog at ``path`` for ``lang`` against the current
    messages: missing, stale (not in the code any more), obsolete, with other
    placeholders than the English, a Plural-Forms header that is not the
    language's; and with ``complete`` (a language offered to players), fuzzy or
    untranslated (a plural form left out included). An empty list: nothing."""
    with open(path, "rb") as f:
        catalog = read_po(f, locale=lang)
    out = []
    want = {m.id: m for m in current if m.id}
    have = {m.id: m for m in catalog if m.id}
    if catalog.fuzzy:
        out.append(f"{lang}: the header is marked fuzzy (the catalog would not be compiled)")
    forms = get_plural(lang).num_plurals
    if catalog.num_plurals != forms:
        out.append(f"{lang}: Plural-Forms gives {catalog.num_plurals} forms, not {forms}")
    out += [f"{lang}: missing {_show(i)}" for i in want if i not in have]
    out += [f"{lang}: stale (no longer in the code) {_show(i)}" for i in have if i not in want]
    out += [f"{lang}: obsolete {_show(m.id)}" for m in catalog.obsolete.values()]
    for i, m in have.items():
        if complete and m.fuzzy:
            out.append(f"{lang}: fuzzy {_show(i)}")
        strings = _strings(m)
        if complete and lang != SOURCE and not all(strings):
            out.append(f"{lang}: untranslated {_show(i)}")
        python_format = "python-format" in m.flags or (i in want and want[i].python_format)
        english = [placeholders(e, python_format) for e in ([i] if isinstance(i, str) else i)]
        # a plural's form holds what every English form holds, and may hold what either
        # does (click's "Did you mean {possibility}?" beside its "… {possibilities}?")
        need = set.intersection(*english)
        allowed = set().union(*english) | ({"%(num)"} if m.pluralizable else set())
        for s in strings:
            if s and not need <= placeholders(s, python_format) <= allowed:
                out.append(
                    f"{lang}: placeholders {sorted(placeholders(s, python_format))} in "
                    f"{s!r}, but {sorted(need)} in {_show(i)}"
                )
    return out


def _show(msgid) -> str:
    return repr(msgid if isinstance(msgid, str) else msgid[0])


if __name__ == "__main__":
    update()
    update_click()
    with tempfile.TemporaryDirectory() as tmp:
        now = extract(Path(tmp) / "messages.pot")
    for lang in languages():
        left = list(problems(catalog_path(lang), lang, now, complete=True))
        left += problems(click_path(lang), lang, click_words(), complete=True)
        print(
            f"{lang}: {len(left)} messages to translate or check" if left else f"{lang}: complete",
            file=sys.stderr,
        )
