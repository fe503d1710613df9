"""Players across matches (scorer.players): a player's page, head to head,
renaming and merging spellings; and the season: every match this browser
sees as one ZIP of records with a CSV of results, and that ZIP imported back."""

from __future__ import annotations

from datetime import date

from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for
from flask_babel import format_decimal

from .. import store
from ..games import EntryError
from ..i18n import _, ngettext
from ..players import Sheet, head_to_head, names, renames, stats
from ..record import RecordError, check_names, name_key, to_results_csv
from ..season import read_zip, results, to_zip
from ..store import get_db as db
from . import access
from .forms import ConfirmForm, ImportForm
from .history import remember_change
from .lookup import standings_or_none, title

bp = Blueprint("players", __name__)


def sheets() -> list[Sheet]:
    """Every match this browser sees (latest changed first) that today's rules
    can read, with its standings. The trash is not seen."""
    out = []
    for stored in store.listing(db(), access.known()):
        standings = standings_or_none(stored)
        if standings is not None:
            out.append(
                Sheet(stored.pub, stored.created, stored.match, standings, access.can_score(stored))
            )
    return out


def known_names() -> list[str]:
    """The names this browser has used, latest first: the new-match form offers them."""
    return names(stored.match for stored in store.listing(db(), access.known()))


def average(value: float | None) -> str:
    return "" if value is None else format_decimal(round(value, 2), format="#,##0.##")


@bp.get("/players")
def index():
    """Every player of the matches this browser sees."""
    everyone = names(s.match for s in sheets())
    return render_template("players.html", players=sorted(everyone, key=name_key))


@bp.get("/p/<path:name>")
def player(name: str):
    """A player's page; ``?vs=<name>``: with the head to head of the two."""
    return player_page(name)


def player_page(name: str, error: str | None = None, typed: str = ""):
    seen = sheets()
    found = stats(seen, name_key(name))
    if found is None:
        abort(404)
    versus = None
    other_name = request.args.get("vs", "")
    if other_name:
        other = stats(seen, name_key(other_name))
        if other is None or other.key == found.key:
            abort(404)
        versus = {"name": other.name, "games": head_to_head(seen, found.key, other.key)}
    everyone = names(s.match for s in seen)
    return render_template(
        "player.html",
        p=found,
        averages={g.game: average(g.average_place) for g in found.games},
        versus=versus,
        title=title,
        can_rename=any(pl.sheet.scored for pl in found.matches),
        spellings=[n for n in everyone if name_key(n) != found.key],
        confirm=ConfirmForm(),
        error=error,
        typed=typed,
    ), (400 if error else 200)


@bp.post("/players/rename")
def rename():
    """Rename a player in every match this browser scores where that name sits,
    or merge two spellings (rename one into the other): one change of each
    match's history (undone there). Checked in every match first: a rename
    that would seat two players of one name anywhere changes nothing anywhere."""
    if not ConfirmForm().validate_on_submit():
        abort(400)
    old = request.form.get("old", "")
    new = " ".join(request.form.get("new", "").split())
    scored = [s for s in store.listing(db(), access.known()) if access.can_score(s)]
    plan = renames([(s.pub, s.match) for s in scored], old, new)
    by_pub = {s.pub: s for s in scored}
    if not plan:
        seated = any(name_key(n) == name_key(old) for s in scored for n in s.match.players)
        why = (
            _("Nothing to rename: that is already its name.")
            if seated
            else _("Nothing to rename: no match you score has that name.")
        )
        return player_page(old, why, new)
    for change in plan:
        try:
            check_names(change.players)
        except EntryError as e:
            match = by_pub[change.pub].match
            why = _(
                "Nothing was renamed: in %(match)s, %(why)s.", match=title(match), why=e.message
            )
            return player_page(old, why, new)
    done = 0
    for change in plan:
        stored = by_pub[change.pub]
        try:
            made = store.change_setup(db(), stored.id, change.players, stored.match.options)
        except store.StoreError:
            continue  # deleted on another phone meanwhile: nothing to rename there
        remember_change(stored.pub, made)
        done += 1
    flash(
        ngettext(
            "%(old)s is now %(new)s in %(num)s match; its history can undo it.",
            "%(old)s is now %(new)s in %(num)s matches; each one's history can undo it.",
            done,
            old=old,
            new=new,
        )
    )
    return redirect(url_for(".player", name=new))


# --- the season ------------------------------------------------------------------


@bp.get("/season")
def season(error: str | None = None):
    """The season's export and import."""
    return render_template(
        "season.html", count=len(sheets()), import_form=ImportForm(), error=error
    ), (400 if error else 200)


def download(body: bytes | str, kind: str, mimetype: str) -> Response:
    """A season file to save: ``scorer-season_2025-03-08.zip``."""
    name = f"scorer-season_{date.today().isoformat()}.{kind}"
    return Response(
        body, mimetype=mimetype, headers={"Content-Disposition": f'attachment; filename="{name}"'}
    )


@bp.get("/season.zip")
def season_zip():
    """Every match this browser sees: a JSON record each, and results.csv."""
    return download(to_zip(sheets()), "zip", "application/zip")


@bp.get("/season.csv")
def season_csv():
    """One row per match and player: match, date, game, player, total, place."""
    return download(to_results_csv(results(sheets())), "csv", "text/csv")


@bp.post("/season/import")
def season_import():
    """Each record of a season ZIP as a new match; one bad member: none."""
    if not ImportForm().validate_on_submit():
        abort(400)
    upload = request.files.get("season")
    try:
        matches = read_zip(upload.read() if upload else b"")
    except RecordError as e:
        return season(_("Nothing imported: %(why)s", why=e.message))
    for match in reversed(matches):  # the latest last: it heads the home page
        store.create(db(), match, kind="import", browser=access.browser())
    flash(ngettext("%(num)s match imported.", "%(num)s matches imported.", len(matches)))
    return redirect(url_for(".season"))
