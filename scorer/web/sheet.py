"""The score sheet: the live page every phone follows (a bodiless 304 while
nothing changed), its parts drawn once per version and, mid-match, the whole
page kept with slots for what is each page's own (its CSRF token, its keys, this
browser's Undo); the next deal's form for a scorer; and the old numbered links of
matches made before ids."""

from __future__ import annotations

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
from .deal_form import ahead, sheet_entry
from .drawn import deal_rows, draw, drawn, drawn_pages, pack_big
from .forms import (
    ConfirmForm,
)
from .history import last_change
from .live import init_app as init_live
from .live import live_etag, unchanged, wait_for_change
from .lookup import match_or_404, new_key, title

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
    if live and request.if_none_match.contains_weak(etag):
        close_db()  # a phone that waits holds no connection
        if not (request.args.get("wait") and wait_for_change(match_id, version)):
            return unchanged(etag)
    stored = match_or_404(match_id)
    etag = sheet_etag(match_id, stored.version, can_score, show_all)  # a write in between
    if live and request.if_none_match.contains_weak(etag):  # woken, and nothing changed
        return unchanged(etag)
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

    def draw_page() -> str:
        top, tail = drawn().get(
            etag, lambda: (draw("_sheet_top.html", context), draw("_sheet_tail.html", context))
        )
        next_deal, has_form = next_part(stored, st, context)
        page = render_template(
            "_sheet_body.html" if live else "sheet.html",
            **context,
            top=top,
            tail=tail,
            next_part=next_deal,
            has_form=has_form,
            title=title(match),
            confirm=ConfirmForm(),
            etag=etag,
            undo=undo,
            choices=store.conflicts(db(), stored) if can_score else [],
        )
        page = page.replace(generate_csrf(), TOKEN_SLOT)
        return page.replace(undo["key"], UNDO_SLOT) if undo else page

    # Mid-match, a sheet is the same for every phone that sees it as this one does (its
    # ETag: version, language, scorer or watcher), but for its Undo (this browser's last
    # change) and its notices: kept whole, with slots, unless a notice waits. Before the
    # first deal and at the end it says what this browser's ratings are: drawn each time.
    if st.rows and not st.finished and not show_all and not session.get("_flashes"):
        key = ("page", etag, live, request.full_path, undo and undo["event"])
        page = drawn_pages().get(key, draw_page)
    else:
        page = draw_page()
    page = page.replace(TOKEN_SLOT, generate_csrf()).replace(KEY_SLOT, new_key())
    response = Response(page.replace(UNDO_SLOT, new_key()) if undo else page)
    response.set_etag(etag, weak=True)  # weak: the same sheet, whatever its compression
    response.headers["Cache-Control"] = "no-cache"
    return pack_big(response) if show_all else response


# what a page's forms carry of their own (a kept drawing has these in their place):
# the CSRF token, the next deal's idempotency key, the Undo's
TOKEN_SLOT, KEY_SLOT, UNDO_SLOT = "\x1etoken\x1e", "\x1ekey\x1e", "\x1eundo\x1e"


def next_part(stored: store.Stored, st, context: dict) -> tuple[Markup, bool]:
    """The sheet's next deal (_sheet_next.html) and whether a deal form is in it. A
    scorer enters the next deal on the sheet itself, with the deal page's form: it
    is drawn once per version, like the sheet's head and tail, with slots for what each
    page's form carries of its own (the CSRF token, the idempotency key), which the
    sheet fills in on every request. Drawing the form took half of a Hearts sheet's
    time."""

    def draw_next() -> tuple[str, bool]:
        entry = sheet_entry(stored, st) if context["can_score"] else None
        html = render_template(
            "_sheet_next.html",
            **context,
            entry=entry,
            confirm=ConfirmForm(),
            ahead=ahead(stored, st.next, st) if context["can_score"] and st.next else "",
            mark=stored.next_mark(),
            version=stored.version,
        )
        html = html.replace(generate_csrf(), TOKEN_SLOT)
        if entry is not None:
            html = html.replace(entry["form"].key.data, KEY_SLOT)
        return html, entry is not None

    # the same whether the table shows all deals or the latest
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
