"""The HTML pages: home, new match, the score sheet, entering and editing deals,
the end, export and import."""

from __future__ import annotations

import json
import random
import secrets
from datetime import date

from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for

from .. import store
from ..games import GAMES, EntryError
from ..i18n import _
from ..match import DealError, Match, fold
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
from . import db
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
)

bp = Blueprint("matches", __name__)
MAX_ID = 2**62


def match_or_404(match_id: int) -> store.Stored:
    """The stored match, or the 404 page."""
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
    for stored in store.listing(db()):
        match = stored.match
        rows.append(
            {
                "id": stored.id,
                "match": match,
                "updated": stored.updated,
                "standings": standings_or_none(match),
                "title": title(match),
            }
        )
    return render_template(
        "home.html", rows=rows, import_form=ImportForm(), import_error=import_error
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
                match_id = store.create(db(), match)
                if form.first_dealer.data == "draw":
                    flash(
                        _(
                            "Lots drawn: %(name)s deals first.",
                            name=match.players[match.first_dealer],
                        )
                    )
                return redirect(url_for(".sheet", match_id=match_id))
        else:
            error = form_problem(form)
    return render_template(
        "new_match.html",
        game=cls,
        form=form,
        error=error,
        seats=max(cls.player_counts),
        min_seats=min(cls.player_counts),
    ), (400 if error else 200)


@bp.get("/m/<int:match_id>")
def sheet(match_id: int):
    stored = match_or_404(match_id)
    match = stored.match
    return render_template(
        "sheet.html",
        match_id=match_id,
        match=match,
        st=fold(match),
        game=GAMES[match.game],
        title=title(match),
        confirm=ConfirmForm(),
    )


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
        standings = fold(match)
        return standings.rules, standings.next, None
    if not 1 <= number <= len(match.deals):
        abort(404)
    standings = fold(
        Match(match.game, match.options, match.players, match.first_dealer, match.deals[:number])
    )
    return standings.rules, standings.rows[-1].plan, match.deals[number - 1]


def page_mark(stored: store.Stored, number: int | None) -> str:
    """What a deal page remembers of the match when it is drawn: the deal it
    edits (its id and revision), or, for a new deal, the deals so far."""
    return stored.next_mark() if number is None else stored.deal_mark(number)


def new_key() -> str:
    """A fresh idempotency key for a page's write: a second tap repeats, not redoes."""
    return secrets.token_urlsafe(12)


def save_deal(
    match_id: int, number: int | None, entry: dict, mark: str | None, key: str | None
) -> store.Change:
    """Add the next deal or replace deal ``number`` as the page's ``mark`` has
    it, and flash what was done. Raises store.Stale, store.NotFound, DealError."""
    if not mark:
        raise store.Stale(_("this page is out of date"), number)
    if number is None:
        change = store.add_deal(db(), match_id, entry, mark=mark, key=key)
        flash(_("Deal %(n)s saved.", n=change.number))
    else:
        change = store.edit_deal(db(), match_id, number, entry, mark=mark, key=key)
        flash(_("Deal %(n)s changed; the totals after it re-flowed.", n=change.number))
    return change


def refusal(e: DealError, number: int | None) -> str:
    """A refused save in words: this deal's own fault, or a later deal that
    the change would leave standing where it cannot."""
    if number is None or e.number == number:
        return e.error.message
    return _(
        "Nothing was saved: after this change deal %(n)s could not stand (%(why)s).",
        n=e.number,
        why=e.error.message,
    )


def stale_words(e: store.Stale, number: int | None, now: store.Stored) -> str:
    """What happened on another phone, and what the page, drawn again, offers."""
    why = _("%(why)s: nothing was saved.", why=e.message[:1].upper() + e.message[1:])
    if number is not None and e.number:
        then = _("Your entry is below: saving it replaces deal %(n)s as it stands now.", n=e.number)
    else:
        then = _(
            "Your entry is below as deal %(n)s, the next deal: save it, or go back to the sheet.",
            n=len(now.deal_ids) + 1,
        )
    return f"{why} {then}"


def render_deal(
    stored: store.Stored,
    number: int | None,
    *,
    formdata=None,
    error: str | None = None,
    keep_key: bool = False,
    status: int | None = None,
):
    """The entry page of deal ``number`` (None: the next deal) as the match
    stands: from the stored entry, or from what the player typed (``formdata``),
    always with a fresh mark (and key, unless ``keep_key``)."""
    match = stored.match
    rules, plan, entry = deal_plan(match, number)
    if plan is None:
        flash(_("The match is over: no more deals."))
        return redirect(url_for(".sheet", match_id=stored.id))
    names = match.players
    if formdata is None:
        fields = rules.entry_fields(plan, entry or {})
        data = form_data_from_entry(fields, rules.n, entry) if entry else {}
        data.update(expect=page_mark(stored, number), key=new_key())
        form = deal_form(fields, names, data=data)
    else:
        formdata["expect"] = page_mark(stored, number)
        if not keep_key or not formdata.get("key"):
            formdata["key"] = new_key()
        try:
            fields, form = settle(rules, plan, names, formdata)
        except EntryError as e:
            error = error or e.message
            fields = rules.entry_fields(plan, {})
            form = deal_form(fields, names, formdata=formdata)
    return render_template(
        "deal.html",
        match_id=stored.id,
        match=match,
        plan=plan,
        form=form,
        fields=fields,
        error=error,
        number=number,
        rules=rules,
        title=title(match),
        game=GAMES[match.game],
        confirm=ConfirmForm(),
        delete_key=new_key(),
    ), (status or (400 if error else 200))


def _deal_page(stored: store.Stored, number: int | None):
    """Enter the next deal (number None) or edit deal ``number``."""
    if request.method == "GET":
        return render_deal(stored, number)
    match = stored.match
    rules, plan, _entry = deal_plan(match, number)
    if plan is None:
        flash(_("The match is over: no more deals."))
        return redirect(url_for(".sheet", match_id=stored.id))
    names = match.players
    formdata = request.form.copy()
    error = None
    try:
        fields, form = settle(rules, plan, names, formdata)
        if any(k in formdata for k in STEPS):
            before = formdata.copy()
            step_calls(fields, formdata)
            try:
                settle(rules, plan, names, formdata)
            except EntryError as e:
                error, formdata = e.message, before
            return render_deal(stored, number, formdata=formdata, error=error, keep_key=True)
        if not form.validate():
            return render_deal(
                stored, number, formdata=formdata, error=form_problem(form), keep_key=True
            )
        entry = entry_from_form(fields, names, form)
        save_deal(stored.id, number, entry, form.expect.data, form.key.data or None)
        return redirect(url_for(".sheet", match_id=stored.id))
    except EntryError as e:
        error = e.message
    except DealError as e:
        error = refusal(e, number)
    except store.Stale as e:  # the page is drawn again for the deal as it now stands
        now = match_or_404(stored.id)
        target = e.number if number is not None else None  # None: a new deal
        return render_deal(
            now, target, formdata=formdata, error=stale_words(e, number, now), status=409
        )
    except store.NotFound as e:
        abort(404, e.message)
    return render_deal(stored, number, formdata=formdata, error=error, keep_key=True)


@bp.route("/m/<int:match_id>/deal", methods=["GET", "POST"])
def new_deal(match_id: int):
    return _deal_page(match_or_404(match_id), None)


@bp.route("/m/<int:match_id>/deal/<int:number>", methods=["GET", "POST"])
def edit_deal(match_id: int, number: int):
    return _deal_page(match_or_404(match_id), number)


@bp.post("/m/<int:match_id>/deal/<int:number>/delete")
def delete_deal(match_id: int, number: int):
    match_or_404(match_id)
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
        flash(_("Nothing deleted: %(why)s.", why=e.message))
    except store.NotFound as e:
        flash(_("Nothing deleted: %(why)s.", why=e.message))
    else:
        flash(_("Deal %(n)s deleted; the totals after it re-flowed.", n=change.number))
    return redirect(url_for(".sheet", match_id=match_id))


@bp.post("/m/<int:match_id>/delete")
def delete_match(match_id: int):
    match_or_404(match_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    try:
        store.delete_match(db(), match_id)
    except store.NotFound:
        pass  # deleted on another phone meanwhile: the outcome the player asked for
    flash(_("Match deleted."))
    return redirect(url_for(".home"))


@bp.post("/m/<int:match_id>/rematch")
def rematch(match_id: int):
    match = match_or_404(match_id).match
    if not ConfirmForm().validate_on_submit():
        abort(400)
    new = Match(match.game, dict(match.options), list(match.players), match.first_dealer, [])
    new_id = store.create(db(), new, kind="rematch")
    flash(_("Rematch: same seats and options."))
    return redirect(url_for(".sheet", match_id=new_id))


@bp.get("/m/<int:match_id>/export.csv")
def export_csv(match_id: int):
    """One row per deal and player, then each player's total and place."""
    match = match_or_404(match_id).match
    return Response(
        to_csv(match, fold(match), title(match)), headers=csv_headers(match, date.today())
    )


@bp.get("/m/<int:match_id>/sheet.csv")
def export_sheet(match_id: int):
    """The sheet as a table: one row per deal, each player's points and running total."""
    match = match_or_404(match_id).match
    return Response(
        to_sheet_csv(match, fold(match)), headers=csv_headers(match, date.today(), _("sheet"))
    )


@bp.get("/m/<int:match_id>/record.json")
def export_record(match_id: int):
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
    match_id = store.create(db(), match, kind="import")
    flash(_("Imported as a new match."))
    return redirect(url_for(".sheet", match_id=match_id))
