"""Shared fixtures: an app on a fresh SQLite file, its test client and CLI runner, and the
browser fixtures pointed at Debian's Chromium (see shared/notes/browser-tests.md)."""

from __future__ import annotations

import os
import re
import shutil
import socket
import threading
from http.cookies import SimpleCookie
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import settings
from jinja2 import BytecodeCache
from playwright.sync_api import Browser, BrowserType
from werkzeug.serving import make_server

from scorer import create_app
from scorer.web.access import COOKIE

from .helpers import tool_missing

# `make test` runs each repeated trial a few times, enough to fail on the bug it
# guards; `make stress` (SCORER_STRESS=1) runs the full counts and the largest
# cases (marked `stress`, left out of `make test`).
STRESS = os.environ.get("SCORER_STRESS") == "1"


def trials(full: int, quick: int) -> int:
    """How many times a repeated trial runs: ``full`` under `make stress`."""
    return full if STRESS else quick


# The files that take longest, longest first (seconds of a run, measured per worker
# at bbf9366 with a helper's browser running beside it). `make test` shares the files
# between two workers (pytest-xdist, --dist loadfile) in the order they are collected
# (--no-loadscope-reorder: xdist would otherwise hand out the files with the most
# tests first): longest first, the last files to start are short ones and neither
# worker waits long for the other at the end. Only the order changes; a stale list
# costs time.
LONGEST = [
    "test_browser_deal_n",  # 51 s
    "test_browser_offline",  # 48
    "test_browser_layout",  # 33
    "test_browser_check",  # 29
    "test_browser",  # 28
    "test_table_sim",  # 21
    "test_locales",  # 21
    "test_browser_actions",  # 21
    "test_engine_random",  # 20
    "test_browser_locales",  # 19
    "test_live_wait",  # 16
    "test_browser_compendium",  # 16
    "test_browser_sharing",  # 15
    "test_browser_a11y",  # 15
    "test_hostile",  # 15
    "test_browser_entry",  # 13
    "test_table_model",  # 12
    "test_clean_start",  # 12
    "test_browser_table",  # 11
    "test_concurrency",  # 11
    "test_browser_games",  # 10
]


def pytest_collection_modifyitems(items):
    rank = {name: n for n, name in enumerate(LONGEST)}
    items.sort(key=lambda item: rank.get(item.path.stem, len(LONGEST)))  # stable


# Hypothesis's deadline (200 ms an example unless a test sets its own) is a clock,
# not a check of the game: on a shared machine at a load of 10 an example of a pure
# function took 330 ms once and 1 ms when replayed, and the test failed as "flaky".
# Every example is still run and every assertion still checked.
settings.register_profile("scorer", deadline=None)
settings.load_profile("scorer")


class SharedBytecode(BytecodeCache):
    """The templates' compiled code, kept in memory for every app this test process
    makes. Each test makes an app of its own, and each app's Jinja environment would
    compile every template it draws again (most of a page test's time); Jinja keys
    the code by the template's name and the checksum of its source, so an edited
    template is compiled afresh. The apps are all made by create_app, with the same
    filters and extensions, so the code is the same for each."""

    def __init__(self):
        self.code: dict[str, bytes] = {}

    def load_bytecode(self, bucket):
        if bucket.key in self.code:
            bucket.bytecode_from_string(self.code[bucket.key])

    def dump_bytecode(self, bucket):
        self.code[bucket.key] = bucket.bytecode_to_string()


Flask.jinja_options = {**Flask.jinja_options, "bytecode_cache": SharedBytecode()}


class ScorerClient(FlaskClient):
    """A test client that, like a phone that made a match through the API and
    kept its edit key, sends ``Authorization: Bearer <edit_key>`` on its API
    writes to that match (unless the test gives its own header). The tests of
    the keys themselves (test_sharing.py) use clients that know none."""

    WRITE = re.compile(r"/api/matches/([A-Za-z0-9_-]{12})(/|$)")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.keys: dict[str, str] = {}

    def open(self, *args, **kwargs):
        path = args[0] if args and isinstance(args[0], str) else kwargs.get("path", "")
        method = kwargs.get("method", "GET").upper()
        found = self.WRITE.match(path or "")
        headers = dict(kwargs.get("headers") or {})
        if found and method != "GET" and "Authorization" not in headers:
            key = self.keys.get(found.group(1))
            if key:
                kwargs["headers"] = {**headers, "Authorization": f"Bearer {key}"}
        response = super().open(*args, **kwargs)
        if path == "/api/matches" and method == "POST" and response.status_code == 201:
            record = response.get_json()
            self.keys[record["id"]] = record["edit_key"]
        return response


@pytest.fixture(scope="session")
def migrated(tmp_path_factory) -> Path:
    """An empty database with every migration applied, made once per test process
    as create_app makes one (scorer/store/db.py's init_app); each test's app starts
    from a copy of it, and finds no migration left to apply (tests/test_clean_start.py
    and tests/test_backup.py make theirs from nothing)."""
    path = tmp_path_factory.mktemp("migrated") / "scorer.db"
    create_app({"TESTING": True, "DATABASE": str(path), "SECRET_KEY": "test"})
    # the connection closed: nothing is left in the write-ahead log
    assert not path.with_name(path.name + "-wal").exists()
    return path


@pytest.fixture
def app(tmp_path, migrated):
    shutil.copyfile(migrated, tmp_path / "scorer.db")
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "scorer.db"),
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
        }
    )
    app.test_client_class = ScorerClient
    return app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def phones(app):
    """Three browsers: A makes the match (and scores it), B and C know nothing yet."""
    return app.test_client(), app.test_client(), app.test_client()


@pytest.fixture
def runner(app):
    """The app's command line, run in this process (``runner.invoke(args=[...])``)."""
    return app.test_cli_runner()


@pytest.fixture
def csrf_client(tmp_path, migrated):
    """A client of an app with CSRF on, as in production."""
    shutil.copyfile(migrated, tmp_path / "csrf.db")
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "csrf.db"), "SECRET_KEY": "test"})
    return app.test_client()


# --- browser tests -----------------------------------------------------------


# Debian's chromium-headless-shell, Chromium's old headless mode (the one Playwright runs
# its own tests in), takes half the CPU of Chromium's new headless mode: the browser tests
# are most of make test's time. A test that needs what the shell lacks (a screen wake
# lock) launches Chromium itself (``full_chromium``).
SHELL, CHROMIUM = "/usr/bin/chromium-headless-shell", "/usr/bin/chromium"


# static/queue.js tries again what waits on a phone every 5 s (RETRY); in the browser
# tests every 0.3 s, so that a test waits a moment, not seconds, for "the queue's next
# try". Set on each page before its scripts run: Playwright's add_init_script.
QUEUE_RETRY = 300  # ms


@pytest.fixture(scope="session")
def quick_queue():
    """Every browser context the tests open (Browser.new_context, which pytest-playwright's
    context and page use too, and BrowserType.launch_persistent_context) sets
    window.SCORER_QUEUE_RETRY on its pages before their scripts run."""
    script = f"window.SCORER_QUEUE_RETRY = {QUEUE_RETRY};"
    new_context, persistent = Browser.new_context, BrowserType.launch_persistent_context

    def quick(context):
        context.add_init_script(script)
        return context

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Browser, "new_context", lambda *a, **kw: quick(new_context(*a, **kw)))
        patch.setattr(
            BrowserType,
            "launch_persistent_context",
            lambda *a, **kw: quick(persistent(*a, **kw)),
        )
        yield


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args, quick_queue):
    if not (os.path.exists(SHELL) and os.path.exists(CHROMIUM)):
        tool_missing("Debian's chromium is not installed (make test installs it)")
    return {
        **browser_type_launch_args,
        "executable_path": SHELL,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ],
    }


@pytest.fixture
def full_chromium(browser_type, browser_type_launch_args):
    """Chromium itself, for a test of what its headless shell lacks."""
    browser = browser_type.launch(**{**browser_type_launch_args, "executable_path": CHROMIUM})
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {
        **browser_context_args,
        "viewport": {"width": 390, "height": 844},
        "device_scale_factor": 2,
        "is_mobile": True,
        "has_touch": True,
    }


# The phones (their browser cookie) that are off the network: tests/test_browser_offline.py.
UNREACHABLE: set[str] = set()


class Cable:
    """What a phone off the network reaches: nothing. Chromium's offline emulation
    and Playwright's aborted routes still let a request through now and then (a
    write from a page the service worker drew from its cache, seen in CI); a real
    phone off the network sends nothing, so the live server drops the connection
    of any request from a phone that is off it, before the app sees it."""

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        cookie = SimpleCookie(environ.get("HTTP_COOKIE", ""))
        if COOKIE in cookie and cookie[COOKIE].value in UNREACHABLE:
            environ["werkzeug.socket"].shutdown(socket.SHUT_RDWR)
            start_response("503 Service Unavailable", [])  # never reaches the phone
            return [b""]
        return self.app(environ, start_response)


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    """The app served on a free port from a thread of the test process."""
    folder = tmp_path_factory.mktemp("live")
    app = create_app({"DATABASE": str(folder / "scorer.db"), "SECRET_KEY": "browser"})
    server = make_server("127.0.0.1", 0, Cable(app), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


@pytest.fixture
def page_without_js(browser, browser_context_args):
    """A phone page with JavaScript off: every tap is a plain form post."""
    context = browser.new_context(**browser_context_args, java_script_enabled=False)
    yield context.new_page()
    context.close()
