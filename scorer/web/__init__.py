"""The web layer: HTML pages, the JSON API and the rules pages."""

from __future__ import annotations

from datetime import datetime

from flask import Flask, Response, abort, jsonify, render_template, request
from flask.globals import request_ctx
from flask_babel import format_time
from flask_wtf.csrf import CSRFError
from markupsafe import Markup
from werkzeug.exceptions import HTTPException, SecurityError

from .. import chart
from ..cards import SYMBOLS, display, is_red
from ..games import GAMES
from ..i18n import _, day, day_and_time
from ..match import DealError
from ..store import Busy, KeyReused, NotFound, Stale, StoreError
from . import (
    access,
    api,
    entry,
    export,
    history,
    home,
    manage,
    offline,
    play,
    players,
    rules,
    sharing,
    sheet,
)
from .forms import field_id, resent

# How many characters of a name fit a deals-table column on a 320 px phone, and
# the totals' box above it (three a row: 80 px, bold), by the number of players.
SHORT_FIT = {2: 12, 3: 6, 4: 5, 5: 4, 6: 4}
# How many fit a player's chip in a deal form or the check (and the count above it),
# by the number of players: a 320 px phone's column beside the question (three, four)
# or under it (five: a row of five; six: two rows of three there, one of six from
# 390 px), in the widest common phone font (DejaVu Sans: "Wład" 43 px at 17 px,
# in a chip 47 px wide at the narrowest).
CHIP_FIT = {2: 7, 3: 4, 4: 4, 5: 3, 6: 4}
# From 390 px (static/forms.css: .more) two or three players' chips take more: the
# letters past CHIP_FIT's are drawn there only ("Bart" + "ek").
CHIP_WIDE = {2: 9, 3: 6}


def short_names(names: list[str], most: int | None = None) -> list[str]:
    """Distinct short forms of the players' names for narrow columns: a name of at
    most ``most`` characters (one more from 5 on) as it is, else its first ``most``
    characters, longer where another name starts the same way ("Marek", "Maria" → "Mare", "Mari") or
    with the initials of its later words ("Anna Nowak", "Anna Kowalska" → "AnN",
    "AnK"); names still alike get their seat number."""
    most = most or SHORT_FIT.get(len(names), 4)
    clean = [" ".join(n.split()) for n in names]
    out = []
    for s, name in enumerate(clean):
        others = [o for t, o in enumerate(clean) if t != s]
        short = name
        # one letter more than "most" is no wider than most letters and an ellipsis
        whole = most + 1 if most >= 5 else most
        start = len(name) if len(name) <= whole else most
        for k in range(start, len(name) + 1):
            prefix = name[:k]
            if prefix.endswith(" ") or any(o.startswith(prefix) and o != name for o in others):
                continue
            short = prefix
            break
        words = name.split(" ")
        if len(short) > most and len(words) > 1:  # "Anna Nowak", "Anna Kowalska": "AnN", "AnK"
            initials = "".join(w[0] for w in words[1:])
            short = words[0][: max(1, most - len(initials))] + initials
        out.append(short)
    if len(set(out)) < len(out):  # the same name twice: the seat tells them apart
        out = [f"{short}{s + 1}" if out.count(short) > 1 else short for s, short in enumerate(out)]
    return out


def patched() -> bool:
    """Served by gevent's workers (its sockets in place of the standard ones)."""
    try:
        from gevent import monkey  # noqa: PLC0415
    except ImportError:
        return False
    return monkey.is_module_patched("socket")


def wants_json() -> bool:
    return request.path.startswith("/api/")


def register(app: Flask) -> None:

    access.init_app(app)
    for pages in (home, sheet, entry, history, manage, sharing, export):
        app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.extensions["csrf"].exempt(api.bp)  # JSON bodies only (415 otherwise): no CSRF
    app.register_blueprint(rules.bp)
    app.register_blueprint(play.bp)
    app.register_blueprint(players.bp)
    app.register_blueprint(offline.bp)

    @app.before_request
    def body_in_time():
        """A request's body arrives in time, or 408: under gevent's workers a body
        sent a byte every ten seconds held its connection for minutes (issue 35).
        ``BODY_SECONDS`` (SCORER_BODY_SECONDS, 10) and one more second for each
        64 KB (a season file of 8 MB: 138 s)."""
        size = request.content_length
        seconds = app.config.get("BODY_SECONDS")
        if not size or not seconds or not patched():
            return
        from gevent import Timeout  # noqa: PLC0415 (gevent's workers only)

        try:
            with Timeout(seconds + size / 65536):
                request.get_data(cache=True)  # the form is parsed from it after
        except Timeout:
            abort(408)

    @app.after_request
    def once_only(response):
        """A page that showed a flash ("Deal 3 saved.") is kept by nothing: not by
        the service worker as the copy to open offline (static/sw.js), nor by the
        browser's cache (its ETag names the match's version, not the message: a
        304 would bring the message back)."""
        if request_ctx.flashes:
            response.headers["Scorer-Flash"] = "1"
            response.headers["Cache-Control"] = "no-store"
        return response

    @app.context_processor
    def globals_():
        return {
            "GAMES": GAMES,
            "card": display,
            "is_red": is_red,
            "SUITS": SYMBOLS,
            "field_id": field_id,
            "chart": chart,
        }

    app.add_template_filter(short_names)

    @app.template_filter("chip_names")
    def chip_names(names: list[str]) -> list[str | Markup]:
        """The players' names as their chips show them (``CHIP_FIT``), with the
        letters a wider phone has room for (``CHIP_WIDE``) in a ``<b class="more">``."""
        short = short_names(names, CHIP_FIT.get(len(names), 3))
        if len(names) not in CHIP_WIDE:
            return short
        wide = short_names(names, CHIP_WIDE[len(names)])
        return [
            Markup('{}<b class="more">{}</b>').format(s, w[len(s) :])
            if w != s and w.startswith(s)
            else s
            for s, w in zip(short, wide)
        ]

    @app.template_filter("when")
    def when_filter(stamp: str | None) -> str:
        """A stored time (ISO 8601, UTC) as the page's locale writes a date and time."""
        if not stamp:
            return ""
        try:
            moment = datetime.fromisoformat(stamp)
        except ValueError:
            return stamp
        return day_and_time(moment)

    @app.template_filter("clock")
    def clock_filter(stamp: str | None) -> str:
        """A stored time as the page's locale writes it, short: the time of day
        alone when it is today (UTC, as stored), else the date and time."""
        try:
            moment = datetime.fromisoformat(stamp or "")
        except ValueError:
            return stamp or ""
        if moment.date() == datetime.now(moment.tzinfo).date():
            return format_time(moment, "short")
        return day_and_time(moment, "short")

    @app.template_filter("day")
    def day_filter(stamp: str | None) -> str:
        """A stored time (ISO 8601, UTC) as the page's locale writes its date."""
        try:
            return day(datetime.fromisoformat(stamp or ""))
        except ValueError:
            return stamp or ""

    @app.template_filter("seats")
    def seats_filter(seats, names):
        """Seat numbers → the players' names."""
        return [names[s] for s in seats]

    @app.errorhandler(CSRFError)
    def csrf_error(e):
        if entry.queued():  # an old browser's entry whose session is gone: it waits
            return entry.told("waiting", "", 400, trouble=400)
        return render_template(
            "error.html",
            code=400,
            message=_(
                "This form has expired. Go back, reload the page and try again; nothing was saved."
            ),
        ), 400

    @app.errorhandler(DealError)
    def unreadable_match(e: DealError):
        """A stored match that today's rules refuse (checked when saved; a later
        change of the rules could still refuse it): said, never a 500."""
        message = _(
            "This match cannot be read with today's rules: %(why)s. Its record "
            "(JSON) can still be downloaded.",
            why=e.message,
        )
        if entry.queued():
            return entry.told("refused", message, 409)
        if wants_json():
            return jsonify(error=message), 409
        return render_template("error.html", code=409, message=message), 409

    @app.errorhandler(StoreError)
    def store_error(e: StoreError):
        """A write refused by the store that a route did not answer itself: a
        clear 4xx all the same (a 503 while the lock stays busy: the same again
        in a moment), never a 500."""
        code = (
            404
            if isinstance(e, NotFound)
            else 422
            if isinstance(e, KeyReused)
            else 503
            if isinstance(e, Busy)
            else (412 if isinstance(e, Stale) and wants_json() else 409)
        )
        why = e.message[:1].upper() + e.message[1:]
        message = _("%(why)s: nothing was changed.", why=why)
        headers = {}
        if isinstance(e, Busy):  # the same again in a moment (a phone's queue sends it again)
            message = _("%(why)s: nothing was changed. Try again in a moment.", why=why)
            headers["Retry-After"] = "1"
        if entry.queued():  # busy: it stays on the phone, sent again at the queue's next try
            return (
                *entry.told("waiting" if isinstance(e, Busy) else "refused", message, code),
                headers,
            )
        if wants_json():
            return jsonify(error=message), code, headers
        if resent(e):  # a page's form sent again after Back: said as the table says it
            return render_template(
                "error.html", code=code, message=resent(e), title=_("Already sent")
            ), code
        return render_template("error.html", code=code, message=message), code, headers

    @app.errorhandler(SecurityError)
    def untrusted_host(e: SecurityError):
        """A Host outside SCORER_TRUSTED_HOSTS: no page can be drawn for it (its
        links would need that host), so a line of text."""
        return Response(
            "400: this server does not answer to that host name.\n", 400, mimetype="text/plain"
        )

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException):
        messages = {
            400: _("This request cannot be read."),
            401: _("This needs the match's edit key."),
            403: _("Only the match's scorers can do that."),
            404: _("There is nothing here."),
            405: _("That is not allowed here."),
            408: _("The request came too slowly; nothing was changed. Try again."),
            413: _("That is too large."),
            415: _("Send JSON (Content-Type: application/json)."),
        }
        message = (
            getattr(e, "scorer_message", None)
            or messages.get(e.code)
            or _("Something went wrong; nothing was changed.")
        )
        headers = {"WWW-Authenticate": "Bearer"} if e.code == 401 else {}
        if getattr(e, "retry_after", None):  # a 503 that says when to ask again
            headers["Retry-After"] = str(e.retry_after)
        if entry.queued():  # the phone keeps the entry: to try again, or held with why
            if e.code >= 500:
                return entry.told("waiting", "", e.code, trouble=e.code)
            return entry.told("refused", message, e.code)
        if wants_json():
            return jsonify(error=message), e.code, headers
        return render_template("error.html", code=e.code, message=message), e.code, headers
