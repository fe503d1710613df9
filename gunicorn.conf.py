"""gunicorn's settings for `make run`.

- The schema is created or migrated once, in the master, before any worker
  starts (workers then find nothing pending), so a fresh start never races.
- A copy of the database a day is kept in instance/backups/ (the last 7): at
  start, then checked every hour by a thread of the master.
- The control socket lives in instance/ (gunicorn 27 would put it in one
  fixed place per user, shared by every server that user runs).
- Once it listens, it prints the address the phones at the table open, with
  its QR code, or says why no other phone can open it (scorer/address.py).
- Responses say `Server: Scorer`, not which server software and version.
- The access log writes the path without its query string (%(U)s, not the
  request line %(r)s), and no Referer: the score link carries the match's
  edit key as ?key=, and whoever read the log would score every match.
"""

import gc
import os
import resource
import subprocess
import sys
import threading
from pathlib import Path

import gunicorn.http.wsgi

from scorer import address, create_app
from scorer.i18n import _, said

instance = Path(os.environ.get("SCORER_INSTANCE") or Path(__file__).parent / "instance")
bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '5000')}"
workers = int(os.environ.get("WORKERS", "2"))
# gevent workers hold the live sheet's waiting phones cheaply (scorer/web/live.py):
# a phone's question "changed?" waits until its match changes, so thousands of
# idle phones cost a connection each, not a request every two seconds.
# WORKER_CLASS=sync: a thread per request, and the phones ask every two seconds.
worker_class = os.environ.get("WORKER_CLASS", "gevent")
if worker_class == "gevent":
    worker_connections = 10000
    os.environ.setdefault("SCORER_LIVE_WAIT", "25")
    # a connection is a file: as many as the system lets this user have
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))
accesslog = "-"
# address, time, method, path (no query), protocol, status, bytes, user agent
access_log_format = '%(h)s %(t)s "%(m)s %(U)s %(H)s" %(s)s %(b)s "%(a)s"'
control_socket = str(instance / "gunicorn.ctl")
gunicorn.http.wsgi.SERVER = "Scorer"


DAILY = "import sys; from scorer.backup import main; sys.exit(main(sys.argv[1:]))"


def keep_daily_copies(database: str, folder: Path) -> None:
    """Every hour, today's copy if there is none yet, made by a process of its
    own: the master forks workers at any time, and a worker forked while the
    master held a SQLite connection would share its locks ("disk I/O error")."""
    while True:
        done = subprocess.run([sys.executable, "-c", DAILY, database, str(folder)])
        # a failed copy must not stop the server; it is said (one stopped by a signal
        # was stopped with the server: it did not fail)
        if done.returncode > 0:
            print(said(_("scorer: the daily backup failed")), flush=True)
        threading.Event().wait(3600)


def on_starting(server):
    app = create_app()  # migrates the schema, once, before the workers fork
    threading.Thread(
        target=keep_daily_copies,
        daemon=True,
        name="daily-backup",
        args=(app.config["DATABASE"], Path(app.instance_path) / "backups"),
    ).start()


def when_ready(server):
    address.banner()


def post_worker_init(worker):
    """The app as loaded (its modules, templates, catalogs) is left out of the
    collector's passes: with thousands of held phones a full pass over it all
    paused the worker (10,000 phones: a save seen after 1.1 s at worst)."""
    gc.collect()
    gc.freeze()


def post_request(worker, req, environ, resp):
    """A busy connection yields: a gevent worker whose next request already waits on
    the same connection would answer it at once, again and again, and the other
    connections starve (wrk at 4 connections on a 100-deal sheet: p99 414–660 ms,
    issue 36). After each answer the worker lets every other ready connection go
    first (gevent's hub), then takes the next request."""
    if worker_class == "gevent":
        import gevent  # noqa: PLC0415 (gevent's workers only)

        gevent.sleep(0)
