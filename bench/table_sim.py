"""A table's evening, simulated, for a million phone observations (issue 20, item 4):
tests/table_sim.py's simulation (the one tests/test_table_sim.py runs for a
thousand tables in ``make test``), table after table on one database file, until
as many observations as asked were recorded. It prints its figures as it goes
and at the end: tables, observations, adds, sames, conflicts, drafts, gaps, the
lost, doubled and misnumbered deals (all must be 0), seconds, observations a
second, and the load average (another job on the machine slows it).

A benchmark and a soak, not a test: exits 1 if anything was lost, doubled,
misnumbered or answered wrongly.

    Run: .venv/bin/python bench/table_sim.py [--observations 1000000] [--jobs 1] [--every 30]

``--jobs``: worker processes, each with its own database file (one server each).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.table_sim import Counts, Sim, Stuck  # noqa: E402  (the one simulation, by path)

CHUNK = 20  # tables a worker plays between two reports to the runner

_sim: Sim | None = None


def _start(folder: str) -> None:
    """A worker: its own database file in ``folder`` (as a server's own instance)."""
    global _sim
    _sim = Sim(str(Path(folder) / f"tables-{os.getpid()}.db"))


def _tables(first: int) -> tuple[Counts, list[str]]:
    """Tables ``first`` to ``first + CHUNK - 1`` (their seeds), in a worker."""
    out, stuck = Counts(), []
    for seed in range(first, first + CHUNK):
        try:
            out += _sim.table(seed)
        except Stuck as e:  # counted in the table's figures already; said at the end
            stuck.append(str(e))
    return out, stuck


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--observations", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=0, help="the first table's seed")
    parser.add_argument("--every", type=float, default=30.0, help="seconds between reports")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes, a file each")
    parser.add_argument("--dir", help="where the database files go (default: a temporary folder)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="table_sim-") as tmp:
        folder = args.dir or tmp
        c, stuck = Counts(), []
        start = last = time.monotonic()
        seen = 0
        seed = args.seed
        print(
            f"tables until {args.observations:,} observations; {args.jobs} worker(s); "
            f"databases in {folder}; load {load()}",
            flush=True,
        )
        with multiprocessing.Pool(args.jobs, _start, (folder,)) as pool:
            running = []
            while running or c.observations < args.observations:
                while c.observations < args.observations and len(running) < 2 * args.jobs:
                    running.append(pool.apply_async(_tables, (seed,)))
                    seed += CHUNK
                counts, more = running.pop(0).get()
                c += counts
                stuck += more
                now = time.monotonic()
                if now - last >= args.every:
                    rate = (c.observations - seen) / (now - last)
                    print(
                        f"[{now - start:6.0f} s] {c.line()}  now {rate:,.0f} obs/s  load {load()}",
                        flush=True,
                    )
                    last, seen = now, c.observations
        seconds = time.monotonic() - start
        size = sum(f.stat().st_size for f in Path(folder).glob("tables-*.db*"))
    print()
    print(f"tables          {c.tables:,} (seeds {args.seed} to {seed - 1})")
    print(f"observations    {c.observations:,} ({c.sends:,} sends)")
    print(f"adds            {c.adds:,}")
    print(f"sames           {c.sames:,}")
    print(f"conflicts       {c.conflicts:,} ({c.conflict_answers:,} answers)")
    print(f"choices         keep {c.keeps:,}, replace {c.replaces:,}")
    print(f"drafts          {c.drafts:,} (refused again after the fix: {c.refused_again:,})")
    print(f"gaps            {c.gaps:,}")
    print(f"repeats         {c.repeats:,} (lost answers asked again)")
    print(f"restarts        {c.restarts:,}")
    print(f"choices refused {c.choices_refused:,}; hand fixes {c.hand_fixes:,}; stuck {len(stuck)}")
    print(f"lost            {c.lost}")
    print(f"doubled         {c.doubled}")
    print(f"misnumbered     {c.misnumbered}")
    print(f"anomalies       {len(c.anomalies)}")
    print(f"seconds         {seconds:,.0f}")
    print(f"obs per second  {c.observations / seconds:,.0f}")
    print(f"database        {size / 1e6:,.0f} MB at the end")
    print(f"load average    {load()} (1, 5, 15 min; {os.cpu_count()} cores)")
    for line in (c.anomalies + stuck)[:20]:
        print("  " + line)
    for line in c.fixed_by_hand[:20]:
        print("  put right by hand: " + line)
    bad = c.lost or c.doubled or c.misnumbered or c.anomalies or stuck
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
