"""Who may change a match: its scorers.

A browser is known by a long-lived random cookie. The browser that creates a
match scores it; another browser becomes a scorer by opening the match's score
link once (it carries the edit key, which is checked and then left out of the
address). Anyone with the match's id may watch. The API asks for the edit key
itself on every write (``Authorization: Bearer <edit_key>``).
"""

from __future__ import annotations

import re
import secrets
from urllib.parse import urlsplit

from flask import Flask, abort, current_app, g, request
from flask_wtf.csrf import CSRFProtect
from werkzeug.exceptions import Forbidden, Unauthorized

from .. import store
from ..i18n import _
from ..store import get_db as db

COOKIE = "scorer_browser"
COOKIE_AGE = 400 * 24 * 3600  # the longest a browser keeps a cookie
WELL_FORMED = re.compile(r"[A-Za-z0-9_-]{22,64}")


def browser() -> str:
    """This browser's id: from its cookie, or a new one (set on the answer)."""
    if "browser" not in g:
        given = request.cookies.get(COOKIE, "")
        if WELL_FORMED.fullmatch(given):
            g.browser = given
        else:
            g.browser = secrets.token_urlsafe(24)
            g.new_browser = True
    return g.browser


def known() -> str:
    """This browser's id if it has one already ("" if not: it has seen nothing)."""
    given = request.cookies.get(COOKIE, "")
    return given if WELL_FORMED.fullmatch(given) else ""


def role(stored: store.Stored) -> str | None:
    """ "score", "watch" or None: what this browser is to the match."""
    return store.role_of(db(), known(), stored.id)


def can_score(stored: store.Stored) -> bool:
    return role(stored) == "score"


def require_scorer(stored: store.Stored) -> None:
    """The 403 page for a browser that does not score this match."""
    if not can_score(stored):
        refuse(
            Forbidden,
            _(
                "Only the match's scorers can change it. Ask one of them for the "
                "score link (Share on the sheet); with this one you can watch."
            ),
        )


def seen(match_row: int) -> str | None:
    """What this browser is to a match it reads (``role``), remembering the first
    time it reads it with its cookie that it watches it (its home page lists it).
    A browser without the cookie gets one with the answer and nothing is written:
    a read by a passer-by (a link preview, a crawler, curl) leaves no row."""
    given = known()
    if not given:
        browser()  # the cookie goes out with the answer
        return None
    role = store.role_of(db(), given, match_row)
    if role is None:
        store.remember(db(), given, match_row, "watch")
        role = "watch"
    return role


def bearer() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _sp, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def require_key(match_id: str) -> None:
    """API writes: no such match 404, no key 401, a wrong one 403 (the match's
    row alone is read: the write reads the match itself, under its lock)."""
    try:
        right = store.edit_key(db(), match_id)
    except store.NotFound:
        abort(404)
    key = bearer()
    if key is None:
        refuse(
            Unauthorized,
            _("this write needs the match's edit key (Authorization: Bearer <edit_key>)"),
        )
    if not store.keys_match(right, key):
        refuse(Forbidden, _("that is not this match's edit key"))


def refuse(kind, message) -> None:
    """Stop with a 401 or 403 that says why (the error pages show ``scorer_message``)."""
    e = kind()
    e.scorer_message = message
    raise e


def init_app(app: Flask) -> None:
    @app.after_request
    def set_browser_cookie(response):
        if g.get("new_browser"):
            response.set_cookie(
                COOKIE,
                g.browser,
                max_age=COOKIE_AGE,
                httponly=True,
                samesite="Lax",
                secure=request.is_secure,
            )
        return response


class SameOrigin(CSRFProtect):
    """Cross-site request forgery refused by what the browser says of the request,
    as OWASP's Fetch Metadata defense and Go's CrossOriginProtection do: a write
    the browser marks ``Sec-Fetch-Site: same-origin`` (every browser with a
    service worker sends it), or whose ``Origin`` is this server, comes from one of
    Scorer's own pages and passes. Only a request without either (an old browser)
    is asked for the form's token, as before.

    So a deal that waited on a phone whose browser was closed meanwhile (its
    session cookie, and the token tied to it, gone) is still taken when the
    network is back: nothing it carries can expire. The scorer's right to change
    the match is still its long-lived cookie (``browser``), sent SameSite=Lax."""

    def protect(self, apply_exemptions=False):
        if request.method in current_app.config["WTF_CSRF_METHODS"] and same_origin():
            g.csrf_valid = True  # the forms' own token check stands down (Flask-WTF)
            return
        super().protect(apply_exemptions=apply_exemptions)


def needs_token() -> bool:
    """Whether a page drawn for this request must carry the forms' CSRF token: only
    for a browser that sends no Fetch Metadata. One that sends ``Sec-Fetch-Site``
    on a GET sends it on its writes too, which ``SameOrigin`` takes on it."""
    return "Sec-Fetch-Site" not in request.headers


def same_origin() -> bool:
    """The browser says this request comes from a page of this server."""
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None:
        return site == "same-origin"
    origin = request.headers.get("Origin")
    if not origin or origin == "null":
        return False
    return urlsplit(origin).netloc.lower() == request.host.lower()
