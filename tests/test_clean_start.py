"""A clean start, every time (issue 11): however many processes start together on
an empty instance folder, the schema is made once and every one comes up."""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from datetime import UTC, datetime
from pathlib import Path

import pytest

from scorer import schema

from .conftest import trials
from .helpers import gunicorn

ROOT = Path(__file__).resolve().parent.parent


def migrations_applied(database: Path) -> list[str]:
    conn = sqlite3.connect(database)
    try:
        return [
            r[0]
            for r in conn.execute(
                "select name from _sqlite_migrations where migration_set = 'scorer' order by id"
            )
        ]
    finally:
        conn.close()


def test_eight_processes_making_the_app_at_once_on_an_empty_folder(tmp_path):
    """No master to migrate first (flask run, a test, a second server): each
    process migrates under the write lock; the later ones find nothing to do."""
    instance = tmp_path / "instance"
    at = time.time() + 2  # all at this instant, once their imports are done
    code = (
        "import sys, time; from scorer import create_app; "
        "time.sleep(max(0, float(sys.argv[1]) - time.time())); create_app(); print('up')"
    )
    env = {**os.environ, "SCORER_INSTANCE": str(instance)}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code, str(at)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for _ in range(8)
    ]
    outs = [p.communicate(timeout=120)[0] for p in procs]
    assert [p.returncode for p in procs] == [0] * 8, outs
    assert all(out.strip().endswith("up") for out in outs), outs
    assert migrations_applied(instance / "scorer.db") == schema.names()


@pytest.mark.parametrize("attempt", range(trials(3, 1)))  # make stress: 3
def test_make_run_with_four_workers_on_an_empty_folder_comes_up_clean(tmp_path, attempt):
    """As `make run` starts it (gunicorn.conf.py), four workers racing."""
    with gunicorn(tmp_path, workers=4) as (port, instance, log):
        answers = []
        end = time.monotonic() + 60
        while time.monotonic() < end and len(answers) < 8:  # several answers: several workers
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
                    answers.append(r.status)
            except OSError:
                time.sleep(0.1)
        assert answers == [200] * 8
        # the day's backup, made at start by a process of its own (gunicorn.conf.py)
        end = time.monotonic() + 30
        while time.monotonic() < end and not list((instance / "backups").glob("scorer-*.db")):
            time.sleep(0.1)
        assert [p.name for p in (instance / "backups").glob("scorer-*.db")] == [
            f"scorer-{datetime.now(UTC):%Y-%m-%d}.db"
        ]
    out = log.read()
    assert out.count("Booting worker") == 4, out
    assert "Worker failed to boot" not in out and "Traceback" not in out, out
    assert "Warning" not in out and "backup failed" not in out, out
    assert "locked" not in out and "disk I/O error" not in out, out
    assert migrations_applied(instance / "scorer.db") == schema.names()


def test_a_body_that_trickles_in_is_cut_off_with_a_408(tmp_path):
    """A body sent a byte every second, under `make run`'s gevent workers: answered
    408 once its deadline (SCORER_BODY_SECONDS, 2 here, and a second a 64 KB) has
    passed, not held for as long as it trickles (one byte every ten seconds held a
    connection 70 s); a whole body in time is read as ever."""
    with gunicorn(tmp_path, SCORER_BODY_SECONDS="2") as (port, _instance, _log):
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        with socket.create_connection(("127.0.0.1", port), timeout=20) as s:
            s.sendall(
                b"POST /api/matches HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
            )
            started = time.monotonic()
            answer = b""
            for _ in range(15):
                try:
                    s.sendall(b" ")
                except OSError:
                    break
                s.settimeout(1)
                try:
                    answer += s.recv(4096)
                except TimeoutError:
                    continue
                if answer:
                    break
            took = time.monotonic() - started
        assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
        assert 1.5 < took < 6
        made = urllib.request.urlopen(
            urllib.request.Request(
                f"http://127.0.0.1:{port}/api/matches",
                data=json.dumps({"game": "hearts", "players": ["A", "B", "C"]}).encode(),
                headers={"Content-Type": "application/json"},
            ),
            timeout=20,
        )
        assert made.status == 201
