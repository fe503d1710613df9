"""The score sheet: the live page every phone follows (a bodiless 304 while
nothing changed). A version's sheet is the same bytes for every phone of one
role and language: drawn once, from parts drawn once (its head, tail and next
deal), kept whole and compressed once per encoding (scorer/web/drawn.py). It
carries nothing of one phone's own: its forms have no CSRF token (a browser
that sends Fetch Metadata has its writes taken on it, access.SameOrigin) and
no idempotency key (the phone makes one as the form is sent, static/scorer.js;
a form sent without one gets one from what it says, lookup.form_key). A page
with something of one phone's own is drawn for it alone, with an ETag of its
own: this browser's Undo (its change is the match's latest), a notice, its
ratings (before the first deal, at the end), or the forms' token for a browser
without Fetch Metadata. Also the old numbered links of matches made before ids."""

from __future__ import annotations

import hashlib
import json

from flask import (
    Blueprint,
    Response,
    abort,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import get_locale
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup

from .. import store
from ..games import GAMES
from ..store import get_db as db
from ..store.db import close_db
from . import access
from .deal_form import ahead, questions, sheet_entry
from .drawn import deal_rows, draw, drawn, drawn_pages, pack_big, packed
from .forms import ConfirmForm, form_meta
from .history import last_change
from .live import init_app as init_live
from .live import live_etag, unchanged, wait_for_change
from .lookup import match_or_404, title
from .players import sheet_ratings

bp = Blueprint("sheet", __name__)
bp.record_once(lambda state: init_live(state.app))  # the live sheet's wait
bp.add_app_template_global(deal_rows)  # the deals table's rows (_sheet_tail.html)


SHEET_DEALS = 12  # the latest deals the sheet's table shows, about a phone's screenful


@bp.get("/m/<mid:match_id>")
def sheet(match_id: str):
    """The score sheet. ``?part=live``: only what changes (the live sheet asks for
    it every two seconds with its ETag; unchanged, the answer is a bodiless 304)."""
    live = request.args.get("part") == "live"
    show_all = request.args.get("deals") == "all"
    try:  # the poll's question, "changed?", is answered from the match's row alone
        row, version = store.version_of(db(), match_id)
    except store.NotFound:
        abort(404)
    can_score = access.seen(row) == "score"
    etag = sheet_etag(match_id, version, can_score, show_all)
    held = live and held_tag(etag)
    if held:
        close_db()  # a phone that waits holds no connection
        if not (request.args.get("wait") and wait_for_change(match_id, version)):
            return unchanged(held)
    else:  # this version's page, kept, where this phone has nothing of its own in it
        key = ("page", etag, live)
        page = drawn_pages().peek(key)
        if page is not None and nothing_own(match_id):
            return shared_page(etag, key, lambda: page)
    stored = match_or_404(match_id)
    etag = sheet_etag(match_id, stored.version, can_score, show_all)  # a write in between
    held = live and held_tag(etag)
    if held:  # woken, and nothing changed
        return unchanged(held)
    key = ("page", etag, live)
    match = stored.match
    st = store.standings(db(), stored)
    context = {
        "match_id": match_id,
        "match": match,
        "st": st,
        "game": GAMES[match.game],
        "can_score": can_score,
        "deals": "all" if show_all else None,
        "shown_deals": SHEET_DEALS,
    }
    undo = last_change(stored) if can_score else None
    token = access.needs_token()
    # this browser's ratings: before the first deal, and at the end
    rated = sheet_ratings(match, match_id, st) if not st.rows or st.finished else None
    notice = session.get("_flashes")
    shared = etag  # the parts' (the head, tail and next deal are every phone's)
    own = bool(undo or token or rated or notice)
    if own:
        csrf = generate_csrf() if token else ""
        etag = f"{etag}.{phone_tag(undo and undo['event'], csrf, notice, rated)}"

    def draw_page() -> str:
        top, tail = drawn().get(
            shared, lambda: (draw("_sheet_top.html", context), draw("_sheet_tail.html", context))
        )
        next_deal, has_form = next_part(stored, st, context, token)
        return render_template(
            "_sheet_body.html" if live else "sheet.html",
            **context,
            top=top,
            tail=tail,
            next_part=next_deal,
            has_form=has_form,
            rated=rated,
            title=title(match),
            page_address=request.path + ("?deals=all" if show_all else ""),
            confirm=ConfirmForm(meta=form_meta(token)),
            etag=etag,
            undo=undo,
            choices=store.conflicts(db(), stored) if can_score else [],
        )

    # Kept mid-match, where no phone's page has ratings of its own: the version's
    # page for every phone of this role and language, drawn and compressed once
    if not own and not show_all and st.rows and not st.finished:
        return shared_page(etag, key, lambda: drawn_pages().get(key, draw_page))
    response = Response(draw_page())  # drawn for this request ("Show all": too big to keep)
    response.set_etag(etag, weak=True)  # weak: the same sheet, whatever its compression
    response.headers["Cache-Control"] = "no-cache"
    return pack_big(response)


def shared_page(etag: str, key: tuple, page) -> Response:
    """The sheet every phone of a role and language is shown, kept under ``key``
    (``page()`` draws it), compressed once per encoding."""
    response = Response(mimetype="text/html")
    response.set_etag(etag, weak=True)  # weak: the same sheet, whatever its compression
    response.headers["Cache-Control"] = "no-cache"
    return packed(response, drawn_pages(), key, page)


def nothing_own(pub: str) -> bool:
    """Whether this phone's sheet of a match, kept mid-match, can hold nothing of
    its own, known without reading the match: no notice waits, its browser sends
    Fetch Metadata (no token), and it made no change to the match that the sheet
    could offer to undo (``last_change``)."""
    return not (
        session.get("_flashes") or access.needs_token() or pub in (session.get("last_change") or {})
    )


def held_tag(etag: str) -> str | None:
    """The ETag a live poll names, if it is of this version: the page every phone
    is shown (``etag``), or one drawn for a phone alone (``etag`` and its
    ``phone_tag``), which only that phone holds. None if it names none."""
    for tag in request.if_none_match.as_set(include_weak=True):
        if tag == etag or tag.startswith(f"{etag}.p"):
            return tag
    return None


def phone_tag(*own) -> str:
    """What a page drawn for one phone adds to its version's ETag: a mark of this
    browser and of what is its own in the page (``own``: its Undo, its token, its
    notice, its ratings), hashed, so that one ETag is always one page."""
    text = json.dumps([access.browser(), *own], default=str, ensure_ascii=False)
    return "p" + hashlib.sha256(text.encode()).hexdigest()[:10]


def next_part(stored: store.Stored, st, context: dict, token: bool) -> tuple[Markup, bool]:
    """The sheet's next deal (_sheet_next.html) and whether a deal form is in it. A
    scorer enters the next deal on the sheet itself, with the deal page's form
    (without its key: the phone makes it as it sends the form). Drawn once per
    version, like the sheet's head and tail; with the forms' token, for a browser
    without Fetch Metadata, drawn for its page. Drawing the form took half of a
    Hearts sheet's time."""

    def draw_next() -> tuple[str, bool]:
        entry = sheet_entry(stored, st, token) if context["can_score"] else None
        html = render_template(
            "_sheet_next.html",
            **context,
            entry=entry,
            questions=questions(entry) if entry else "",
            confirm=ConfirmForm(meta=form_meta(token)),
            ahead=ahead(stored, st.next, st) if context["can_score"] and st.next else "",
            mark=stored.next_mark(),
            version=stored.version,
        )
        return html, entry is not None

    if token:
        html, has_form = draw_next()
    else:  # the same whether the table shows all deals or the latest
        etag = sheet_etag(stored.pub, stored.version, context["can_score"], False)
        html, has_form = drawn().get(("next", etag), draw_next)
    return Markup(html), has_form


def sheet_etag(pub: str, version: int, can_score: bool, show_all: bool) -> str:
    """The sheet's version as a page (``live_etag``) in the request's language."""
    return live_etag(pub, version, str(get_locale()), can_score, show_all)


@bp.get("/m/<int:number>")
def old_link(number: int):
    """A match made before matches had an id nobody can guess: its old link."""
    pub = store.legacy_pub(db(), number)
    if pub is None:
        abort(404)
    return redirect(url_for("sheet.sheet", match_id=pub), 301)
