"""Entering a deal, and what meets another phone's entry: the deal page's save,
the choice between two entries of one deal, and a deal deleted on another phone
while this one edited it.

A new deal's form names the table's deal it records (its hidden ``number``) and
the page it was drawn at (``expect``): the store keeps the next deal, says so
when the deal is in already and the same, and keeps a different entry beside
the stored one until a scorer chooses (``store.record_deal``). Nothing typed is
lost on the way: it is stored, found the same, kept for the choice, or drawn
back on its form with the reason.

The phone's queue (static/queue.js) posts the same forms with the header
``X-Scorer-Queue`` (``now`` as Save is tapped, ``1`` for a deal sent later) and
gets the outcome as JSON instead of a page."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from babel.lists import format_list
from flask import Blueprint, abort, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import get_locale

from .. import store
from ..cards import display, is_card
from ..games import EntryError
from ..i18n import _
from ..match import DealError, Match, check_entry, fold
from ..record import RecordError, read_json
from ..store import get_db as db
from . import access
from .deal_form import (
    COUNTED,
    STEPS,
    counted_fields,
    deal_address,
    render_deal,
    settle,
    side,
    step_calls,
)
from .forms import (
    ConfirmForm,
    entry_from_form,
    field_id,
    form_data_from_entry,
    form_problem,
    whole_number,
)
from .history import remember_change
from .lookup import form_key, match_or_404, new_key, scored_or_403, title

bp = Blueprint("entry", __name__)
bp.add_app_template_global(counted_fields)  # templates/_deal_form.html
bp.add_app_template_global(deal_address)
QUEUE_HEADER = "X-Scorer-Queue"  # static/queue.js: answer with the outcome as JSON


def queued() -> bool:
    """A post of static/queue.js: "now" as the player taps Save, "1" when a deal
    that waited is sent later (then nothing is flashed: the page says it)."""
    return request.headers.get(QUEUE_HEADER) in ("1", "now")


def told(outcome: str, message: str = "", status: int = 200, **more):
    """The outcome of a queued post (static/queue.js): ``saved``, ``same``,
    ``conflict`` (``go``: the choice page), ``waiting`` (a deal before it is not
    in yet), ``refused`` (``message``: why; kept on the phone as a draft) or
    ``present`` (post it the ordinary way: the server draws the page)."""
    return jsonify(outcome=outcome, message=sentence(message), **more), status


def sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


# --- saving ------------------------------------------------------------------------


def posted_deal(mark: str, given: str | None) -> int | None:
    """The table's deal a new-deal page records: its ``number`` field, else (a page
    drawn by an older Scorer) the one after the deals its mark counted."""
    number = whole_number(given or "")
    if number:
        return number
    seen = store.parse_mark(mark if "." in mark else f"{mark}.0")
    return seen[0] + 1 if seen else None


def save_deal(
    match_id: str,
    number: int | None,
    entry: dict,
    mark: str | None,
    key: str | None,
    match: Match,
    deal: str | None = None,
) -> store.Change:
    """Record the entry of a new deal (the table's deal the page names), or replace
    deal ``number`` as the page's ``mark`` has it. An edit that meets another
    phone's change of the same deal is recorded as an entry of that deal: the
    same, or kept for the choice. Raises store.Stale (no mark; the deal was deleted meanwhile),
    store.Gap, store.NotFound, DealError."""
    if not mark:
        raise store.Stale(_("this page is out of date"), number)
    browser = access.browser()
    if number is None:
        wanted = posted_deal(mark, deal)
        if wanted is None:
            raise store.Stale(_("this page is out of date"), number)
        anchor = mark if "." in mark else None
        change = store.record_deal(
            db(), match_id, wanted, entry, anchor=anchor, key=key, browser=browser
        )
    else:
        try:
            change = store.edit_deal(db(), match_id, number, entry, mark=mark, key=key)
        except store.Stale as e:
            if e.number is None:  # deleted meanwhile, or a mark that names no deal
                raise
            # under a key of its own: a retry of this edit meets the same Stale first
            again = key and f"{key}:deal"
            change = store.record_deal(db(), match_id, e.number, entry, key=again, browser=browser)
    if change.kind in ("add", "edit"):
        remember_change(match_id, change)
    return change


def said(change: store.Change, match: Match) -> str:
    """What the phone is told of a recorded entry (a conflict: its own page), a
    deal in the game's words."""
    words = {"add": "saved", "edit": "reflowed", "same": "same_elsewhere", "restore": "back"}
    return match.words(words[change.kind], n=change.number) if change.kind in words else ""


def landing(match_id: str, change: store.Change) -> str:
    """Where a phone goes after a save: the choice, or the sheet."""
    if change.kind == "conflict":
        return url_for(".choice", match_id=match_id, conflict=change.conflict)
    return url_for("sheet.sheet", match_id=match_id)


def landed(match_id: str, match: Match, change: store.Change):
    """After a save, the page a phone goes on to, saying what was done (a conflict:
    its choice page says it)."""
    message = said(change, match)
    if message:
        flash(message)
    return redirect(landing(match_id, change))


def refusal(e: DealError, number: int | None, match: Match) -> str:
    """A refused save in words: this deal's own fault, or a later deal that
    the change would leave standing where it cannot."""
    if number is None or e.number == number:
        return e.error.message
    return match.words("could_not_stand", n=e.number, why=e.error.message)


def posted_plan(stored: store.Stored, number: int | None, mark: str, deal: str | None):
    """The rules and the plan a posted deal form is read with: the deal it names
    (a new deal's number, an edit's mark), as the match stands now; a deal deleted
    meanwhile as it would stand back in its place (then also what
    ``store.deleted_deal`` says of it, else None). The plan is None once the
    match is over and the form is for a deal after the last."""
    standings = store.standings(db(), stored)
    count = len(stored.deal_ids)
    if number is None:
        wanted = posted_deal(mark, deal)
        anchor = mark if "." in mark else None
        at = store.anchored(db(), stored, wanted, anchor) if wanted else None
        if at and 1 <= at <= count:
            return standings.rules, standings.rows[at - 1].plan, None
        return standings.rules, standings.next, None
    seen = store.parse_mark(mark)
    if seen:
        now = stored.number_of(seen[0])
        if now is not None:
            return standings.rules, standings.rows[now - 1].plan, None
        gone = store.deleted_deal(db(), stored, seen[0])
        if gone is not None:
            back = fold(gone["match"])
            return back.rules, back.rows[gone["number"] - 1].plan, gone
    if not 1 <= number <= count:
        abort(404)
    return standings.rules, standings.rows[number - 1].plan, None


@dataclass
class Posted:
    """What became of a posted deal form: one outcome, drawn as a page (``as_page``)
    or as the phone's queue's JSON (``as_json``).

    ``outcome``: ``saved``, ``same`` or ``conflict`` (``change``); ``over`` (the match
    ended before this deal); ``refused`` (``message`` to the queue, ``error`` on the
    form drawn again; ``number``: the deal it waits behind, held on the phone);
    ``waiting`` (a deal before it is not in yet: ``number``); ``step`` (an auction's
    call: the form drawn again, the next question); ``deleted`` (an edit whose deal was
    deleted meanwhile: ``page`` draws the choice to bring it back)."""

    outcome: str
    status: int = 200
    message: str = ""
    error: str | None = None
    change: store.Change | None = None
    number: int | None = None
    formdata: Any = None
    posted: Any = None
    page: Callable[[], Any] | None = None


def post_deal(stored: store.Stored, number: int | None, formdata) -> Posted:
    """Save a posted deal form: the next deal (number None) or deal ``number``."""
    mark, deal = formdata.get("expect") or "", formdata.get("number")
    rules, plan, gone = posted_plan(stored, number, mark, deal)
    if plan is None:
        return Posted("over", 409, stored.match.words("over"))
    names = stored.match.players
    # drawn again for the deal it was for (deal_form.deal_entry), where the plan is that
    # deal's: not one after the next (its questions follow the deals before it), nor
    # one an earlier deal's delete has moved (the store takes it as the deal it is now)
    same_deal = number is not None or plan.number == posted_deal(mark, deal)
    posted = (rules, plan) if same_deal else None

    def refused(error: str, status: int = 400, **more) -> Posted:
        more = {"formdata": formdata, "posted": posted, **more}
        return Posted("refused", status, error, error, **more)

    entry = None
    try:
        if any(len(values) > 1 for _name, values in formdata.lists()):
            # no form asks a question twice: read once, the second answer was lost
            raise EntryError(_("one question was answered twice; nothing was saved"))
        fields, form = settle(rules, plan, names, formdata)
        if any(k in formdata for k in STEPS):
            return step(stored, rules, plan, fields, form, formdata, posted)
        if not form.validate():
            return refused(form_problem(form))
        entry = entry_from_form(fields, names, form)
        if gone is not None:
            return met_a_delete(stored, gone, entry, refused)
        change = save_deal(
            stored.pub, number, entry, mark, form.key.data or form_key(), stored.match, deal
        )
        outcome = {"add": "saved", "edit": "saved"}.get(change.kind, change.kind)
        return Posted(outcome, message=said(change, stored.match), change=change)
    except EntryError as e:
        return refused(e.message)
    except DealError as e:  # the edited deal by its number now (another may be deleted)
        return refused(refusal(e, number and plan.number, stored.match))
    except store.Undone as e:  # held on the phone until the table says (static/queue.js)
        error = stored.match.words("undone_here", n=e.number, typed=e.typed, gone=e.gone)
        # drawn as the next deal's form, to be saved in its place
        return Posted("refused", 409, e.message, error, number=e.number, formdata=formdata)
    except store.Gap as e:
        if e.typed and e.typed > e.number:  # its page is the next deal's form now
            error = stored.match.words("not_yet_here", n=e.number, typed=e.typed)
        else:
            error = sentence(e.message)
        return Posted("waiting", 409, e.message, error, number=e.number, formdata=formdata)
    except store.Stale as e:
        if e.deal_id is not None:  # deleted on another phone meanwhile
            fresh = match_or_404(stored.pub)
            gone = store.deleted_deal(db(), fresh, e.deal_id)
            if gone is not None:
                return met_a_delete(fresh, gone, entry, refused)
        # drawn afresh: saved again, it is meant as the deal is now
        error = _("%(why)s: nothing was saved.", why=sentence(e.message))
        return Posted("refused", 400, error, error, formdata=formdata)
    except store.NotFound as e:
        abort(404, e.message)


def step(stored, rules, plan, fields, form, formdata, posted) -> Posted:
    """An auction's call (or its type and attackers): the form drawn again with the
    next question, or with why the step cannot be taken."""
    names = stored.match.players
    before = formdata.copy()
    error = None
    step_calls(fields, formdata)
    try:
        settle(rules, plan, names, formdata)
        if "step" in formdata and not any(f.kind in COUNTED for f in fields):
            # the step brought no count to ask (Variety's type and attackers not
            # taken): say why, as a Save would
            rules.check(entry_from_form(fields, names, form), plan)
    except EntryError as e:
        error, formdata = e.message, before
    if posted is None and error is None:  # drawn as the next deal's, which it is now
        error = sentence(stored.match.words("not_yet", n=plan.number))
    return Posted("step", 409, error=error, formdata=formdata, posted=posted)


def as_json(stored: store.Stored, done: Posted):
    """The outcome for the phone's queue (static/queue.js)."""
    if done.change is not None:
        if done.message and request.headers.get(QUEUE_HEADER) == "now":
            flash(done.message)  # the phone goes on to the sheet, which says it
        change = done.change
        # the deals as they are now: a page the phone kept from before is numbered from
        # them, even if it is opened without the network before its sheet redraws
        now = store.get(db(), stored.pub)
        return told(
            done.outcome,
            done.message,
            number=change.number,
            go=landing(stored.pub, change) if change.kind == "conflict" else None,
            mark=now.next_mark(),
            version=now.version,
        )
    if done.outcome in ("step", "deleted"):  # a page of the server's to draw
        return told("present", "", 409)
    outcome = "refused" if done.outcome == "over" else done.outcome
    more = {"number": done.number} if done.number is not None else {}
    return told(outcome, done.message, done.status, **more)


def as_page(stored: store.Stored, number: int | None, done: Posted):
    """The outcome as the browser's next page."""
    if done.change is not None:
        return landed(stored.pub, stored.match, done.change)
    if done.outcome == "over":
        flash(done.message)
        return redirect(url_for("sheet.sheet", match_id=stored.pub))
    if done.page is not None:
        return done.page()
    return render_deal(
        stored,
        number,
        formdata=done.formdata,
        error=done.error,
        keep_key=True,
        posted=done.posted,
    )


def deal_page(stored: store.Stored, number: int | None):
    """Enter the next deal (number None) or edit deal ``number``: one save
    (``post_deal``), drawn as a page or as the queue's JSON."""
    if request.method == "GET":
        return render_deal(stored, number)
    done = post_deal(stored, number, request.form.copy())
    return as_json(stored, done) if queued() else as_page(stored, number, done)


@bp.route("/m/<mid:match_id>/deal", methods=["GET", "POST"])
def new_deal(match_id: str):
    return deal_page(scored_or_403(match_id), None)


@bp.route("/m/<mid:match_id>/deal/<int:number>", methods=["GET", "POST"])
def edit_deal(match_id: str, number: int):
    return deal_page(scored_or_403(match_id), number)


# --- two entries of one deal ----------------------------------------------------------


def cells(rules, plan, names: list[str], entry: dict, fields=None) -> list[tuple[str, str]]:
    """An entry as the form asks it (or as ``fields`` ask it), one (question,
    answer) a line, in table words: "Hearts taken · Ala" 4, "Who took Q♠?" Bartek."""
    fields = fields if fields is not None else rules.entry_fields(plan, entry)
    data = form_data_from_entry(fields, len(names), entry)
    out = []
    for f in fields:
        # a question or a legend too long for a row is named as a refusal names it
        head = sentence(f.named) if f.named is not None else f.label
        if f.kind in ("counts",) or (f.kind == "choice" and f.per_seat):
            lines = [(f"{head} · {names[s]}", field_id(f, s)) for s in range(len(names))]
        elif f.kind == "partition":
            lines = [(f"{head} · {display(c)}", field_id(f, c)) for c in f.cards]
        elif f.kind == "seat_pair":
            lines = [(f"{head} ({i + 1})", field_id(f, i)) for i in (0, 1)]
        else:
            lines = [(str(head), field_id(f))]
        for label, key in lines:
            out.append((label, shown(f, data.get(key), names)))
    return out


def shown(f, value, names: list[str]) -> str:
    """One answer of a form as the page says it."""
    if value is None or value == "":
        return "—"
    if f.kind == "flag":
        return _("yes") if value else _("no")
    if f.kind == "owner" and value == "none":
        return _("out of play")
    if f.kind in ("owner", "partition", "seat_choice", "seat_pair"):
        seat = whole_number(str(value), 2)
        return names[seat] if seat is not None and seat < len(names) else str(value)
    if f.kind == "choice":
        labels = {str(v): str(label) for v, label in f.choices}
        return labels.get(str(value), str(value))
    if f.kind == "card" and is_card(str(value)):
        return display(str(value))
    return str(value)


def compared(rules, plan, names: list[str], stored: dict, other: dict) -> list[dict]:
    """The two entries line by line, each line saying whether they differ there,
    then each player's points. Entered in two ways (a Variety auction call by call,
    and its type and attackers alone), each asks its own questions: a line for
    each question either asks, each entry's answer to it ("—": none)."""
    asked = rules.entry_fields(plan, stored)
    ids = {field_id(f) for f in asked}
    asked += [f for f in rules.entry_fields(plan, other) if field_id(f) not in ids]
    mine, theirs = cells(rules, plan, names, stored, asked), cells(rules, plan, names, other, asked)
    lines = [{"label": label, "stored": a, "other": b} for (label, a), (_l, b) in zip(mine, theirs)]
    for line in lines:
        line["differs"] = line["stored"] != line["other"]
    points = [rules.score(entry, plan).points for entry in (stored, other)]
    for s, name in enumerate(names):
        a, b = (f"{p[s]:+d}" if p[s] else "0" for p in points)
        lines.append(
            {
                "label": _("Points · %(name)s", name=name),
                "stored": a,
                "other": b,
                "differs": a != b,
                "points": True,
            }
        )
    return lines


def saved_at(stored: store.Stored, deal_id: int) -> str:
    """When the stored deal was last entered or changed."""
    times = [line["at"] for line in store.events(db(), stored.id) if line["deal_id"] == deal_id]
    return times[-1] if times else stored.created


@bp.get("/m/<mid:match_id>/choice/<int:conflict>")
def choice(match_id: str, conflict: int):
    """Two entries of one deal side by side, the cells that differ marked, and the
    choice: keep the stored one (first: nothing is lost, the other stays in the
    history), replace it, or add the other as the next deal while that is empty."""
    stored = scored_or_403(match_id)
    found = store.conflict(db(), stored, conflict)
    if found is None:
        abort(404)
    number = found["number"]
    context = {
        "match_id": stored.pub,
        "match": stored.match,
        "title": title(stored.match),
        "found": found,
        "number": number,
        "confirm": ConfirmForm(),
        # a key each: a second tap of one button repeats its answer; another button
        # of the same page (after Back) is a choice of its own, told it was made
        "keys": {action: new_key() for action in (*store.CHOICES, "together")},
    }
    if found["closed"] is None and number is not None:
        context["seen"] = stored.deal_mark(number)  # the choice stands on the deal as shown
        standings = store.standings(db(), stored)
        plan = standings.rows[number - 1].plan
        names = stored.match.players
        context.update(
            lines=compared(standings.rules, plan, names, found["stored"], found["entry"]),
            mine=found["browser"] is not None and found["browser"] == access.known(),
            stored_at=saved_at(stored, found["deal_id"]),
            next_free=number == len(stored.deal_ids) and fits(standings, found["entry"]),
            waiting=len(store.conflicts(db(), stored)),
            together=together(stored, found),
        )
    return render_template("choice.html", **context)


def fits(standings, entry) -> bool:
    """The other entry could stand as the next deal (not in Metamorphosis when the
    next deal opens a round and the entry has no declarations, say): offered as one."""
    if standings.next is None:
        return False
    try:
        check_entry(standings.rules, entry, standings.next)
    except EntryError:
        return False
    return True


def together(stored: store.Stored, found: dict) -> dict | None:
    """The other deals that wait for a choice, one entry each: replacing them all
    at once with this one is offered (putting one wrong deal right may end the
    match before a later wrong one: then only all at once can stand).
    {"ids": "3,7", "words": "Replace deals 3 and 4 with the other entries"}."""
    waiting = [c for c in store.conflicts(db(), stored) if c["number"] is not None]
    numbers = [c["number"] for c in waiting]
    chosen = [found] + [
        c for c in waiting if c["number"] != found["number"] and numbers.count(c["number"]) == 1
    ]
    if len(chosen) < 2:
        return None
    chosen.sort(key=lambda c: c["number"])
    listed = format_list([str(c["number"]) for c in chosen], locale=str(get_locale()))
    return {
        "ids": ",".join(str(c["id"]) for c in chosen),
        "seen": ",".join(stored.deal_mark(c["number"]) for c in chosen),
        "words": stored.match.words("replace_deals", numbers=listed),
    }


@bp.post("/m/<mid:match_id>/choice/<int:conflict>")
def choose(match_id: str, conflict: int):
    """A scorer's choice between two entries of one deal (``together``: of
    several deals at once, ``ids`` naming their conflicts)."""
    stored = scored_or_403(match_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    action = request.form.get("action") or ""
    ids = [whole_number(i, 18) for i in (request.form.get("ids") or "").split(",")]
    if action not in (*store.CHOICES, "together") or (action == "together" and None in ids):
        abort(400)
    key = request.form.get("key") or None
    seen = request.form.get("seen") or None
    try:
        if action == "together":
            marks = seen.split(",") if seen else None
            change = store.choose_together(db(), stored.id, ids, key=key, seen=marks)
        else:
            change = store.choose(db(), stored.id, conflict, action, key=key, seen=seen)
    except DealError as e:
        flash(_("Not saved: %(why)s", why=e.message))
        return redirect(url_for(".choice", match_id=stored.pub, conflict=conflict))
    except store.Stale as e:
        shown = store.conflict(db(), stored, conflict)
        if shown is None or shown["closed"] is None:  # else the page says it was made
            flash(_("Not changed: %(why)s.", why=e.message))
        return redirect(url_for(".choice", match_id=stored.pub, conflict=conflict))
    except store.NotFound:
        abort(404)
    if change.kind != "keep":
        remember_change(stored.pub, change)
    if action == "together":
        flash(stored.match.words("deals_replaced"))
        return redirect(url_for("sheet.sheet", match_id=stored.pub))
    words = {"keep": "stays", "edit": "replaced", "add": "saved"}[change.kind]
    flash(stored.match.words(words, n=change.number))
    return redirect(url_for("sheet.sheet", match_id=stored.pub))


# --- a deal deleted meanwhile ---------------------------------------------------------


def met_a_delete(stored: store.Stored, gone: dict, entry: dict, refused) -> Posted:
    """An edit whose deal was deleted on another phone meanwhile. An entry that could
    not stand as that deal is refused as any save is (``refused``: its form again,
    with what was typed and why; the queue holds it with the reason). One that could
    is offered to bring the deal back with it (the queue has the page drawn)."""
    mine = side(gone["match"], gone["number"], entry)
    if mine["error"]:
        return refused(sentence(mine["error"]))
    return Posted("deleted", 409, page=lambda: deleted_meanwhile(stored, gone, entry, mine))


def deleted_meanwhile(stored: store.Stored, gone: dict, entry: dict, mine: dict | None = None):
    """An edit that met the deal's delete on another phone: what was typed, and
    the choice to bring the deal back with it or to let it go."""
    number = gone["number"]
    back = fold(gone["match"])
    mine = mine or side(gone["match"], number, entry)
    return render_template(
        "deleted.html",
        match_id=stored.pub,
        match=stored.match,
        title=title(stored.match),
        number=number,
        deleted=gone["deleted"],
        deal_id=gone["deal_id"],
        mine=mine,
        entry=json.dumps(entry, ensure_ascii=False),
        over=back.finished,
        key=new_key(),
        confirm=ConfirmForm(),
    ), 409


@bp.post("/m/<mid:match_id>/revive")
def revive(match_id: str):
    """Bring back a deal deleted on another phone, with the entry typed meanwhile."""
    stored = scored_or_403(match_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    deal_id = whole_number(request.form.get("deal") or "", 18)
    try:
        entry = read_json(request.form.get("entry") or "")
    except RecordError:
        abort(400)
    if deal_id is None or not isinstance(entry, dict):
        abort(400)
    try:
        change = store.revive_deal(
            db(), stored.id, deal_id, entry, key=request.form.get("key") or None
        )
    except DealError as e:
        gone = store.deleted_deal(db(), stored, deal_id)
        if gone is None:
            abort(404)
        flash(_("Not saved: %(why)s", why=e.message))
        return deleted_meanwhile(stored, gone, entry)
    except store.Stale as e:
        flash(_("Not changed: %(why)s.", why=e.message))
        return redirect(url_for("sheet.sheet", match_id=stored.pub))
    except store.NotFound:
        abort(404)
    remember_change(stored.pub, change)
    flash(said(change, stored.match))
    return redirect(url_for("sheet.sheet", match_id=stored.pub))


@bp.post("/m/<mid:match_id>/deal/<int:number>/delete")
def delete_deal(match_id: str, number: int):
    match = scored_or_403(match_id).match
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
        flash(match.words("undeletable", n=number, why=e.message))
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
        flash(match.words("deleted_reflowed", n=change.number))
    return redirect(url_for("sheet.sheet", match_id=match_id))
