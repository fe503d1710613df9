"""Every string a player reads passes through here.

``_`` and ``ngettext`` do not translate: they return a :class:`Text`, the
message id with its parameters, which translates itself when it is drawn
(``str()``, or ``{{ text }}`` in a template, escaped there) into the locale of
the request (or of the command: :func:`cli_locale`). The rules therefore keep
their output as data, and a fold over 1,000 deals costs no gettext at all;
a page translates once, what it shows. Parameters use %(name)s, as gettext
expects; a parameter that is itself a Text is translated with its message,
and a whole number is written as the locale writes numbers. Texts joined with
``+`` or :func:`join` stay data too. Outside an application context (unit
tests, the benchmarks) a Text is English.

A Text compares equal to the string it draws as (``e.message == "deal 3: …"``)
and offers the str methods (``.startswith``…), so it can stand where a string
is read; it cannot stand where one is joined (``", ".join``): use :func:`join`.

The locale a Text is drawn in is the web layer's to say (scorer/web/language.py:
the player's pick from the switch on every page, else the browser's
Accept-Language, else English, among :data:`LANGUAGES`) or a command's
(:func:`cli_locale`). Nothing here knows Flask: the games and the fold use it.
"""

from __future__ import annotations

import errno
import gettext
import os
import sqlite3
import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Iterable
from datetime import datetime
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.dates import format_date, format_datetime, format_time
from babel.lists import format_list
from babel.numbers import format_decimal, format_percent
from babel.support import Translations
from markupsafe import Markup, escape

# The languages a player is offered and tests/test_catalogs.py holds complete,
# of the catalogs under scorer/translations/ (en, pl, ru, cs, eo: see
# scorer/catalogs.py): a catalog joins this list once every message is translated.
LANGUAGES = ("en", "pl", "ru", "cs", "eo")
DEFAULT = "en"


# --- texts that translate when drawn ------------------------------------------


def locale_now() -> str:
    """The locale a text is drawn in now, as a string ("pl")."""
    return str(_now()[1] or DEFAULT)


# Where a Text finds the translations and locale it is drawn in now: set by the web
# layer (scorer/web/language.py: Flask-Babel's, per request or command); without it
# (unit tests, the benchmarks, the games alone) a Text is English.
_drawing = None


def drawn_in(provider) -> None:
    """``provider()`` gives the (translations, locale) a Text is drawn in now, or
    (None, None): English."""
    global _drawing
    _drawing = provider


def _now():
    """The gettext translations and the locale a Text is drawn in now."""
    return _drawing() if _drawing is not None else (None, None)


# The minus sign a page prints before a negative number (U+2212), as Polish, Czech and
# Russian print set it ("−26", "7 − 4 = 3"); CLDR gives the hyphen-minus a keyboard types,
# which a CSV, the API and a form's field keep (a spreadsheet reads "−26" as text).
MINUS = "\u2212"


def number(value: int, locale: Any = None) -> str:
    """A whole number as the locale writes it on a page (1,000 · 1 000; −26)."""
    if 0 <= value < 1000:
        return str(value)  # the same in every locale, and the common case
    return _formatted(value, str(locale or DEFAULT))


def page_number(value: int) -> str:
    """A whole number as the page's locale writes it: the sheet's, the chart's."""
    return str(value) if 0 <= value < 1000 else number(value, _now()[1])


@lru_cache(maxsize=4096)
def _formatted(value: int, locale: str) -> str:
    """Babel's writing of a number, kept: a sheet writes the same few again and again."""
    text = format_decimal(value, locale=locale, group_separator=_grouped(value, locale))
    return text.replace("-", MINUS, 1) if value < 0 else text


def signed(value: int) -> Any:
    """Points with their sign, as a page writes them: +3, −2, 0 (drawn in the page's
    locale: +1 300, −1,300)."""
    return join("", ["+", value]) if value > 0 else value


# CLDR's minimumGroupingDigits 2: the languages that write a four-digit number without
# a separator (Polish 1300, but 13 000; Polish typography, and CLDR's pl). Babel's
# locale data does not carry minimumGroupingDigits (Babel 2.19 groups every number of
# four digits or more), so the languages are named here: Polish (CLDR's 2) and
# Russian, whose typography writes 1300 but 10 000 (Мильчин's handbook; a native
# reader of 2026-12-06 read «1 300» beside «1275» as two ways); Czech and Esperanto
# write 1 300, as CLDR does.
MIN_GROUPING_2 = ("pl", "ru")


def _grouped(value: float, locale: str) -> bool:
    """Whether ``value``'s digits are grouped in ``locale`` (minimumGroupingDigits)."""
    return abs(value) >= 10000 or primary(locale) not in MIN_GROUPING_2


def _param(value: Any, t, locale, html: bool) -> Any:
    if isinstance(value, Text):
        return value._draw(t, locale, html)
    if isinstance(value, int) and not isinstance(value, bool):
        return number(value, locale)
    if html and not hasattr(value, "__html__"):
        return escape(value)
    return value


class Text(ABC):
    """A message to be translated when drawn (see the module's doc)."""

    __slots__ = ()

    @abstractmethod
    def _draw(self, t, locale, html: bool = False) -> str:
        """The text in the translations ``t`` and ``locale`` (escaped for ``html``)."""

    def __str__(self) -> str:
        t, locale = _now()
        return self._draw(t, locale)

    def __html__(self) -> Markup:
        t, locale = _now()
        return self._draw(t, locale, html=True)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __repr__(self) -> str:
        """What it is made of, not drawn: a plan's repr keys the parts drawn from it
        (scorer/web/deal_form.py), in the page's language, without translating."""
        kind = type(self)
        return f"{kind.__name__}({', '.join([repr(getattr(self, s)) for s in _slots(kind)])})"

    # Where a string is read, a Text reads as its drawn string.
    def __eq__(self, other: object) -> bool:
        if isinstance(other, (str, Text)):
            return str(self) == str(other)
        return NotImplemented

    def __lt__(self, other: object) -> bool:
        return str(self) < str(other)

    def __hash__(self) -> int:
        return hash(str(self))

    def __len__(self) -> int:
        return len(str(self))

    def __contains__(self, item: str) -> bool:
        return item in str(self)

    def __getitem__(self, key):
        return str(self)[key]

    def __iter__(self):
        return iter(str(self))

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(str(self), name)  # .startswith, .capitalize, …: on the drawn string

    # Joined, a Text stays data.
    def __add__(self, other: Any) -> Text:
        if isinstance(other, (str, Text)):
            return Joined("", (self, other))
        return NotImplemented

    def __radd__(self, other: Any) -> Text:
        if isinstance(other, (str, Text)):
            return Joined("", (other, self))
        return NotImplemented

    def __bool__(self) -> bool:
        return True


@cache
def _slots(kind: type) -> tuple[str, ...]:
    """The slots of a kind of Text, its bases' too: what its repr shows."""
    return tuple(s for c in kind.__mro__ for s in getattr(c, "__slots__", ()))


class Message(Text):
    """A gettext message: its id and parameters."""

    __slots__ = ("msgid", "params")

    def __init__(self, msgid: str, params: dict):
        self.msgid = msgid
        self.params = params

    def _template(self, t) -> str:
        return t.ugettext(self.msgid) if t is not None else self.msgid

    def _draw(self, t, locale, html: bool = False) -> str:
        try:
            return self._fill(self._template(t), t, locale, html)
        except (KeyError, ValueError, TypeError):
            if t is None:
                raise
            # a translation whose placeholders are wrong (tests/test_catalogs.py
            # refuses one): the English, rather than no page
            return self._fill(self._template(None), t, locale, html)

    def _fill(self, template: str, t, locale, html: bool) -> str:
        if html:
            template = escape(template)
        if not self.params:  # as Flask-Babel: no parameters, no % formatting
            return template
        return template % {k: _param(v, t, locale, html) for k, v in self.params.items()}

    def __bool__(self) -> bool:
        return bool(self.msgid)


class Plural(Message):
    """An ngettext message: the form for ``num`` in the locale's plural rule."""

    __slots__ = ("plural", "num")

    def __init__(self, singular: str, plural: str, num: int, params: dict):
        super().__init__(singular, {"num": num, **params})
        self.plural = plural
        self.num = num

    def _template(self, t) -> str:
        if t is not None:
            return t.ungettext(self.msgid, self.plural, self.num)
        return self.msgid if self.num == 1 else self.plural


class Context(Message):
    """A pgettext message: a short msgid that needs its context to be translated
    (``pgettext("rank", "Q")``, the letter on a queen)."""

    __slots__ = ("context",)

    def __init__(self, context: str, msgid: str, params: dict):
        super().__init__(msgid, params)
        self.context = context

    def _template(self, t) -> str:
        return t.upgettext(self.context, self.msgid) if t is not None else self.msgid


class ContextPlural(Plural):
    """An npgettext message: a plural in a context (a game's own words for its deals)."""

    __slots__ = ("context",)

    def __init__(self, context: str, singular: str, plural: str, num: int, params: dict):
        super().__init__(singular, plural, num, params)
        self.context = context

    def _template(self, t) -> str:
        if t is not None:
            return t.unpgettext(self.context, self.msgid, self.plural, self.num)
        return self.msgid if self.num == 1 else self.plural


class Sentence(Text):
    """A message shown on its own, as a sentence: its first letter a capital. The
    messages are lower-case where they are a part ("deal 3: say who took Q♠");
    a page that shows one alone draws it through here (the ``sentence`` filter)."""

    __slots__ = ("text",)

    def __init__(self, text: Any):
        self.text = text

    def _draw(self, t, locale, html: bool = False) -> str:
        drawn = _param(self.text, t, locale, html)
        drawn = drawn if isinstance(drawn, str) else str(drawn)
        if not _begins_with_words(self.text, t):
            return drawn  # a player's name, as typed ("ala is now Alicja")
        capital = drawn[:1].upper() + drawn[1:]
        return Markup(capital) if html else capital


class Lowered(Text):
    """A message as a part of a line after a colon: its first letter small
    ("Sestřelení měsíce: všichni ostatní dostanou 26"), the opposite of
    :class:`Sentence`. Only a word written with a capital is lowered: a text that begins
    with a card ("Q♠ 13"), a letter alone ("J Q K 10"), an abbreviation, a number or a
    player's string stays as it is."""

    __slots__ = ("text",)

    def __init__(self, text: Any):
        self.text = text

    def _draw(self, t, locale, html: bool = False) -> str:
        drawn = _param(self.text, t, locale, html)
        drawn = drawn if isinstance(drawn, str) else str(drawn)
        if not (_begins_with_words(self.text, t) and drawn[:1].isupper() and drawn[1:2].islower()):
            return drawn
        small = drawn[:1].lower() + drawn[1:]
        return Markup(small) if html else small


def _begins_with_words(text: Any, t) -> bool:
    """Whether ``text`` begins with the words of a message (to be capitalised), not
    with a parameter that is a string of the player's (a name) or a number."""
    while True:
        if isinstance(text, (Joined, Listed)):  # "the first trick and the last trick: …"
            if not text.parts:
                return False
            text = text.parts[0]
        elif isinstance(text, Message):
            template = text._template(t)
            if not template.startswith("%("):
                return True
            text = text.params.get(template[2 : template.find(")")])
        else:
            return False


class Joined(Text):
    """Texts and strings joined by a separator (itself a string or a Text)."""

    __slots__ = ("sep", "parts")

    def __init__(self, sep: Any, parts: Iterable):
        if sep.__class__ is str and not sep:  # (a + b) + c: one flat join
            flat: list = []
            for p in parts:
                if p.__class__ is Joined and p.sep.__class__ is str and not p.sep:
                    flat.extend(p.parts)
                else:
                    flat.append(p)
            parts = flat
        self.sep = sep
        self.parts = tuple(parts)

    def _draw(self, t, locale, html: bool = False) -> str:
        sep = _param(self.sep, t, locale, html)
        drawn = [_param(p, t, locale, html) for p in self.parts]
        if html:
            return Markup(sep).join(drawn)
        return sep.join(str(p) for p in drawn)

    def __bool__(self) -> bool:
        return any(bool(p) for p in self.parts)


def _(message: str, /, **variables) -> Text:
    """The message, translated when drawn."""
    return Message(message, variables)


def ngettext(singular: str, plural: str, num: int, /, **variables) -> Text:
    """The plural form for ``num`` (``%(num)s`` in the message), translated when drawn."""
    return Plural(singular, plural, num, variables)


def pgettext(context: str, message: str, /, **variables) -> Text:
    """The message in ``context``, translated when drawn."""
    return Context(context, message, variables)


def npgettext(context: str, singular: str, plural: str, num: int, /, **variables) -> Text:
    """The plural form for ``num`` of the message in ``context``, translated when drawn."""
    return ContextPlural(context, singular, plural, num, variables)


def filled(message: Message, /, **variables) -> Text:
    """A message kept as data (``L_("Deal %(n)s")``, a game's words), with its
    parameters now; a plural takes its number from ``num``."""
    if isinstance(message, ContextPlural):
        return ContextPlural(
            message.context, message.msgid, message.plural, variables.pop("num"), variables
        )
    if isinstance(message, Plural):
        return Plural(message.msgid, message.plural, variables.pop("num"), variables)
    if isinstance(message, Context):
        return Context(message.context, message.msgid, variables)
    return Message(message.msgid, variables)


def sentence(text: Any) -> Text:
    """A message shown on its own: it begins with a capital letter (:class:`Sentence`)."""
    return Sentence(text)


def lowered(text: Any) -> Text:
    """A message as a part after a colon: its first word small (:class:`Lowered`)."""
    return Lowered(text)


L_ = _  # every Text is lazy; the name stays for messages at module level


class Listed(Text):
    """Items listed as the language lists them ("A, B and C", "A, B i C"), drawn in
    the language of the page that shows them (a fold's notes are kept for every
    language)."""

    __slots__ = ("parts",)

    def __init__(self, parts: Iterable):
        self.parts = tuple(parts)

    def _draw(self, t, locale, html: bool = False) -> str:
        drawn = [str(_param(p, t, locale, html)) for p in self.parts]
        text = format_list(drawn, locale=str(locale or DEFAULT))
        return Markup(text) if html else text


def and_list(items: Iterable) -> Text:
    """``listed`` for a text drawn later: the language's own "and" list."""
    return Listed(items)


def join(sep: Any, items: Iterable) -> Text:
    """``sep.join(items)`` for texts: translated when drawn."""
    return Joined(sep, items)


def tenths(value: float, signed: bool = False) -> str:
    """A rating as the page's locale writes a number to a tenth (12.3, 12,3);
    ``signed``: with its sign (+0.8, -0.6, 0.0)."""
    return _tenths(round(value, 1) + 0.0, signed, str(_now()[1] or DEFAULT))


@lru_cache(maxsize=4096)
def _tenths(value: float, signed: bool, locale: str) -> str:
    """Babel's writing of a tenth, kept: a league writes a few hundred."""
    pattern = "+#,##0.0;-#,##0.0" if signed and value else "#,##0.0"
    text = format_decimal(value, pattern, locale=locale, group_separator=_grouped(value, locale))
    return text.replace("-", MINUS, 1) if value < 0 else text


# The letters an alphabet sorts as letters of their own, each after its base letter
# ("Ĉiela" after "Cezaro" and before "Dana", not after "Zofia"), as the language's
# dictionaries order them: Polish ą ć ę ł ń ó ś ź ż, Czech č ř š ž (and ch after h),
# Esperanto ĉ ĝ ĥ ĵ ŝ ŭ. Another accent sorts with its letter, before it where two
# names differ only by it (Czech á, é, ů; Russian ё with е), as Unicode's collation does.
OWN_LETTERS = {
    "pl": "ąćęłńóśźż",
    "cs": "čřšž",
    "eo": "ĉĝĥĵŝŭ",
}
BASE_OF = {"ł": "l"}  # a letter Unicode does not write as a base and a mark


def alphabetical(text: str) -> tuple:
    """A sort key for a name as the page's language orders a list of names."""
    lang = primary(str(_now()[1] or DEFAULT))
    own = OWN_LETTERS.get(lang, "")
    folded = unicodedata.normalize("NFC", text).casefold()
    if lang == "cs":
        folded = folded.replace("ch", "h\uffff")  # ch: a letter after h
    letters, marks = [], []
    for c in folded:
        base = BASE_OF.get(c) or unicodedata.normalize("NFD", c)[0]
        letters.append((base, 1 + own.index(c) if c in own else 0))
        marks.append(0 if c == base or c in own else 1)
    return (letters, marks, folded)


def percent(value: float) -> str:
    """A chance as the page's locale writes a percentage, whole (41 %, 41%)."""
    return format_percent(value, locale=str(_now()[1] or DEFAULT))


def listed(items: Iterable[Any]) -> str:
    """Items as the page's locale lists them: "A, B, and C", "A, B i C"."""
    return format_list([str(i) for i in items], locale=str(_now()[1] or DEFAULT))


# The languages whose countries write a decimal comma and whose spreadsheets (Excel
# in Polish, Russian, Czech settings) split a CSV opened from a file on ";": their
# CSVs use it. Esperanto has no country's settings: "," as everywhere else.
SEMICOLON_CSV = ("pl", "ru", "cs")


def csv_separator() -> str:
    """The separator of a CSV in the page's language (docs/languages.md)."""
    return ";" if primary(str(_now()[1] or DEFAULT)) in SEMICOLON_CSV else ","


# Esperanto's months: CLDR's "eo" writes them capitalised and cut English-like
# ("1 Dec 2026"); Esperanto writes "la 1-an de decembro 2026".
EO_MONTHS = (
    "januaro februaro marto aprilo majo junio julio aŭgusto septembro oktobro novembro decembro"
).split()


# The languages whose date is written in words, the month in the genitive (Babel's
# "long": „1 grudnia 2026”, not „1 gru 2026”), with a time of day beside it that has no
# seconds („6 grudnia 2026, 05:30”): as the Polish reader asked. English, Russian and
# Czech keep Babel's "medium" ("Dec 1, 2026", «1 дек. 2026 г.», "1. 12. 2026"), which
# their readers took as their own; Esperanto writes its own (EO_MONTHS).
DAY_IN_WORDS = ("pl",)


def day(moment: datetime, adverbial: bool = True) -> str:
    """A date as the page's language writes it: "Dec 1, 2026", "1 grudnia 2026",
    "1 дек. 2026 г.", "1. 12. 2026", "la 1-an de decembro 2026" (after a verb or a
    noun, "komencita la 1-an …"; ``adverbial`` False: a date standing alone, in
    a list or a heading, "la 1-a de decembro 2026")."""
    locale = str(_now()[1] or DEFAULT)
    if primary(locale) == "eo":
        case = "an" if adverbial else "a"
        # the ordinal's ending on the same line as its number (U+2011), as the catalogs
        # write «la 7‑a truko»
        return f"la {moment.day}\u2011{case} de {EO_MONTHS[moment.month - 1]} {moment.year}"
    return format_date(
        moment, "long" if primary(locale) in DAY_IN_WORDS else "medium", locale=locale
    )


def day_and_time(moment: datetime, width: str = "medium") -> str:
    """A date and a time of day as the page's language writes them (``width``:
    Babel's "medium" with seconds, "short" without; "6 grudnia 2026, 05:30" in
    Polish, whatever the width; Esperanto's standing alone, "la 6-a de …")."""
    locale = str(_now()[1] or DEFAULT)
    if primary(locale) in DAY_IN_WORDS:
        return f"{day(moment)}, {format_time(moment, 'short', locale=locale)}"
    if primary(locale) == "eo":  # a date and time stand alone (history, headings)
        return f"{day(moment, adverbial=False)}, {format_time(moment, width, locale=locale)}"
    return format_datetime(moment, width, locale=locale)


# --- the locale ---------------------------------------------------------------


def primary(tag: str) -> str:
    """The language of a locale or language tag: "pl_PL.UTF-8", "pl-PL" → "pl"."""
    return tag.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()


def cli_locale(environ: Any = None) -> str:
    """The language a command speaks: the first of LANGUAGE, LC_ALL, LC_MESSAGES,
    LANG that names one of LANGUAGES (as gettext reads them), else English."""
    environ = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for tag in environ.get(var, "").split(":"):
            if primary(tag) in LANGUAGES:
                return primary(tag)
    return DEFAULT


TRANSLATIONS = Path(__file__).resolve().parent / "translations"  # Flask-Babel's too


@cache
def _command_catalog(lang: str, domain: str = "messages") -> Translations:
    return Translations.load(str(TRANSLATIONS), [lang], domain=domain)


def said(text: Any, environ: Any = None) -> str:
    """``text`` drawn in the language a command speaks (:func:`cli_locale`), with no
    Flask app around it: the lines `make run` and `make table` print for the host."""
    lang = cli_locale(environ)
    return str(_param(text, _command_catalog(lang), Locale.parse(lang), False))


def N_(msgid: str) -> str:
    """A message marked for the catalogs as it is (the command line's help, which
    click reads as text), drawn where it is shown (:func:`said_now`)."""
    return msgid


def said_now(msgid: str, environ: Any = None) -> str:
    """A message marked with N_, in the language a command speaks (cli_locale)."""
    return _command_catalog(cli_locale(environ)).gettext(msgid)


def speak_click() -> None:
    """Click says its own words (Usage, Options, its errors) with the standard
    library's gettext, which reads LANGUAGE, LC_ALL, LC_MESSAGES and LANG as
    cli_locale does: from the catalogs of the domain "click" (CLICK_WORDS)."""
    gettext.bindtextdomain(CLICK_DOMAIN, str(TRANSLATIONS))
    gettext.textdomain(CLICK_DOMAIN)


def click_said(msgid: str | tuple[str, str], n: int = 1, environ: Any = None) -> str:
    """One of click's own words (CLICK_WORDS), in the language a command speaks; a
    plural's (singular, plural) for ``n``."""
    catalog = _command_catalog(cli_locale(environ), CLICK_DOMAIN)
    return catalog.gettext(msgid) if isinstance(msgid, str) else catalog.ngettext(*msgid, n)


# Click's own words, as click asks for them (gettext, no context), in a gettext domain
# of their own: scorer/translations/<lang>/LC_MESSAGES/click.po, kept by
# scorer/catalogs.py. Click asks for "Options" as its help's heading, which the
# messages' "Options" (the match form's, „Ustawienia”) is not: „Opcje”.
CLICK_DOMAIN = "click"
# a mistyped option's suggestions (scorer.cli.suggested words them as click does)
DID_YOU_MEAN = ("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)")
CLICK_WORDS = (
    "Usage:",
    "Options",
    "Commands",
    "Show this message and exit.",
    "Error: {message}",
    "Try '{command} {option}' for help.",
    "Missing argument",
    "No such option {name!r}.",
    "Invalid value for {param_hint}: {message}",
    "Aborted!",
    "No such command {name!r}.",
    "Missing command.",
    "Option {name!r} does not take a value.",
    # a plural: click asks with ngettext (singular, plural)
    DID_YOU_MEAN,
    ("Option {name!r} requires an argument.", "Option {name!r} requires {nargs} arguments."),
    ("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})"),
    # the placeholders of a usage line and an option's help (scorer.cli.Spoken)
    "[OPTIONS]",
    "COMMAND [ARGS]...",
    "FILE",
    "TEXT",
    "ADDRESS",
    # a word typed, named in an error ("Missing argument 'FILE'.")
    "'{name}'",
)


# What an error of the system says, in our words (its English text is the system's).
OS_ERRORS = {
    errno.ENOENT: L_("there is no such file"),
    errno.EACCES: L_("permission denied"),
    errno.EPERM: L_("permission denied"),
    errno.EISDIR: L_("it is a folder, not a file"),
    errno.ENOTDIR: L_("a part of its path is not a folder"),
    # a folder to make where a file of that name is (a backup's path through a file)
    errno.EEXIST: L_("a part of its path is a file, not a folder"),
    errno.ENOSPC: L_("the disk is full"),
    errno.EROFS: L_("the disk can only be read"),
}
# sqlite3's errors have no number: their English text, a part of it, is the key
DATABASE_ERRORS = {
    "not a database": L_("it is not a database"),
    "malformed": L_("the database is damaged"),
    "unable to open": L_("the database cannot be opened there"),
    "locked": L_("another program holds the database (locked)"),
    "readonly": L_("the database can only be read"),
}


def system_error(e: BaseException) -> Any:
    """Why the system refused, as a Text in our words where we know the error (a
    file that is not there, permission, not a database …), else the system's own."""
    if isinstance(e, UnicodeDecodeError):
        return _("it is not text in UTF-8")
    if isinstance(e, OSError) and e.errno in OS_ERRORS:
        return OS_ERRORS[e.errno]
    if isinstance(e, sqlite3.Error):
        text = str(e)
        found = next((words for key, words in DATABASE_ERRORS.items() if key in text), None)
        if found is not None:
            return found
    return (getattr(e, "strerror", None) or str(e) or type(e).__name__)[:200]


__all__ = [
    "N_",
    "said_now",
    "speak_click",
    "click_said",
    "_",
    "L_",
    "ngettext",
    "pgettext",
    "npgettext",
    "filled",
    "sentence",
    "lowered",
    "join",
    "day",
    "day_and_time",
    "csv_separator",
    "tenths",
    "percent",
    "listed",
    "Text",
    "LANGUAGES",
    "cli_locale",
    "drawn_in",
]
