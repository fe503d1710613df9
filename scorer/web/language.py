"""The page's language: Flask-Babel with the locale selector (the switch's cookie,
else Accept-Language negotiated as Babel does, else English), the switch itself
(/lang/<code>), the translations a Text is drawn in (scorer/i18n.py asks here), Texts
drawn in JSON, and the language and number helpers the templates call."""

from __future__ import annotations

from functools import cache, lru_cache
from urllib.parse import urlsplit

from babel import Locale, negotiate_locale
from flask import Blueprint, g, has_app_context, has_request_context, redirect, request, url_for
from flask_babel import Babel, get_locale, get_translations
from jinja2 import pass_context
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from .. import i18n
from ..i18n import (
    DEFAULT,
    Text,
    listed,
    ngettext,
    npgettext,
    number,
    page_number,
    pgettext,
    sentence,
)
from ..i18n import _ as gettext

COOKIE = "lang"
COOKIE_AGE = 400 * 24 * 3600  # the longest a browser keeps a cookie
CODE = "--code--"  # where language_links puts each language's code in the switch's address


def drawing():
    """The translations and locale a Text is drawn in now (asked of Flask-Babel once
    per locale and request: a sheet draws hundreds of texts); English outside an
    application context."""
    if not has_app_context():
        return None, None
    babel = getattr(g, "_flask_babel", None)
    locale = getattr(babel, "babel_locale", None)  # as get_locale() set it (or force_locale)
    kept = g.get("_scorer_translations")
    if locale is not None and kept is not None and kept[1] is locale:
        return kept
    kept = get_translations(), get_locale()
    g._scorer_translations = kept
    return kept


def select_locale() -> str | None:
    """Flask-Babel's locale selector: the switch's cookie, else Accept-Language."""
    if not has_request_context():
        return None  # the default; a command sets its own (cli_locale)
    return locale_of(request.cookies.get(COOKIE, ""), request.headers.get("Accept-Language"))


def locale_of(chosen: str | None, accept_language: str | None) -> str:
    """The page's language: ``chosen`` (the switch's cookie) if it is one of
    i18n.LANGUAGES, else the best of the Accept-Language header's, else English."""
    if chosen in i18n.LANGUAGES:
        return chosen
    return _best_accepted(accept_language, i18n.LANGUAGES)


@lru_cache(maxsize=256)
def _best_accepted(header: str | None, offered: tuple[str, ...]) -> str:
    """The first of the header's languages, best quality first, that we offer, as
    Babel negotiates: a tag with a region falls back to its language before a
    lower-ranked language is tried (``eo-PL,pl;q=0.8`` is Esperanto,
    ``pl-PL,en;q=0.5`` Polish). Werkzeug's ``best_match`` would take the exact
    ``pl`` or ``en`` first."""
    ranked = [(tag, q) for tag, q in parse_accept_header(header, LanguageAccept) if q > 0]
    ranked.sort(key=lambda item: -item[1])  # stable: the header's order among equals
    tags = [tag.replace("_", "-") for tag, _q in ranked]
    found = negotiate_locale(tags, offered, sep="-", aliases=None)
    return found.lower() if found else DEFAULT


@cache
def language_name(code: str) -> str:
    """The language in its own words, as the switch offers it ("Polski")."""
    name = Locale.parse(code).get_display_name(code)
    return name[:1].upper() + name[1:]


def _safe_next(target: str | None) -> str:
    """A path on this site to go back to (never another site); anything else,
    a control character included (a line break cannot stand in a header), is "/"."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    if any(ch < " " or ch == "\x7f" for ch in target):
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return "/"
    return target


def init_app(app) -> None:
    """Flask-Babel with the locale selector; the language switch (/lang/<code>);
    Texts drawn in JSON; the page's language and number filters in templates."""
    Babel(app, locale_selector=select_locale)
    i18n.drawn_in(drawing)
    # Templates call the same _ and ngettext as the code: Texts, escaped when drawn.
    app.jinja_env.install_gettext_callables(
        gettext=gettext, ngettext=ngettext, pgettext=pgettext, npgettext=npgettext, newstyle=False
    )
    app.jinja_env.filters["sentence"] = sentence
    app.jinja_env.filters["listed"] = listed

    json_default = app.json.default

    def default(o):
        if isinstance(o, Text):
            return str(o)  # not Flask's __html__ (escaped) reading
        return json_default(o)

    app.json.default = default

    bp = Blueprint("i18n", __name__)

    @bp.get("/lang/<code>")
    def switch(code: str):
        """The switch: a plain link; the pick is kept in a cookie."""
        response = redirect(_safe_next(request.args.get("next")))
        if code in i18n.LANGUAGES:
            response.set_cookie(COOKIE, code, max_age=COOKIE_AGE, samesite="Lax", httponly=True)
        return response

    app.register_blueprint(bp)

    # functions the page calls, not a context processor: a processor runs for every
    # template drawn, and a sheet draws a score of parts (its rows, the next deals)
    @app.template_global()
    def page_lang() -> str:
        return str(get_locale() or DEFAULT).replace("_", "-")

    @app.template_global()
    def language_links(here: str | None = None) -> list[dict]:
        """The switch's links, each back to ``here`` (a page every phone is shown:
        its own address), else to the address asked."""
        if not here:
            here = request.full_path.rstrip("?") if has_request_context() else "/"
        lang = str(get_locale() or DEFAULT)
        if len(i18n.LANGUAGES) < 2:
            return []
        # one address built, each language's code put in (url_for took a tenth of a page)
        href = url_for("i18n.switch", code=CODE, next=here)
        return [
            {
                "code": code,
                "name": language_name(code),
                "current": code == lang,
                "href": href.replace(CODE, code, 1),
            }
            for code in i18n.LANGUAGES
        ]

    # pass_context: never drawn when a template is compiled (Jinja folds a filter of a
    # constant then, outside any request: "-1,300" on a Russian page)
    @app.template_filter("num")
    @pass_context
    def num_filter(_context, value):
        """A number as the page's locale writes it."""
        if value.__class__ is int:
            return page_number(value)
        return value

    @app.template_filter("signed")
    @pass_context
    def signed_filter(_context, value):
        """Points with their sign (+3, -2, 0), as the page's locale writes numbers."""
        if 0 <= value < 1000:
            return f"+{value}" if value else "0"
        return ("+" if value > 0 else "") + number(value, drawing()[1])
