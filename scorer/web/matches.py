"""The HTML pages: home, new match, the score sheet, entering and editing deals,
the end, export and import."""

from __future__ import annotations

import json
import random
import re
import secrets
import threading
from collections import OrderedDict
from datetime import date

import segno
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import get_locale
from markupsafe import Markup
from werkzeug.exceptions import Forbidden

from .. import players, store
from ..games import GAMES, EntryError
from ..i18n import _
from ..match import DealError, Match, checked_entry, fold
from ..record import (
    RecordError,
    csv_headers,
    dump,
    load,
    load_match,
    read_json,
    to_csv,
    to_sheet_csv,
)
from . import access, db
from .forms import (
    ConfirmForm,
    ImportForm,
    deal_form,
    entry_from_form,
    field_id,
    form_data_from_entry,
    form_problem,
    new_match_form,
    parse_calls,
    record_from_new_match,
    whole_number,
)

bp = Blueprint("matches", __name__)


def match_or_404(match_id: str) -> store.Stored:
    """The stored match (by its public id), or the 404 page."""
    try:
        return store.get(db(), match_id)
    except store.NotFound:
        abort(404)


def scored_or_403(match_id: str) -> store.Stored:
    """The stored match, for a write: 404, or 403 unless this browser scores it."""
    stored = match_or_404(match_id)
    access.require_scorer(stored)
    return stored


def title(match: Match) -> str:
    return f"{GAMES[match.game].name} · {', '.join(match.players)}"


def standings_or_none(stored: store.Stored):
    """The standings, or None for a stored match these rules can no longer read
    (stored deals were checked when saved; a later change of the rules could
    still refuse one)."""
    try:
        return store.standings(db(), stored)
    except DealError:
        return None


@bp.get("/")
def home():
    return _home()


def _home(import_error: str | None = None):
    """The matches this browser scores or has watched, a page at a time, the
    latest changed first; narrowed by game, player, in progress or finished."""
    args = request.args
    games, names = store.choices(db(), access.known())
    game = args.get("game") if args.get("game") in games else None
    player = args.get("player") if args.get("player") in names else None
    state = args.get("state") if args.get("state") in ("playing", "finished") else None
    page = whole_number(args.get("page") or "1") or 1
    rows, total = store.summaries(
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
    return render_template(
        "home.html",
        trash=trash,
        trash_days=store.TRASH_DAYS,
        rows=rows,
        total=total,
        page=page,
        pages=pages,
        here=here,
        games=games,
        names=names,
        import_form=ImportForm(),
        import_error=import_error,
    )


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
                return redirect(url_for("matches.sheet", match_id=match_id))
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


SHEET_DEALS = 12  # the latest deals the sheet's table shows, about a phone's screenful
# (a link shows them all; the chart draws every deal)


class Drawn:
    """Parts of pages drawn once and kept by this process, the latest ``size``: the
    sheet's head and tail (chart, deals, words), under the sheet's ETag, which
    names all they are drawn from (the match's version, the language, scorer or
    watcher, all deals or the latest). Every write makes a new version, so a kept
    part is never stale; a worker that has not drawn it yet draws it."""

    def __init__(self, size: int = 32):
        self.size = size
        self.parts: OrderedDict = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key, draw):
        with self.lock:
            if key in self.parts:
                self.parts.move_to_end(key)
                return self.parts[key]
        part = draw()
        with self.lock:
            self.parts[key] = part
            while len(self.parts) > self.size:
                self.parts.popitem(last=False)
        return part


def drawn() -> Drawn:
    """This app's kept parts (a test's app has its own)."""
    return current_app.extensions.setdefault("scorer.drawn", Drawn())


def draw(template: str, context: dict) -> Markup:
    return Markup(render_template(template, **context))


def known_names() -> list[str]:
    """The names this browser has used (in the matches it sees), latest first:
    the set-up form offers them."""
    return players.names(stored.match for stored in store.listing(db(), access.known()))


@bp.get("/m/<mid:match_id>")
def sheet(match_id: str):
    """The score sheet. ``?part=live``: only what changes (the live sheet asks for
    it every two seconds with its ETag; unchanged, the answer is a bodiless 304)."""
    stored = match_or_404(match_id)
    live = request.args.get("part") == "live"
    if not live:
        access.watched(stored)
    match = stored.match
    can_score = access.can_score(stored)
    etag = f"{stored.pub}.{stored.version}.{get_locale()}.{'s' if can_score else 'w'}"
    if request.args.get("deals") == "all":
        etag += ".all"
    if live and request.if_none_match.contains_weak(etag):
        return Response(status=304, headers={"ETag": f'W/"{etag}"', "Cache-Control": "no-cache"})
    st = store.standings(db(), stored)
    # a scorer enters the next deal on the sheet itself: the deal page's form
    entry = sheet_entry(stored, st) if can_score else None
    context = {
        "match_id": match_id,
        "match": match,
        "st": st,
        "game": GAMES[match.game],
        "can_score": can_score,
        "deals": "all" if request.args.get("deals") == "all" else None,
        "shown_deals": SHEET_DEALS,
    }
    top, tail = drawn().get(
        etag, lambda: (draw("_sheet_top.html", context), draw("_sheet_tail.html", context))
    )
    page = render_template(
        "_sheet_body.html" if live else "sheet.html",
        **context,
        top=top,
        tail=tail,
        entry=entry,
        title=title(match),
        confirm=ConfirmForm(),
        etag=etag,
        undo=last_change(stored) if can_score else None,
        choices=store.conflicts(db(), stored) if can_score else [],
        ahead=ahead(stored, st.next, st) if can_score and st.next else "",
    )
    response = Response(page)
    response.set_etag(etag, weak=True)  # weak: the same sheet, whatever its compression
    response.headers["Cache-Control"] = "no-cache"
    return response


def last_change(stored: store.Stored) -> dict | None:
    """The change this browser made last to the match, while Undo can still take
    it back: {"event", "words"}, for the sheet's one-tap Undo."""
    mine = session.get("last_change") or {}
    event_id = mine.get(stored.pub)
    if not isinstance(event_id, int):
        return None
    line = store.change(db(), stored.id, event_id)
    if line is None or not line["undoable"]:
        return None
    return {"event": event_id, "words": change_words(line), "key": new_key()}


def remember_change(stored_pub: str, change: store.Change) -> None:
    mine = dict(session.get("last_change") or {})
    mine[stored_pub] = change.event
    session["last_change"] = dict(list(mine.items())[-20:])  # the last few matches


def change_words(line: dict) -> str:
    """A line of the history in words."""
    n = line["deal"]
    kind = line["kind"]
    if line.get("undoes"):
        words = {
            "delete": _("Deal %(n)s deleted (an undo).", n=n),
            "edit": _("Deal %(n)s put back as it was (an undo).", n=n),
            "restore": _("Deal %(n)s restored (an undo).", n=n),
            "setup": _("Players and options put back (an undo)."),
        }
        return words.get(kind, kind)
    words = {
        "add": _("Deal %(n)s saved.", n=n),
        "edit": _("Deal %(n)s changed.", n=n),
        "delete": _("Deal %(n)s deleted.", n=n),
        "restore": _("Deal %(n)s restored.", n=n),
        "same": _("Deal %(n)s entered again on another phone: the same, not stored twice.", n=n),
        "conflict": _(
            "Deal %(n)s entered differently on another phone: both kept for a choice.", n=n
        ),
        "keep": _("Deal %(n)s kept as stored; the other entry set aside.", n=n),
        "delete_match": _("The match was moved to the trash."),
        "restore_match": _("The match was taken out of the trash."),
        "rematch": _("The match was started as a rematch."),
        "import": _("The match was imported from a record."),
        "setup": _("Players or options changed."),
    }
    return words.get(kind) or _("The match was started.")


def setup_words(setup: dict | None) -> str:
    """Players and options, as a line of the history says them."""
    if not setup:
        return ""
    options = ", ".join(f"{k} {v}" for k, v in setup["options"].items() if k != "players")
    return f"{', '.join(setup['players'])} · {options}"


def line_words(match: Match, line: dict, field: str) -> str:
    """A history line's entry (or what it replaced) in words."""
    if line["kind"] == "setup":
        return setup_words(line[field])
    return entry_words(match, line[field], line["deal"]) if line["deal"] and line[field] else ""


def entry_words(match: Match, entry, number: int | None) -> str:
    """An entry as the sheet says it (who took what), for the history and the
    side-by-side choice; the record's own form if the rules cannot say it now."""
    if entry is None:
        return ""
    try:
        rules = match.rules
        deals = match.deals[: (number or len(match.deals) + 1) - 1]
        standings = fold(Match(match.game, match.options, match.players, match.first_dealer, deals))
        plan = standings.next or standings.rows[-1].plan
        checked = rules.check({k: v for k, v in entry.items() if k != "play"}, plan)
        return str(rules.describe(checked, plan))
    except (EntryError, DealError, IndexError, AttributeError, TypeError, ValueError):
        return json.dumps(entry, ensure_ascii=False)


@bp.get("/m/<mid:match_id>/history")
def history(match_id: str):
    """Every change of the match with its time, in words; Undo on each that can
    be taken back now (for its scorers)."""
    stored = match_or_404(match_id)
    lines = []
    for line in reversed(store.history(db(), stored.id)):
        lines.append(
            {
                **line,
                "words": change_words(line),
                "key": new_key(),  # a second tap on its Undo repeats, not redoes
                "now": line_words(stored.match, line, "entry"),
                "then": line_words(stored.match, line, "before"),
            }
        )
    return render_template(
        "history.html",
        match_id=match_id,
        match=stored.match,
        title=title(stored.match),
        lines=lines,
        can_score=access.can_score(stored),
        confirm=ConfirmForm(),
    )


@bp.post("/m/<mid:match_id>/undo/<int:event>")
def undo(match_id: str, event: int):
    stored = scored_or_403(match_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    try:
        change = store.undo(db(), stored.id, event, key=request.form.get("key") or None)
    except DealError as e:
        flash(_("Not undone: %(why)s", why=e.message))
    except store.StoreError as e:
        flash(_("Not undone: %(why)s.", why=e.message))
    else:
        remember_change(stored.pub, change)
        flash(change_words({"kind": change.kind, "deal": change.number, "undoes": event}))
    return redirect(
        request.form.get("back") == "history"
        and url_for("matches.history", match_id=match_id)
        or url_for("matches.sheet", match_id=match_id)
    )


@bp.route("/m/<mid:match_id>/setup", methods=["GET", "POST"])
def setup(match_id: str):
    """Fix a player's name, or change an option that the stored deals allow (a
    target, a fixed length): one change of the history, undone from there."""
    stored = scored_or_403(match_id)
    match = stored.match
    cls = GAMES[match.game]
    error = None
    if request.method == "POST":
        form = new_match_form(cls, request.form)
        if form.validate():
            try:
                record = record_from_new_match(cls, form)
                record["first_dealer"] = match.first_dealer  # the deal order stays
                checked = load_match(record)
                change = store.change_setup(
                    db(),
                    stored.id,
                    checked.players,
                    checked.options,
                    key=request.form.get("key") or None,
                )
            except (EntryError, RecordError) as e:
                error = e.message
            except DealError as e:
                error = _("Not changed: with these, %(why)s", why=e.message)
            except store.StoreError as e:
                error = _("Not changed: %(why)s.", why=e.message)
            else:
                remember_change(stored.pub, change)
                flash(_("Players and options saved."))
                return redirect(url_for("matches.sheet", match_id=match_id))
        else:
            error = form_problem(form)
    else:
        data = {f"name_{s}": name for s, name in enumerate(match.players)}
        for o in cls.options:
            value = match.options.get(o.key)
            if o.kind == "map":
                data.update({f"opt_{o.key}__{k}": v for k, v in (value or {}).items()})
            else:
                data[f"opt_{o.key}"] = value
        form = new_match_form(cls, None)
        form.process(data=data)
    return render_template(
        "new_match.html",
        game=cls,
        form=form,
        error=error,
        setup=True,
        match_id=match_id,
        seats=len(match.players),
        min_seats=len(match.players),
        key=new_key(),
        known=known_names(),
    ), (400 if error else 200)


@bp.get("/m/<mid:match_id>/share")
def share(match_id: str):
    """Two links, each with its QR code drawn here as SVG (segno): one to watch,
    one to score (it carries the edit key)."""
    stored = scored_or_403(match_id)
    watch = url_for("matches.sheet", match_id=stored.pub, _external=True)
    score = url_for("matches.score_link", match_id=stored.pub, key=stored.edit_key, _external=True)
    codes = {
        name: segno.make(link, error="m").svg_data_uri(scale=5, border=2, dark="#000", light="#fff")
        for name, link in (("watch", watch), ("score", score))
    }
    return render_template(
        "share.html",
        match_id=match_id,
        match=stored.match,
        title=title(stored.match),
        watch=watch,
        score=score,
        codes=codes,
    )


@bp.post("/m/<mid:match_id>/restore")
def restore_match(match_id: str):
    """Out of the trash, for a browser that scores the match."""
    try:
        stored = store.get(db(), match_id, trash=True)
    except store.NotFound:
        abort(404)
    access.require_scorer(stored)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    try:
        store.restore_match(db(), stored.id)
    except store.NotFound as e:
        flash(_("Not restored: %(why)s.", why=e.message))
        return redirect(url_for("matches.home"))
    flash(_("The match is back from the trash."))
    return redirect(url_for("matches.sheet", match_id=match_id))


@bp.get("/m/<mid:match_id>/score")
def score_link(match_id: str):
    """The score link: it carries the edit key once; this browser scores the
    match from now on, and the clean address is shown."""
    stored = match_or_404(match_id)
    if not stored.key_is(request.args.get("key")):
        access.refuse(
            Forbidden,
            _(
                "This score link is not right (or no longer): ask a scorer "
                "of the match for it again. With the match's address you "
                "can watch."
            ),
        )
    store.remember(db(), access.browser(), stored.id, "score")
    flash(_("You score this match on this phone now."))
    return redirect(url_for("matches.sheet", match_id=stored.pub))


@bp.get("/m/<int:number>")
def old_link(number: int):
    """A match made before matches had an id nobody can guess: its old link."""
    pub = store.legacy_pub(db(), number)
    if pub is None:
        abort(404)
    return redirect(url_for("matches.sheet", match_id=pub), 301)


STEPS = ("call", "undo", "step")  # buttons that move a form along without saving


def settle(rules, plan, names: list[str], formdata):
    """The fields the form asks now (they may depend on what is entered so far,
    as Variety's counts on the auction) and the form holding the posted values."""
    partial: dict = {}
    for _round in range(4):
        fields = rules.entry_fields(plan, partial)
        form = deal_form(fields, names, formdata=formdata)
        known = entry_from_form(fields, names, form, partial=True)
        if known == partial:
            break
        partial = known
    return fields, form


def step_calls(fields, formdata) -> None:
    """A tap on a call (or Undo) adds it to (or takes it off) the calls so far."""
    for f in fields:
        if f.kind != "calls":
            continue
        name = field_id(f)
        calls = parse_calls(formdata.get(name))
        if "call" in formdata and not f.done:
            calls.append(formdata.get("call"))
        elif "undo" in formdata:
            calls = calls[:-1]
        formdata[name] = ",".join(str(c) for c in calls)


def deal_plan(stored: store.Stored, number: int | None, standings=None):
    """The rules, the plan and the stored entry of deal ``number`` (None: the next
    deal, with no entry; the plan None once the match is over); 404 for no such deal.
    ``standings``: the match's, when the caller has them already."""
    standings = standings or store.standings(db(), stored)
    if number is None:
        return standings.rules, standings.next, None
    if not 1 <= number <= len(standings.rows):
        abort(404)
    return standings.rules, standings.rows[number - 1].plan, stored.match.deals[number - 1]


def page_mark(stored: store.Stored, number: int | None) -> str:
    """What a deal page remembers of the match when it is drawn: the deal it
    edits (its id and revision), or, for a new deal, the deals so far."""
    return stored.next_mark() if number is None else stored.deal_mark(number)


def new_key() -> str:
    """A fresh idempotency key for a page's write: a second tap repeats, not redoes."""
    return secrets.token_urlsafe(12)


def deal_entry(
    stored: store.Stored,
    number: int | None,
    *,
    formdata=None,
    keep_key: bool = False,
    standings=None,
) -> tuple[dict | None, str | None]:
    """What a deal form (templates/_deal_form.html) is drawn from, for deal
    ``number`` (None: the next deal) as the match stands: from the stored entry,
    or from what the player typed (``formdata``), always with a fresh mark (and
    key, unless ``keep_key``). Also the problem met reading ``formdata``, if any.
    None once the match is over. The deal page and the score sheet draw it."""
    rules, plan, entry = deal_plan(stored, number, standings)
    if plan is None:
        return None, None
    names = stored.match.players
    error = None
    if formdata is None:
        fields = rules.entry_fields(plan, entry or {})
        data = form_data_from_entry(fields, rules.n, entry) if entry else {}
        data.update(expect=page_mark(stored, number), key=new_key())
        if number is None:
            data["deal"] = plan.number
        form = deal_form(fields, names, data=data)
    else:
        formdata["expect"] = page_mark(stored, number)
        if number is None:
            formdata["deal"] = str(plan.number)
        if not keep_key or not formdata.get("key"):
            formdata["key"] = new_key()
        try:
            fields, form = settle(rules, plan, names, formdata)
        except EntryError as e:
            error = e.message
            fields = rules.entry_fields(plan, {})
            form = deal_form(fields, names, formdata=formdata)
    return {
        "match_id": stored.pub,
        "match": stored.match,
        "plan": plan,
        "form": form,
        "fields": fields,
        "number": number,
        "rules": rules,
        "ahead": ahead(stored, plan, standings) if number is None else "",
    }, error


AHEAD = 8  # the deals after the next whose facts a deal form carries for offline entry


def ahead(stored: store.Stored, plan, standings=None) -> str:
    """What a phone without the network shows for the deals it enters after the
    next one (static/queue.js): per deal, its number, title, and the facts as the
    page draws them, while they follow from the deal number and the questions stay
    the same (JSON; an empty list where the next deal's questions depend on this
    one's entry). Drawn once per version and language."""

    def draw_ahead() -> str:
        st = standings or store.standings(db(), stored)
        names = stored.match.players
        out = []
        for k in range(1, AHEAD + 1):
            later = st.rules.ahead(st.state, k)
            if later is None or later.fields != plan.fields:
                break
            context = {"plan": later, "names": names, "fold_notes": []}
            facts = render_template("_plan_facts.html", **context)
            out.append(
                {
                    "n": later.number,
                    "title": str(later.title),
                    "facts": re.sub(r">\s+<", "><", facts).strip(),
                    "summary": render_template("_plan_summary.html", **context).strip(),
                }
            )
        return json.dumps(out, ensure_ascii=False, separators=(",", ":"))

    key = ("ahead", stored.pub, stored.version, str(get_locale()))
    return drawn().get(key, draw_ahead)


# How much of a deal form the score sheet shows in a phone's first screen (390×844)
# under the standings, Save included: rows of chips or counts (the number pad under
# counts takes one more). Three players' Black Maria (hearts, the pad, Q♠ K♠ A♠) is
# five; a longer form, or a second row of totals, gets a page of its own.
SHEET_ROWS = 5


def form_rows(fields, n: int) -> int:
    """The rows a deal form's questions take on a phone (see SHEET_ROWS)."""
    size = {
        "counts": 1,
        "owner": 1,
        "seat_choice": 1,
        "number": 1,
        "flag": 1,
        "card": 1,
        "seat_pair": 3,
    }
    rows = 0
    for f in fields:
        if f.kind == "partition":
            rows += len(f.cards)
        elif f.kind == "choice":
            rows += n if f.per_seat else 2
        else:
            rows += size.get(f.kind, SHEET_ROWS + 1)  # an auction: a page of its own
    if any(f.kind == "counts" for f in fields):
        rows += 1  # the number pad
    return rows


def sheet_entry(stored: store.Stored, standings) -> dict | None:
    """The next deal's form for the score sheet, when it fits the first screen
    under the standings (else the sheet links to the deal page). Whether it fits
    is known from its questions, before the form is built."""
    if standings.next is None:
        return None
    n = len(stored.match.players)
    totals_rows = 1 if n <= 3 else 2  # .totals in static/scorer.css
    fields = standings.rules.entry_fields(standings.next, {})
    if form_rows(fields, n) + 2 * (totals_rows - 1) > SHEET_ROWS:
        return None
    return deal_entry(stored, None, standings=standings)[0]


def render_deal(
    stored: store.Stored,
    number: int | None,
    *,
    formdata=None,
    error: str | None = None,
    keep_key: bool = False,
    status: int | None = None,
):
    """The entry page of deal ``number`` (None: the next deal): see deal_entry."""
    entry, problem = deal_entry(stored, number, formdata=formdata, keep_key=keep_key)
    if entry is None:
        flash(_("The match is over: no more deals."))
        return redirect(url_for("matches.sheet", match_id=stored.pub))
    error = error or problem
    return render_template(
        "deal.html",
        **entry,
        error=error,
        title=title(stored.match),
        game=GAMES[stored.match.game],
        confirm=ConfirmForm(),
        delete_key=new_key(),
        watch=url_for("matches.sheet", match_id=stored.pub, part="live"),
        etag=f"{stored.pub}.{stored.version}.{get_locale()}.s",
    ), (status or (400 if error else 200))


def side(match: Match, number: int, entry) -> dict:
    """One side of a choice: an entry as deal ``number`` of ``match`` would have
    it, in words, with its points (or why it could not stand there)."""
    out = {"words": entry_words(match, entry, number), "points": None, "error": None}
    try:
        _deals, standings = checked_entry(
            match, entry, number if number <= len(match.deals) else None
        )
        out["points"] = standings.rows[number - 1].score.points
    except DealError as e:
        out["error"] = e.message
    return out


@bp.post("/m/<mid:match_id>/deal/<int:number>/delete")
def delete_deal(match_id: str, number: int):
    scored_or_403(match_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    try:
        change = store.delete_deal(
            db(),
            match_id,
            number,
            mark=request.form.get("seen") or "",
            key=request.form.get("key") or None,
        )
    except DealError as e:
        flash(_("Deal %(n)s cannot be deleted: %(why)s", n=number, why=e.message))
    except store.Stale as e:
        now = match_or_404(match_id)
        if e.number and e.number <= len(now.deal_ids):  # changed meanwhile: show it, ask again
            return render_template(
                "delete_again.html",
                match_id=match_id,
                match=now.match,
                title=title(now.match),
                why=_("%(why)s: nothing was deleted.", why=e.message[:1].upper() + e.message[1:]),
                number=e.number,
                stored=side(now.match, e.number, now.match.deals[e.number - 1]),
                mark=now.deal_mark(e.number),
                key=new_key(),
                confirm=ConfirmForm(),
            ), 409
        flash(_("Nothing deleted: %(why)s.", why=e.message))
    except store.NotFound as e:
        flash(_("Nothing deleted: %(why)s.", why=e.message))
    else:
        remember_change(match_id, change)
        flash(_("Deal %(n)s deleted; the totals after it re-flowed.", n=change.number))
    return redirect(url_for("matches.sheet", match_id=match_id))


@bp.post("/m/<mid:match_id>/delete")
def delete_match(match_id: str):
    scored_or_403(match_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    try:
        store.delete_match(db(), match_id)
    except store.NotFound:
        pass  # deleted on another phone meanwhile: the outcome the player asked for
    flash(_("Match deleted."))
    return redirect(url_for("matches.home"))


@bp.post("/m/<mid:match_id>/rematch")
def rematch(match_id: str):
    match = scored_or_403(match_id).match
    if not ConfirmForm().validate_on_submit():
        abort(400)
    new = Match(match.game, dict(match.options), list(match.players), match.first_dealer, [])
    new_id = store.create(db(), new, kind="rematch", browser=access.browser()).pub
    flash(_("Rematch: same seats and options."))
    return redirect(url_for("matches.sheet", match_id=new_id))


@bp.get("/m/<mid:match_id>/export.csv")
def export_csv(match_id: str):
    """One row per deal and player, then each player's total and place."""
    stored = match_or_404(match_id)
    match = stored.match
    return Response(
        to_csv(match, store.standings(db(), stored), title(match)),
        headers=csv_headers(match, started(stored)),
    )


@bp.get("/m/<mid:match_id>/sheet.csv")
def export_sheet(match_id: str):
    """The sheet as a table: one row per deal, each player's points and running total."""
    stored = match_or_404(match_id)
    match = stored.match
    return Response(
        to_sheet_csv(match, store.standings(db(), stored)),
        headers=csv_headers(match, started(stored), _("sheet")),
    )


def started(stored: store.Stored) -> date:
    """The day the match was started: the date its files are named by."""
    try:
        return date.fromisoformat(stored.created[:10])
    except ValueError:  # a match stored before matches kept the day
        return date.today()


@bp.get("/m/<mid:match_id>/record.json")
def export_record(match_id: str):
    match = match_or_404(match_id).match
    body = json.dumps(dump(match, match_id=match_id), ensure_ascii=False, separators=(",", ":"))
    return Response(
        body,
        mimetype="application/json",
        headers={"Content-Disposition": f"attachment; filename=scorer-{match_id}.json"},
    )


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
    return redirect(url_for("matches.sheet", match_id=match_id))
