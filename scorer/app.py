"""The Flask app: its settings, its security headers, its extensions and its
blueprints (scorer.create_app makes it)."""

from __future__ import annotations

import os
import secrets
import time
from pathlib import Path

from flask import Flask, request
from flask.sessions import SecureCookieSessionInterface
from flask_compress import Compress
from flask_talisman import Talisman
from werkzeug.routing import BaseConverter, IntegerConverter

from . import assets, store
from .cli import register_cli
from .web import language, register
from .web.access import SameOrigin

ROOT = Path(__file__).resolve().parent.parent
# Largest body a request may carry: the largest match allowed (record.DEALS_MAX
# deals, each recorded card by card, long names) is about 1.7 MB as export writes
# it (compact) and 6.6 MB as earlier versions did (pretty-printed): both fit.
MAX_BODY = 8 * 1024 * 1024

# The pages' script and style come from this server only; nothing inline, no frames.
CSP = {
    "default-src": "'self'",
    "img-src": "'self' data:",
    "worker-src": "'self'",  # static/sw.js, served at /sw.js
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}


# The same on static files, which WhiteNoise serves before Flask-Talisman sees them.
SAFE_HEADERS = {
    "Content-Security-Policy": "; ".join(f"{k} {v}" for k, v in CSP.items()),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


def _bare_304(response):
    """A 304 without the page's safe headers: it tells the browser that what it
    keeps is current, headers included (its policy among them), and needs only
    what a cache does (RFC 9110, 15.4.5: ETag, Cache-Control, Vary, Date). Each
    live poll the sheet leaves unchanged is a 304; the safe headers were more
    than half of its bytes (bench/wire.py). A redirect likewise: no page is drawn
    from it (its body and a page's policies go; Referrer-Policy stays, as it
    governs the request the browser makes next): half a kilobyte of a new phone's
    first visit through the score link."""
    if response.status_code == 304:
        for name in SAFE_HEADERS:
            response.headers.pop(name, None)
    elif response.status_code in (301, 302, 303, 307, 308) and "Location" in response.headers:
        for name in SAFE_HEADERS:
            if name != "Referrer-Policy":
                response.headers.pop(name, None)
        response.set_data(b"")
    return response


def _secret_key(instance: Path) -> str:
    """Generated once into instance/ so every worker shares it; never in the code."""
    path = instance / "secret_key"
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_hex(32))
    for _attempt in range(50):  # another worker may be writing it this instant
        key = path.read_text().strip()
        if key:
            return key
        time.sleep(0.02)
    raise RuntimeError(f"{path} is empty")


class AsciiIntConverter(IntegerConverter):
    """``<int:n>`` in a route matches ASCII digits only (not "１" or "²"), and a
    number SQLite can hold (a longer one is no address: 404, never a 500)."""

    regex = r"[0-9]+"

    def __init__(self, url_map, fixed_digits=0, min=None, max=2**62, signed=False):
        super().__init__(url_map, fixed_digits, min, max, signed)


class MatchIdConverter(BaseConverter):
    """``<mid:match_id>``: a match's public id (schema.new_id: 12 URL-safe
    characters, never all digits, so an old numbered link is told apart)."""

    regex = r"[A-Za-z0-9_-]{12}"


class SessionInterface(SecureCookieSessionInterface):
    """The session cookie is ``Secure`` when the page came over HTTPS (a table's
    local network often has plain HTTP, where a Secure cookie would be lost)."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return request.is_secure or super().get_cookie_secure(app)


def create_app(test_config: dict | None = None) -> Flask:
    app = Flask(
        __name__,
        instance_path=os.environ.get("SCORER_INSTANCE") or str(ROOT / "instance"),
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)
    app.url_map.converters["int"] = AsciiIntConverter
    app.url_map.converters["mid"] = MatchIdConverter
    app.config.update(
        DATABASE=str(instance / "scorer.db"),
        MAX_CONTENT_LENGTH=MAX_BODY,
        WTF_CSRF_TIME_LIMIT=None,
        BABEL_DEFAULT_LOCALE="en",
        JSON_AS_ASCII=False,
        SESSION_COOKIE_SAMESITE="Lax",
        # Pages, CSV and the service worker compressed for browsers that accept it
        # (Flask-Compress); not the API's JSON, whose ETag a client sends back in
        # If-Match as it is.
        COMPRESS_MIMETYPES=["text/html", "text/csv", "text/javascript"],
        # Brotli first (Chrome also takes zstd, which Flask-Compress would choose:
        # at its level a sheet is a sixth bigger), at 5 rather than 4: a tenth
        # fewer bytes for half a millisecond (bench/wire.py)
        COMPRESS_ALGORITHM=["br", "zstd", "gzip", "deflate"],
        COMPRESS_BR_LEVEL=5,
    )
    # Where the other phones reach this server (scorer/address.py): the address it was
    # given, the address it listens on (gunicorn.conf.py's HOST), and under `make
    # table` the certificate of Caddy's local authority and the page that gives it.
    app.config.update(
        PUBLIC_URL=os.environ.get("SCORER_PUBLIC_URL", "").strip() or None,
        LISTEN_HOST=os.environ.get("HOST", "127.0.0.1"),
        CA_CERT=os.environ.get("SCORER_CA_CERT", "").strip() or None,
        TRUST_URL=os.environ.get("SCORER_TRUST_URL", "").strip() or None,
        BODY_SECONDS=float(os.environ.get("SCORER_BODY_SECONDS") or 10),
    )
    hosts = os.environ.get("SCORER_TRUSTED_HOSTS", "").strip()
    if hosts:
        app.config["TRUSTED_HOSTS"] = [h.strip() for h in hosts.split(",") if h.strip()]
    if test_config:
        app.config.update(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(instance)
    app.json.ensure_ascii = False
    app.json.sort_keys = False
    app.session_interface = SessionInterface()

    language.init_app(app)  # Flask-Babel, the locale, the language switch
    SameOrigin(app)  # the browser's word on where a write comes from, else the token
    app.after_request(_bare_304)  # before Talisman's hook: runs after it
    Talisman(
        app,
        force_https=False,
        # Under `make table`'s own authority a phone trusts it from a plain-HTTP page
        # on the same name (scorer/table.py); HSTS, which ignores ports, would send
        # that page to HTTPS for a year, where the phone cannot trust anything yet.
        strict_transport_security=not app.config["TRUST_URL"],
        session_cookie_secure=False,
        content_security_policy=CSP,
        frame_options="DENY",
        referrer_policy="same-origin",
        permissions_policy={},
    )
    store.init_app(app)
    Compress(app)
    assets.init_app(app, ROOT / "build" / "static", SAFE_HEADERS)
    register(app)
    register_cli(app)
    return app
