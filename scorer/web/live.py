"""The live sheet's wait: a phone asks "has the match changed since this
version?" and, where the server holds idle connections cheaply (gunicorn's
gevent workers, `make run`), the answer waits until it has, or until
``LIVE_WAIT`` seconds have passed (a bodiless 304 then, and the phone asks
again). One reader per process looks at the versions of the matches phones
wait on, twice a second, and wakes those whose match moved on: a box with
10,000 phones waiting reads a few thousand rows a second, not 5,000 requests.
With ``LIVE_WAIT`` 0 (a server of one thread per request, the tests' default),
the answer never waits: the phone asks every two seconds, as it always could.
"""

from __future__ import annotations

import os
import threading
import time

from flask import Flask, current_app

from ..store.db import connect

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


def init_app(app: Flask) -> None:
    """``LIVE_WAIT``: from ``SCORER_LIVE_WAIT`` (gunicorn.conf.py sets it for gevent
    workers), unless the app's config says."""
    app.config.setdefault("LIVE_WAIT", float(os.environ.get("SCORER_LIVE_WAIT") or 0))
    app.extensions["scorer.live"] = Watch(app.config["DATABASE"])
