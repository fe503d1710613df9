"""The HTML pages: home, new match, the score sheet, entering and editing deals,
the end, export and import."""

from __future__ import annotations

import json
import random

from flask import (Blueprint, Response, abort, flash, redirect, render_template, request,
                   url_for)

from .. import store
from ..games import GAMES, EntryError
from ..i18n import _
from ..match import DealError, Match, fold
from ..record import RecordError, dump, load, load_match, read_json, to_csv
from . import db
from .forms import (ConfirmForm, ImportForm, deal_form, entry_from_form, field_id,
                    form_data_from_entry, form_problem, new_match_form, parse_calls,
                    record_from_new_match, whole_number)

bp = Blueprint("matches", __name__)
MAX_ID = 2**62


def get_match(match_id: int) -> Match:
    if match_id > MAX_ID:
        abort(404)
    try:
        return store.get(db(), match_id)
    except store.NotFound:
        abort(404)


def title(match: Match) -> str:
    return f"{GAMES[match.game].name} · {', '.join(match.players)}"


def standings_or_none(match: Match):
    """The standings, or None for a stored match these rules can no longer read
    (stored deals were checked when saved; a later change of the rules could
    still refuse one). The home page lists such a match without figures."""
    try:
        return fold(match)
    except DealError:
        return None


@bp.get("/")
def home():
    return _home()


def _home(import_error: str | None = None):
    rows = []
    for match_id, match, updated in store.listing(db()):
        st = standings_or_none(match)
        rows.append({"id": match_id, "match": match, "updated": updated, "standings": st,
                     "title": title(match)})
    return render_template("home.html", rows=rows, import_form=ImportForm(),
                           import_error=import_error)


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
                match_id = store.create(db(), match)
                if form.first_dealer.data == "draw":
                    flash(_("Lots drawn: %(name)s deals first.",
                            name=match.players[match.first_dealer]))
                return redirect(url_for(".sheet", match_id=match_id))
        else:
            error = form_problem(form)
    return render_template("new_match.html", game=cls, form=form, error=error,
                           seats=max(cls.player_counts), min_seats=min(cls.player_counts)), (
        400 if error else 200)


@bp.get("/m/<int:match_id>")
def sheet(match_id: int):
    match = get_match(match_id)
    st = fold(match)
    return render_template("sheet.html", match_id=match_id, match=match, st=st,
                           game=GAMES[match.game], title=title(match), confirm=ConfirmForm())


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


def deal_plan(match: Match, number: int | None):
    """The rules, the plan and the stored entry of deal ``number`` (None: the next
    deal, with no entry; the plan None once the match is over); 404 for no such deal."""
    if number is None:
        st = fold(match)
        return st.rules, st.next, None
    if not 1 <= number <= len(match.deals):
        abort(404)
    st = fold(Match(match.game, match.options, match.players, match.first_dealer,
                    match.deals[:number]))
    return st.rules, st.rows[-1].plan, match.deals[number - 1]


def page_mark(match: Match, number: int | None) -> str:
    """What a deal page remembers of the match when it opens: the number of
    deals (a new deal), or the fingerprint of the deal it edits."""
    return str(len(match.deals)) if number is None else store.fingerprint(match.deals[number - 1])


def save_deal(match_id: int, number: int | None, entry: dict, mark: str | None,
              plan) -> str | None:
    """Add the next deal or replace deal ``number``. None: done (or a repeat of a
    deal already saved), and flashed; the caller shows the sheet. Else what
    stopped it, for the form: the entry refused, or the page out of date."""
    try:
        if number is None:
            store.add_deal(db(), match_id, entry, whole_number(mark))
            flash(_("Deal %(n)s saved.", n=plan.number))
        else:
            store.edit_deal(db(), match_id, number, entry, mark or None)
            flash(_("Deal %(n)s changed; the totals after it re-flowed.", n=number))
    except store.Conflict as e:
        if number is None:
            flash(_("Deal %(n)s was already saved.", n=plan.number))
            return None
        return _("%(why)s: nothing was saved.", why=str(e.args[0]).capitalize())
    except DealError as e:
        return e.error.message if e.number == plan.number else e.message
    return None


def _deal_page(match_id: int, match: Match, number: int | None):
    """Enter the next deal (number None) or edit deal ``number``."""
    rules, plan, stored = deal_plan(match, number)
    if plan is None:
        flash(_("The match is over: no more deals."))
        return redirect(url_for(".sheet", match_id=match_id))
    names = match.players
    error = None
    if request.method == "POST":
        formdata = request.form.copy()
        try:
            fields, form = settle(rules, plan, names, formdata)
            if any(k in formdata for k in STEPS):
                before = formdata.copy()
                step_calls(fields, formdata)
                try:
                    fields, form = settle(rules, plan, names, formdata)
                except EntryError as e:
                    error = e.message
                    fields, form = settle(rules, plan, names, before)
            elif form.validate():
                entry = entry_from_form(fields, names, form)
                error = save_deal(match_id, number, entry, form.expect.data, plan)
                if error is None:
                    return redirect(url_for(".sheet", match_id=match_id))
            else:
                error = form_problem(form)
        except EntryError as e:
            error = e.message
            fields = rules.entry_fields(plan, {})
            form = deal_form(fields, names, formdata=request.form)
    else:
        fields = rules.entry_fields(plan, stored or {})
        data = form_data_from_entry(fields, rules.n, stored) if stored else {}
        data["expect"] = page_mark(match, number)
        form = deal_form(fields, names, data=data)
    return render_template("deal.html", match_id=match_id, match=match, plan=plan, form=form,
                           fields=fields, error=error, number=number, rules=rules,
                           title=title(match), game=GAMES[match.game],
                           confirm=ConfirmForm()), (400 if error else 200)


@bp.route("/m/<int:match_id>/deal", methods=["GET", "POST"])
def new_deal(match_id: int):
    return _deal_page(match_id, get_match(match_id), None)


@bp.route("/m/<int:match_id>/deal/<int:number>", methods=["GET", "POST"])
def edit_deal(match_id: int, number: int):
    return _deal_page(match_id, get_match(match_id), number)


@bp.post("/m/<int:match_id>/deal/<int:number>/delete")
def delete_deal(match_id: int, number: int):
    match = get_match(match_id)
    if not 1 <= number <= len(match.deals):
        abort(404)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    try:
        store.delete_deal(db(), match_id, number, request.form.get("seen") or None)
    except DealError as e:
        flash(_("Deal %(n)s cannot be deleted: %(why)s", n=number, why=e.message))
    except store.Conflict as e:
        flash(_("Nothing deleted: %(why)s.", why=e.args[0]))
    else:
        flash(_("Deal %(n)s deleted; the totals after it re-flowed.", n=number))
    return redirect(url_for(".sheet", match_id=match_id))


@bp.post("/m/<int:match_id>/delete")
def delete_match(match_id: int):
    get_match(match_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    store.delete_match(db(), match_id)
    flash(_("Match deleted."))
    return redirect(url_for(".home"))


@bp.post("/m/<int:match_id>/rematch")
def rematch(match_id: int):
    match = get_match(match_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    new = Match(match.game, dict(match.options), list(match.players), match.first_dealer, [])
    new_id = store.create(db(), new, kind="rematch")
    flash(_("Rematch: same seats and options."))
    return redirect(url_for(".sheet", match_id=new_id))


@bp.get("/m/<int:match_id>/export.csv")
def export_csv(match_id: int):
    match = get_match(match_id)
    text = to_csv(match, fold(match), title(match))
    return Response(text, mimetype="text/csv; charset=utf-8", headers={
        "Content-Disposition": f"attachment; filename=scorer-{match_id}.csv"})


@bp.get("/m/<int:match_id>/record.json")
def export_record(match_id: int):
    match = get_match(match_id)
    body = json.dumps(dump(match, match_id=match_id), ensure_ascii=False, indent=1)
    return Response(body, mimetype="application/json", headers={
        "Content-Disposition": f"attachment; filename=scorer-{match_id}.json"})


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
    match_id = store.create(db(), match, kind="import")
    flash(_("Imported as a new match."))
    return redirect(url_for(".sheet", match_id=match_id))
