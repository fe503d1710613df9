"""Scorer served as `make run` serves it (gunicorn, gunicorn.conf.py, 2 workers),
beside a bare one-route Flask app under the same flags, loaded side by side in
one run (issue 11). A benchmark, not a test: it prints figures.

- the sheet, the API read and the CSV of a 100-deal and a 1,000-deal match,
  at 4 connections, against the bare route: p50 and p99 ratios, per round
  (rounds interleave the targets), min / median / max over the rounds;
- the 1,000-deal sheet at one connection (p50);
- adding a deal through the API at deal 10, 100 and 1,000 (interleaved);
- the home page of a browser with 10 matches and of one with 1,000;
- the bytes a phone moves for a first and a repeat visit of the sheet, counted
  on the wire under Chromium at phone size (bench/wire.py);
- fresh starts of the server on an empty instance folder: how many came up clean.

The client is this script (threads, a new connection per request, as
gunicorn's sync workers close each): its own cost is in both sides' figures.

Run: make bench   (or .venv/bin/python bench/serve.py [--rounds 5] [--starts 50])
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
sys.path.insert(0, str(ROOT / "bench"))
import wire  # noqa: E402  (bench/ is no package)
from replay import black_maria_record  # noqa: E402

BROWSER_BIG, BROWSER_SMALL = "b" * 32, "s" * 32
ADDS = 20  # deals added at each size, each to a match of its own


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(
    app: str, port: int, instance: Path, conf: bool = True, workers: int = 2
) -> subprocess.Popen:
    """gunicorn on ``port``: Scorer with gunicorn.conf.py (as `make run`), or
    ``app`` with the same flags given on the command line."""
    env = {
        **os.environ,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "SCORER_INSTANCE": str(instance),
        "WORKERS": str(workers),
    }
    if conf:
        args = ["--config", str(ROOT / "gunicorn.conf.py"), app]
    else:
        args = [
            "--workers",
            str(workers),
            "--bind",
            f"127.0.0.1:{port}",
            "--access-logfile",
            "-",
            app,
        ]
    log = open(instance.parent / f"{instance.name}.log", "w+b")
    proc = subprocess.Popen(
        [str(BIN / "gunicorn"), *args],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    proc.log = log  # the server's output, read back by stop()
    return proc


def stop(proc: subprocess.Popen) -> str:
    """Stop the server; its output."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
    proc.log.seek(0)
    return proc.log.read().decode("utf-8", "replace")


def wait_up(port: int, timeout: float = 30) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            if get(port, "/")[0] == 200:
                return True
        except OSError:
            time.sleep(0.05)
    return False


def get(port: int, path: str, headers: dict | None = None, method: str = "GET", body=None):
    """(status, seconds, bytes on the wire, response headers, body)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    start = time.perf_counter()
    conn.request(method, path, body=body, headers=headers or {})
    r = conn.getresponse()
    data = r.read()
    took = time.perf_counter() - start
    head = sum(len(k) + len(v) + 4 for k, v in r.getheaders()) + 17
    conn.close()
    return r.status, took, head + len(data), dict(r.getheaders()), data


def load(port: int, path: str, conns: int, total: int, headers: dict | None = None) -> list:
    """``total`` requests over ``conns`` threads; their latencies."""
    times: list[float] = []
    lock = threading.Lock()

    def worker(n: int) -> None:
        mine = []
        for _ in range(n):
            status, took, *_rest = get(port, path, headers)
            assert status == 200, (path, status)
            mine.append(took)
        with lock:
            times.extend(mine)

    threads = [threading.Thread(target=worker, args=(total // conns,)) for _ in range(conns)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return times


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


def spread(values: list[float], unit: str = "×", scale: float = 1) -> str:
    v = [x * scale for x in values]
    return f"{min(v):.1f} / {statistics.median(v):.1f} / {max(v):.1f}{unit}"


def post_json(port: int, path: str, data: dict, cookie: str, key: str | None = None):
    headers = {"Content-Type": "application/json", "Cookie": f"scorer_browser={cookie}"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    status, took, _b, _h, body = get(port, path, headers, "POST", json.dumps(data))
    assert status in (200, 201), (status, body[:200])
    return json.loads(body), took


def bm(deals: int, seed: int, end: int = 1000) -> dict:
    record = black_maria_record(deals, seed)
    record["options"] = {"end": "deals", "deals": end}
    return record


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--requests", type=int, default=200, help="per target and round")
    ap.add_argument("--starts", type=int, default=50)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        sp, bp = free_port(), free_port()
        scorer = serve("scorer:create_app()", sp, tmp / "instance")
        bare = serve("bench.bare:app", bp, tmp / "bare", conf=False)
        try:
            assert wait_up(sp) and wait_up(bp), "a server did not come up"
            run(sp, bp, args)
        except BaseException:
            print(stop(scorer)[-5000:])
            raise
        else:
            stop(scorer)
        finally:
            stop(bare)
        starts(args.starts, tmp)


def run(sp: int, bp: int, args) -> None:
    print("making the matches…", flush=True)
    m100 = post_json(sp, "/api/matches", bm(100, 1), BROWSER_SMALL)[0]["id"]
    m1000 = post_json(sp, "/api/matches", bm(1000, 2), BROWSER_SMALL)[0]["id"]
    for i in range(8):
        post_json(sp, "/api/matches", bm(20, 10 + i), BROWSER_SMALL)
    for i in range(1000):
        post_json(sp, "/api/matches", bm(20, 100 + i), BROWSER_BIG)
    targets = {
        "bare route": (bp, "/"),
        "sheet, 100 deals": (sp, f"/m/{m100}"),
        "API read, 100 deals": (sp, f"/api/matches/{m100}"),
        "CSV, 100 deals": (sp, f"/m/{m100}/export.csv"),
        "sheet, 1,000 deals": (sp, f"/m/{m1000}"),
        "API read, 1,000 deals": (sp, f"/api/matches/{m1000}"),
        "CSV, 1,000 deals": (sp, f"/m/{m1000}/export.csv"),
    }
    phone = {"Cookie": f"scorer_browser={BROWSER_SMALL}"}  # a phone that has been here
    for port, path in targets.values():  # warm both sides up
        load(port, path, 2, 20, phone)
    p50: dict[str, list] = {k: [] for k in targets}
    p99: dict[str, list] = {k: [] for k in targets}
    for _r in range(args.rounds):
        for name, (port, path) in targets.items():
            times = load(
                port, path, 4, args.requests if "1,000" not in name else args.requests // 4
            )
            p50[name].append(pct(times, 50))
            p99[name].append(pct(times, 99))
    print(
        f"\nAt 4 connections, {args.rounds} rounds (min / median / max over rounds; "
        "ratios to the bare route in the same round):"
    )
    print(f"  {'':24} {'p50 ms':>22} {'p50 ratio':>22} {'p99 ratio':>22}")
    for name in targets:
        r50 = [a / b for a, b in zip(p50[name], p50["bare route"])]
        r99 = [a / b for a, b in zip(p99[name], p99["bare route"])]
        print(f"  {name:24} {spread(p50[name], '', 1000):>22} {spread(r50):>22} {spread(r99):>22}")

    one = []
    for _r in range(args.rounds):
        one.append(pct(load(sp, f"/m/{m1000}", 1, 30, phone), 50))
    print(f"\nSheet of 1,000 deals at 1 connection, p50: {spread(one, ' ms', 1000)}")

    # adding a deal at deal 10, 100 and 1,000, interleaved, each on its own match
    deal = bm(1, 99)["deals"][0]
    adds: dict[int, list] = {10: [], 100: [], 1000: []}
    made = {
        n: [post_json(sp, "/api/matches", bm(n - 1, 50 + i), BROWSER_SMALL)[0] for i in range(ADDS)]
        for n in adds
    }
    for i in range(ADDS):
        for n in adds:
            m = made[n][i]
            _c, took = post_json(
                sp, f"/api/matches/{m['id']}/deals", deal, BROWSER_SMALL, m["edit_key"]
            )
            adds[n].append(took)
    print(f"\nAdding a deal through the API (min / median / max of {ADDS}):")
    for n, times in adds.items():
        print(f"  at deal {n:>5}: {spread(times, ' ms', 1000)}")
    print(
        "  deal 1,000 against deal 10 (medians): "
        f"{statistics.median(adds[1000]) / statistics.median(adds[10]):.2f}×"
    )

    homes: dict[str, list] = {"10 matches": [], "1,000 matches": []}
    cookies = {"10 matches": BROWSER_SMALL, "1,000 matches": BROWSER_BIG}
    for _r in range(args.rounds):
        for name in homes:
            h = {"Cookie": f"scorer_browser={cookies[name]}"}
            homes[name].append(pct(load(sp, "/", 1, 30, h), 50))
    print("\nHome page, p50 at 1 connection (min / median / max over rounds):")
    for name, times in homes.items():
        print(f"  {name:14} {spread(times, ' ms', 1000)}")
    ratio = statistics.median(homes["1,000 matches"]) / statistics.median(homes["10 matches"])
    print(f"  1,000 against 10: {ratio:.2f}×")

    # a phone's first and repeat visit, in Chromium (bench/wire.py)
    wire.visit(sp, f"/m/{m100}", BROWSER_SMALL, "A scorer (5 players: no deal form on the sheet)")
    wire.visit(sp, f"/m/{m100}", None, "A phone that watches")


def starts(count: int, tmp: Path) -> None:
    """Fresh starts on an empty instance folder, each with 4 workers racing."""
    if not count:
        return
    clean = 0
    for i in range(count):
        port = free_port()
        env_instance = tmp / f"fresh-{i}"
        proc = serve("scorer:create_app()", port, env_instance, workers=4)
        up = wait_up(port, 60)
        out = stop(proc)
        booted = out.count("Booting worker")
        if up and booted >= 4 and "Worker failed to boot" not in out and "locked" not in out:
            clean += 1
        else:
            print(f"  start {i + 1}: not clean\n{out[-2000:]}")
    print(f"\nFresh starts on an empty instance folder: {clean} of {count} clean")


if __name__ == "__main__":
    main()
