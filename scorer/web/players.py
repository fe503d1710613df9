"""Players across matches (scorer.players): the players and their leagues
(scorer.ratings), a player's page with their rating over time, head to head,
renaming and merging spellings; the chances and the ratings' moves on a
match's sheet; and the season: every match this browser sees as one ZIP of
records with the CSV of results and the league's, and that ZIP imported back."""

from __future__ import annotations

from datetime import date

from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for
from flask_babel import format_decimal
from werkzeug.exceptions import BadRequest, RequestEntityTooLarge

from .. import chart, store
from ..games import GAMES, EntryError
from ..i18n import _, alphabetical, join, listed, ngettext, percent, tenths
from ..match import Match, Standings
from ..players import Sheet, head_to_head, names, renames, stats
from ..ratings import NEW, League, Season, chances
from ..record import (
    RecordError,
    attachment,
    check_names,
    file_name,
    name_key,
    to_league_csv,
    to_results_csv,
)
from ..season import LEAGUE, RESULTS, SEASON, read_zip, results, to_zip
from ..store import get_db as db
from ..store import ratings as kept
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
                Sheet(
                    stored.pub,
                    stored.created,
                    stored.match,
                    standings,
                    access.can_score(stored),
                    stored.id,
                )
            )
    return out


def known_names() -> list[str]:
    """The names this browser has used, latest first: the new-match form offers them."""
    return names(stored.match for stored in store.listing(db(), access.known()))


def average(value: float | None) -> str:
    return "" if value is None else format_decimal(round(value, 2), format="#,##0.##")


def season_asked() -> Season:
    """The season a page asks for (``?year=2025``, ``?from=2025-03-01``, else all
    time); the 400 page for anything else."""
    try:
        return Season.parse(request.args.get("year"), request.args.get("from"))
    except ValueError:
        access.refuse(BadRequest, _("A season is a year (2025) or the day it began (2025-03-01)."))


@bp.get("/players")
def index():
    """Every player of the matches this browser sees, and a league per game
    (all time, a year's, or from a day: ``?year=``, ``?from=``)."""
    season = season_asked()
    seen = kept.overview(db(), access.known(), season)
    return render_template(
        "players.html",
        players=sorted(seen.names, key=alphabetical),
        leagues=seen.leagues,
        season=season,
        years=seen.years,
    )


def league_lines(leagues: list[League]) -> list[tuple]:
    """What the league's CSV writes: per game, a line per player."""
    return [
        (
            str(GAMES[lg.game].name),
            s.place,
            s.name,
            s.skill.rating,
            s.skill.sigma,
            s.matches,
            s.change,
        )
        for lg in leagues
        for s in lg.standings
    ]


@bp.get("/players/league.csv")
def league_csv():
    """The league as CSV: game, place, player, rating, uncertainty, matches, last change."""
    season = season_asked()
    found = kept.league(db(), access.known(), season)
    what = (LEAGUE, season.key.replace(" ", "-")) if season.key else (LEAGUE,)
    return download(to_league_csv(league_lines(found)), "csv", "text/csv", what)


@bp.app_template_filter("tenths")
def tenths_filter(value: float, signed: bool = False) -> str:
    """A rating to a tenth, as the page's locale writes it (``signed``: +0.8)."""
    return tenths(value, signed)


def rating_words(value: float, sigma: float) -> str:
    """A rating and its uncertainty as the page writes them: 12.3 ± 2.1."""
    return f"{tenths(value)} ± {tenths(sigma)}"


@bp.app_template_global()
def sheet_ratings(match: Match, pub: str, st: Standings) -> dict | None:
    """What the sheet says of the ratings: before the first deal, each side's
    chance to win ("Ala 41%, Bartek 33% and Celina 26%") if any player has a
    rating in this game; once the match is over, how it moved each rating.
    None otherwise, and for a browser that has seen no finished match."""
    browser = access.known()
    if not browser or (st.rows and not st.finished):
        return None
    if st.finished:
        rated = kept.moved(db(), browser, pub)
        if rated is None:
            return None
        return {
            "moves": [
                (m.name, tenths(m.after.rating), tenths(m.change, signed=True)) for m in rated.moves
            ]
        }
    skills = kept.skills(db(), browser)
    if not any((match.game, name_key(n)) in skills for n in match.players):
        return None
    odds = chances(match.game, match.options, match.players, skills)
    parts = [
        _("%(who)s %(chance)s", who=listed(match.players[s] for s in side), chance=percent(p))
        for side, p in odds
    ]
    # sides of two (Variety) are each a list already: the sides then stand apart by commas
    return {
        "chances": listed(parts) if all(len(side) == 1 for side, _p in odds) else join(", ", parts)
    }


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
        ratings=player_ratings(found.key, found.name),
        averages={g.game: average(g.average_place) for g in found.games},
        versus=versus,
        title=title,
        can_rename=any(pl.sheet.scored for pl in found.matches),
        spellings=[n for n in everyone if name_key(n) != found.key],
        confirm=ConfirmForm(),
        error=error,
        typed=typed,
    ), (400 if error else 200)


def player_ratings(key: str, name: str) -> dict[str, dict]:
    """Per game, the player's line of the all-time league and their rating
    over time drawn as a line."""
    browser = access.known()
    found = {lg.game: lg for lg in kept.league(db(), browser)}
    out = {}
    for game, rated in kept.history(db(), browser, key).items():
        standing = found[game].of(key)
        if standing is None:
            continue
        values = [NEW.rating] + [
            next(m for m in r.moves if m.key == key).after.rating for r in rated
        ]
        label = ngettext(
            "The rating of %(name)s after %(num)s match: from %(first)s to %(last)s",
            "The rating of %(name)s after each of %(num)s matches: from %(first)s to %(last)s",
            len(rated),
            name=name,
            first=tenths(values[0]),
            last=tenths(values[-1]),
        )
        out[game] = {
            "standing": standing,
            "of": len(found[game].standings),
            "rating": rating_words(standing.skill.rating, standing.skill.sigma),
            "change": tenths(standing.change, signed=True),
            "line": chart.rating_line(values, str(label)),
        }
    return out


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
        except store.Busy:
            raise  # said (a 503): the rename asked again renames the matches left
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
    """The season's export and import (its form reads no request: drawn again for a
    file too large to read, it would meet the same refusal)."""
    return render_template(
        "season.html",
        count=len(sheets()),
        import_form=ImportForm(formdata=None),
        error=error,
        results=f"{RESULTS}.csv",  # the results' file in the ZIP, named in its language
    ), (400 if error else 200)


def download(body: bytes | str, kind: str, mimetype: str, what: tuple = (SEASON,)) -> Response:
    """A season file to save, named in the page's language: ``scorer-season_2025-03-08.zip``,
    ``scorer-league_2025_2025-03-08.csv`` (Polish ``scorer-sezon_…``)."""
    parts = [f"scorer-{what[0]}", *what[1:], date.today().isoformat()]
    full, plain = file_name(parts, kind), file_name(parts, kind, ascii_only=True)
    return Response(
        body, mimetype=mimetype, headers={"Content-Disposition": attachment(full, plain)}
    )


@bp.get("/season.zip")
def season_zip():
    """Every match this browser sees: a JSON record each, the results and the league
    (results.csv and league.csv, named in the page's language)."""
    league = to_league_csv(league_lines(kept.league(db(), access.known())))
    return download(to_zip(sheets(), league), "zip", "application/zip")


@bp.get("/season.csv")
def season_csv():
    """One row per match and player: match, date, game, player, total, place."""
    return download(to_results_csv(results(sheets())), "csv", "text/csv")


@bp.post("/season/import")
def season_import():
    """Each record of a season ZIP as a new match; one bad member: none."""
    try:
        if not ImportForm().validate_on_submit():
            abort(400)
    except RequestEntityTooLarge:  # said on the page, with the most a file may be
        limit = request.max_content_length  # MAX_CONTENT_LENGTH
        why = _("this file is larger than %(mb)s MB, the most one file may be", mb=limit >> 20)
        return season(_("Nothing imported: %(why)s", why=why))[0], 413
    upload = request.files.get("season")
    try:
        matches = read_zip(upload.read() if upload else b"")
    except RecordError as e:
        return season(_("Nothing imported: %(why)s", why=e.message))
    # in the order they began (the latest heads the home page), a few at a time:
    # a deal saved meanwhile takes its turn between them
    store.create_all(db(), matches, kind="import", browser=access.browser())
    flash(ngettext("%(num)s match imported.", "%(num)s matches imported.", len(matches)))
    return redirect(url_for(".season"))
