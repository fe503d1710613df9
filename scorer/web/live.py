"""The live sheet's wait: a phone asks "has the match changed since this
version?" and, where the server holds idle connections cheaply (gunicorn's
gevent workers, `make run`), the answer waits until it has, or until
``LIVE_WAIT`` seconds have passed (a bodiless 304 then, and the phone asks
again). One reader per process looks at the versions of the matches phones
wait on, twice a second, and wakes those whose match moved on: a box with
10,000 phones waiting reads a few thousand rows a second, not 5,000 requests.
With ``LIVE_WAIT`` 0 (a server of one thread per request, the tests' default),
the answer never waits: the phone asks every two seconds, as it always could.

The poll itself (a phone's "changed?" about a sheet that has not changed) is
answered before Flask (:class:`Poll`): from one row (the match's version and
what this phone is to it) on a connection kept open (the app's pool), with
the headers Flask's own 304 carries, so it costs about what a bare route
costs. Any other request,
and a poll this cannot answer alike (no cookie, a first visit to remember, a
changed sheet, an unknown host, an odd address), goes on to Flask.
"""

from __future__ import annotations

import os
import re
import sqlite3
import threading
import time
from urllib.parse import parse_qsl

from flask import Flask, Response, current_app
from werkzeug.exceptions import SecurityError
from werkzeug.http import parse_cookie, parse_etags
from werkzeug.wsgi import get_host

from ..i18n import COOKIE as LANG_COOKIE
from ..i18n import locale_of
from ..store.db import connect, pool
from . import access

EVERY = 0.5  # seconds between two looks at the versions phones wait on
CHUNK = 500  # public ids a look reads at a time


class Watch:
    """The phones of this process waiting for a match to move past a version."""

    def __init__(self, database: str):
        self.database = database
        self.waiting: dict[str, list[tuple[int, threading.Event]]] = {}
        self.lock = threading.Lock()
        self.reader: threading.Thread | None = None

    def wait(self, pub: str, version: int, timeout: float) -> bool:
        """Wait until the match ``pub`` is past ``version`` (True: it is, or it is
        gone) or ``timeout`` seconds have passed (False)."""
        mine = (version, threading.Event())
        with self.lock:
            self.waiting.setdefault(pub, []).append(mine)
            if self.reader is None or not self.reader.is_alive():
                self.reader = threading.Thread(target=self._read, name="live-watch", daemon=True)
                self.reader.start()
        try:
            return mine[1].wait(timeout)
        finally:
            with self.lock:
                others = [w for w in self.waiting.get(pub, []) if w is not mine]
                if others:
                    self.waiting[pub] = others
                else:
                    self.waiting.pop(pub, None)

    def _read(self) -> None:
        while True:
            time.sleep(EVERY)
            with self.lock:
                pubs = list(self.waiting)
            if pubs:
                self.look(pubs)

    def look(self, pubs: list[str]) -> None:
        """Wake the phones waiting on any of ``pubs`` whose match moved on or went."""
        db = connect(self.database)
        try:
            now: dict[str, int | None] = dict.fromkeys(pubs)
            for i in range(0, len(pubs), CHUNK):
                part = pubs[i : i + CHUNK]
                marks = ", ".join("?" * len(part))
                for pub, version, deleted in db.execute(
                    f"select pub, version, deleted from matches where pub in ({marks})", part
                ):
                    now[pub] = None if deleted else version
        finally:
            db.close()
        with self.lock:
            for pub, version in now.items():
                for seen, event in self.waiting.get(pub, []):
                    if version != seen:
                        event.set()


def wait_for_change(pub: str, version: int) -> bool:
    """Hold a live poll of an unchanged sheet until its match changes (True) or
    ``LIVE_WAIT`` seconds pass (False); at once False where the server does not
    hold idle connections."""
    timeout = current_app.config.get("LIVE_WAIT", 0)
    if not timeout:
        return False
    watch = current_app.extensions.get("scorer.live")
    return watch is not None and watch.wait(pub, version, timeout)


def unchanged(etag: str) -> Response:
    """The answer to a poll of a sheet the phone has as it is: bodiless."""
    return Response(status=304, headers={"ETag": f'W/"{etag}"', "Cache-Control": "no-cache"})


def live_etag(pub: str, version: int, locale: str, can_score: bool, show_all: bool) -> str:
    """The sheet's version as a page: the match's, in this language, for a scorer
    (the deal form) or a watcher, with the latest deals or all of them."""
    return f"{pub}.{version}.{locale}.{'s' if can_score else 'w'}{'.all' if show_all else ''}"


SHEET = re.compile(r"/m/([A-Za-z0-9_-]{12})")  # the sheet's route (scorer.MatchIdConverter)
PLAIN_QUERY = re.compile(r"[a-z0-9=&]*")  # as live.js asks: part=live&deals=all&wait=1
ASKED = {"part", "deals", "wait"}
# The match's version and what this browser is to it, in one statement.
VERSION_AND_ROLE = (
    "select m.version, b.role from matches m"
    " left join browsers b on b.browser = ? and b.match_id = m.id"
    " where m.pub = ? and m.deleted is null and m.game != ''"
)


class Poll:
    """WSGI, in front of the app: the live poll of an unchanged sheet answered
    with Flask's own 304 (see the module's doc); anything else passed on."""

    def __init__(self, app: Flask, wsgi):
        self.app = app
        self.wsgi = wsgi
        self.headers: dict[bool, tuple[str, list[tuple[str, str]]]] = {}

    def __call__(self, environ, start_response):
        etag = self.unchanged(environ)
        if etag is None:
            return self.wsgi(environ, start_response)
        status, headers = self.answer(environ)
        start_response(status, [(k, f'W/"{etag}"' if k == "ETag" else v) for k, v in headers])
        return []

    def unchanged(self, environ) -> str | None:
        """The sheet's ETag if this is a poll of it that the phone has as it is
        (and, asked to wait, still has when the wait is over); else None."""
        if environ.get("REQUEST_METHOD") != "GET" or "HTTP_IF_NONE_MATCH" not in environ:
            return None
        path = SHEET.fullmatch(environ.get("PATH_INFO", ""))
        query = environ.get("QUERY_STRING", "")
        if path is None or not PLAIN_QUERY.fullmatch(query):
            return None
        args: dict[str, str] = {}
        for key, value in parse_qsl(query, keep_blank_values=True):
            args.setdefault(key, value)
        if args.get("part") != "live" or not ASKED.issuperset(args):
            return None
        cookies = parse_cookie(environ.get("HTTP_COOKIE", ""))
        browser = cookies.get(access.COOKIE, "")
        if not access.WELL_FORMED.fullmatch(browser):
            return None  # a new cookie goes out with Flask's answer
        config = self.app.config
        if config["TRUSTED_HOSTS"] is not None:
            try:
                get_host(environ, config["TRUSTED_HOSTS"])
            except SecurityError:
                return None  # Flask's 400
        pub = path.group(1)
        try:
            with pool(self.app).borrowed() as db:
                rows = db.conn.execute(VERSION_AND_ROLE, [browser, pub]).fetchall()
        except sqlite3.Error:
            return None  # Flask says what went wrong
        if not rows or rows[0][1] is None:
            return None  # gone (a 404), or a first read to remember (access.seen)
        version, role = rows[0]
        locale = locale_of(cookies.get(LANG_COOKIE, ""), environ.get("HTTP_ACCEPT_LANGUAGE"))
        etag = live_etag(pub, version, locale, role == "score", args.get("deals") == "all")
        if not parse_etags(environ["HTTP_IF_NONE_MATCH"]).contains_weak(etag):
            return None  # changed: the new sheet, from Flask
        if args.get("wait") and config.get("LIVE_WAIT"):
            watch = self.app.extensions.get("scorer.live")
            if watch is not None and watch.wait(pub, version, config["LIVE_WAIT"]):
                return None  # it changed meanwhile
        return etag

    def answer(self, environ) -> tuple[str, list[tuple[str, str]]]:
        """The status and headers of Flask's 304 for a poll (the ETag to be set),
        made once per process by Flask itself, with every after_request hook
        (the security headers, Vary): over HTTPS they add Strict-Transport-Security."""
        secure = environ.get("wsgi.url_scheme") in ("https", "wss") or (
            environ.get("HTTP_X_FORWARDED_PROTO") == "https"
        )
        made = self.headers.get(secure)
        if made is None:
            scheme = "https" if secure else "http"
            host = environ.get("HTTP_HOST") or "localhost"
            with self.app.test_request_context(environ["PATH_INFO"], f"{scheme}://{host}"):
                response = self.app.process_response(unchanged(""))
                made = response.status, response.get_wsgi_headers(environ).to_wsgi_list()
            self.headers[secure] = made
        return made


def init_app(app: Flask) -> None:
    """``LIVE_WAIT``: from ``SCORER_LIVE_WAIT`` (gunicorn.conf.py sets it for gevent
    workers), unless the app's config says. The poll answered before Flask."""
    app.config.setdefault("LIVE_WAIT", float(os.environ.get("SCORER_LIVE_WAIT") or 0))
    app.extensions["scorer.live"] = Watch(app.config["DATABASE"])
    app.wsgi_app = Poll(app, app.wsgi_app)
