"""The home page (the matches this browser scores or has watched, a page at a
time, narrowed by game, player and state), starting a match, and importing a
record."""

from __future__ import annotations

import hashlib
import random

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import get_locale
from markupsafe import Markup

from .. import store
from ..games import GAMES, EntryError
from ..i18n import _, alphabetical
from ..record import (
    RecordError,
    load,
    load_match,
    read_json,
)
from ..store import get_db as db
from . import access
from .drawn import draw, drawn, drawn_pages, packed
from .forms import (
    ImportForm,
    form_meta,
    form_problem,
    new_match_form,
    record_from_new_match,
    whole_number,
)
from .lookup import known_names, title

bp = Blueprint("home", __name__)


@bp.get("/")
def home():
    return _home()


def _home(import_error: str | None = None):
    """The matches this browser scores or has watched, a page at a time, the
    latest changed first; narrowed by game, player, in progress or finished.

    What it reads grows with the page, not with the browser's matches (bar their
    count): the filter's games and names are read over all of them, so only once
    the filter is opened (``?filter``, "Which matches") or narrows the list. Its
    forms carry the CSRF token only for a browser without Fetch Metadata (as the
    sheet's: access.SameOrigin). The page is kept whole, drawn and compressed once,
    for what it lists (its rows as read, unparsed), its count, trash and address,
    unless something of this browser's own is in it (a notice, a refused import,
    the token): two browsers that list the same get the same bytes."""
    args = request.args
    game, player = args.get("game") or None, args.get("player") or None
    state = args.get("state") if args.get("state") in ("playing", "finished") else None
    choosing = "filter" in args or bool(game or player or state)
    games, names = store.choices(db(), access.known()) if choosing else ([], [])
    names.sort(key=alphabetical)  # as the page's language orders names: Ĉ after C
    game = game if game in games else None
    player = player if player in names else None
    page = whole_number(args.get("page") or "1") or 1
    rows, total = store.page_rows(
        db(),
        access.known(),
        game=game,
        player=player,
        finished=None if state is None else state == "finished",
        page=page,
    )
    pages = max(1, -(-total // store.PER_PAGE))
    if page > pages:
        abort(404)
    trash = [
        {"id": t.pub, "title": title(t.match)}
        for t in store.listing(db(), access.known(), trash=True)
    ]
    here = {k: v for k, v in (("game", game), ("player", player), ("state", state)) if v}
    token = access.needs_token()
    locale = str(get_locale())

    def draw_page() -> str:
        return render_template(
            "home.html",
            trash=trash,
            trash_days=store.TRASH_DAYS,
            rows=[listed(r, locale) for r in store.summarize(db(), rows)],
            total=total,
            page=page,
            pages=pages,
            here=here,
            choosing=choosing,
            games=games,
            names=names,
            token=token,
            import_form=ImportForm(meta=form_meta(token)),
            import_error=import_error,
        )

    if token or import_error or session.get("_flashes"):  # this browser's own: drawn for it
        return draw_page()
    # the same page for every browser that lists the same: drawn and compressed once
    key = ("home", request.full_path, locale, total, tuple(games), tuple(names))
    # the page's rows as read (their summaries' JSON unparsed: a kept page parses none)
    key += (tuple(tuple(r[k] for k in SHOWN) for r in rows),)
    key += (tuple((t["id"], str(t["title"])) for t in trash),)
    response = Response(mimetype="text/html")
    response.set_etag("h" + hashlib.sha256(repr(key).encode()).hexdigest()[:20], weak=True)
    response.headers["Cache-Control"] = "no-cache"
    return packed(response, drawn_pages(), key, lambda: drawn_pages().get(key, draw_page))


# what a listed match is drawn from (store.page_rows)
SHOWN = ("pub", "game", "players", "created", "updated", "summary")


def listed(r: store.Summary, locale: str) -> Markup:
    """A match as the home page lists it, drawn once per change and language (a
    page of 30 is drawn from what the worker drew, as the sheet's parts are)."""
    shown = (r.pub, r.game, r.created, r.updated, r.deals, r.finished, r.readable)
    key = ("item", locale, shown, *map(tuple, (r.players, r.totals, r.winners)))
    return drawn().get(key, lambda: draw("_match_item.html", {"r": r}))


@bp.get("/new")
def choose_game():
    return render_template("choose_game.html")


@bp.route("/new/<game>", methods=["GET", "POST"])
def new_match(game: str):
    if game not in GAMES:
        abort(404)
    cls = GAMES[game]
    form = new_match_form(cls, request.form if request.method == "POST" else None)
    error = None
    if request.method == "POST":
        if form.validate():
            try:
                record = record_from_new_match(cls, form)
                if "first_dealer" not in record:
                    record["first_dealer"] = random.randrange(max(1, len(record["players"])))
                match = load_match(record)
            except (EntryError, RecordError) as e:
                error = e.message
            else:
                match_id = store.create(db(), match, browser=access.browser()).pub
                if form.first_dealer.data == "draw":
                    flash(
                        _(
                            "Lots drawn: %(name)s deals first.",
                            name=match.players[match.first_dealer],
                        )
                    )
                return redirect(url_for("sheet.sheet", match_id=match_id))
        else:
            error = form_problem(form)
    return render_template(
        "new_match.html",
        game=cls,
        form=form,
        error=error,
        seats=max(cls.player_counts),
        min_seats=min(cls.player_counts),
        known=known_names(),
    ), (400 if error else 200)


@bp.post("/import")
def import_record():
    form = ImportForm()
    if not form.validate_on_submit():
        abort(400)
    upload = request.files.get("record")
    raw = upload.read() if upload else b""
    error = None
    try:
        match, _standings = load(read_json(raw))
    except RecordError as e:
        error = e.message
    if error:
        return _home(import_error=_("Nothing imported: %(why)s", why=error)), 400
    match_id = store.create(db(), match, kind="import", browser=access.browser()).pub
    flash(_("Imported as a new match."))
    return redirect(url_for("sheet.sheet", match_id=match_id))
