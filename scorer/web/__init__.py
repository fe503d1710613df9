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
from ..games import GAMES, Game
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
from .drawn import per_language
from .forms import field_id, resent

# A player's name is drawn whole; the page cuts it, with an ellipsis, only where it
# does not fit (static/scorer.css: .name). Where it is cut, what tells it from another
# player's name beginning alike stays in sight: its first letters up to the first that
# differs ("Zosia", "Zbigniew": "Zo…", "Zb…"), at most LEAD of them (what the
# narrowest column holds with its "…": six players' deals table or five players'
# chips at 320 px); a name alike further on ("Marek", "Maria"), or the same, has its
# seat number before it instead ("1 Marek", "2 Ma…").
LEAD = 3


def name_leads(names: list[str]) -> list[str | int]:
    """What of each name a cut must leave: its first letters ("" where the first
    tells it apart), or its seat number (from 1) where that takes more than LEAD."""
    leads: list[str | int] = []
    for s, name in enumerate(names):
        alike = 0
        for t, other in enumerate(names):
            if t != s:
                same = next((i for i, (a, b) in enumerate(zip(name, other)) if a != b), None)
                alike = max(alike, min(len(name), len(other)) if same is None else same)
        if name in names[:s] + names[s + 1 :] or min(alike + 1, len(name)) > LEAD:
            leads.append(s + 1)
        else:
            leads.append(name[: alike + 1] if alike and len(name) > LEAD else "")
    return leads


def player_names(names: list[str]) -> list[Markup]:
    """Each name as the pages draw it, cut by the page where it does not fit: the
    whole name (the element's title and accessible name) after its lead
    (``name_leads``), which is never cut."""
    out = []
    for name, lead in zip(names, name_leads(names)):
        if isinstance(lead, int):  # a seat number: not read out, the names differ
            inside = Markup(
                '<span class="lead seat" aria-hidden="true">{}</span><span class="rest">{}</span>'
            ).format(lead, name)
        elif lead:  # drawn in two parts, read as one word (a screen reader reads each part)
            inside = Markup(
                '<span class="lead" aria-hidden="true">{}</span>'
                '<span class="rest" aria-hidden="true">{}</span><span class="sr-only">{}</span>'
            ).format(lead, name[len(lead) :], name)
        else:
            inside = Markup('<span class="rest">{}</span>').format(name)
        out.append(Markup('<span class="name" title="{}">{}</span>').format(name, inside))
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
            "Game": Game,  # a deal's words where the page has no game (Game.words)
            "card": display,
            "is_red": is_red,
            "SUITS": SYMBOLS,
            "field_id": field_id,
            "chart": chart,
        }

    app.add_template_filter(player_names)
    app.add_template_global(per_language)  # templates/base.html's parts drawn once a language

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
