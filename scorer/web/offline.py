"""The service worker (static/sw.js), served from the site's root so that its
scope is every page (a worker's scope is at most the folder it is served from)."""

from __future__ import annotations

from flask import Blueprint, current_app, send_from_directory

bp = Blueprint("offline", __name__)


@bp.get("/sw.js")
def worker():
    response = send_from_directory(
        current_app.static_folder, "sw.js", mimetype="text/javascript", max_age=0
    )
    response.headers["Service-Worker-Allowed"] = "/"
    response.headers["Cache-Control"] = "no-cache"  # a new worker is seen at the next visit
    return response
