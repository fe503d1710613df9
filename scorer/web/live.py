"""The live sheet's wait: a phone asks "has the match changed since this
version?" and, where the server holds idle connections cheaply (gunicorn's
gevent workers, `make run`), the answer waits until it has, or until
``LIVE_WAIT`` seconds have passed (a bodiless 304 then, and the phone asks
again). One reader per process looks at the versions of the matches phones
wait on, four times a second, and wakes those whose match moved on: a box with
10,000 phones waiting reads a few thousand rows a second, not 5,000 requests.
With ``LIVE_WAIT`` 0 (a server of one thread per request, the tests' default),
the answer never waits: the phone asks every two seconds, as it always could.

The poll itself goes through Flask as every request does (scorer/web/sheet.py):
it reads the match's row alone, and answers a bodiless 304 while the sheet is
as the phone has it. Answering it before Flask saved about 0.6 ms of CPU a
poll, about 0.1 ms a second for a table of four held phones (issue 36): not
worth a second way into the app.
"""

from __future__ import annotations

import os
import threading
import time

from flask import Flask, Response, current_app
from werkzeug.exceptions import ServiceUnavailable

from ..store.db import connect

# seconds between two looks at the versions phones wait on: a save reaches a waiting
# phone within it (at 0.5 s, 10,000 phones saw a save after 1.1 s at most: issue 36)
EVERY = 0.25
# The most phones a process holds waiting (LIVE_HELD): past it a poll is answered at
# once, 503 with Retry-After, and the phone asks again two seconds later (static/
# live.js), so that a save always finds a connection (at 15,000 held phones on two
# workers a save's connection was closed unanswered: issue 35). gunicorn.conf.py
# gives a gevent worker 10,000 connections: 2,000 stay for saves and pages. At 5,000
# a worker, 10,000 phones on two workers met it as soon as one worker took more
# than half of them (623 answers 503 in a minute, issue 36).
HELD = 8000
CHUNK = 500  # public ids a look reads at a time


class Full(ServiceUnavailable):
    """This process holds as many waiting phones as it may: the phone asks again
    in a moment, without waiting (static/live.js waits two seconds)."""

    def __init__(self):
        super().__init__(retry_after=2)


class Watch:
    """The phones of this process waiting for a match to move past a version."""

    def __init__(self, database: str, most: int = HELD):
        self.database = database
        self.most = most
        self.held = 0
        self.waiting: dict[str, list[tuple[int, threading.Event]]] = {}
        self.lock = threading.Lock()
        self.reader: threading.Thread | None = None

    def wait(self, pub: str, version: int, timeout: float) -> bool:
        """Wait until the match ``pub`` is past ``version`` (True: it is, or it is
        gone) or ``timeout`` seconds have passed (False). Raises :class:`Full`
        while this process holds its most phones already."""
        mine = (version, threading.Event())
        with self.lock:
            if self.held >= self.most:
                raise Full()
            self.held += 1
            self.waiting.setdefault(pub, []).append(mine)
            if self.reader is None or not self.reader.is_alive():
                self.reader = threading.Thread(target=self._read, name="live-watch", daemon=True)
                self.reader.start()
        try:
            return mine[1].wait(timeout)
        finally:
            with self.lock:
                self.held -= 1
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


def init_app(app: Flask) -> None:
    """``LIVE_WAIT``: from ``SCORER_LIVE_WAIT`` (gunicorn.conf.py sets it for gevent
    workers), unless the app's config says."""
    app.config.setdefault("LIVE_WAIT", float(os.environ.get("SCORER_LIVE_WAIT") or 0))
    app.config.setdefault("LIVE_HELD", HELD)
    app.extensions["scorer.live"] = Watch(app.config["DATABASE"], app.config["LIVE_HELD"])
