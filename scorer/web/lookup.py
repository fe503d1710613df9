"""A match for a page: found by its public id (else the 404 page), scored by
this browser for a write (else 403), its title, its standings where today's
rules can read it, the names this browser has used, and the idempotency keys
of a page's writes."""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets

from flask import (
    abort,
    current_app,
    request,
)

from .. import players, store
from ..games import GAMES
from ..match import DealError, Match
from ..store import get_db as db
from . import access


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


def known_names() -> list[str]:
    """The names this browser has used (in the matches it sees), latest first:
    the set-up form offers them."""
    return players.names(stored.match for stored in store.listing(db(), access.known()))


def new_key() -> str:
    """A fresh idempotency key for a page's write: a second tap repeats, not redoes."""
    return secrets.token_urlsafe(12)


def form_key() -> str:
    """The idempotency key of the form posted: the one it carries (drawn into a
    page for one request, or made by the phone as the form was sent:
    static/scorer.js), else one made from this browser and all the form says,
    so that a browser without JavaScript sending the same form twice (a second
    tap, a resend) writes once, and two browsers never share a key."""
    given = request.form.get("key")
    if given:
        return given
    said = sorted(
        (k, v) for k, v in request.form.items(multi=True) if k not in ("key", "csrf_token")
    )
    text = json.dumps([access.browser(), request.path, said], ensure_ascii=False)
    digest = hmac.new(current_app.secret_key.encode(), text.encode(), hashlib.sha256)
    return "f" + digest.hexdigest()[:23]
