"""What a hostile or careless client sends, refused or kept out of sight: the
edit key never in the server's log, bodies nested too deep, names no browser
would send, records with fields Scorer never wrote."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUNICORN = Path(sys.executable).parent / "gunicorn"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # the 302 itself is the answer


# 127.0.0.1 only, whatever proxy the environment names; redirects not followed
LOCAL = urllib.request.build_opener(urllib.request.ProxyHandler({}), NoRedirect)


def send(url: str, body: dict | None = None) -> tuple[int, bytes]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method="POST" if data else "GET")
    if data:
        request.add_header("Content-Type", "application/json")
    try:
        with LOCAL.open(request, timeout=10) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


# --- 1. the score link's key is not written to the access log -------------------


def test_the_access_log_of_a_real_server_never_holds_the_edit_key(tmp_path):
    port, instance = free_port(), tmp_path / "instance"
    log = open(tmp_path / "server.log", "w+")
    env = {
        **os.environ,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "SCORER_INSTANCE": str(instance),
        "WORKERS": "1",
    }
    proc = subprocess.Popen(
        [str(GUNICORN), "--config", "gunicorn.conf.py", "scorer:create_app()"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        end = time.monotonic() + 60
        while True:
            try:
                status, _body = send(f"{base}/")
                break
            except OSError:
                assert time.monotonic() < end, "the server did not come up"
                time.sleep(0.1)
        status, body = send(
            f"{base}/api/matches",
            {"game": "hearts", "players": ["A", "B", "C", "D"], "deals": []},
        )
        assert status == 201, body
        record = json.loads(body)
        mid, key = record["id"], record["edit_key"]
        status, _body = send(f"{base}/m/{mid}/score?key={key}")
        assert status == 302
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
    log.seek(0)
    out = log.read()
    assert f"/m/{mid}/score" in out, out  # the request is logged ...
    assert " 302 " in out, out
    assert key not in out, out  # ... its secret is not
