"""A clean start, every time (issue 11): however many processes start together on
an empty instance folder, the schema is made once and every one comes up."""

from __future__ import annotations

import os
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
