"""Static files as a phone should get them, served by WhiteNoise in front of the
app: each under a name that carries a hash of its content
(``scorer.1a2b3c4d5e6f.css``), cached for a year without a second look (a
changed file is a new name), and compressed once, at start (gzip, Brotli), for
the browsers that accept it. Pages are compressed by Flask-Compress.

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

from flask import Flask
from whitenoise import WhiteNoise
from whitenoise.compress import Compressor

YEAR = 365 * 24 * 3600
PLAIN_MAX_AGE = 3600  # a file asked for by its plain name
HASHED = re.compile(r"\.[0-9a-f]{12}(\.[^./]+)?$")


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


def build(static: Path, target: Path) -> dict[str, str]:
    """Copy every file of ``static`` into ``target`` under its plain and its
    hashed name, with a .gz beside each that compresses well; returns
    {plain name: hashed name}."""
    target.mkdir(parents=True, exist_ok=True)
    manifest = {}
    compressor = Compressor(quiet=True)
    with open(target.with_name(target.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        for path in sorted(p for p in static.rglob("*") if p.is_file()):
            rel = path.relative_to(static).as_posix()
            data = path.read_bytes()
            manifest[rel] = hashed_name(rel, data)
            for name in (rel, manifest[rel]):
                out = target / name
                fresh = _write(out, data)
                if fresh or not out.with_name(out.name + ".gz").exists():
                    if compressor.should_compress(name):
                        compressor.compress(str(out))
    return manifest


def init_app(app: Flask, target: Path, safe: dict[str, str]) -> None:
    """Serve ``app.static_folder`` through WhiteNoise, hashed and compressed,
    with the ``safe`` headers every page has (they pass by Flask-Talisman)."""
    manifest = build(Path(app.static_folder), target)

    @app.url_defaults
    def _hashed(endpoint: str, values: dict) -> None:
        if endpoint == "static" and values.get("filename") in manifest:
            values["filename"] = manifest[values["filename"]]

    def headers(h, _path: str, _url: str) -> None:
        for name, value in safe.items():
            h[name] = value

    app.wsgi_app = WhiteNoise(
        app.wsgi_app,
        root=str(target),
        prefix=app.static_url_path.strip("/") + "/",
        max_age=PLAIN_MAX_AGE,
        immutable_file_test=lambda _path, url: bool(HASHED.search(url)),
        add_headers_function=headers,
    )
