"""The service worker (static/sw.js), served from the site's root so that its
scope is every page (a worker's scope is at most the folder it is served from),
minified as every script is (scorer/assets.py) and compressed by Flask-Compress."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from flask import Blueprint, Response, current_app, request

from .. import assets

bp = Blueprint("offline", __name__)


@cache
def _script(static: str) -> bytes:
    return assets.minified("sw.js", (Path(static) / "sw.js").read_bytes())


@bp.get("/sw.js")
def worker():
    response = Response(_script(current_app.static_folder), mimetype="text/javascript")
    response.headers["Service-Worker-Allowed"] = "/"
    response.headers["Cache-Control"] = "no-cache"  # a new worker is seen at the next visit
    response.add_etag()
    return response.make_conditional(request)
