"""Static files as a phone should get them, served by WhiteNoise in front of the
app: each under a name that carries a hash of its content
(``scorer.1a2b3c4d5e6f.css``), cached for a year without a second look (a
changed file is a new name), and compressed once, at start (gzip, Brotli), for
the browsers that accept it. Pages are compressed by Flask-Compress.

Scripts and style sheets are served minified (rjsmin, rcssmin: comments and
spaces are for who reads ``static/``, not for the wire), and the scripts every
page runs come as one file, ``app.js`` (``BUNDLES``): one request, one stream
to compress; a deal form's three (number entry, pad, queue) come as
``forms.js``, only to a page that needs them.

The hashed copies are built into ``build/static/`` beside the package (under a
lock: several workers may start at once); ``url_for('static', filename=…)``
gives the hashed name. The plain names are served too, for a short while
(the manifest names its icons by them)."""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
from pathlib import Path
from urllib.parse import quote

import rcssmin
import rjsmin
from flask import Flask
from markupsafe import Markup
from whitenoise import WhiteNoise
from whitenoise.compress import Compressor

YEAR = 365 * 24 * 3600  # a hashed file's max-age (WhiteNoise's own is ten years)
PLAIN_MAX_AGE = 3600  # a file asked for by its plain name
HASHED = re.compile(r"\.[0-9a-f]{12}(\.[^./]+)?$")
# The scripts every page runs (templates/base.html), in their order, as one file;
# and those of a deal form, only where there is one (templates/_forms.html).
BUNDLES = {
    "app.js": ("scorer.js", "live.js", "awake.js", "offline.js"),
    "forms.js": ("entry.js", "pad.js", "queue.js"),
}
# The only static files a browser may open as a page of their own (an SVG can
# carry script): they get the pages' safe headers; the rest need only nosniff.
DOCUMENTS = (".svg", ".html")


def minified(rel: str, data: bytes) -> bytes:
    """A script or style sheet without its comments and spaces (one already
    minified, ``*.min.js``, as it is); any other file as it is."""
    if rel.endswith(".js") and not rel.endswith(".min.js"):
        return rjsmin.jsmin(data.decode()).encode()
    if rel.endswith(".css"):
        return rcssmin.cssmin(data.decode()).encode()
    return data


def hashed_name(rel: str, data: bytes) -> str:
    """``scorer.css`` → ``scorer.<12 hex digits of its SHA-256>.css``."""
    digest = hashlib.sha256(data).hexdigest()[:12]
    stem, dot, ext = rel.rpartition(".")
    if not dot or "/" in ext:
        return f"{rel}.{digest}"
    return f"{stem}.{digest}.{ext}"


def _write(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` unless it holds it already (atomically)."""
    if path.exists() and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(path.name + ".part")
    part.write_bytes(data)
    os.replace(part, path)
    return True


def build(static: Path, target: Path, bundles: dict | None = None) -> dict[str, str]:
    """Copy every file of ``static`` (scripts and style sheets minified) and each
    bundle (its files minified, one after the other) into ``target`` under its
    plain and its hashed name, with a .gz and a .br beside each that compresses
    well; returns {plain name: hashed name}."""
    target.mkdir(parents=True, exist_ok=True)
    manifest = {}
    compressor = Compressor(quiet=True)
    files = {
        path.relative_to(static).as_posix(): minified(path.name, path.read_bytes())
        for path in sorted(p for p in static.rglob("*") if p.is_file())
    }
    for name, parts in (BUNDLES if bundles is None else bundles).items():
        files[name] = b";\n".join(files[part] for part in parts)
    with open(target.with_name(target.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        for rel, data in files.items():
            manifest[rel] = hashed_name(rel, data)
            for name in (rel, manifest[rel]):
                out = target / name
                fresh = _write(out, data)
                if fresh or not out.with_name(out.name + ".gz").exists():
                    if compressor.should_compress(name):
                        compressor.compress(str(out))
    return manifest


class Static(WhiteNoise):
    FOREVER = YEAR


def init_app(app: Flask, target: Path, safe: dict[str, str]) -> None:
    """Serve ``app.static_folder`` through WhiteNoise, hashed and compressed,
    with the ``safe`` headers every page has (they pass by Flask-Talisman)."""
    manifest = build(Path(app.static_folder), target)
    # the page's icon in the page itself: a first visit saves a request (773 bytes
    # on the wire for 310 of SVG); the manifest's icons stay files
    svg = (Path(app.static_folder) / "icon.svg").read_text().strip().replace('"', "'")
    # (no " nor < > & left in it: it stands in a double-quoted attribute as it is)
    app.jinja_env.globals["page_icon"] = Markup("data:image/svg+xml," + quote(svg, safe=" =:/',.-"))

    @app.url_defaults
    def _hashed(endpoint: str, values: dict) -> None:
        if endpoint == "static" and values.get("filename") in manifest:
            values["filename"] = manifest[values["filename"]]

    def headers(h, path: str, _url: str) -> None:
        for name, value in safe.items():
            if path.endswith(DOCUMENTS) or name == "X-Content-Type-Options":
                h[name] = value

    app.wsgi_app = Static(
        app.wsgi_app,
        allow_all_origins=False,
        root=str(target),
        prefix=app.static_url_path.strip("/") + "/",
        max_age=PLAIN_MAX_AGE,
        immutable_file_test=lambda _path, url: bool(HASHED.search(url)),
        add_headers_function=headers,
    )
