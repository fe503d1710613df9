"""A deal's form, wherever it is drawn (its own page, or the sheet for the
next deal when it fits the first screen): its plan and questions, the page's
mark and key, what it carries for the deals after it (offline), and the
questions that move along without saving (an auction's calls)."""

from __future__ import annotations

import json
import re
from functools import partial

from flask import (
    abort,
    flash,
    redirect,
    render_template,
    url_for,
)
from flask_babel import get_locale
from markupsafe import Markup

from .. import store
from ..games import GAMES, EntryError
from ..match import DealError, Match, checked_entry
from ..store import get_db as db
from .drawn import drawn
from .forms import (
    ConfirmForm,
    deal_form,
    entry_from_form,
    field_id,
    form_data_from_entry,
    parse_calls,
)
from .history import entry_words
from .lookup import new_key, title

STEPS = ("call", "undo", "step")  # buttons that move a form along without saving
COUNTED = ("counts", "number")  # the kinds of field that ask a count


def counted_fields(fields) -> list:
    """The fields of a deal's form that ask a count (templates/_deal_form.html)."""
    return [f for f in fields if f.kind in COUNTED]


def deal_address(match_id: str, number: int | None) -> str:
    """Where a deal's form posts: its deal's page (None: the next deal's)."""
    if number:
        return url_for("entry.edit_deal", match_id=match_id, number=number)
    return url_for("entry.new_deal", match_id=match_id)


def questions(entry: dict) -> Markup:
    """The questions of the sheet's next-deal form (templates/_deal_questions.html),
    drawn once per deal's questions, players and language: blank, they are the
    same in version after version (a Hearts deal asks the same each time). Drawing
    the form's questions was half of a sheet's first draw."""
    match = entry["match"]

    def draw() -> Markup:
        form = entry["form"]() if entry["hidden"] is not None else entry["form"]
        return Markup(render_template("_deal_questions.html", **{**entry, "form": form}))

    key = ("questions", entry["match_id"], str(get_locale()), tuple(match.players))
    return drawn().get((*key, repr(entry["fields"]), repr(entry["plan"].notes)), draw)


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


def deal_entry(
    stored: store.Stored,
    number: int | None,
    *,
    formdata=None,
    keep_key: bool = False,
    standings=None,
    posted=None,
    keyed: bool = True,
    token: bool = True,
) -> tuple[dict | None, str | None]:
    """What a deal form (templates/_deal_form.html) is drawn from, for deal
    ``number`` (None: the next deal) as the match stands: from the stored entry,
    or from what the player typed (``formdata``), with a fresh mark (and key,
    unless ``keep_key``). Also the problem met reading ``formdata``, if any.
    None once the match is over. The deal page and the score sheet draw it.

    ``posted``: (rules, plan) of the deal a posted form was for (entry.posted_plan),
    for a form drawn again with what was typed (a refusal, an auction's call). It
    keeps the page's own mark and deal number: its next save is the deal the page
    was for, whatever another phone saved meanwhile (the same, or a choice), never
    the deal after it, nor the deal that took an edited deal's place.

    ``keyed``, ``token``: False for a form drawn for every phone (the sheet's), with
    no idempotency key (the phone makes it as it sends the form, static/scorer.js)
    or no CSRF token (access.needs_token)."""
    if posted is not None:
        (rules, plan), entry = posted, None
        if number is not None and plan is not None:
            number = plan.number  # an edited deal by its number now (an earlier one gone)
    else:
        rules, plan, entry = deal_plan(stored, number, standings)
    if plan is None:
        return None, None
    names = stored.match.players
    error = None
    hidden = None
    if formdata is None:
        fields = rules.entry_fields(plan, entry or {})
        data = form_data_from_entry(fields, rules.n, entry) if entry else {}
        data.update(expect=page_mark(stored, number), key=new_key() if keyed else "")
        if number is None:
            data["number"] = plan.number
        if keyed or token or entry:
            form = deal_form(fields, names, data=data, token=token)
        else:  # the sheet's blank form: built only if its questions are drawn (questions)
            form, hidden = partial(deal_form, fields, names, data=data, token=False), data
    else:
        if posted is None:
            formdata["expect"] = page_mark(stored, number)
            if number is None:
                formdata["number"] = str(plan.number)
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
        "hidden": hidden,
        "fields": fields,
        "number": number,
        "rules": rules,
        # the deals after it, for a form of the next deal (not one of a deal in already)
        "ahead": ahead(stored, plan, standings)
        if number is None and plan.number == len(stored.deal_ids) + 1
        else "",
    }, error


def later_deal(plan, names: list[str]) -> dict:
    """One deal of ``ahead``: its number, title and facts as the page draws them,
    drawn once per plan, players and language (the same deal in every version
    until a change reaches it: a Hearts deal's dealer and passing follow from its
    number alone)."""

    def draw() -> dict:
        context = {"plan": plan, "names": names, "fold_notes": []}
        facts = render_template("_plan_facts.html", **context)
        return {
            "n": plan.number,
            "title": str(plan.title),
            "facts": re.sub(r">\s+<", "><", facts).strip(),
            "summary": render_template("_plan_summary.html", **context).strip(),
        }

    # a plan is plain data, its repr all of it (its words drawn in this language)
    return drawn().get(("later", str(get_locale()), tuple(names), repr(plan)), draw)


AHEAD = 8  # the deals after the next whose facts a deal form carries for offline entry
# how far past those a form looks for the end of a match played to a number of deals:
# a page kept from before is numbered from the newest deal the phone has shown since
LAST_LOOK = 200


def ahead(stored: store.Stored, plan, standings=None) -> str:
    """What a phone without the network shows for the deals it enters after the
    next one (static/queue.js): per deal, its number, title, and the facts as the
    page draws them, while they follow from the deal number and the questions stay
    the same (JSON; an empty list where the next deal's questions depend on this
    one's entry); ``{"n": …, "over": true}`` for the deal after the last of a match
    played to a number of deals. Drawn once per version and language."""

    def draw_ahead() -> str:
        st = standings or store.standings(db(), stored)
        names = stored.match.players
        out = []
        played = len(stored.deal_ids)
        for k in range(1, AHEAD + 1):
            later = st.rules.ahead(st.state, k)
            if later is None or later.fields != plan.fields:
                break
            # over after k more deals whatever they hold (a number of deals played)
            if st.rules.outcome(st.totals, played + k).finished:
                out.append({"n": later.number, "over": True})
                break
            out.append(later_deal(later, names))
        else:  # the same questions all the way: where the match ends, further on
            # (an end that more deals reach stays reached: looked for only if it is)
            far = st.rules.outcome(st.totals, played + LAST_LOOK).finished
            for k in range(AHEAD + 1, LAST_LOOK + 1 if far else AHEAD + 1):
                if st.rules.outcome(st.totals, played + k).finished:
                    out.append({"n": played + k + 1, "over": True})
                    break
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


FACT_LINE = 44  # characters of a fact a line holds at 390 px (static/scorer.css .facts)
TITLE_LINE = 28  # of the next deal's title (its h2)


def fact_rows(plan) -> int:
    """The rows (as a question's) the next deal's title and notes take above its form
    past the three lines SHEET_ROWS leaves them: two lines a row. A Metamorphosis
    deal's declarations, discards and draws (ten lines) push its form, and the pad,
    below the first screen: the sheet offers "Enter deal N" in view instead."""
    lines = sum(-(-len(str(note)) // FACT_LINE) for note in plan.notes)
    lines += len(str(plan.title)) // TITLE_LINE
    return max(0, lines - 3) // 2


def sheet_entry(stored: store.Stored, standings, token: bool) -> dict | None:
    """The next deal's form for the score sheet, when it fits the first screen
    under the standings (else the sheet links to the deal page): every phone's,
    without a key, and with the CSRF token only if ``token``. Whether it fits
    is known from its questions, before the form is built."""
    if standings.next is None:
        return None
    n = len(stored.match.players)
    totals_rows = 1 if n <= 3 else 2  # .totals in static/scorer.css
    fields = standings.rules.entry_fields(standings.next, {})
    rows = form_rows(fields, n) + 2 * (totals_rows - 1) + fact_rows(standings.next)
    if rows > SHEET_ROWS:
        return None
    return deal_entry(stored, None, standings=standings, keyed=False, token=token)[0]


def render_deal(
    stored: store.Stored,
    number: int | None,
    *,
    formdata=None,
    error: str | None = None,
    keep_key: bool = False,
    status: int | None = None,
    posted=None,
):
    """The entry page of deal ``number`` (None: the next deal): see deal_entry."""
    entry, problem = deal_entry(stored, number, formdata=formdata, keep_key=keep_key, posted=posted)
    if entry is None:
        flash(stored.match.words("over"))
        return redirect(url_for("sheet.sheet", match_id=stored.pub))
    error = error or problem
    return render_template(
        "deal.html",
        **entry,
        error=error,
        title=title(stored.match),
        game=GAMES[stored.match.game],
        confirm=ConfirmForm(),
        delete_key=new_key(),
        watch=url_for("sheet.sheet", match_id=stored.pub, part="live"),
        mark=stored.next_mark(),
        version=stored.version,
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
