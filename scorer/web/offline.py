"""The service worker (static/sw.js), served from the site's root so that its
scope is every page (a worker's scope is at most the folder it is served from),
minified as every script is (scorer/assets.py) and compressed by Flask-Compress;
and the web app manifest (static/manifest.json) in each language, whose
description the install dialog shows."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from flask import Blueprint, Response, abort, current_app, request
from flask_babel import force_locale

from .. import assets
from ..i18n import L_, LANGUAGES

DESCRIPTION = L_("A score pad for trick-taking card games played with real cards")

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


@cache
def _manifest(static: str) -> dict:
    return json.loads((Path(static) / "manifest.json").read_text("utf-8"))


@bp.get("/manifest.<code>.webmanifest")
def manifest(code: str):
    """The web app manifest in the language ``code``: its description said in it."""
    if code not in LANGUAGES:
        abort(404)
    with force_locale(code):
        said = {
            **_manifest(current_app.static_folder),
            "lang": code,
            "description": str(DESCRIPTION),
        }
    response = Response(
        json.dumps(said, ensure_ascii=False, indent=1), mimetype="application/manifest+json"
    )
    response.headers["Cache-Control"] = "public, max-age=86400"
    response.add_etag()
    return response.make_conditional(request)
