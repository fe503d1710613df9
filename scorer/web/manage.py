"""A match's players and options, a rematch, and the trash and back."""

from __future__ import annotations

from flask import (
    Blueprint,
    abort,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)

from .. import store
from ..games import GAMES, EntryError
from ..i18n import _
from ..match import DealError, Match
from ..record import (
    RecordError,
    load_match,
)
from ..store import get_db as db
from . import access
from .forms import (
    ConfirmForm,
    form_problem,
    new_match_form,
    record_from_new_match,
    resent,
)
from .history import remember_change
from .lookup import known_names, new_key, scored_or_403

bp = Blueprint("manage", __name__)


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
                error = match.words("could_not_stand", n=e.number, why=e.error.message)
            except store.StoreError as e:
                error = resent(e) or _("Not changed: %(why)s.", why=e.message)
            else:
                remember_change(stored.pub, change)
                flash(_("Players and options saved."))
                return redirect(url_for("sheet.sheet", match_id=match_id))
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


@bp.post("/m/<mid:match_id>/rematch")
def rematch(match_id: str):
    match = scored_or_403(match_id).match
    if not ConfirmForm().validate_on_submit():
        abort(400)
    new = Match(match.game, dict(match.options), list(match.players), match.first_dealer, [])
    new_id = store.create(db(), new, kind="rematch", browser=access.browser()).pub
    flash(_("Rematch: same seats and options."))
    return redirect(url_for("sheet.sheet", match_id=new_id))


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
    return redirect(url_for("home.home"))


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
        return redirect(url_for("home.home"))
    flash(_("The match is back from the trash."))
    return redirect(url_for("sheet.sheet", match_id=match_id))
