"""A rules page per game, in the app's own words, with the source of each rule."""

from __future__ import annotations

from flask import Blueprint, abort, render_template

from ..games import GAMES

bp = Blueprint("rules", __name__)


@bp.get("/rules/")
def index():
    return render_template("rules/index.html")


@bp.get("/rules/<game>")
def show(game: str):
    if game not in GAMES:
        abort(404)
    return render_template(f"rules/{game}.html", game=GAMES[game])
