"""Kill the server at random moments while a client writes: is every deal there
exactly once?

Starts Scorer as `make run` does (gunicorn with gunicorn.conf.py, on a fresh
instance folder and a free port), then one client adds N deals to one match
through the API, each with its own Idempotency-Key, retrying a deal until an
answer arrives. Meanwhile the server's whole process group is killed with
SIGKILL at random moments (mid-write included) and started again: only a
server that has answered since it started is killed (on a slow machine a cold
start takes seconds, and killing it again before it answers measures nothing).
At the end the stored deals must be exactly the N deals sent, in order, each
once, and SQLite's integrity_check must say ok. Prints the counts, the time a
cold start took to answer, and the stalls (the client waiting over 5 s).

Not a test (it takes minutes): `make soak`, or
    .venv/bin/python bench/soak.py [--deals 1000] [--seed 1]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUNICORN = ROOT / ".venv" / "bin" / "gunicorn"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


STALL = 5.0  # seconds a client waits for an answer before it counts as a stall


class Server:
    def __init__(self, instance: Path, port: int):
        self.instance, self.port, self.proc = instance, port, None
        self.starts = self.kills = 0
        self.lock = threading.Lock()
        self.answered = threading.Event()  # it answered since its last start
        self.started_at = 0.0
        self.cold: list[float] = []  # per start: seconds until its first answer

    def heard(self) -> None:
        """The client got an answer from this server."""
        if not self.answered.is_set():
            self.cold.append(time.monotonic() - self.started_at)
            self.answered.set()

    def start(self) -> None:
        env = {
            **os.environ,
            "SCORER_INSTANCE": str(self.instance),
            "PORT": str(self.port),
            "HOST": "127.0.0.1",
        }
        self.proc = subprocess.Popen(
            [
                str(GUNICORN),
                "--config",
                str(ROOT / "gunicorn.conf.py"),
                "--access-logfile",
                "/dev/null",
                "scorer:create_app()",
            ],
            cwd=ROOT,
            env=env,
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=open(self.instance / "server.log", "ab"),
        )
        self.started_at = time.monotonic()
        self.answered.clear()
        self.starts += 1

    def kill(self) -> None:
        with self.lock:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait()
            self.gone()
            self.kills += 1
            self.start()

    def gone(self) -> None:
        """Wait until no process of the killed group is left (the workers die a
        moment after the master), as a supervisor restarting the service does."""
        while True:
            try:
                os.killpg(self.proc.pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.01)

    def stop(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        self.proc.wait()


def call(port: int, method: str, path: str, body=None, headers=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=data,
        method=method,
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


STALLS: list[float] = []  # each wait for an answer longer than STALL


def until_answered(server: Server, method: str, path: str, body=None, headers=None):
    """Send until the server answers (connection refused, reset or timed out: again)."""
    tries, began = 0, time.monotonic()
    while True:
        tries += 1
        try:
            status, answer = call(server.port, method, path, body, headers)
        except (OSError, ValueError, http.client.HTTPException):  # refused, reset, cut short
            time.sleep(0.05)
            continue
        if status >= 500:
            raise SystemExit(f"{method} {path}: {status} {answer}")
        server.heard()
        waited = time.monotonic() - began
        if waited > STALL:
            STALLS.append(waited)
        return status, answer, tries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp), free_port())
        server.start()
        _s, created, _t = until_answered(
            server,
            "POST",
            "/api/matches",
            {
                "game": "hearts",
                "players": ["Ala", "Bartek", "Celina", "Darek"],
                "options": {"target": 100_000},
                "deals": [],
            },
        )
        mid, key = created["id"], created["edit_key"]
        done = threading.Event()

        def killer():
            while not done.wait(rng.uniform(0.5, 4.0)):
                # only a server that has answered since it started
                while not server.answered.wait(0.1):
                    if done.is_set():
                        return
                server.kill()

        thread = threading.Thread(target=killer, daemon=True)
        thread.start()
        sent, retries = [], 0
        started = time.monotonic()
        for i in range(args.deals):
            hearts = [0, 0, 0, 0]
            for _h in range(13):
                hearts[rng.randrange(4)] += 1
            entry = {"hearts": hearts, "taken_by": {"QS": rng.randrange(4)}}
            status, answer, tries = until_answered(
                server,
                "POST",
                f"/api/matches/{mid}/deals",
                entry,
                {"Idempotency-Key": f"soak-{args.seed}-{i}", "Authorization": f"Bearer {key}"},
            )
            if status != 201:
                again = call(server.port, "GET", f"/api/matches/{mid}")
                raise SystemExit(f"deal {i + 1}: {status} {answer}; the match: {again}")
            sent.append(entry)
            retries += tries - 1
        done.set()
        thread.join()
        elapsed = time.monotonic() - started
        _s, record, _t = until_answered(server, "GET", f"/api/matches/{mid}")
        server.stop()
        stored = record["deals"]
        conn = sqlite3.connect(Path(tmp) / "scorer.db")
        integrity = conn.execute("PRAGMA integrity_check").fetchone()[0]
        conn.close()
    exact = stored == sent
    print(f"deals sent and acknowledged: {len(sent)}")
    print(f"deals stored:                {len(stored)}")
    print(f"stored exactly once, in order: {'yes' if exact else 'NO'}")
    print(
        f"retries: {retries}; server killed with SIGKILL: {server.kills} times; "
        f"started: {server.starts} times"
    )
    print(f"integrity_check: {integrity}")
    cold = sorted(server.cold)
    print(
        f"cold start to first answer: min {cold[0]:.1f} s, median {cold[len(cold) // 2]:.1f} s, "
        f"max {cold[-1]:.1f} s ({len(cold)} starts answered)"
    )
    longest = f", longest {max(STALLS):.1f} s" if STALLS else ""
    print(f"stalls (a deal waiting over {STALL:.0f} s for an answer): {len(STALLS)}{longest}")
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"time: {elapsed:.0f} s")
    sys.exit(0 if exact and integrity == "ok" else 1)


if __name__ == "__main__":
    main()
