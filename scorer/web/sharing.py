"""Sharing a match: the watch and score links with their QR codes, and the
score link itself (this browser scores the match from then on)."""

from __future__ import annotations

import segno
from flask import (
    Blueprint,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from werkzeug.exceptions import Forbidden

from .. import store
from ..i18n import _
from ..store import get_db as db
from . import access
from .lookup import match_or_404, scored_or_403, title

bp = Blueprint("sharing", __name__)


@bp.get("/m/<mid:match_id>/share")
def share(match_id: str):
    """Two links, each with its QR code drawn here as SVG (segno): one to watch,
    one to score (it carries the edit key)."""
    stored = scored_or_403(match_id)
    watch = url_for("sheet.sheet", match_id=stored.pub, _external=True)
    score = url_for("sharing.score_link", match_id=stored.pub, key=stored.edit_key, _external=True)
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
    return redirect(url_for("sheet.sheet", match_id=stored.pub))
